// deal.II's tutorials step-55 and step-56 through Dapetra: Stokes flow with
// Taylor-Hood elements (Q2 velocity, Q1 pressure) on a p4est mesh, refined
// everywhere each cycle, with a known exact solution.
//   - 2-D (step-55): Kovasznay's flow (viscosity 0.1 on [-0.5, 1.5]^2, the
//     body force that makes it a Stokes solution).
//   - 3-D (--dim 3, step-56): step-56's flow on the unit cube, viscosity 1:
//     u = (2 sin(pi x), -pi y cos(pi x), -pi z cos(pi x)), p = sin(pi x)
//     cos(pi y) sin(pi z).
// deal.II's own loop (AffineConstraints::distribute_local_to_global)
// assembles the system K = [[A, B^T], [B, 0]] and the preconditioning matrix
// P = [[A, 0], [0, Mp / viscosity]] straight into two block
// TpetraSparseMatrix objects, in deal.II's block numbering (velocities, then
// pressures); Belos solves K with Dapetra's block preconditioner (one MueLu
// V-cycle on A, damped Jacobi sweeps on the pressure mass matrix): MINRES
// with the block diagonal kind (step-55's), or GMRES with the block upper
// triangular kind (--kind upper, step-56's). The pressure's mean is then
// removed, as the tutorials do, and the errors against the exact solution
// and their rates under refinement are printed.
//
// With --compare each cycle is also solved step-55's two ways on the same
// mesh: deal.II's Trilinos path (Epetra block matrices, ML on A and an
// inner CG with ML on Mp) and its PETSc path (BoomerAMG for both), each
// with deal.II's MINRES: iterations, times (structure, assembly and solve,
// preconditioner set-up included) and how far the solutions lie apart.
// With --teko (when built with Teko) the same Tpetra system is also solved
// by the same Belos GMRES with Teko's block Gauss-Seidel (its upper
// triangle, on [[A, B^T], [B, -Mp / viscosity]]) and the same two inner
// preconditioners, through Stratimikos: the block upper triangular kind
// done Teko's way, beside Dapetra's (--kind upper).
//
//   mpirun -n 2 dapetra-step55 [--dim 2|3] [--initial 3] [--cycles 4] [--kind diagonal|upper] [--compare]
//                              [--teko] [--tol 1e-10] [--agree 1e4*tol] [--report FILE.json]
//
// (--sweeps N, --drop T and --first-xml FILE change the block
// preconditioner: Jacobi sweeps on Mp, MueLu's drop tolerance, any MueLu
// parameters.) Exit status 1 when a solve does not converge, when
// (--compare) a solution differs from deal.II's by more than --agree of its
// size (by default 1e4 times --tol: solutions to 1e-10 lie 5e-8 apart at
// 5.9e5 dofs, to 1e-12 within 1e-8), or when, over
// three cycles or more, the last cycle's error rates fall below 2.7
// (velocity, L2; Taylor-Hood's is 3) or 1.7 (pressure, L2; 2).
#include <deal.II/base/function.h>
#include <deal.II/base/index_set.h>
#include <deal.II/base/mpi.h>
#include <deal.II/base/quadrature_lib.h>
#include <deal.II/distributed/tria.h>
#include <deal.II/dofs/dof_handler.h>
#include <deal.II/dofs/dof_renumbering.h>
#include <deal.II/dofs/dof_tools.h>
#include <deal.II/fe/fe_q.h>
#include <deal.II/fe/fe_system.h>
#include <deal.II/fe/fe_values.h>
#include <deal.II/grid/grid_generator.h>
#include <deal.II/lac/affine_constraints.h>
#include <deal.II/lac/block_sparsity_pattern.h>
#include <deal.II/lac/petsc_block_sparse_matrix.h>
#include <deal.II/lac/petsc_block_vector.h>
#include <deal.II/lac/petsc_precondition.h>
#include <deal.II/lac/solver_cg.h>
#include <deal.II/lac/solver_control.h>
#include <deal.II/lac/solver_minres.h>
#include <deal.II/lac/sparsity_tools.h>
#include <deal.II/lac/trilinos_block_sparse_matrix.h>
#include <deal.II/lac/trilinos_parallel_block_vector.h>
#include <deal.II/lac/trilinos_precondition.h>
#include <deal.II/numerics/vector_tools.h>

#include <Teuchos_XMLParameterListHelpers.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#ifdef DAPETRA_STEP55_TEKO
#include <Stratimikos_MueLuHelpers.hpp>
#include <Teko_BlockedTpetraOperator.hpp>
#include <Teko_InverseLibrary.hpp>
#include <Teko_TpetraInverseFactoryOperator.hpp>
#include <Teuchos_AbstractFactoryStd.hpp>
#include <Thyra_Ifpack2PreconditionerFactory.hpp>
#include <TpetraExt_MatrixMatrix.hpp>
#endif

#include "dapetra/dealii/compat.hpp"
#include "dapetra/dealii/tpetra_matrix.hpp"
#include "dapetra/dealii/vector.hpp"
#include "dapetra/tpetra/block_system.hpp"

namespace {

namespace dl = ::dealii;
using BlockVector = dapetra::dealii::BlockVector;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

const double pi = dl::numbers::PI;

// The flow each dimension solves: its domain, viscosity, exact velocity and
// pressure (with mean zero over the domain), and the body force f =
// -viscosity Laplace(u) + grad p that makes them a Stokes solution.
template <int dim>
struct Flow;

// step-55: Kovasznay's flow at Reynolds number 1 / viscosity: u = (1 - e^(l
// x) cos(2 pi y), l / (2 pi) e^(l x) sin(2 pi y)), p = -e^(2 l x) / 2 less
// its mean over the domain, l = 1 / (2 viscosity) - sqrt(1 / (4
// viscosity^2) + 4 pi^2).
template <>
struct Flow<2> {
  static constexpr double low = -0.5, high = 1.5, viscosity = 0.1;
  static double lambda() { return 0.5 / viscosity - std::sqrt(0.25 / (viscosity * viscosity) + 4.0 * pi * pi); }
  static void exact(const dl::Point<2>& p, dl::Vector<double>& values) {
    const double l = lambda(), e = std::exp(l * p[0]);
    values[0] = 1.0 - e * std::cos(2.0 * pi * p[1]);
    values[1] = l / (2.0 * pi) * e * std::sin(2.0 * pi * p[1]);
    // The mean of e^(2 l x) over x in [-0.5, 1.5] is (e^(3 l) - e^(-l)) / (4 l).
    values[2] = -0.5 * e * e + (std::exp(3.0 * l) - std::exp(-l)) / (8.0 * l);
  }
  static dl::Tensor<1, 2> force(const dl::Point<2>& p) {
    const double l = lambda(), e = std::exp(l * p[0]), c = std::cos(2.0 * pi * p[1]), s = std::sin(2.0 * pi * p[1]);
    const double k = l * l - 4.0 * pi * pi;  // Laplace(e^(l x) cos(2 pi y)) = k e^(l x) cos(2 pi y)
    dl::Tensor<1, 2> f;
    f[0] = viscosity * k * e * c - l * e * e;
    f[1] = -viscosity * l / (2.0 * pi) * k * e * s;
    return f;
  }
};

// step-56's flow on the unit cube (its mean pressure is zero already).
template <>
struct Flow<3> {
  static constexpr double low = 0.0, high = 1.0, viscosity = 1.0;
  static void exact(const dl::Point<3>& p, dl::Vector<double>& values) {
    const double sx = std::sin(pi * p[0]), cx = std::cos(pi * p[0]);
    values[0] = 2.0 * sx;
    values[1] = -pi * p[1] * cx;
    values[2] = -pi * p[2] * cx;
    values[3] = sx * std::cos(pi * p[1]) * std::sin(pi * p[2]);
  }
  static dl::Tensor<1, 3> force(const dl::Point<3>& p) {
    const double sx = std::sin(pi * p[0]), cx = std::cos(pi * p[0]), sy = std::sin(pi * p[1]),
                 cy = std::cos(pi * p[1]), sz = std::sin(pi * p[2]), cz = std::cos(pi * p[2]);
    dl::Tensor<1, 3> f;
    f[0] = 2.0 * pi * pi * sx + pi * cx * cy * sz;
    f[1] = -pi * pi * pi * p[1] * cx - pi * sx * sy * sz;
    f[2] = -pi * pi * pi * p[2] * cx + pi * sx * cy * cz;
    return f;
  }
};

template <int dim>
class Exact : public dl::Function<dim> {
 public:
  Exact() : dl::Function<dim>(dim + 1) {}
  void vector_value(const dl::Point<dim>& p, dl::Vector<double>& values) const override { Flow<dim>::exact(p, values); }
};

// How one path's cycle went.
struct Timed {
  double structure = 0, assembly = 0, solve = 0;  // seconds; solve: preconditioner set-up included
  int iterations = 0;
  double residual = 0;  // |b - K x| / |b|, recomputed (Dapetra's path)
  bool converged = false;
};

// deal.II's Trilinos path's types, as step-55 declares them (Epetra, ML).
struct TrilinosPath {
  using Matrix = dl::TrilinosWrappers::BlockSparseMatrix;
  using Vector = dl::TrilinosWrappers::MPI::BlockVector;
  using Amg = dl::TrilinosWrappers::PreconditionAMG;
  static constexpr const char* name = "trilinos";
  static Amg::AdditionalData amg_data() { return {}; }
};
// Its PETSc path's (BoomerAMG, told the operators are symmetric, as step-55 does).
struct PetscPath {
  using Matrix = dl::PETScWrappers::MPI::BlockSparseMatrix;
  using Vector = dl::PETScWrappers::MPI::BlockVector;
  using Amg = dl::PETScWrappers::PreconditionBoomerAMG;
  static constexpr const char* name = "petsc";
  static Amg::AdditionalData amg_data() {
    Amg::AdditionalData data;
    data.symmetric_operator = true;
    return data;
  }
};

// step-55's preconditioner on deal.II's side: one AMG cycle on A, and the
// pressure mass matrix inverted by CG with AMG to 1e-8.
template <class Path>
struct DealIIBlockDiagonal {
  const typename Path::Matrix& p;
  const typename Path::Amg &a_amg, &m_amg;
  void vmult(typename Path::Vector& dst, const typename Path::Vector& src) const {
    a_amg.vmult(dst.block(0), src.block(0));
    dl::SolverControl control(src.block(1).size(), 1e-8 * src.block(1).l2_norm());
    dl::SolverCG<typename Path::Vector::BlockType> cg(control);
    dst.block(1) = 0;
    cg.solve(p.block(1, 1), dst.block(1), src.block(1), m_amg);
  }
};

template <int dim>
class Stokes {
 public:
  static constexpr double viscosity = Flow<dim>::viscosity;

  explicit Stokes(unsigned initial)
      : fe_(dl::FE_Q<dim>(2), dim, dl::FE_Q<dim>(1), 1), dofs_(mesh_) {
    dl::GridGenerator::hyper_cube(mesh_, Flow<dim>::low, Flow<dim>::high);
    mesh_.refine_global(initial);
  }

  // Collective. The dofs numbered block-wise (velocities, then pressures),
  // each block's owned and relevant sets, and the constraints: the exact
  // velocity on the boundary (and hanging nodes, were there any).
  void setup() {
    dofs_.distribute_dofs(fe_);
    std::vector<unsigned> block_of_component(dim + 1, 0);
    block_of_component[dim] = 1;
    dl::DoFRenumbering::component_wise(dofs_, block_of_component);
    const auto per_block = dl::DoFTools::count_dofs_per_fe_block(dofs_, block_of_component);
    n_u_ = per_block[0];
    owned_all_ = dofs_.locally_owned_dofs();
    relevant_all_ = dl::DoFTools::extract_locally_relevant_dofs(dofs_);
    owned_ = {owned_all_.get_view(0, n_u_), owned_all_.get_view(n_u_, dofs_.n_dofs())};
    relevant_ = {relevant_all_.get_view(0, n_u_), relevant_all_.get_view(n_u_, dofs_.n_dofs())};
    dapetra::dealii::compat::reinit_constraints(constraints_, owned_all_, relevant_all_);
    dl::DoFTools::make_hanging_node_constraints(dofs_, constraints_);
    const dl::FEValuesExtractors::Vector velocity(0);
    dl::VectorTools::interpolate_boundary_values(dofs_, 0, Exact<dim>(), constraints_, fe_.component_mask(velocity));
    constraints_.close();
  }
  void refine() { mesh_.refine_global(1); }

  // This process's patterns, over its locally relevant rows: K couples each
  // velocity component with itself and with the pressure; P's velocity
  // block (present only when `velocity_in_p`) likewise, its pressure block
  // the pressures.
  dl::BlockDynamicSparsityPattern pattern_of_k() const { return pattern(true, false); }
  dl::BlockDynamicSparsityPattern pattern_of_p(bool velocity_in_p) const { return pattern(false, velocity_in_p); }

  // Collective. The cells' matrices into K and P (A into P's first block
  // when `velocity_in_p`), and the body force into rhs, through the constraints.
  template <class Matrix, class Rhs>
  void assemble(Matrix& k, Matrix& p, Rhs& rhs, bool velocity_in_p) const {
    k = 0;
    p = 0;
    rhs = 0;
    const dl::QGauss<dim> quadrature(3);
    dl::FEValues<dim> values(fe_, quadrature, dl::update_values | dl::update_gradients | dl::update_quadrature_points |
                                                  dl::update_JxW_values);
    const unsigned n = fe_.n_dofs_per_cell();
    dl::FullMatrix<double> cell_k(n, n), cell_p(n, n);
    dl::Vector<double> cell_rhs(n);
    std::vector<dl::types::global_dof_index> indices(n);
    std::vector<dl::Tensor<2, dim>> grad_u(n);
    std::vector<dl::Tensor<1, dim>> phi_u(n);
    std::vector<double> div_u(n), phi_p(n);
    const dl::FEValuesExtractors::Vector velocity(0);
    const dl::FEValuesExtractors::Scalar pressure(dim);
    for (const auto& cell : dofs_.active_cell_iterators()) {
      if (!cell->is_locally_owned()) continue;
      values.reinit(cell);
      cell_k = 0;
      cell_p = 0;
      cell_rhs = 0;
      for (unsigned q = 0; q < quadrature.size(); ++q) {
        const double dx = values.JxW(q);
        const dl::Tensor<1, dim> f = Flow<dim>::force(values.quadrature_point(q));
        for (unsigned i = 0; i < n; ++i) {
          grad_u[i] = values[velocity].gradient(i, q);
          phi_u[i] = values[velocity].value(i, q);
          div_u[i] = values[velocity].divergence(i, q);
          phi_p[i] = values[pressure].value(i, q);
        }
        for (unsigned i = 0; i < n; ++i) {
          for (unsigned j = 0; j < n; ++j) {
            const double a = viscosity * dl::scalar_product(grad_u[i], grad_u[j]);
            cell_k(i, j) += (a - div_u[i] * phi_p[j] - phi_p[i] * div_u[j]) * dx;
            cell_p(i, j) += ((velocity_in_p ? a : 0.0) + phi_p[i] * phi_p[j] / viscosity) * dx;
          }
          cell_rhs(i) += phi_u[i] * f * dx;
        }
      }
      cell->get_dof_indices(indices);
      constraints_.distribute_local_to_global(cell_k, cell_rhs, indices, k, rhs);
      constraints_.distribute_local_to_global(cell_p, indices, p);
    }
    k.compress(dl::VectorOperation::add);
    p.compress(dl::VectorOperation::add);
    rhs.compress(dl::VectorOperation::add);
  }

  // The Tpetra side's system: K, P (A in its first block when
  // `velocity_in_p`, else the pressure mass matrix alone), the right-hand
  // side as deal.II's block vector and as a Tpetra vector b, the solution x,
  // and the fields of K's rows.
  struct TpetraSystem {
    TpetraSystem(const Stokes& stokes, bool velocity_in_p)
        : k(stokes.owned_, stokes.pattern_of_k(), MPI_COMM_WORLD),
          p(stokes.owned_, stokes.pattern_of_p(velocity_in_p), MPI_COMM_WORLD),
          rhs(stokes.owned_, stokes.relevant_, MPI_COMM_WORLD) {}
    dapetra::dealii::TpetraSparseMatrix k, p;
    BlockVector rhs;
    std::optional<dapetra::tpetra::FieldSplit> fields;  // (K's row map is its owned rows' once assembled)
    Teuchos::RCP<dapetra::tpetra::MultiVector<double>> b, x;
  };

  // Collective. A TpetraSystem's structure and assembly, timed into `t`;
  // b the right-hand side, x zero (step-55's start).
  std::unique_ptr<TpetraSystem> tpetra_system(bool velocity_in_p, Timed& t) const {
    auto t0 = std::chrono::steady_clock::now();
    auto system = std::make_unique<TpetraSystem>(*this, velocity_in_p);
    t.structure = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    assemble(system->k, system->p, system->rhs, velocity_in_p);
    t.assembly = seconds_since(t0);
    const auto rows = system->k.tpetra_matrix()->getRowMap();
    system->fields.emplace(dapetra::tpetra::FieldSplit::in_blocks(rows, system->k.owned_rows_per_block()));
    system->b = Teuchos::rcp(new dapetra::tpetra::MultiVector<double>(rows, 1));
    system->x = Teuchos::rcp(new dapetra::tpetra::MultiVector<double>(rows, 1));
    dapetra::dealii::copy_block_vector_to_tpetra(system->rhs, *system->b);
    return system;
  }

  // Collective. A Tpetra solve's outcome into `t`, and its x into `solution`.
  void record(const dapetra::tpetra::SolveResult& result, const TpetraSystem& system, Timed& t,
              BlockVector& solution) const {
    t.iterations = result.iterations;
    t.residual = result.relative_residual;
    t.converged = result.converged;
    BlockVector owned(owned_, MPI_COMM_WORLD);
    dapetra::dealii::copy_tpetra_to_block_vector(*system.x, owned);
    finish(owned, solution);
  }

  static dapetra::tpetra::SolverOptions solver_options(double tolerance) {
    dapetra::tpetra::SolverOptions options;
    options.tolerance = tolerance;
    options.max_iterations = 2000;
    return options;
  }

  // Collective. Dapetra's path: the block matrices' structure, assembly,
  // and Belos with the block preconditioner (MINRES with the diagonal kind),
  // into `solution` (owned and relevant entries, constraints distributed,
  // the pressure's mean removed).
  Timed solve_with_dapetra(BlockVector& solution, double tolerance, const dapetra::tpetra::BlockOptions& block) const {
    Timed t;
    const auto system = tpetra_system(true, t);
    const auto t0 = std::chrono::steady_clock::now();
    const auto result =
        dapetra::tpetra::solve_block_system(*system->fields, system->k.tpetra_matrix(), *system->p.tpetra_matrix(),
                                            system->x, system->b, block, solver_options(tolerance));
    t.solve = seconds_since(t0);
    record(result, *system, t, solution);
    return t;
  }

#ifdef DAPETRA_STEP55_TEKO
  // Collective. The same Tpetra system solved by the same Belos GMRES with
  // Teko's block Gauss-Seidel, its upper triangle, over [[A, B^T], [B, -S]]
  // (S = Mp / viscosity), with `block`'s two inner preconditioners by name
  // through Stratimikos (MueLu and Ifpack2's relaxation): the block upper
  // triangular kind, Teko's way. The monolithic [[A, B^T], [B, -S]] is
  // formed from K and S outside the timed solve (a code taking Teko's way
  // would assemble it), and counted with the assembly.
  Timed solve_with_teko(BlockVector& solution, double tolerance, const dapetra::tpetra::BlockOptions& block) const {
    using dapetra::tpetra::CrsMatrix;
    Timed t;
    const auto system = tpetra_system(false, t);
    auto t0 = std::chrono::steady_clock::now();
    const Teuchos::RCP<const CrsMatrix> p =
        Tpetra::MatrixMatrix::add(1.0, false, *system->k.tpetra_matrix(), -1.0, false, *system->p.tpetra_matrix());
    t.assembly += seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    const auto rows = system->k.tpetra_matrix()->getRowMap();
    std::vector<std::vector<Teko::GO>> vars(2);
    for (std::size_t f = 0; f < 2; ++f)
      for (const auto row : system->fields->owned_rows(f)) vars[f].push_back(rows->getGlobalElement(row));
    const auto blocked = Teuchos::rcp(new Teko::TpetraHelpers::BlockedTpetraOperator(vars, p));
    Teuchos::ParameterList library;
    Teuchos::ParameterList& upper = library.sublist("upper triangle");
    upper.set("Type", "Block Gauss-Seidel");
    upper.set("Use Upper Triangle", true);
    upper.set("Inverse Type", "first");  // (the default for unnamed blocks: 16.1 looks it up, "Amesos" otherwise)
    upper.set("Inverse Type 1", "first");
    upper.set("Inverse Type 2", "second");
    Teuchos::ParameterList& first = library.sublist("first");
    first.setParameters(dapetra::tpetra::muelu_parameters_for_cg());
    first.setParameters(block.first_parameters);
    first.set("Type", "MueLu");
    Teuchos::ParameterList& second = library.sublist("second");
    second.set("Type", "Ifpack2");
    second.set("Prec Type", "RELAXATION");
    second.sublist("Ifpack2 Settings").setParameters(block.second_parameters);
    const auto builder = Teuchos::rcp(new Stratimikos::DefaultLinearSolverBuilder);
    Stratimikos::enableMueLu(*builder);
    builder->setPreconditioningStrategyFactory(  // (Debian's Stratimikos has no Ifpack2 of its own)
        Teuchos::abstractFactoryStd<Thyra::PreconditionerFactoryBase<double>,
                                    Thyra::Ifpack2PreconditionerFactory<CrsMatrix>>(),
        "Ifpack2");
    const auto inverse =
        Teko::InverseLibrary::buildFromParameterList(library, builder)->getInverseFactory("upper triangle");
    const auto preconditioner = Teuchos::rcp(new Teko::TpetraHelpers::InverseFactoryOperator(inverse));
    preconditioner->initInverse();
    preconditioner->buildInverseOperator(Teuchos::rcp_implicit_cast<const dapetra::tpetra::Operator>(blocked));
    dapetra::tpetra::BlockOptions upper_kind = block;
    upper_kind.kind = dapetra::tpetra::BlockKind::upper_triangular;
    const auto result = dapetra::tpetra::solve_with(
        system->k.tpetra_matrix(), system->x, system->b, preconditioner,
        dapetra::tpetra::BlockPreconditioner::solver_options(upper_kind, solver_options(tolerance)));
    t.solve = seconds_since(t0);
    record(result, *system, t, solution);
    return t;
  }
#endif

  // Collective. deal.II's path `Path` as step-55 takes it: the pattern
  // distributed to the owners, its block matrices and vector, assembly,
  // deal.II's MINRES with step-55's preconditioner.
  template <class Path>
  Timed solve_with_deal_ii(BlockVector& solution, double tolerance) const {
    Timed t;
    auto t0 = std::chrono::steady_clock::now();
    typename Path::Matrix k, p;
    for (const bool is_p : {false, true}) {
      dl::BlockDynamicSparsityPattern pattern = is_p ? pattern_of_p(false) : pattern_of_k();
      dl::SparsityTools::distribute_sparsity_pattern(pattern, owned_all_, MPI_COMM_WORLD, relevant_all_);
      (is_p ? p : k).reinit(owned_, pattern, MPI_COMM_WORLD);
    }
    typename Path::Vector rhs(owned_, MPI_COMM_WORLD);
    t.structure = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    assemble(k, p, rhs, false);
    t.assembly = seconds_since(t0);
    t0 = std::chrono::steady_clock::now();
    typename Path::Amg a_amg, m_amg;
    a_amg.initialize(k.block(0, 0), Path::amg_data());
    m_amg.initialize(p.block(1, 1), Path::amg_data());
    const DealIIBlockDiagonal<Path> preconditioner{p, a_amg, m_amg};
    dl::SolverControl control(k.m(), tolerance * rhs.l2_norm());
    dl::SolverMinRes<typename Path::Vector> minres(control);
    typename Path::Vector x(owned_, MPI_COMM_WORLD);
    constraints_.set_zero(x);
    try {
      minres.solve(k, x, rhs, preconditioner);
      t.converged = true;
    } catch (const dl::SolverControl::NoConvergence&) {
      t.converged = false;
    }
    t.solve = seconds_since(t0);
    t.iterations = static_cast<int>(control.last_step());
    BlockVector owned(owned_, MPI_COMM_WORLD);
    for (unsigned b = 0; b < 2; ++b)
      for (const auto g : owned_[b]) owned.block(b)(g) = x.block(b)(g);
    finish(owned, solution);
    return t;
  }

  // A vector of owned and relevant entries, zero.
  BlockVector relevant_vector() const { return BlockVector(owned_, relevant_, MPI_COMM_WORLD); }

  // Collective. The L2 errors of the velocity and of the pressure.
  std::pair<double, double> errors(const BlockVector& solution) const {
    const dl::ComponentSelectFunction<dim> velocity_mask(std::make_pair(0, dim), dim + 1);
    const dl::ComponentSelectFunction<dim> pressure_mask(dim, dim + 1);
    dl::Vector<double> per_cell(mesh_.n_active_cells());
    const dl::QGauss<dim> quadrature(4);
    double out[2];
    int i = 0;
    for (const auto* mask : {&velocity_mask, &pressure_mask}) {
      dl::VectorTools::integrate_difference(dofs_, solution, Exact<dim>(), per_cell, quadrature, dl::VectorTools::L2_norm,
                                            mask);
      out[i++] = dl::VectorTools::compute_global_error(mesh_, per_cell, dl::VectorTools::L2_norm);
    }
    return {out[0], out[1]};
  }

  dl::types::global_dof_index n_dofs() const { return dofs_.n_dofs(); }
  dl::types::global_dof_index n_velocities() const { return n_u_; }

 private:
  dl::BlockDynamicSparsityPattern pattern(bool system, bool velocity_in_p) const {
    dl::Table<2, dl::DoFTools::Coupling> coupling(dim + 1, dim + 1);
    for (unsigned c = 0; c <= dim; ++c)
      for (unsigned d = 0; d <= dim; ++d) {
        const bool both_velocity = c < dim && d < dim, both_pressure = c == dim && d == dim;
        const bool couple = system ? (both_velocity ? c == d : !both_pressure)
                                   : (both_pressure || (velocity_in_p && both_velocity && c == d));
        coupling[c][d] = couple ? dl::DoFTools::always : dl::DoFTools::none;
      }
    dl::BlockDynamicSparsityPattern out(relevant_);
    dl::DoFTools::make_sparsity_pattern(dofs_, coupling, out, constraints_, false);
    return out;
  }

  // The owned solution with its constraints distributed, the pressure's
  // mean removed, into `solution` with its ghosts.
  void finish(BlockVector& owned, BlockVector& solution) const {
    constraints_.distribute(owned);
    solution = owned;
    solution.update_ghost_values();
    const double mean = dl::VectorTools::compute_mean_value(dofs_, dl::QGauss<dim>(3), solution, dim);
    owned.block(1).add(-mean);
    solution = owned;
    solution.update_ghost_values();
  }

  dl::parallel::distributed::Triangulation<dim> mesh_{MPI_COMM_WORLD};
  dl::FESystem<dim> fe_;
  dl::DoFHandler<dim> dofs_;
  dl::types::global_dof_index n_u_ = 0;
  dl::IndexSet owned_all_, relevant_all_;
  std::vector<dl::IndexSet> owned_, relevant_;
  dl::AffineConstraints<double> constraints_;
};

// Collective. max |a - b| / max |b| over the owned entries of both blocks.
double relative_difference(const BlockVector& a, const BlockVector& b) {
  double local[2] = {0, 0}, global[2];
  for (unsigned k = 0; k < 2; ++k)
    for (std::size_t i = 0; i < a.block(k).locally_owned_size(); ++i) {
      const auto e = static_cast<BlockVector::BlockType::size_type>(i);
      local[0] = std::max(local[0], std::abs(a.block(k).local_element(e) - b.block(k).local_element(e)));
      local[1] = std::max(local[1], std::abs(b.block(k).local_element(e)));
    }
  MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return global[1] > 0 ? global[0] / global[1] : global[0];
}

struct Options {
  int dim = 2;
  unsigned initial = 3, cycles = 4;
  bool compare = false;
  bool teko = false;  // also solve with Teko's block Gauss-Seidel
  double tolerance = 1e-10;
  double agree = -1;  // how far apart the solutions may lie (relative, max norm); -1: 1e4 * tolerance
  std::string report;
  dapetra::tpetra::BlockOptions block;  // Dapetra's defaults (BlockOptions::velocity_multigrid() on A)
};

dapetra::tpetra::BlockKind kind_of(const std::string& name) {
  if (name == "diagonal") return dapetra::tpetra::BlockKind::diagonal;
  if (name == "upper") return dapetra::tpetra::BlockKind::upper_triangular;
  throw std::invalid_argument("--kind: diagonal or upper, not " + name);
}

// The Krylov method solve_block_system() runs for these options.
const char* krylov_name(const dapetra::tpetra::BlockOptions& block) {
  if (block.kind == dapetra::tpetra::BlockKind::diagonal) return "MINRES";
  return block.first_tolerance > 0 || block.second_tolerance > 0 ? "Flexible GMRES" : "GMRES";
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool value = i + 1 < argc;
    if (a == "--dim" && value) o.dim = std::stoi(argv[++i]);
    else if (a == "--kind" && value) o.block.kind = kind_of(argv[++i]);
    else if (a == "--initial" && value) o.initial = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (a == "--cycles" && value) o.cycles = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (a == "--tol" && value) o.tolerance = std::stod(argv[++i]);
    else if (a == "--report" && value) o.report = argv[++i];
    else if (a == "--agree" && value) o.agree = std::stod(argv[++i]);
    else if (a == "--compare") o.compare = true;
    else if (a == "--teko")
      o.teko = true;
    else if (a == "--sweeps" && value) o.block.second_parameters.set("relaxation: sweeps", std::stoi(argv[++i]));
    else if (a == "--drop" && value) o.block.first_parameters.set("aggregation: drop tol", std::stod(argv[++i]));
    else if (a == "--first-tolerance" && value) o.block.first_tolerance = std::stod(argv[++i]);
    else if (a == "--second-tolerance" && value) o.block.second_tolerance = std::stod(argv[++i]);
    else if (a == "--first-xml" && value) Teuchos::updateParametersFromXmlFile(argv[++i], Teuchos::inOutArg(o.block.first_parameters));
    else
      throw std::invalid_argument(
          "usage: dapetra-step55 [--dim 2|3] [--kind diagonal|upper] [--teko] [--initial N] [--cycles K] [--compare] "
          "[--tol T] [--agree D] [--report FILE.json] [--sweeps N] [--drop T] [--first-xml FILE] [--first-tolerance T] "
          "[--second-tolerance T]");
  }
  if (o.agree < 0) o.agree = 1e4 * o.tolerance;
  return o;
}

nlohmann::json row_of(const Timed& t) {
  return {{"structure_s", t.structure}, {"assembly_s", t.assembly}, {"solve_s", t.solve},
          {"iterations", t.iterations}, {"relative_residual", t.residual}, {"converged", t.converged}};
}

// deal.II's path on the same mesh, timed, and how far its solution lies
// from `ours`; returns whether it converged and agrees within `agree`.
template <class Path, int dim>
bool compare(const Stokes<dim>& stokes, const BlockVector& ours, double tolerance, double agree, bool root, nlohmann::json& row) {
  BlockVector theirs = stokes.relevant_vector();
  const Timed t = stokes.template solve_with_deal_ii<Path>(theirs, tolerance);
  const double difference = relative_difference(ours, theirs);
  row[Path::name] = row_of(t);
  row[Path::name]["difference"] = difference;
  if (root)
    std::printf("  deal.II's %s path: structure %.3f s, assembly %.3f s, MINRES %d iterations in %.3f s%s; "
                "max |x - x_%s| / max |x_%s| = %.1e\n",
                Path::name, t.structure, t.assembly, t.iterations, t.solve, t.converged ? "" : " (NOT CONVERGED)",
                Path::name, Path::name, difference);
  return t.converged && difference <= agree;
}

// Whether this build solves Teko's way too (--teko); each report row says so.
#ifdef DAPETRA_STEP55_TEKO
constexpr bool kTekoBuilt = true;
#else
constexpr bool kTekoBuilt = false;
#endif

// Collective. Teko's way on the same mesh (solve_with_teko), timed, and how
// far its solution lies from `ours`; returns whether it converged and
// agrees within --agree. Without Teko in the build, says so and fails.
template <int dim>
bool compare_teko(const Stokes<dim>& stokes, const BlockVector& ours, const Options& o, bool root,
                  nlohmann::json& row) {
#ifdef DAPETRA_STEP55_TEKO
  BlockVector theirs = stokes.relevant_vector();
  const Timed t = stokes.solve_with_teko(theirs, o.tolerance, o.block);
  const double difference = relative_difference(ours, theirs);
  row["teko"] = row_of(t);
  row["teko"]["difference"] = difference;
  if (root)
    std::printf(
        "  Teko's block Gauss-Seidel (upper triangle), same inner preconditioners: structure %.3f s, assembly "
        "%.3f s, GMRES %d iterations in %.3f s%s (|b - K x| / |b| = %.1e); max |x - x_teko| / max |x_teko| = %.1e\n",
        t.structure, t.assembly, t.iterations, t.solve, t.converged ? "" : " (NOT CONVERGED)", t.residual, difference);
  return t.converged && difference <= o.agree;
#else
  (void)stokes, (void)ours, (void)o, (void)row;
  if (root) std::printf("  --teko: this build has no Teko\n");
  return false;
#endif
}

// Collective. The cycles of one dimension's problem; the exit status.
template <int dim>
int run(const Options& o, bool root) {
  Stokes<dim> stokes(o.initial);
  nlohmann::json report = nlohmann::json::array();
  bool ok = true;
  std::vector<std::pair<double, double>> errors;
  double rate_u = 0, rate_p = 0;
  for (unsigned cycle = 0; cycle < o.cycles; ++cycle) {
    if (cycle > 0) stokes.refine();
    stokes.setup();
    BlockVector solution = stokes.relevant_vector();
    const Timed ours = stokes.solve_with_dapetra(solution, o.tolerance, o.block);
    errors.push_back(stokes.errors(solution));
    const auto [e_u, e_p] = errors.back();
    if (errors.size() > 1) {
      rate_u = std::log2(errors[errors.size() - 2].first / e_u);
      rate_p = std::log2(errors[errors.size() - 2].second / e_p);
    }
    nlohmann::json row = row_of(ours);
    row["cycle"] = cycle;
    row["dofs"] = stokes.n_dofs();
    row["error_u"] = e_u;
    row["error_p"] = e_p;
    row["teko_built"] = kTekoBuilt;
    if (root) {
      std::printf("cycle %u: %u dofs (%u + %u); Tpetra: structure %.3f s, assembly %.3f s, %s %d iterations in %.3f s%s"
                  " (|b - K x| / |b| = %.1e)\n",
                  cycle, static_cast<unsigned>(stokes.n_dofs()), static_cast<unsigned>(stokes.n_velocities()),
                  static_cast<unsigned>(stokes.n_dofs() - stokes.n_velocities()), ours.structure, ours.assembly,
                  krylov_name(o.block), ours.iterations, ours.solve, ours.converged ? "" : " (NOT CONVERGED)",
                  ours.residual);
      std::printf("  L2 errors: velocity %.3e, pressure %.3e", e_u, e_p);
      if (errors.size() > 1) std::printf("; rates %.2f, %.2f", rate_u, rate_p);
      std::printf("\n");
    }
    ok = ok && ours.converged;
    if (o.compare) {
      ok = compare<TrilinosPath>(stokes, solution, o.tolerance, o.agree, root, row) && ok;
      ok = compare<PetscPath>(stokes, solution, o.tolerance, o.agree, root, row) && ok;
    }
    if (o.teko) ok = compare_teko(stokes, solution, o, root, row) && ok;
    report.push_back(row);
  }
  const bool rates_hold = o.cycles < 3 || (rate_u >= 2.7 && rate_p >= 1.7);
  if (root && !o.report.empty()) std::ofstream(o.report) << report.dump(1) << "\n";
  if (root && !ok) std::printf("FAILED: a solve did not converge, or a solution differs from deal.II's own\n");
  if (root && !rates_hold) std::printf("FAILED: the errors fall slower than Taylor-Hood's rates (3, 2)\n");
  return ok && rates_hold ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const dl::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  const bool root = dl::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0;
  try {
    const Options o = parse(argc, argv);
    if (o.dim == 2) return run<2>(o, root);
    if (o.dim == 3) return run<3>(o, root);
    throw std::invalid_argument("--dim: 2 or 3, not " + std::to_string(o.dim));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dapetra-step55: %s\n", e.what());
    return 2;
  }
}
