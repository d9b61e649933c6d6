/// \file
/// dapetra/tpetra/solver.hpp: a Belos solve with MueLu or an Ifpack2 preconditioner, set up once for everyone.
///
/// The finite-element example, Python's dapetra.solve and the PETSc example
/// solve the same way: Belos (CG, GMRES or MINRES) in place on views of DAP
/// arrays, preconditioned by MueLu's smoothed aggregation with Dapetra's
/// settings for CG (muelu_parameters.hpp) or by an Ifpack2 preconditioner by
/// name, with the caller's parameters on top. This header is that one way.
///
/// Header-only, so Dapetra::tpetra itself links no solver: include it where
/// Belos and Ifpack2 are linked, and MueLu too unless DAPETRA_WITHOUT_MUELU
/// is defined (then "MueLu" is refused as an unknown preconditioner).
#pragma once

#include <BelosLinearProblem.hpp>
#include <BelosSolverFactory.hpp>
#include <BelosTpetraAdapter.hpp>
#include <Ifpack2_Factory.hpp>
#include <Teuchos_ParameterList.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_MultiVector.hpp>
#ifndef DAPETRA_WITHOUT_MUELU
#include <MueLu_CreateTpetraPreconditioner.hpp>
#endif

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "dapetra/mpi/agree.hpp"
#include "dapetra/tpetra/comm.hpp"
#include "dapetra/tpetra/compat.hpp"
#include "dapetra/tpetra/muelu_parameters.hpp"
#include "dapetra/tpetra/types.hpp"

namespace dapetra::tpetra {

/// A Tpetra operator on doubles (a matrix, or a preconditioner).
using Operator = Tpetra::Operator<double, LO, GO, Node>;

/// How solve() solves; every process must pass the same.
struct SolverOptions {
  /// Belos' method: "CG" (symmetric positive definite), "GMRES", "MINRES",
  /// or "Flexible GMRES" (for a preconditioner that is itself a Krylov
  /// solve, InnerSolve).
  std::string method = "CG";
  /// "MueLu" (smoothed aggregation, muelu_parameters_for_cg()), an Ifpack2
  /// name ("RELAXATION": symmetric Gauss-Seidel, one sweep; "ILUT", "RILUK",
  /// "CHEBYSHEV", ...) or "none".
  std::string preconditioner = "MueLu";
  /// Overrides of the preconditioner's own parameters (MueLu's or Ifpack2's names).
  Teuchos::ParameterList parameters;
  /// Relative residual |b - A x| / |b| to reach, per column.
  double tolerance = 1e-10;
  /// Belos' iteration limit.
  int max_iterations = 1000;
  /// Unknowns per node, interleaved (node * equations_per_node + component),
  /// as DOLFINx and PETSc number vector-valued systems: MueLu's "number of
  /// equations", so that it aggregates nodes, not single unknowns.
  int equations_per_node = 1;
  /// MueLu's near-nullspace: one column per mode, on the matrix's row map
  /// (rigid_body_modes() builds elasticity's). Null: MueLu's default, a
  /// constant per equation, which suits scalar problems only.
  Teuchos::RCP<MultiVector<double>> near_nullspace;
};

/// The rigid-body modes of an elastic body, as MueLu's near-nullspace: in
/// 2-D two translations and the rotation (-y, x); in 3-D three translations
/// and the rotations about the three axes. Local: not collective.
/// @param map the matrix's row map: unknown node * dim + component, for this
///   process's owned nodes in order.
/// @param coordinates the owned nodes' coordinates, dim per node, node after node.
/// @param dim 2 or 3.
/// @return a MultiVector on `map` with 3 (2-D) or 6 (3-D) columns.
inline Teuchos::RCP<MultiVector<double>> rigid_body_modes(const Teuchos::RCP<const Map>& map, const double* coordinates,
                                                          int dim) {
  if (dim != 2 && dim != 3) throw std::invalid_argument("dapetra::tpetra::rigid_body_modes: dim is 2 or 3");
  const int modes = dim == 2 ? 3 : 6;
  auto out = Teuchos::rcp(new MultiVector<double>(map, static_cast<std::size_t>(modes)));
  const std::size_t nodes = compat::local_num_elements(*map) / static_cast<std::size_t>(dim);
  auto v = out->getLocalViewHost(Tpetra::Access::ReadWrite);  // zeros but for the entries set below
  for (std::size_t n = 0; n < nodes; ++n) {
    const double* x = coordinates + n * static_cast<std::size_t>(dim);
    const std::size_t row = n * static_cast<std::size_t>(dim);
    for (int c = 0; c < dim; ++c) v(row + static_cast<std::size_t>(c), static_cast<std::size_t>(c)) = 1.0;  // translations
    if (dim == 2) {
      v(row, 2) = -x[1];
      v(row + 1, 2) = x[0];
    } else {
      v(row + 1, 3) = -x[2], v(row + 2, 3) = x[1];  // about x
      v(row, 4) = x[2], v(row + 2, 4) = -x[0];      // about y
      v(row, 5) = -x[1], v(row + 1, 5) = x[0];      // about z
    }
  }
  return out;
}

/// What solve() did.
struct SolveResult {
  /// Belos' iterations.
  int iterations = 0;
  /// The largest column's |b - A x| / |b|, recomputed after the solve.
  double relative_residual = 0;
  /// Whether Belos reports convergence.
  bool converged = false;
};

namespace detail {

// The preconditioner itself, set up on this process's part (collective
// inside MueLu and Ifpack2).
inline Teuchos::RCP<Operator> set_up_preconditioner(const Teuchos::RCP<CrsMatrix>& a, const std::string& name,
                                                    const Teuchos::ParameterList& overrides, int equations_per_node,
                                                    const Teuchos::RCP<MultiVector<double>>& near_nullspace) {
  if (name == "none") return Teuchos::null;
  if (name == "MueLu") {
#ifndef DAPETRA_WITHOUT_MUELU
    Teuchos::ParameterList params = muelu_parameters_for_cg(equations_per_node);
    // Dapetra's coarse parameters are a smoother's: a caller naming another
    // coarse solver (Amesos2's "KLU2", say) without its own parameters gets
    // that solver's defaults, not a list it refuses.
    if (overrides.isParameter("coarse: type") && !overrides.isParameter("coarse: params")) params.remove("coarse: params");
    if (!near_nullspace.is_null()) params.sublist("user data").set("Nullspace", near_nullspace);
    params.setParameters(overrides);
    return MueLu::CreateTpetraPreconditioner<double, LO, GO, Node>(Teuchos::RCP<Operator>(a), params);
#else
    throw std::invalid_argument("dapetra::tpetra::make_preconditioner: built without MueLu");
#endif
  }
  auto prec = Ifpack2::Factory::create<CrsMatrix>(name, a);
  Teuchos::ParameterList params;
  if (name == "RELAXATION") {
    params.set("relaxation: type", "Symmetric Gauss-Seidel");
    params.set("relaxation: sweeps", 1);
  }
  params.setParameters(overrides);
  prec->setParameters(params);
  prec->initialize();
  prec->compute();
  return prec;
}

}  // namespace detail

/// Collective over a's communicator. The preconditioner `name` names (see
/// SolverOptions::preconditioner), set up on `a`, with `overrides` on top
/// of Dapetra's defaults; null for "none". Costs one reduction beyond the
/// set-up: every process must pass the same name, overrides (MueLu's "user
/// data" aside), equations per node and near-nullspace presence, or every
/// process throws the same ValidationError (key "preconditioner", naming
/// the processes that differ) before any set-up. A set-up that throws on
/// every process (MueLu refusing its parameters, say) throws a
/// ValidationError on every process, with MueLu's or Ifpack2's message.
/// @param a the matrix.
/// @param name "MueLu", an Ifpack2 preconditioner's name, or "none".
/// @param overrides the preconditioner's parameters to change.
/// @param equations_per_node MueLu's "number of equations" (see SolverOptions).
/// @param near_nullspace MueLu's near-nullspace, or null (see SolverOptions).
/// @return the preconditioner, ready to apply (or null).
inline Teuchos::RCP<Operator> make_preconditioner(const Teuchos::RCP<CrsMatrix>& a, const std::string& name,
                                                  const Teuchos::ParameterList& overrides = {}, int equations_per_node = 1,
                                                  const Teuchos::RCP<MultiVector<double>>& near_nullspace = Teuchos::null) {
  const MPI_Comm comm = mpi_comm_of(*a->getComm());
  std::ostringstream arguments;
  arguments << name << '\n' << equations_per_node << '\n' << near_nullspace.is_null() << '\n';
  // (MueLu's "user data" holds each process's own objects, printed as
  // addresses: left out. No used-flags: those differ with what each
  // process read.)
  Teuchos::ParameterList compared = overrides;
  if (compared.isSublist("user data")) compared.remove("user data");
  compared.print(arguments, 0, true, false);
  std::vector<Problem> problems;
  if (!mpi::same_as_every_process(arguments.str(), comm))
    problems.push_back(Problem::of(a->getComm()->getRank(), "preconditioner", name,
                                   "every process names the same preconditioner, parameters and near-nullspace",
                                   "another process names others"));
  mpi::agree(problems, comm);
  Teuchos::RCP<Operator> prec;
  mpi::agree_on(comm, [&] { prec = detail::set_up_preconditioner(a, name, overrides, equations_per_node, near_nullspace); });
  return prec;
}

/// Collective over a's communicator. The largest column's |b - A x| / |b|
/// (|b - A x| where b is zero).
/// @param a the operator.
/// @param x the solution, on a's domain map.
/// @param b the right-hand side, on a's range map.
/// @return the worst column's relative residual.
inline double relative_residual(const Operator& a, const MultiVector<double>& x, const MultiVector<double>& b) {
  const std::size_t k = b.getNumVectors();
  MultiVector<double> r(a.getRangeMap(), k);
  a.apply(x, r);
  r.update(1.0, b, -1.0);
  std::vector<double> rn(k), bn(k);
  r.norm2(Teuchos::ArrayView<double>(rn));
  b.norm2(Teuchos::ArrayView<double>(bn));
  double worst = 0;
  for (std::size_t j = 0; j < k; ++j) worst = std::max(worst, bn[j] > 0 ? rn[j] / bn[j] : rn[j]);
  return worst;
}

/// Collective over a's communicator. Solves a x = b in place on x, every
/// column, with Belos and `prec` (null: none), x's values the initial guess.
/// `prec` is applied on the left, or on the right for "Flexible GMRES"
/// (which lets it change between applications, as an inner solve does).
/// @param a the matrix (a CrsMatrix, or any Tpetra operator such as a BlockCrsMatrix).
/// @param x the solution (and initial guess), on a's domain map; often a view of a DAP array.
/// @param b the right-hand side, on a's range map.
/// @param prec the preconditioner (make_preconditioner), or null.
/// @param options the method, tolerance and iteration limit (its preconditioner fields are not read).
/// @return iterations, the recomputed relative residual, and whether Belos converged.
inline SolveResult solve_with(const Teuchos::RCP<const Operator>& a, const Teuchos::RCP<MultiVector<double>>& x,
                              const Teuchos::RCP<MultiVector<double>>& b, const Teuchos::RCP<Operator>& prec,
                              const SolverOptions& options) {
  using MV = MultiVector<double>;
  auto problem = Teuchos::rcp(new Belos::LinearProblem<double, MV, Operator>(a, x, b));
  // A flexible method's preconditioner may change from one application to
  // the next (an inner solve); it is applied on the right, as it must be.
  const bool flexible = options.method == "Flexible GMRES";
  if (!prec.is_null() && flexible) problem->setRightPrec(prec);
  else if (!prec.is_null()) problem->setLeftPrec(prec);
  problem->setProblem();
  auto params = Teuchos::rcp(new Teuchos::ParameterList());
  params->set("Convergence Tolerance", options.tolerance);
  params->set("Maximum Iterations", options.max_iterations);
  Belos::SolverFactory<double, MV, Operator> factory;
  auto solver = factory.create(options.method, params);
  solver->setProblem(problem);
  SolveResult result;
  result.converged = solver->solve() == Belos::Converged;
  result.iterations = solver->getNumIters();
  result.relative_residual = relative_residual(*a, *x, *b);
  return result;
}

/// A Tpetra operator that applies a^-1 by a Krylov solve: each apply() runs
/// Belos' method on a, preconditioned by `prec`, from zero until the
/// relative residual falls below the tolerance or the iteration limit is
/// reached (not an error: an inner solve is a preconditioner). deal.II's
/// step-55 inverts the pressure mass matrix so, with CG and AMG. Not a
/// fixed linear operator: an outer Krylov method that uses it should be a
/// flexible one, or the tolerance tight. Built once; apply() is collective.
class InnerSolve : public Operator {
 public:
  /// Local (no communication): keeps a, prec and the settings.
  /// @param a the operator to invert.
  /// @param prec the inner preconditioner (make_preconditioner), or null.
  /// @param tolerance the relative residual each application reaches.
  /// @param max_iterations the limit per application.
  /// @param method Belos' method ("CG" for a symmetric positive definite a).
  InnerSolve(Teuchos::RCP<const Operator> a, Teuchos::RCP<Operator> prec, double tolerance, int max_iterations = 200,
             const std::string& method = "CG")
      : a_(std::move(a)), prec_(std::move(prec)) {
    params_->set("Convergence Tolerance", tolerance);
    params_->set("Maximum Iterations", max_iterations);
    solver_ = Belos::SolverFactory<double, MultiVector<double>, Operator>().create(method, params_);
  }
  /// @return a's domain map.
  Teuchos::RCP<const Map> getDomainMap() const override { return a_->getRangeMap(); }
  /// @return a's range map.
  Teuchos::RCP<const Map> getRangeMap() const override { return a_->getDomainMap(); }

  /// Collective: the Krylov iterations (each one a's and prec's apply, and
  /// two or three reductions).
  /// @param x the right-hand sides.
  /// @param y y = beta y + alpha a^-1 x (approximately).
  /// @param mode NO_TRANS only.
  /// @param alpha the scale of a^-1 x.
  /// @param beta the scale of y's values.
  void apply(const MultiVector<double>& x, MultiVector<double>& y, Teuchos::ETransp mode = Teuchos::NO_TRANS,
             double alpha = 1.0, double beta = 0.0) const override {
    if (mode != Teuchos::NO_TRANS) throw std::invalid_argument("dapetra::tpetra::InnerSolve: no transpose");
    const bool into_y = alpha == 1.0 && beta == 0.0;
    if (!into_y && (work_.is_null() || work_->getNumVectors() != x.getNumVectors()))
      work_ = Teuchos::rcp(new MultiVector<double>(y.getMap(), x.getNumVectors()));
    MultiVector<double>& z = into_y ? y : *work_;
    z.putScalar(0.0);
    auto problem = Teuchos::rcp(new Belos::LinearProblem<double, MultiVector<double>, Operator>(
        a_, Teuchos::rcpFromRef(z), Teuchos::rcpFromRef(x)));
    if (!prec_.is_null()) problem->setLeftPrec(prec_);
    problem->setProblem();
    solver_->setProblem(problem);
    solver_->reset(Belos::Problem);
    solver_->solve();
    last_iterations_ = solver_->getNumIters();
    if (!into_y) y.update(alpha, z, beta);
  }
  /// @return the iterations of the last apply().
  int last_iterations() const { return last_iterations_; }

 private:
  Teuchos::RCP<const Operator> a_;
  Teuchos::RCP<Operator> prec_;
  Teuchos::RCP<Teuchos::ParameterList> params_ = Teuchos::rcp(new Teuchos::ParameterList());
  Teuchos::RCP<Belos::SolverManager<double, MultiVector<double>, Operator>> solver_;
  mutable Teuchos::RCP<MultiVector<double>> work_;
  mutable int last_iterations_ = 0;
};

/// Collective over a's communicator. make_preconditioner, then solve_with.
/// @param a the matrix.
/// @param x the solution (and initial guess), on a's domain map.
/// @param b the right-hand side, on a's range map.
/// @param options how to solve.
/// @return iterations, the recomputed relative residual, and whether Belos converged.
inline SolveResult solve(const Teuchos::RCP<CrsMatrix>& a, const Teuchos::RCP<MultiVector<double>>& x,
                         const Teuchos::RCP<MultiVector<double>>& b, const SolverOptions& options = {}) {
  return solve_with(a, x, b,
                    make_preconditioner(a, options.preconditioner, options.parameters, options.equations_per_node,
                                        options.near_nullspace),
                    options);
}

}  // namespace dapetra::tpetra
