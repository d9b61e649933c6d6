// GoogleTest under MPI with PETSc initialised (PETSc calls MPI_Init): every
// rank runs every test; the exit code is non-zero if any rank failed.
#include <gtest/gtest.h>
#include <petscsys.h>

#include "../common/rank_failure_printer.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  PetscInitialize(&argc, &argv, nullptr, nullptr);
  int rank = 0;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  dapetra::testing::print_failures_only_off_rank_0(rank);
  const int mine = RUN_ALL_TESTS();
  int any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD);
  PetscFinalize();
  return any;
}
