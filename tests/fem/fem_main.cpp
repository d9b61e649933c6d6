// The finite-element tests' main: GoogleTest on every rank (as
// tpetra/mpi_main.cpp), with PETSc alive too when the example has it, so
// the tests can solve with PETSc KSP beside Belos.
#include <gtest/gtest.h>

#include <Tpetra_Core.hpp>
#include <memory>

#include "../common/rank_failure_printer.hpp"
#include "poisson.hpp"
#if FEM_WITH_PETSC
#include "petsc_solve.hpp"
#endif

int main(int argc, char** argv) {
  Tpetra::ScopeGuard scope(&argc, &argv);  // MPI and Kokkos, finalised when main returns
  ::testing::InitGoogleTest(&argc, argv);
#if FEM_WITH_PETSC
  const fem::PetscSession petsc;  // finalised before the scope guard finalises MPI
#endif
  return dapetra::testing::run_all_tests_on_every_rank(MPI_COMM_WORLD);
}
