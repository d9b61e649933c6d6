#include "dapetra/tpetra/transfers.hpp"

#include <Tpetra_Export.hpp>
#include <Tpetra_Import.hpp>
#include <Tpetra_Map.hpp>
#include <mpi.h>
#include <string>
#include <vector>

#include "dapetra/mpi/adapter_access.hpp"
#include "dapetra/mpi/agree.hpp"
#include "dapetra/tpetra/comm.hpp"

namespace dapetra::tpetra {
namespace {

std::string shape_text(const std::vector<global_index_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + ")";
}

// What keeps `from` and `to` from being one array's two distributions, as
// seen from this process (the shapes are global, so every process sees
// those alike; the communicators are compared locally and agreed on).
std::vector<Problem> pair_problems(const TpetraLayout& from, const TpetraLayout& to) {
  std::vector<Problem> problems;
  const int rank = from.rank();
  if (from.map_shape() != to.map_shape())
    problems.push_back(Problem{rank, -1, "shape", shape_text(to.map_shape()),
                               "both layouts have the same global shape (column axis left out)",
                               "the source's is " + shape_text(from.map_shape())});
  if (from.num_vectors() != to.num_vectors())
    problems.push_back(Problem{rank, to.column_axis(), "column_axis", std::to_string(to.num_vectors()),
                               "both layouts have the same number of columns",
                               "the source has " + std::to_string(from.num_vectors())});
  if (from.index_base() != to.index_base())
    problems.push_back(Problem{rank, -1, "index_base", std::to_string(to.index_base()),
                               "both layouts have the same index base",
                               "the source's is " + std::to_string(from.index_base())});
  int same = MPI_UNEQUAL;
  MPI_Comm_compare(from.distribution()->comm(), to.distribution()->comm(), &same);
  if (same != MPI_IDENT && same != MPI_CONGRUENT)
    problems.push_back(Problem{rank, -1, "comm", "", "both layouts span the same processes in the same order",
                               "the target layout's communicator differs from the source's"});
  return problems;
}

}  // namespace

HaloTransfer HaloTransfer::create(const TpetraLayout& layout) {
  mpi::adapter::agree_on_layouts({layout.distribution().get()}, "HaloTransfer::create");
  HaloTransfer t;
  t.import = Teuchos::rcp(new Import(layout.owned_map(), layout.buffer_map()));
  t.exporter = Teuchos::rcp(new Export(*t.import));
  return t;
}

Teuchos::RCP<const Import> redistribution_import(const TpetraLayout& from, const TpetraLayout& to) {
  mpi::agree(pair_problems(from, to), from.distribution()->comm());
  mpi::adapter::agree_on_layouts({from.distribution().get(), to.distribution().get()}, "redistribution_import");
  return Teuchos::rcp(new Import(from.owned_map(), to.owned_map()));
}

}  // namespace dapetra::tpetra
