// GoogleTest under MPI: every rank runs every test; rank 0 prints the usual
// report, the others print only their failures (prefixed with the rank); the
// exit code is non-zero if any rank failed.
#include <gtest/gtest.h>
#include <mpi.h>

#include "../common/rank_failure_printer.hpp"


int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  dapetra::testing::print_failures_only_off_rank_0(rank);
  const int mine = RUN_ALL_TESTS();
  int any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
