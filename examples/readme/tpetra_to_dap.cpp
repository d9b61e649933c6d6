// Tpetra -> DAP, no copy: a MultiVector handed on as a protocol object over
// its own memory, its distribution ('b' here) read from the Map.
#include <Tpetra_Core.hpp>
#include <Tpetra_Map.hpp>
#include <Tpetra_MultiVector.hpp>
#include <cstdio>
#include <dapetra/tpetra/tpetra.hpp>

int main(int argc, char** argv) {
  Tpetra::ScopeGuard scope(&argc, &argv);
  const auto comm = Tpetra::getDefaultComm();
  using namespace dapetra;
  auto map = Teuchos::rcp(new tpetra::Map(25, 0, comm));  // 25 rows split by Tpetra
  auto x = Teuchos::rcp(new tpetra::MultiVector<double>(map, 2));
  x->putScalar(7.0);

  DistArray b = tpetra::to_distarray(x);          // collective; b keeps x alive
  const Dim& rows = b.dim_data[0];                // 'b': this process's rows [start, stop)
  const double* mem = data_as<const double>(b);   // x's own memory
  std::printf("rank %d: rows [%lld, %lld) of %lld, first value %g\n", comm->getRank(),
              static_cast<long long>(rows.start), static_cast<long long>(rows.stop),
              static_cast<long long>(rows.size), rows.stop > rows.start ? mem[0] : 0.0);
  return rows.dist_type == DistType::block && mem == x->getData(0).getRawPtr() ? 0 : 1;
}
