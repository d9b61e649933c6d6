// The vector-valued pipeline on one MeshPart (distribute.hpp): linear
// elasticity, -div sigma(u) = f with sigma = 2 mu eps(u) + lambda tr(eps(u)) I,
// on P1 triangles or tetrahedra (elastic_element.hpp: E = 1, nu = 0.3, the
// manufactured displacement u = prod sin(pi x_d) a, clamped to its values on
// the boundary, and its body force). The displacement is a DAP array of
// nodes x components ('u' nodes, the components undistributed), which
// Tpetra sees with no copy as one vector over the interleaved unknowns
// (node * dim + component); the matrix is the Tpetra adapter's FEMatrix over
// that layout (block size dim); Belos CG with MueLu, told dim equations per
// node and given the rigid-body modes of the owned nodes as its
// near-nullspace (dapetra/tpetra/solver.hpp), solves into the array.
#pragma once

#include <Teuchos_Comm.hpp>
#include <Teuchos_RCP.hpp>
#include <vector>

#include "distribute.hpp"
#include "mesh.hpp"
#include "poisson.hpp"

namespace fem {

// Collective over `comm`. Result::u holds dim values per node; the errors are
// the displacement's. SolveOptions::petsc is not taken (throws).
Result solve_elasticity(const MeshPart& part, const Teuchos::RCP<const Teuchos::Comm<int>>& comm,
                        const SolveOptions& options = {});

// Collective over `comm`: the Result of a displacement already known at
// every held node of `part` (dim values per node, interleaved; read from a
// checkpoint, say), with its errors; nothing is assembled or solved.
Result evaluate_elasticity(const MeshPart& part, const Teuchos::Comm<int>& comm, std::vector<double> u);

// The serial reference: the same discretisation in one process, solved with
// Eigen's sparse Cholesky; dim values per node, interleaved.
std::vector<double> solve_elasticity_serial(const Mesh& mesh);

// The unconstrained stiffness matrix of `mesh` times each rigid-body mode
// (built by dapetra::tpetra::rigid_body_modes on the nodes' coordinates),
// relative to the mode: max over modes of ||K z|| / (||K|| ||z||) (Frobenius
// norm of K), which is rounding-level when the modes lie in K's kernel.
// Collective; assembled with FEMatrix over the part's layout.
double rigid_body_residual(const MeshPart& part, const Teuchos::RCP<const Teuchos::Comm<int>>& comm);

}  // namespace fem
