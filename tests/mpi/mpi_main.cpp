// GoogleTest under MPI: every rank runs every test; rank 0 prints the usual
// report, the others print only their failures (prefixed with the rank); the
// exit code is non-zero if any rank failed.
#include <gtest/gtest.h>
#include <mpi.h>

#include "../common/rank_failure_printer.hpp"


int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  const int any = dapetra::testing::run_all_tests_on_every_rank(MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
