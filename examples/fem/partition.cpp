// Zoltan2 (Debian's Trilinos) partitions the cells: recursive coordinate
// bisection of their centroids (Zoltan2 runs Zoltan's RCB), each process
// passing only its own block.
#include <Teuchos_DefaultMpiComm.hpp>
#include <Teuchos_ParameterList.hpp>
#include <Zoltan2_BasicVectorAdapter.hpp>
#include <Zoltan2_PartitioningProblem.hpp>
#include <numeric>

#include "dapetra/tpetra/types.hpp"
#include "distribute.hpp"

namespace fem {

std::vector<int> partition_cells(const MeshBlock& block, MPI_Comm comm) {
  // Cell ids as Tpetra's global ordinal: Zoltan2 builds Tpetra maps of them,
  // and a Trilinos build instantiates those for its own GO only (int in
  // Debian's 17.0, long long before).
  using GO = dapetra::tpetra::GO;
  using Types = Zoltan2::BasicUserTypes<double, int, GO>;
  using Adapter = Zoltan2::BasicVectorAdapter<Types>;
  int nprocs = 1;
  MPI_Comm_size(comm, &nprocs);
  const std::size_t n = block.cells.size();
  std::vector<GO> ids(n);
  std::iota(ids.begin(), ids.end(), static_cast<GO>(block.first_cell));
  static const Point none{0, 0, 0};  // a valid address when this block is empty
  const Point* first = n > 0 ? block.centroid.data() : &none;
  std::vector<const double*> coordinates;
  std::vector<int> strides;
  for (int d = 0; d < block.dim; ++d) {
    coordinates.push_back(&(*first)[static_cast<std::size_t>(d)]);
    strides.push_back(3);
  }
  std::vector<const double*> weights;
  std::vector<int> weight_strides;
  Adapter adapter(static_cast<int>(n), ids.data(), coordinates, strides, weights, weight_strides);
  Teuchos::ParameterList params;
  params.set("algorithm", "rcb");
  params.set("num_global_parts", nprocs);
  params.set("imbalance_tolerance", 1.02);
  params.sublist("zoltan_parameters").set("debug_level", "0");  // Zoltan's RCB, quiet
  const auto teuchos_comm = Teuchos::rcp(new Teuchos::MpiComm<int>(comm));
  Zoltan2::PartitioningProblem<Adapter> problem(&adapter, &params, teuchos_comm);
  problem.solve();
  const auto* parts = problem.getSolution().getPartListView();
  return std::vector<int>(parts, parts + n);
}

}  // namespace fem
