// The finite-element pipeline on one MeshPart (distribute.hpp): -div(grad u)
// = f on a triangulated (2-D) or tetrahedral (3-D) mesh with P1 elements and
// the manufactured solution u = prod sin(pi x_d) (its values imposed on the
// boundary), through DAP and Tpetra. Nodal arrays are DAP 'u' layouts (owned
// and shared nodes, owned first); element kernels use Eigen; the right-hand
// side is assembled by Dapetra's HaloPlan, the matrix by the Tpetra
// adapter's FEMatrix (local indices; shared rows summed on their owners);
// Belos CG with MueLu's smoothed aggregation (or an
// Ifpack2 preconditioner) solves into the DAP solution array without copying,
// and one ghost update brings the shared nodes up to date. Optionally PETSc
// KSP (CG + GAMG) solves the same system on the same arrays beside it.
#pragma once

#include <Teuchos_Comm.hpp>
#include <Teuchos_RCP.hpp>
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "distribute.hpp"
#include "mesh.hpp"

namespace fem {

struct SolveOptions {
  double tolerance = 1e-10;     // relative residual
  int max_iterations = 5000;
  // "MueLu" (smoothed aggregation) or an Ifpack2 preconditioner's name
  // ("RELAXATION" is symmetric Gauss-Seidel).
  std::string preconditioner = "MueLu";
  // Also solve with PETSc KSP (CG + GAMG) on the same DAP arrays. Needs the
  // example built with Dapetra's PETSc adapter, a PetscSession alive, and
  // nodes numbered so each rank's owned nodes are consecutive (distribute_mesh does).
  bool petsc = false;
  // Assemble the values this many more times into the same matrix and
  // right-hand side, as a time step or a Newton iteration does
  // (Result::reassembly_seconds is the fastest).
  int reassemblies = 0;
  // Keep this process's assembled rows in Result::owned_rows (for checks).
  bool keep_rows = false;
  // Called on every process with a line on each phase as it finishes
  // (assembly, each solve), so a long run shows its progress.
  std::function<void(const std::string&)> progress;
};

// One solver's figures (the same on every process).
struct SolverRun {
  int iterations = 0;
  double relative_residual = 0;  // |b - Ax| / |b| after the solve
  double seconds = 0;            // preconditioner set-up and iterations
};

struct Result {
  // This process's part: the global numbers of its nodes (owned first, as in
  // the MeshPart) and their values after the solve and one ghost update,
  // `components` per node (1; the dimension for elasticity's displacement),
  // interleaved: node * components + component.
  std::vector<std::int64_t> nodes;
  std::size_t num_owned = 0;
  int components = 1;
  std::vector<double> u;
  // Global figures (the same on every process).
  std::size_t num_nodes = 0, num_cells = 0;
  std::size_t ghost_copies = 0;  // copies of shared nodes held by processes that do not own them
  double max_cells_per_rank = 0, mean_cells_per_rank = 0;
  SolverRun belos;                 // Belos CG with SolveOptions::preconditioner
  std::optional<SolverRun> petsc;  // PETSc CG + GAMG, with SolveOptions::petsc
  double petsc_difference = 0;     // max |u_petsc - u_belos| over all nodes
  double l2_error = 0, h1_error = 0;
  double setup_seconds = 0;       // the Dirichlet values at the held nodes
  double assembly_seconds = 0;    // structure and values
  double structure_seconds = 0;   // the matrix graph and its assembly plan, built once
  double reassembly_seconds = 0;  // values only, into the same matrix (SolveOptions::reassemblies)
  // What was assembled, for comparison with another code on the same mesh:
  // the matrix's Frobenius norm and the right-hand side's 2-norm after the
  // first assembly and after the last re-assembly, and the Dirichlet nodes.
  std::array<double, 2> assembled_norms{}, reassembled_norms{};
  std::size_t matrix_entries = 0;  // stored entries of the global matrix (what ||A||_F sums)
  std::size_t dirichlet_nodes = 0;
  // This process's owned matrix rows, (global column, value) sorted, as
  // assembled (with SolveOptions::keep_rows or ::petsc; empty otherwise).
  std::vector<std::vector<std::pair<std::int64_t, double>>> owned_rows;
};

// Whether solve_poisson can also solve with PETSc (SolveOptions::petsc).
bool petsc_available();

// Collective over `comm` (the communicator `part` was distributed on).
Result solve_poisson(const MeshPart& part, const Teuchos::RCP<const Teuchos::Comm<int>>& comm, const SolveOptions& options = {});

// Collective over `comm`: the Result of a solution already known at every
// held node of `part` (read from a checkpoint, say), with its errors and
// the part's figures; nothing is assembled or solved.
Result evaluate_poisson(const MeshPart& part, const Teuchos::Comm<int>& comm, std::vector<double> u);

}  // namespace fem
