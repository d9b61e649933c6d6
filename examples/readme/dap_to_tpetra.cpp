// DAP -> Tpetra, no copy: each process's piece of a 1-D block array (10 owned
// values, a ghost cell on each inner side) seen as a Tpetra vector.
#include <Tpetra_Core.hpp>
#include <Tpetra_MultiVector.hpp>
#include <Tpetra_Vector.hpp>
#include <cstdio>
#include <dapetra/tpetra/tpetra.hpp>
#include <vector>

int main(int argc, char** argv) {
  Tpetra::ScopeGuard scope(&argc, &argv);
  const auto comm = Tpetra::getDefaultComm();
  const int P = comm->getSize(), r = comm->getRank();
  using namespace dapetra;
  const global_index_t lo = 10 * r, hi = lo + 10;  // owned [lo, hi), held [start, stop)
  const global_index_t start = r > 0 ? lo - 1 : lo, stop = r + 1 < P ? hi + 1 : hi;
  std::vector<double> values(static_cast<std::size_t>(stop - start), 1.0);
  DistArray a;
  a.buffer = view_buffer(values.data(), {stop - start});  // a view of `values`
  a.dim_data = {Dim::block(10 * P, P, r, start, stop, {lo - start, stop - hi})};

  auto layout = tpetra::TpetraLayout::create(a, comm);  // collective: checks every rule, builds the maps
  auto owned = tpetra::owned_view<double>(*layout, a);   // a Tpetra MultiVector on the owned values
  owned->scale(2.0);                                      // `values` scaled in place, ghosts untouched
  const double sum = owned->getVector(0)->norm1();        // collective: 2 * 10 P
  if (r == 0) std::printf("sum of the owned values %g on %d processes\n", sum, P);
  return sum == 20.0 * P && values[static_cast<std::size_t>(lo - start)] == 2.0 ? 0 : 1;
}
