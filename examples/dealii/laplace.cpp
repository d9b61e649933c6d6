#include "laplace.hpp"

#include <deal.II/base/quadrature_lib.h>
#include <deal.II/distributed/grid_refinement.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/grid/grid_generator.h>
#include <deal.II/lac/petsc_precondition.h>
#include <deal.II/lac/petsc_solver.h>
#include <deal.II/lac/petsc_sparse_matrix.h>
#include <deal.II/lac/petsc_vector.h>
#include <deal.II/lac/solver_control.h>
#include <deal.II/lac/sparsity_tools.h>
#include <deal.II/lac/trilinos_precondition.h>
#include <deal.II/lac/trilinos_solver.h>
#include <deal.II/lac/trilinos_sparse_matrix.h>
#include <deal.II/lac/trilinos_vector.h>
#include <deal.II/numerics/data_out.h>
#include <deal.II/numerics/error_estimator.h>
#include <deal.II/numerics/vector_tools.h>

#include <Teuchos_DefaultMpiComm.hpp>
#include <Teuchos_XMLParameterListHelpers.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <dapetra/dealii/compat.hpp>
#include <dapetra/dealii/vector.hpp>
#include <dapetra/tpetra/solver.hpp>
#include <dapetra/tpetra/tpetra.hpp>

namespace step40 {

namespace dl = ::dealii;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// f = 1 above the curve (surface) y = 0.5 + 0.25 sin(4 pi x), -1 below (step-40's).
template <int dim>
double load(const dl::Point<dim>& p) { return p[1] > 0.5 + 0.25 * std::sin(4.0 * dl::numbers::PI * p[0]) ? 1.0 : -1.0; }

// A solution of deal.II's own vector types, with its constraints
// distributed, as a vector of owned and relevant dofs.
template <class Solution>
void copy_owned(const Solution& from, Vector& to) {
  for (const auto g : to.locally_owned_elements()) to(g) = from(g);
  to.update_ghost_values();
}

}  // namespace

template <int dim>
Laplace<dim>::Laplace(const Shape& shape)
    : uniform_(shape.uniform),
      mesh_(MPI_COMM_WORLD, typename dl::Triangulation<dim>::MeshSmoothing(dl::Triangulation<dim>::smoothing_on_refinement |
                                                                           dl::Triangulation<dim>::smoothing_on_coarsening)),
      fe_(shape.degree),
      dofs_(mesh_) {
  dl::GridGenerator::hyper_cube(mesh_);
  mesh_.refine_global(shape.initial);
}

template <int dim>
void Laplace<dim>::setup() {
  dofs_.distribute_dofs(fe_);
  owned_ = dofs_.locally_owned_dofs();
  relevant_ = dl::DoFTools::extract_locally_relevant_dofs(dofs_);
  dapetra::dealii::compat::reinit_constraints(constraints_, owned_, relevant_);
  dl::DoFTools::make_hanging_node_constraints(dofs_, constraints_);
  dl::VectorTools::interpolate_boundary_values(dofs_, 0, dl::Functions::ZeroFunction<dim>(), constraints_);
  constraints_.close();
}

template <int dim>
void Laplace<dim>::refine(const Vector& solution) {
  if (uniform_) {
    mesh_.refine_global(1);
    return;
  }
  dl::Vector<float> estimate(mesh_.n_active_cells());
  dl::KellyErrorEstimator<dim>::estimate(dofs_, dl::QGauss<dim - 1>(fe_.degree + 1), {}, solution, estimate);
  dl::parallel::distributed::GridRefinement::refine_and_coarsen_fixed_number(mesh_, estimate, 0.3, 0.03);
  mesh_.execute_coarsening_and_refinement();
}

template <int dim>
dl::DynamicSparsityPattern Laplace<dim>::pattern() const {
  dl::DynamicSparsityPattern dsp(relevant_);
  dl::DoFTools::make_sparsity_pattern(dofs_, dsp, constraints_, false);
  return dsp;
}

template <int dim>
Vector Laplace<dim>::relevant_vector() const { return Vector(owned_, relevant_, MPI_COMM_WORLD); }

template <int dim>
template <class Matrix, class RhsVector>
void Laplace<dim>::assemble(Matrix& matrix, RhsVector& rhs) const {
  const dl::QGauss<dim> quadrature(fe_.degree + 1);
  dl::FEValues<dim> values(fe_, quadrature, dl::update_values | dl::update_gradients | dl::update_quadrature_points | dl::update_JxW_values);
  const unsigned n = fe_.n_dofs_per_cell();
  dl::FullMatrix<double> cell_matrix(n, n);
  dl::Vector<double> cell_rhs(n);
  std::vector<dl::types::global_dof_index> indices(n);
  for (const auto& cell : dofs_.active_cell_iterators()) {
    if (!cell->is_locally_owned()) continue;
    cell_matrix = 0.;
    cell_rhs = 0.;
    values.reinit(cell);
    for (unsigned q = 0; q < quadrature.size(); ++q) {
      const double f = load<dim>(values.quadrature_point(q));
      for (unsigned i = 0; i < n; ++i) {
        for (unsigned j = 0; j < n; ++j) cell_matrix(i, j) += values.shape_grad(i, q) * values.shape_grad(j, q) * values.JxW(q);
        cell_rhs(i) += f * values.shape_value(i, q) * values.JxW(q);
      }
    }
    cell->get_dof_indices(indices);
    constraints_.distribute_local_to_global(cell_matrix, cell_rhs, indices, matrix, rhs);
  }
  matrix.compress(dl::VectorOperation::add);
  rhs.compress(dl::VectorOperation::add);
}


template <int dim>
Solved Laplace<dim>::solve_with_tpetra(const dapetra::dealii::TpetraSparseMatrix& matrix, Vector& rhs, Vector& solution,
                                  double tolerance) const {
  const auto t0 = std::chrono::steady_clock::now();
  // deal.II's memory as DAP arrays, and Tpetra's views of their owned parts: nothing is copied.
  const dapetra::DistArray b = dapetra::dealii::vector_as_distarray(rhs), u = dapetra::dealii::vector_as_distarray(solution);
  dapetra::tpetra::TpetraLayoutOptions options;
  options.distribution.ownership = dapetra::dealii::owners_of(solution);
  const auto layout = dapetra::tpetra::TpetraLayout::create(u, Teuchos::rcp(new Teuchos::MpiComm<int>(MPI_COMM_WORLD)), options);
  dapetra::tpetra::SolverOptions how;  // Belos CG + MueLu, Dapetra's settings
  how.tolerance = tolerance;
  // Dapetra's MueLu settings as they are (muelu_parameters_for_cg); a
  // Teuchos XML file named by DAPETRA_MUELU_XML overrides them, as
  // FEM_MUELU_XML does for dapetra-fem.
  if (const char* xml = std::getenv("DAPETRA_MUELU_XML"))
    Teuchos::updateParametersFromXmlFile(xml, Teuchos::inoutArg(how.parameters));
  solution = 0;
  const auto result = dapetra::tpetra::solve(matrix.tpetra_matrix(), dapetra::tpetra::owned_view<double>(*layout, u),
                                             dapetra::tpetra::owned_view<double>(*layout, b), how);
  Solved out{result.iterations, seconds_since(t0)};
  constraints_.distribute(solution);
  solution.update_ghost_values();
  return out;
}

namespace {

// deal.II's structure for its own matrix types: the pattern sent to the
// owners of its rows, then the matrix and the right-hand side.
template <int dim, class System>
void deal_ii_structure(const Laplace<dim>& problem, System& system) {
  dl::DynamicSparsityPattern dsp = problem.pattern();
  dl::SparsityTools::distribute_sparsity_pattern(dsp, problem.owned(), MPI_COMM_WORLD, problem.relevant());
  system.matrix.reinit(problem.owned(), problem.owned(), dsp, MPI_COMM_WORLD);
  system.rhs.reinit(problem.owned(), MPI_COMM_WORLD);
}

}  // namespace

template <int dim>
void Laplace<dim>::structure(TrilinosSystem& system) const { deal_ii_structure(*this, system); }
template <int dim>
void Laplace<dim>::structure(PetscSystem& system) const { deal_ii_structure(*this, system); }


template <int dim>
Solved Laplace<dim>::solve(TrilinosSystem& system, Vector& solution, double tolerance) const {
  const auto t0 = std::chrono::steady_clock::now();
  dl::TrilinosWrappers::MPI::Vector x(owned_, MPI_COMM_WORLD);
  dl::SolverControl control(dofs_.n_dofs(), tolerance * system.rhs.l2_norm());
  dl::TrilinosWrappers::SolverCG solver(control);
  dl::TrilinosWrappers::PreconditionAMG amg;
  amg.initialize(system.matrix, dl::TrilinosWrappers::PreconditionAMG::AdditionalData());  // step-40: "Trilinos defaults are good"
  solver.solve(system.matrix, x, system.rhs, amg);
  const Solved out{static_cast<int>(control.last_step()), seconds_since(t0)};
  constraints_.distribute(x);
  copy_owned(x, solution);
  return out;
}

template <int dim>
Solved Laplace<dim>::solve(PetscSystem& system, Vector& solution, double tolerance) const {
  const auto t0 = std::chrono::steady_clock::now();
  dl::PETScWrappers::MPI::Vector x(owned_, MPI_COMM_WORLD);
  dl::SolverControl control(dofs_.n_dofs(), tolerance * system.rhs.l2_norm());
  auto solver = dapetra::dealii::compat::petsc_cg(control, MPI_COMM_WORLD);
  dl::PETScWrappers::PreconditionBoomerAMG::AdditionalData data;
  data.symmetric_operator = true;  // step-40's setting for PETSc
  dl::PETScWrappers::PreconditionBoomerAMG amg(system.matrix, data);
  solver.solve(system.matrix, x, system.rhs, amg);
  const Solved out{static_cast<int>(control.last_step()), seconds_since(t0)};
  constraints_.distribute(x);
  copy_owned(x, solution);
  return out;
}

template <int dim>
void Laplace<dim>::write(const Vector& solution, const std::string& directory, unsigned cycle) const {
  dl::DataOut<dim> out;
  out.attach_dof_handler(dofs_);
  out.add_data_vector(solution, "u");
  dl::Vector<float> part(mesh_.n_active_cells());
  part = static_cast<float>(mesh_.locally_owned_subdomain());
  out.add_data_vector(part, "subdomain");
  out.build_patches();
  out.write_vtu_with_pvtu_record(directory + "/", "step40", cycle, MPI_COMM_WORLD, 2);
}

// The two dimensions, and each path's assembly in both.
template class Laplace<2>;
template class Laplace<3>;
#define STEP40_ASSEMBLY(dim)                                                                                       \
  template void Laplace<dim>::assemble(dapetra::dealii::TpetraSparseMatrix&, Vector&) const;                       \
  template void Laplace<dim>::assemble(dl::TrilinosWrappers::SparseMatrix&, dl::TrilinosWrappers::MPI::Vector&) const; \
  template void Laplace<dim>::assemble(dl::PETScWrappers::MPI::SparseMatrix&, dl::PETScWrappers::MPI::Vector&) const;
STEP40_ASSEMBLY(2)
STEP40_ASSEMBLY(3)
#undef STEP40_ASSEMBLY

double relative_difference(const Vector& a, const Vector& b) {
  double diff = 0, size = 0;
  for (const auto g : a.locally_owned_elements()) {
    diff = std::max(diff, std::abs(a(g) - b(g)));
    size = std::max(size, std::abs(b(g)));
  }
  diff = dl::Utilities::MPI::max(diff, MPI_COMM_WORLD);
  size = dl::Utilities::MPI::max(size, MPI_COMM_WORLD);
  return size > 0 ? diff / size : diff;
}

}  // namespace step40
