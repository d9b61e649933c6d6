// A downstream program: hands a padded 1-D array to Tpetra without copying,
// scales the owned part through Tpetra, refreshes the halo, checks every value.
#include <Tpetra_Core.hpp>
#include <Tpetra_MultiVector.hpp>
#include <dapetra/tpetra/tpetra.hpp>
#include <dapetra/version.hpp>
#include <iostream>
#include <memory>
#include <vector>

int main(int argc, char** argv) {
  Tpetra::ScopeGuard scope(&argc, &argv);
  using namespace dapetra;
  const auto comm = Tpetra::getDefaultComm();
  const int P = comm->getSize(), r = comm->getRank();

  const Dim dim = Dim::even_block(100, P, r, /*halo=*/1);
  auto values = std::make_shared<std::vector<double>>(static_cast<std::size_t>(local_extent(dim)));
  for (global_index_t i = 0; i < local_extent(dim); ++i) (*values)[i] = static_cast<double>(global_index(dim, i));
  DistArray a;
  a.dim_data = {dim};
  a.buffer = view_buffer(values->data(), {local_extent(dim)}, values);

  const auto layout = tpetra::TpetraLayout::create(a, comm);
  tpetra::owned_view<double>(*layout, a)->scale(2.0);  // Tpetra writes the caller's memory
  mpi::HaloPlan::create(layout->distribution())->update<double>(a);

  int bad = 0;
  for (global_index_t i = 0; i < local_extent(dim); ++i)
    bad += (*values)[i] != 2.0 * static_cast<double>(global_index(dim, i));
  int any = 0;
  Teuchos::reduceAll<int, int>(*comm, Teuchos::REDUCE_SUM, bad, Teuchos::outArg(any));
  if (r == 0) std::cout << (any == 0 ? "downstream: ok" : "downstream: WRONG VALUES") << " (Dapetra "
                        << DAPETRA_VERSION_STRING << ", " << P << " processes)\n";
  return any == 0 ? 0 : 1;
}
