// PETSc's linear system, solved by Tpetra: Belos CG with MueLu's smoothed
// aggregation, in place in PETSc's own vectors. The matrix is copied once
// into Tpetra's form; b and x are PETSc's memory, viewed, not copied; what
// PETSc's GAMG would read beside the rows (the Mat's block size and
// near-nullspace: here the constant, as a user sets it with
// MatSetNearNullSpace; for elasticity, the rigid-body modes) goes to MueLu.
//   mpirun -n 2 petsc_system_to_tpetra    (2-D Laplacian, 40,000 unknowns;
//   prints Tpetra's and PETSc's iterations and how far apart they land)
#include <petscksp.h>

#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_Core.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <dapetra/petsc/mat.hpp>
#include <dapetra/petsc/vec.hpp>
#include <dapetra/tpetra/solver.hpp>  // Belos + MueLu, as Dapetra's examples solve
#include <dapetra/tpetra/tpetra.hpp>

// The 5-point Laplacian on an m x m grid, rows split by PETSc; b = 1.
Mat laplacian(PetscInt m) {
  Mat a;
  MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, m * m, m * m, 5, nullptr, 4, nullptr, &a);
  PetscInt start, stop;
  MatGetOwnershipRange(a, &start, &stop);
  for (PetscInt r = start; r < stop; ++r) {
    const PetscInt i = r / m, j = r % m;
    MatSetValue(a, r, r, 4.0, INSERT_VALUES);
    if (i > 0) MatSetValue(a, r, r - m, -1.0, INSERT_VALUES);
    if (i < m - 1) MatSetValue(a, r, r + m, -1.0, INSERT_VALUES);
    if (j > 0) MatSetValue(a, r, r - 1, -1.0, INSERT_VALUES);
    if (j < m - 1) MatSetValue(a, r, r + 1, -1.0, INSERT_VALUES);
  }
  MatAssemblyBegin(a, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(a, MAT_FINAL_ASSEMBLY);
  return a;
}

// Tpetra solves A x = b on PETSc's objects; returns Belos' iterations.
int solve_with_tpetra(Mat a, Vec b, Vec x) {
  const dapetra::DistArray bd = dapetra::petsc::vec_as_distarray(b), xd = dapetra::petsc::vec_as_distarray(x);
  auto comm = Teuchos::rcp(new Teuchos::MpiComm<int>(Teuchos::opaqueWrapper(PETSC_COMM_WORLD)));
  const auto layout = dapetra::tpetra::TpetraLayout::create(bd, comm);  // collective; rows = PETSc's
  const dapetra::LocalCsrRows rows = dapetra::petsc::local_csr_rows_copy(a);  // collective
  auto A = dapetra::tpetra::crs_matrix_copy(*layout, rows.view());

  dapetra::tpetra::SolverOptions how;  // CG + MueLu (Dapetra's settings; override any in how.parameters)
  how.tolerance = 1e-10;
  const dapetra::petsc::NearNullspaceCopy modes = dapetra::petsc::near_nullspace_copy(a);  // collective
  how.equations_per_node = modes.block_size;
  if (modes.modes > 0) {
    how.near_nullspace = Teuchos::rcp(new dapetra::tpetra::MultiVector<double>(A->getRowMap(), modes.modes));
    auto v = how.near_nullspace->getLocalViewHost(Tpetra::Access::OverwriteAll);
    for (std::size_t k = 0; k < modes.modes; ++k)
      for (std::size_t i = 0; i < modes.rows; ++i) v(i, k) = modes.values[k * modes.rows + i];
  }
  const auto done = dapetra::tpetra::solve(A, dapetra::tpetra::owned_view<double>(*layout, xd),
                                           dapetra::tpetra::owned_view<double>(*layout, bd), how);  // writes PETSc's x
  return done.iterations;
}

int main(int argc, char** argv) {
  Tpetra::ScopeGuard scope(&argc, &argv);  // MPI and Kokkos
  PetscInitialize(&argc, &argv, nullptr, nullptr);
  bool ok = false;
  {
    Mat a = laplacian(200);
    MatNullSpace constant;  // the Laplacian's near-nullspace, as PETSc users attach it for GAMG
    MatNullSpaceCreate(PETSC_COMM_WORLD, PETSC_TRUE, 0, nullptr, &constant);
    MatSetNearNullSpace(a, constant);
    MatNullSpaceDestroy(&constant);
    Vec b, x, y;
    MatCreateVecs(a, &x, &b);
    VecSet(b, 1.0);
    VecDuplicate(x, &y);
    const int tpetra_iterations = solve_with_tpetra(a, b, x);

    KSP ksp;  // PETSc's own solve beside it: CG + GAMG
    KSPCreate(PETSC_COMM_WORLD, &ksp);
    KSPSetOperators(ksp, a, a);
    KSPSetType(ksp, KSPCG);
    PC pc;
    KSPGetPC(ksp, &pc);
    PCSetType(pc, PCGAMG);
    KSPSetTolerances(ksp, 1e-10, PETSC_DEFAULT, PETSC_DEFAULT, PETSC_DEFAULT);
    KSPSolve(ksp, b, y);
    PetscInt petsc_iterations;
    KSPGetIterationNumber(ksp, &petsc_iterations);

    PetscReal residual, bnorm, apart;
    Vec r;
    VecDuplicate(b, &r);
    MatMult(a, x, r);   // PETSc checks Tpetra's answer: |b - A x| / |b|
    VecAYPX(r, -1.0, b);
    VecNorm(r, NORM_2, &residual);
    VecNorm(b, NORM_2, &bnorm);
    VecAXPY(y, -1.0, x);  // and how far PETSc's own solution is
    VecNorm(y, NORM_INFINITY, &apart);
    PetscPrintf(PETSC_COMM_WORLD,
                "Tpetra (Belos CG + MueLu): %d iterations, |b - Ax|/|b| = %.1e (PETSc's MatMult)\n"
                "PETSc (CG + GAMG): %d iterations; max |x_petsc - x_tpetra| = %.1e\n",
                tpetra_iterations, static_cast<double>(residual / bnorm), static_cast<int>(petsc_iterations),
                static_cast<double>(apart));
    ok = residual / bnorm < 1e-8 && apart < 1e-6;
    VecDestroy(&r);
    KSPDestroy(&ksp);
    VecDestroy(&y);
    VecDestroy(&x);
    VecDestroy(&b);
    MatDestroy(&a);
  }
  PetscFinalize();
  return ok ? 0 : 1;
}
