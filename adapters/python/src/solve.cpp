// dapetra.CrsMatrix and dapetra.solve: a Tpetra matrix from COO triplets in
// global indices on a DAP layout's owned map, and a Belos solve (CG, GMRES)
// with an Ifpack2 preconditioner, in place on DAP arrays' owned parts.
#include <pybind11/numpy.h>

#include <BelosLinearProblem.hpp>
#include <BelosSolverFactory.hpp>
#include <BelosTpetraAdapter.hpp>
#include <Ifpack2_Factory.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_Export.hpp>

#include <algorithm>
#include <numeric>

#include "bindings.hpp"
#include "dapetra/mpi/agree.hpp"
#include "dapetra/tpetra/tpetra.hpp"
#include "teuchos.hpp"

namespace dapetra::python {
namespace {

using tpetra::GO;
using tpetra::LO;
using tpetra::Map;
using tpetra::Node;
using tpetra::TpetraLayout;
using Matrix = Tpetra::CrsMatrix<double, LO, GO, Node>;
using MV = tpetra::MultiVector<double>;
using OP = Tpetra::Operator<double, LO, GO, Node>;

struct CrsMatrix {
  Teuchos::RCP<Matrix> matrix;
  std::shared_ptr<const TpetraLayout> layout;
};

std::vector<GO> as_global(const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>& a) {
  return std::vector<GO>(a.data(), a.data() + a.size());
}

// Triplets for any rows: each process's rows go into a matrix on the rows it
// names, which one Export sums into the owned map (Tpetra's own exact-size
// exportAndFillComplete).
CrsMatrix make_matrix(const py::object& like, const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>& rows,
                      const py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>& cols,
                      const py::array_t<double, py::array::c_style | py::array::forcecast>& values,
                      const py::object& comm_obj) {
  const auto comm = teuchos_comm(comm_obj);
  CrsMatrix out;
  out.layout = tpetra_layout_of(like, comm);
  std::vector<Problem> problems;
  if (rows.size() != cols.size() || rows.size() != values.size())
    problems.push_back({comm->getRank(), -1, "values", std::to_string(values.size()),
                        "rows, cols and values have the same length",
                        std::to_string(rows.size()) + " rows, " + std::to_string(cols.size()) + " cols"});
  mpi::agree(problems, out.layout->distribution()->comm());
  const std::vector<GO> r = as_global(rows), c = as_global(cols);
  const double* v = values.data();
  py::gil_scoped_release release;
  // The rows this process names, each with its triplets, in order.
  std::vector<std::size_t> order(r.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return r[a] < r[b]; });
  std::vector<GO> named;
  std::vector<std::size_t> counts;
  for (std::size_t k : order) {
    if (named.empty() || named.back() != r[k]) {
      named.push_back(r[k]);
      counts.push_back(0);
    }
    ++counts.back();
  }
  const auto owned = out.layout->owned_map();
  const auto invalid = Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid();
  auto named_map = Teuchos::rcp(new Map(invalid, Teuchos::ArrayView<const GO>(named), owned->getIndexBase(), comm));
  auto local = Teuchos::rcp(new Matrix(named_map, Teuchos::ArrayView<const std::size_t>(counts)));
  for (std::size_t k : order)
    local->insertGlobalValues(r[k], Teuchos::ArrayView<const GO>(&c[k], 1), Teuchos::ArrayView<const double>(&v[k], 1));
  local->fillComplete(owned, owned);
  Tpetra::Export<LO, GO, Node> exporter(named_map, owned);
  out.matrix = Tpetra::exportAndFillCompleteCrsMatrix<Matrix>(local, exporter, owned, owned);
  return out;
}

// Ifpack2's preconditioners by name; "none" for none.
Teuchos::RCP<OP> preconditioner(const std::string& name, const Teuchos::RCP<const Matrix>& a) {
  if (name == "none") return Teuchos::null;
  auto prec = Ifpack2::Factory::create<Matrix>(name, a);
  Teuchos::ParameterList params;
  if (name == "RELAXATION") {
    params.set("relaxation: type", "Symmetric Gauss-Seidel");
    params.set("relaxation: sweeps", 1);
  }
  prec->setParameters(params);
  prec->initialize();
  prec->compute();
  return prec;
}

// The owned parts of two protocol objects as Tpetra vectors (views), once
// every process has read and viewed its own (mpi::agree).
std::pair<Teuchos::RCP<MV>, Teuchos::RCP<MV>> owned_views(const CrsMatrix& a, const py::object& first,
                                                          const py::object& second, std::vector<Problem> problems) {
  const int rank = a.layout->distribution()->rank();
  Read one = read_distarray(first, rank), two = read_distarray(second, rank);
  problems.insert(problems.end(), one.problems.begin(), one.problems.end());
  problems.insert(problems.end(), two.problems.begin(), two.problems.end());
  std::pair<Teuchos::RCP<MV>, Teuchos::RCP<MV>> views;
  if (problems.empty()) {
    try {  // a layout Tpetra cannot view is this process's problem to report
      views = {tpetra::owned_view<double>(*a.layout, one.array), tpetra::owned_view<double>(*a.layout, two.array)};
    } catch (const ValidationError& e) {
      problems = e.problems();
    }
  }
  mpi::agree(problems, a.layout->distribution()->comm());
  return views;  // the views hold the buffers alive (keep_alive)
}

// Solves A x = b in place on x's owned part; returns (iterations, |b - A x| / |b|).
py::tuple solve(const CrsMatrix& a, const py::object& b_obj, const py::object& x_obj, const std::string& method,
                const std::string& prec_name, double tolerance, int max_iterations) {
  const std::map<std::string, std::string> belos{{"cg", "CG"}, {"gmres", "GMRES"}, {"minres", "MINRES"}};
  const auto solver_name = belos.find(method);
  std::vector<Problem> problems;
  if (solver_name == belos.end())
    problems.push_back({a.layout->distribution()->rank(), -1, "method", method, "method is 'cg', 'gmres' or 'minres'",
                        "an unknown Belos method"});
  const auto [bv, xv] = owned_views(a, b_obj, x_obj, std::move(problems));
  py::gil_scoped_release release;
  auto problem = Teuchos::rcp(new Belos::LinearProblem<double, MV, OP>(a.matrix, xv, bv));
  if (auto p = preconditioner(prec_name, a.matrix); !p.is_null()) problem->setLeftPrec(p);
  problem->setProblem();
  auto params = Teuchos::rcp(new Teuchos::ParameterList());
  params->set("Convergence Tolerance", tolerance);
  params->set("Maximum Iterations", max_iterations);
  Belos::SolverFactory<double, MV, OP> factory;
  auto solver = factory.create(solver_name->second, params);
  solver->setProblem(problem);
  solver->solve();
  MV residual(a.matrix->getRangeMap(), 1);
  a.matrix->apply(*xv, residual);
  residual.update(1.0, *bv, -1.0);
  std::vector<double> rn(1), bn(1);
  residual.norm2(Teuchos::ArrayView<double>(rn));
  bv->norm2(Teuchos::ArrayView<double>(bn));
  const int iterations = solver->getNumIters();
  py::gil_scoped_acquire gil;
  return py::make_tuple(iterations, bn[0] > 0 ? rn[0] / bn[0] : rn[0]);
}

}  // namespace

void bind_solve(py::module_& m) {
  if (import_mpi4py() < 0) throw py::error_already_set();  // mpi4py's C API is per translation unit
  py::class_<CrsMatrix>(m, "CrsMatrix", R"(A Tpetra CrsMatrix (double) on a DAP layout's owned rows.

CrsMatrix(like, rows, cols, values, comm=None) is collective: `like` is any
protocol object whose layout the vectors will have; rows, cols (global
indices, int64) and values are this process's COO triplets, for any rows:
duplicates are summed, and triplets of rows other processes own are sent
there (finite-element assembly).)")
      .def(py::init(&make_matrix), py::arg("like"), py::arg("rows"), py::arg("cols"), py::arg("values"),
           py::arg("comm") = py::none())
      .def_property_readonly("global_rows", [](const CrsMatrix& a) { return a.matrix->getGlobalNumRows(); })
      .def_property_readonly("global_entries", [](const CrsMatrix& a) { return a.matrix->getGlobalNumEntries(); })
      .def("apply", [](const CrsMatrix& a, const py::object& x_obj, const py::object& y_obj) {
             const auto [x, y] = owned_views(a, x_obj, y_obj, {});
             py::gil_scoped_release release;
             a.matrix->apply(*x, *y);
           },
           py::arg("x"), py::arg("y"), "y = A x on the owned parts of two protocol objects (collective).");

  m.def("solve", &solve, py::arg("A"), py::arg("b"), py::arg("x"), py::arg("method") = "cg",
        py::arg("preconditioner") = "RELAXATION", py::arg("tolerance") = 1e-10, py::arg("max_iterations") = 1000,
        R"(Solves A x = b with Belos (collective), in place on x's owned part.

b and x are protocol objects with the layout A was made on; their owned
elements must be viewable by Tpetra (owned first, or contiguous). method:
'cg', 'gmres' or 'minres'; preconditioner: an Ifpack2 name ('RELAXATION',
'ILUT', 'RILUK', 'CHEBYSHEV') or 'none'. Returns (iterations, relative
residual |b - A x| / |b|), the residual recomputed after the solve.)");
}

}  // namespace dapetra::python
