// PETSc -> DAP -> Tpetra: Tpetra scales a PETSc Vec's own memory, no copy.
//   mpirun -n 2 petsc_to_tpetra       (prints the sum PETSc sees: 3000)
#include <petscvec.h>

#include <Tpetra_Core.hpp>
#include <Tpetra_MultiVector.hpp>
#include <cstdio>
#include <dapetra/petsc/vec.hpp>
#include <dapetra/tpetra/tpetra.hpp>

int main(int argc, char** argv) {
  Tpetra::ScopeGuard scope(&argc, &argv);  // MPI and Kokkos
  PetscInitialize(&argc, &argv, nullptr, nullptr);
  PetscReal sum = 0;
  {
    Vec v;
    VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, 1000, &v);
    VecSet(v, 1.0);
    const dapetra::DistArray a = dapetra::petsc::vec_as_distarray(v);  // v's memory; holds a reference to v
    const auto layout = dapetra::tpetra::TpetraLayout::create(a, Tpetra::getDefaultComm());  // collective
    dapetra::tpetra::owned_view<double>(*layout, a)->scale(3.0);  // Tpetra writes v's memory
    VecSum(v, &sum);                                                // PETSc reads it: 3000
    VecDestroy(&v);  // `a` still holds v until it goes
  }
  PetscPrintf(PETSC_COMM_WORLD, "sum seen by PETSc after Tpetra scaled it: %g\n", static_cast<double>(sum));
  PetscFinalize();
  return sum == 3000.0 ? 0 : 1;
}
