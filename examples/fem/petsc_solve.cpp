#include "petsc_solve.hpp"

#include <petscksp.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include "dapetra/petsc/vec.hpp"

namespace fem {
namespace {

void check(PetscErrorCode code, const char* call) {
  if (code != 0) throw std::runtime_error(std::string("fem: ") + call + " failed (PETSc error " + std::to_string(code) + ")");
}

// Owns a PETSc object for the length of a scope.
template <class T, PetscErrorCode (*Destroy)(T*)>
struct Owned {
  T handle = nullptr;
  ~Owned() { Destroy(&handle); }
};

// The owned rows in PETSc's CSR with global column indices (PETSc copies them
// into its AIJ matrix).
Mat copy_to_new_aij(const OwnedRows& rows, PetscInt owned, MPI_Comm comm) {
  std::vector<PetscInt> offsets{0}, columns;
  std::vector<PetscScalar> values;
  for (const auto& row : rows) {
    for (const auto& [col, val] : row) {
      columns.push_back(static_cast<PetscInt>(col));
      values.push_back(val);
    }
    offsets.push_back(static_cast<PetscInt>(columns.size()));
  }
  Mat a = nullptr;
  check(MatCreateMPIAIJWithArrays(comm, owned, owned, PETSC_DETERMINE, PETSC_DETERMINE, offsets.data(), columns.data(),
                                  values.data(), &a),
        "MatCreateMPIAIJWithArrays");
  return a;
}

double relative_residual(Mat a, Vec x, Vec b) {
  Owned<Vec, VecDestroy> r;
  check(VecDuplicate(b, &r.handle), "VecDuplicate");
  check(MatMult(a, x, r.handle), "MatMult");
  check(VecAYPX(r.handle, -1.0, b), "VecAYPX");  // r = b - Ax
  PetscReal rn = 0, bn = 0;
  check(VecNorm(r.handle, NORM_2, &rn), "VecNorm");
  check(VecNorm(b, NORM_2, &bn), "VecNorm");
  return bn > 0 ? rn / bn : rn;
}

}  // namespace

PetscSession::PetscSession() { check(PetscInitializeNoArguments(), "PetscInitializeNoArguments"); }
PetscSession::~PetscSession() { PetscFinalize(); }

PetscRun solve_with_petsc(const OwnedRows& rows, const dapetra::mpi::DistributedLayout& layout, const dapetra::DistArray& u,
                          const dapetra::DistArray& f, double tolerance, int max_iterations) {
  const auto t0 = std::chrono::steady_clock::now();
  Owned<Vec, VecDestroy> x, b;
  x.handle = dapetra::petsc::vec_over(layout, u);  // collective; refused everywhere alike
  b.handle = dapetra::petsc::vec_over(layout, f);
  Owned<Mat, MatDestroy> a;
  a.handle = copy_to_new_aij(rows, static_cast<PetscInt>(rows.size()), layout.comm());
  Owned<KSP, KSPDestroy> ksp;
  check(KSPCreate(layout.comm(), &ksp.handle), "KSPCreate");
  check(KSPSetOperators(ksp.handle, a.handle, a.handle), "KSPSetOperators");
  check(KSPSetType(ksp.handle, KSPCG), "KSPSetType");
  check(KSPSetNormType(ksp.handle, KSP_NORM_UNPRECONDITIONED), "KSPSetNormType");
  check(KSPSetTolerances(ksp.handle, tolerance, 1e-300, PETSC_DEFAULT, max_iterations), "KSPSetTolerances");
  PC pc = nullptr;
  check(KSPGetPC(ksp.handle, &pc), "KSPGetPC");
  check(PCSetType(pc, PCGAMG), "PCSetType");
  check(KSPSetFromOptions(ksp.handle), "KSPSetFromOptions");  // PETSC_OPTIONS may tune it
  check(VecSet(x.handle, 0.0), "VecSet");
  check(KSPSolve(ksp.handle, b.handle, x.handle), "KSPSolve");
  PetscRun run;
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  PetscInt its = 0;
  check(KSPGetIterationNumber(ksp.handle, &its), "KSPGetIterationNumber");
  KSPConvergedReason reason{};
  check(KSPGetConvergedReason(ksp.handle, &reason), "KSPGetConvergedReason");
  run.iterations = static_cast<int>(its);
  run.converged = reason > 0;
  run.relative_residual = relative_residual(a.handle, x.handle, b.handle);
  return run;
}

}  // namespace fem
