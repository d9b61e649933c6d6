// GoogleTest under MPI: every rank runs every test; rank 0 prints the usual
// report, the others print only their failures (prefixed with the rank); the
// exit code is non-zero if any rank failed.
#include <gtest/gtest.h>

#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_Core.hpp>
#include "../common/rank_failure_printer.hpp"

int main(int argc, char** argv) {
  Tpetra::ScopeGuard scope(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  const auto comm = Tpetra::getDefaultComm();
  dapetra::testing::print_failures_only_off_rank_0(comm->getRank());
  const int mine = RUN_ALL_TESTS();
  int any = 0;
  Teuchos::reduceAll<int, int>(*comm, Teuchos::REDUCE_MAX, mine, Teuchos::outArg(any));
  return any;
}
