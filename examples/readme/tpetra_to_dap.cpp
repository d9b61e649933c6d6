// Tpetra -> DAP, no copy: a MultiVector handed on as a protocol object over
// its own memory, its distribution ('b' here) read from the Map.
#include <Tpetra_Core.hpp>
#include <Tpetra_MultiVector.hpp>
#include <cstdio>
#include <dapetra/tpetra/tpetra.hpp>

int main(int argc, char** argv) {
  Tpetra::ScopeGuard scope(&argc, &argv);
  using namespace dapetra;
  auto map = Teuchos::rcp(new tpetra::Map(25, 0, Tpetra::getDefaultComm()));  // 25 rows split by Tpetra
  auto x = Teuchos::rcp(new tpetra::MultiVector<double>(map, 2));
  DistArray b = tpetra::to_distarray(x);  // collective; b keeps x alive
  const Dim& rows = b.dim_data[0];        // 'b': this process's rows [start, stop) of 25
  std::printf("rows [%lld, %lld) of 25\n", static_cast<long long>(rows.start), static_cast<long long>(rows.stop));
  return rows.dist_type == DistType::block && data_as<double>(b) == x->getDataNonConst(0).getRawPtr() ? 0 : 1;
}
