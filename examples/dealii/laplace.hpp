// deal.II's step-40 problem (a Laplacian, Q2, on a p4est mesh refined
// adaptively by Kelly's estimator, zero boundary values, f = +-1 on either
// side of a sine curve; also in 3-D, of any degree, and refined everywhere,
// for the plain Q1 Laplace of docs/multifield.md), set up and assembled once for each linear-algebra
// path: Dapetra's (TpetraSparseMatrix and deal.II's own distributed vectors,
// solved by Belos CG + MueLu), deal.II's Trilinos path (Epetra + ML) and its
// PETSc path (PETSc + BoomerAMG), so that the example and the benchmarks
// compare them on one mesh sequence.
#pragma once

#include <deal.II/base/index_set.h>
#include <deal.II/distributed/tria.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/la_parallel_vector.h>
#include <deal.II/lac/petsc_sparse_matrix.h>
#include <deal.II/lac/petsc_vector.h>
#include <deal.II/lac/trilinos_sparse_matrix.h>
#include <deal.II/lac/trilinos_vector.h>

#include <string>

#include "dapetra/dealii/tpetra_matrix.hpp"

namespace step40 {

using Vector = ::dealii::LinearAlgebra::distributed::Vector<double>;

// How a solve went.
struct Solved {
  int iterations = 0;
  double seconds = 0;  // set-up of the preconditioner included
};

// deal.II's Trilinos path's system, as step-40 declares it (Epetra).
struct TrilinosSystem {
  ::dealii::TrilinosWrappers::SparseMatrix matrix;
  ::dealii::TrilinosWrappers::MPI::Vector rhs;
};
// deal.II's PETSc path's system.
struct PetscSystem {
  ::dealii::PETScWrappers::MPI::SparseMatrix matrix;
  ::dealii::PETScWrappers::MPI::Vector rhs;
};

// How the problem is posed: the dimension is Laplace's parameter.
struct Shape {
  unsigned initial = 5;  // the unit square (cube) refined this many times everywhere
  unsigned degree = 2;   // of FE_Q
  bool uniform = false;  // refine() refines every cell instead of by Kelly's estimate
};

template <int dim>
class Laplace {
 public:
  // Collective.
  explicit Laplace(const Shape& shape);

  // Collective. Distributes the dofs and builds the constraints (hanging
  // nodes, boundary values) for the current mesh.
  void setup();
  // Collective. Kelly's estimate of `solution` (ghosts updated), then 30 %
  // of the cells refined and 3 % coarsened, as step-40 does; or, with
  // Shape::uniform, every cell refined.
  void refine(const Vector& solution);

  // This process's pattern over its cells (owned rows and rows owned
  // elsewhere its cells touch), as step-40 makes it.
  ::dealii::DynamicSparsityPattern pattern() const;
  // Collective. The cells' matrices and right-hand sides, through the
  // constraints, into `matrix` and `rhs` (both compressed).
  template <class Matrix, class RhsVector>
  void assemble(Matrix& matrix, RhsVector& rhs) const;

  // A vector of owned and locally relevant dofs (ghosts), zero.
  Vector relevant_vector() const;
  // Collective. Belos CG + MueLu on views of deal.II's rhs and solution (no
  // copy), to |b - A u| <= tolerance |b|; then the constraints are
  // distributed and the ghosts updated.
  Solved solve_with_tpetra(const dapetra::dealii::TpetraSparseMatrix& matrix, Vector& rhs, Vector& solution,
                           double tolerance) const;
  // Collective. deal.II's own structure for `system`, as step-40 builds it
  // (the pattern distributed to the owners, then the matrix and vector).
  void structure(TrilinosSystem& system) const;
  void structure(PetscSystem& system) const;
  // Collective. deal.II's Trilinos path as step-40 solves (AztecOO CG, ML
  // with deal.II's defaults) or its PETSc path (PETSc CG, BoomerAMG,
  // symmetric), to the same relative tolerance; the solution, constraints
  // distributed, comes back as a vector of owned and relevant dofs.
  Solved solve(TrilinosSystem& system, Vector& solution, double tolerance) const;
  Solved solve(PetscSystem& system, Vector& solution, double tolerance) const;

  // Collective. The solution as .vtu pieces with a .pvtu record in `directory`.
  void write(const Vector& solution, const std::string& directory, unsigned cycle) const;

  ::dealii::types::global_dof_index n_dofs() const { return dofs_.n_dofs(); }
  const ::dealii::IndexSet& owned() const { return owned_; }
  const ::dealii::IndexSet& relevant() const { return relevant_; }

 private:
  bool uniform_;
  ::dealii::parallel::distributed::Triangulation<dim> mesh_;
  ::dealii::FE_Q<dim> fe_;
  ::dealii::DoFHandler<dim> dofs_;
  ::dealii::IndexSet owned_, relevant_;
  ::dealii::AffineConstraints<double> constraints_;
};

// Collective. max |a - b| / max |b| over the owned dofs.
double relative_difference(const Vector& a, const Vector& b);

}  // namespace step40
