// GoogleTest under MPI with PETSc initialised (PETSc calls MPI_Init): every
// rank runs every test; the exit code is non-zero if any rank failed.
#include <gtest/gtest.h>
#include <petscsys.h>

#include "../common/rank_failure_printer.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  PetscInitialize(&argc, &argv, nullptr, nullptr);
  const int any = dapetra::testing::run_all_tests_on_every_rank(PETSC_COMM_WORLD);
  PetscFinalize();
  return any;
}
