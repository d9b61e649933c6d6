// The finite-element example's second solver: PETSc KSP (CG with GAMG) on the
// same DAP arrays Belos solves on, with no copy of the vectors. The
// right-hand side and the solution become ghosted PETSc Vecs over the DAP
// arrays' own buffers (dapetra::petsc::vec_over); the matrix, which PETSc
// keeps in its own AIJ format, is copied once from the assembled rows.
// Built only when Dapetra's PETSc adapter is (FEM_WITH_PETSC).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "dapetra/distarray.hpp"
#include "dapetra/mpi/distributed_layout.hpp"

namespace fem {

// PETSc's lifetime inside an MPI program that already initialised MPI:
// PetscInitialize on construction, PetscFinalize on destruction (before
// MPI_Finalize, so declare it after whatever finalises MPI). Collective.
class PetscSession {
 public:
  PetscSession();
  ~PetscSession();
  PetscSession(const PetscSession&) = delete;
  PetscSession& operator=(const PetscSession&) = delete;
};

struct PetscRun {
  int iterations = 0;
  double relative_residual = 0;  // |b - Ax| / |b|, computed after the solve
  double seconds = 0;            // matrix copy, GAMG set-up and CG
  bool converged = false;
};

// Owned matrix rows, in the order of the owned elements, as (global column, value).
using OwnedRows = std::vector<std::vector<std::pair<std::int64_t, double>>>;

// Solves A u = f with CG + GAMG to relative residual `tolerance` (the
// unpreconditioned norm, as Belos measures it), writing u's owned elements
// in place. u and f are 1-D arrays of `layout` holding their owned elements
// first, consecutive and in rank order (vec_over's rule; refused on every
// process otherwise). Collective over the layout's communicator.
PetscRun solve_with_petsc(const OwnedRows& rows, const dapetra::mpi::DistributedLayout& layout, const dapetra::DistArray& u,
                          const dapetra::DistArray& f, double tolerance, int max_iterations);

}  // namespace fem
