// dapetra.CrsMatrix and dapetra.solve: a Tpetra matrix on a DAP layout's
// owned map, from COO triplets in global indices or in bulk from CSR arrays,
// and a Belos solve (CG, GMRES, MINRES) with MueLu or an Ifpack2
// preconditioner, in place on DAP arrays' owned parts (one column or several).
#include <pybind11/numpy.h>

#include <Teuchos_DefaultSerialComm.hpp>
#include <Teuchos_XMLParameterListHelpers.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_Export.hpp>
#ifndef DAPETRA_PYTHON_MUELU
#define DAPETRA_WITHOUT_MUELU  // dapetra/tpetra/solver.hpp then makes no MueLu
#endif

#include <algorithm>
#include <array>
#include <numeric>

#include "bindings.hpp"
#include "dapetra/mpi/agree.hpp"
#include "dapetra/tpetra/block_system.hpp"
#include "dapetra/tpetra/compat_belos.hpp"
#include "dapetra/tpetra/crs_matrix.hpp"
#include "dapetra/tpetra/solver.hpp"
#include "dapetra/tpetra/tpetra.hpp"
#include "teuchos.hpp"

namespace dapetra::python {
namespace {

using tpetra::GO;
using tpetra::LO;
using tpetra::Map;
using tpetra::Node;
using tpetra::TpetraLayout;
using Matrix = tpetra::CrsMatrix;
using MV = tpetra::MultiVector<double>;
using OP = Tpetra::Operator<double, LO, GO, Node>;
using Int64Array = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

struct CrsMatrix {
  Teuchos::RCP<Matrix> matrix;
  std::shared_ptr<const TpetraLayout> layout;   // the rows' (and the range's)
  std::shared_ptr<const TpetraLayout> columns;  // the domain's: `layout` itself unless a block between two fields
  bool square() const { return columns == layout; }
};

std::vector<GO> as_global(const Int64Array& a) {
  return std::vector<GO>(a.data(), a.data() + a.size());
}

// `obj` as a NumPy array of Array's type, or an empty array and a problem
// for agree(): a conversion that fails on one process must not raise there
// alone while the others wait in the next collective.
template <class Array>
Array array_argument(const py::object& obj, const char* key, int rank, std::vector<Problem>& problems) {
  Array a = Array::ensure(obj);  // NumPy's own conversion; null (error cleared) when it fails
  if (a) return a;
  problems.push_back(Problem::of(rank, key, brief(obj), "an array NumPy converts to the element type",
                                 "a value of type " + std::string(py::str(py::type::handle_of(obj).attr("__name__")))));
  return Array(0);
}

// What both matrix constructors start from: the communicator, a matrix
// whose rows are `like`'s layout and whose columns are `columns`' (None:
// like's; collective), no problems yet, this rank. Every process passes
// columns, or none does (one reduction decides; else a problem on each).
struct MatrixStart {
  Teuchos::RCP<const tpetra::Comm> comm;
  CrsMatrix out;
  std::vector<Problem> problems;
  int rank = 0;
};

MatrixStart start_matrix(const py::object& like, const py::object& comm_obj, const py::object& columns_obj) {
  MatrixStart m;
  m.comm = teuchos_comm(comm_obj);
  m.out.layout = tpetra_layout_of(like, m.comm);
  m.rank = m.comm->getRank();
  m.out.columns = m.out.layout;
  const MPI_Comm comm = m.out.layout->distribution()->comm();
  if (mpi::all_true(columns_obj.is_none(), comm)) return m;
  if (!mpi::all_true(!columns_obj.is_none(), comm)) {
    m.problems.push_back(Problem::of(m.rank, "columns", brief(columns_obj),
                                     "every process passes columns, or none does", "some processes do not"));
    return m;
  }
  m.out.columns = tpetra_layout_of(columns_obj, m.comm);  // collective
  return m;
}

// Triplets for any rows: each process's rows go into a matrix on the rows it
// names, which one Export sums into the owned map (Tpetra's own exact-size
// exportAndFillComplete).
CrsMatrix make_matrix(const py::object& like, const py::object& rows_obj, const py::object& cols_obj,
                      const py::object& values_obj, const py::object& comm_obj, const py::object& columns_obj) {
  auto [comm, out, problems, rank] = start_matrix(like, comm_obj, columns_obj);  // collective: the layouts
  const auto rows = array_argument<Int64Array>(rows_obj, "rows", rank, problems);
  const auto cols = array_argument<Int64Array>(cols_obj, "cols", rank, problems);
  const auto values = array_argument<DoubleArray>(values_obj, "values", rank, problems);
  if (problems.empty() && (rows.size() != cols.size() || rows.size() != values.size()))
    problems.push_back(Problem::of(comm->getRank(), "values", std::to_string(values.size()),
                                   "rows, cols and values have the same length",
                                   std::to_string(rows.size()) + " rows, " + std::to_string(cols.size()) + " cols"));
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
  const auto domain = out.columns->owned_map();
  local->fillComplete(domain, owned);
  Tpetra::Export<LO, GO, Node> exporter(named_map, owned);
  out.matrix = Tpetra::exportAndFillCompleteCrsMatrix<Matrix>(local, exporter, domain, owned);
  return out;
}

// This process's owned rows in CSR form (SciPy's indptr, indices, data;
// petsc4py's getValuesCSR()), converted in bulk by the Tpetra adapter.
CrsMatrix matrix_from_csr(const py::object& like, const py::object& indptr_obj, const py::object& indices_obj,
                          const py::object& data_obj, const py::object& first_row_obj, const py::object& comm_obj,
                          const py::object& columns_obj) {
  auto [comm, out, problems, rank] = start_matrix(like, comm_obj, columns_obj);  // collective: the layouts
  const auto indptr = array_argument<Int64Array>(indptr_obj, "indptr", rank, problems);
  const auto indices = array_argument<Int64Array>(indices_obj, "indices", rank, problems);
  const auto data = array_argument<DoubleArray>(data_obj, "data", rank, problems);
  std::int64_t first_row = -1;
  try {
    first_row = first_row_obj.cast<std::int64_t>();
  } catch (const py::cast_error& e) {
    problems.push_back(
        Problem::of(rank, "first_row", py::str(py::repr(first_row_obj)), "first_row is an int", e.what()));
  }
  const bool converted = problems.empty();
  if (converted && indices.size() != data.size())
    problems.push_back(Problem::of(comm->getRank(), "data", std::to_string(data.size()),
                                   "indices and data have the same length",
                                   std::to_string(indices.size()) + " indices"));
  if (converted && indptr.size() < 1)
    problems.push_back(Problem::of(comm->getRank(), "indptr", "0", "indptr holds rows + 1 offsets", "indptr is empty"));
  mpi::agree(problems, out.layout->distribution()->comm());
  CsrView csr;
  csr.row_offsets = indptr.data();
  csr.num_rows = static_cast<std::size_t>(indptr.size() - 1);
  csr.columns = indices.data();
  csr.values = data.data();
  csr.num_entries = static_cast<std::size_t>(indices.size());
  csr.first_row = first_row;
  py::gil_scoped_release release;
  out.matrix = tpetra::crs_matrix_copy(*out.layout, *out.columns, csr);
  return out;
}

// A ParameterList from a dict (a nested dict is a sublist; values bool, int,
// float or str) or from the path of an XML file (Teuchos' format). What
// cannot be read is this process's problem, for agree().
void put(Teuchos::ParameterList& list, const py::dict& d, int rank, std::vector<Problem>& problems) {
  for (const auto& [k, v] : d) {
    const std::string key = py::str(k);
    try {  // a value that does not convert (an int past C's range) is a problem, not a local raise
      if (py::isinstance<py::dict>(v)) put(list.sublist(key), v.cast<py::dict>(), rank, problems);
      else if (py::isinstance<py::bool_>(v)) list.set(key, v.cast<bool>());
      else if (py::isinstance<py::int_>(v)) list.set(key, v.cast<int>());
      else if (py::isinstance<py::float_>(v)) list.set(key, v.cast<double>());
      else if (py::isinstance<py::str>(v)) list.set(key, v.cast<std::string>());
      else
        throw py::cast_error("a value of type " + std::string(py::str(py::type::handle_of(v).attr("__name__"))));
    } catch (const py::cast_error& e) {
      problems.push_back(Problem::of(rank, key, py::str(py::repr(v)),
                                     "a parameter is a bool, int (C range), float, str or dict", e.what()));
    }
  }
}

Teuchos::ParameterList parameters_from(const py::object& obj, int rank, std::vector<Problem>& problems) {
  Teuchos::ParameterList list;
  if (obj.is_none()) return list;
  if (py::isinstance<py::dict>(obj)) {
    put(list, obj.cast<py::dict>(), rank, problems);
  } else if (py::isinstance<py::str>(obj) || py::hasattr(obj, "__fspath__")) {
    const std::string path = py::str(py::module_::import("os").attr("fspath")(obj));
    try {
      Teuchos::updateParametersFromXmlFile(path, Teuchos::inoutArg(list));
    } catch (const std::exception& e) {
      problems.push_back(Problem::of(rank, "parameters", path, "an XML file of Teuchos parameters", e.what()));
    }
  } else {
    problems.push_back(Problem::of(rank, "parameters", py::str(py::repr(obj)),
                                   "parameters are a dict or an XML file's path", "an object of another type"));
  }
  return list;
}

// The owned parts of two protocol objects as Tpetra multivectors (views),
// once every process has read and viewed its own (mpi::agree): on the
// layouts `on` (the matrix's rows or columns), or with `column_axis` on
// their own layouts (several columns), whose owned maps must be those.
using Layouts = std::array<std::shared_ptr<const TpetraLayout>, 2>;
std::pair<Teuchos::RCP<MV>, Teuchos::RCP<MV>> owned_views(const Layouts& on, const py::object& first,
                                                          const py::object& second, std::vector<Problem> problems,
                                                          const py::object& column_axis = py::none()) {
  const int rank = on[0]->distribution()->rank();
  Layouts layouts = on;
  Read read[2];
  // One reduction first: if any process names a column axis, every process
  // takes the collective path below (an axis given on some processes only,
  // or not an int, then fails on every process, as creation decides).
  if (!mpi::all_true(column_axis.is_none(), on[0]->distribution()->comm())) {
    tpetra::TpetraLayoutOptions options;
    std::vector<Problem> axis_problems;
    options.column_axis = column_axis_arg(column_axis, rank, axis_problems);
    options.index_base = on[0]->owned_map()->getIndexBase();
    const auto comm = on[0]->owned_map()->getComm();
    DistArray arrays[2];
    layouts[0] = tpetra_layout_of(first, comm, &arrays[0], options, axis_problems);  // collective
    layouts[1] = tpetra_layout_of(second, comm, &arrays[1], options);
    for (int i = 0; i < 2; ++i) {
      read[i].array = arrays[i];
      if (!layouts[i]->owned_map()->isSameAs(*on[i]->owned_map()))  // collective
        problems.push_back(Problem::of(
            rank, "column_axis", std::to_string(options.column_axis), "the rows of b and x are the matrix's rows",
            std::string(i ? "x" : "b") + "'s owned rows are not the matrix's", options.column_axis));
    }
  } else {
    read[0] = read_distarray(first, rank);
    read[1] = read_distarray(second, rank);
  }
  for (const Read& r : read) problems.insert(problems.end(), r.problems.begin(), r.problems.end());
  std::pair<Teuchos::RCP<MV>, Teuchos::RCP<MV>> views;
  if (problems.empty()) {
    try {  // a layout Tpetra cannot view is this process's problem to report
      views = {tpetra::owned_view<double>(*layouts[0], read[0].array), tpetra::owned_view<double>(*layouts[1], read[1].array)};
    } catch (const ValidationError& e) {
      problems = e.problems();
    }
  }
  mpi::agree(problems, on[0]->distribution()->comm());
  return views;  // the views hold the buffers alive (keep_alive)
}

// Solves A x = b in place on x's owned part, each column; returns
// (iterations, the largest column's |b - A x| / |b|).
// MueLu's near-nullspace for a vector-valued system: given as an array
// (owned unknowns x modes, copied into a Tpetra MultiVector on the matrix's
// rows), or built from the owned nodes' coordinates (owned nodes x dim:
// rigid_body_modes), with MueLu's number of equations. Every process passes
// the same kind of argument, or none does; what is wrong is a problem of
// this process's input, agreed with the others. Collective (two reductions).
struct NearNullspace {
  Teuchos::RCP<MV> modes;
  int equations_per_node = 1;
};

NearNullspace near_nullspace_arg(const CrsMatrix& a, const py::object& modes_obj, const py::object& coords_obj,
                                 const py::object& equations_obj, int rank, std::vector<Problem>& problems) {
  NearNullspace out;
  const MPI_Comm comm = a.layout->distribution()->comm();
  const int given = (modes_obj.is_none() ? 0 : 1) + (coords_obj.is_none() ? 0 : 2);
  if (!mpi::all_true(given == 0, comm) && !mpi::all_true(given != 0, comm)) {
    problems.push_back(Problem::of(rank, "near_nullspace", given ? "given" : "None",
                                   "every process passes near_nullspace or coordinates, or none does",
                                   "some processes passed one and others did not"));
    return out;
  }
  if (given == 0) return out;
  if (given == 3) {
    problems.push_back(Problem::of(rank, "coordinates", "given", "near_nullspace or coordinates, not both", "both were given"));
    return out;
  }
  const auto rows = tpetra::compat::local_num_elements(*a.matrix->getRowMap());
  const auto array = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(given == 1 ? modes_obj : coords_obj);
  const char* key = given == 1 ? "near_nullspace" : "coordinates";
  if (!array || array.ndim() != 2) {
    problems.push_back(Problem::of(rank, key, brief(given == 1 ? modes_obj : coords_obj), "a 2-D array of numbers",
                                   "not a 2-D array"));
    return out;
  }
  const auto height = static_cast<std::size_t>(array.shape(0)), width = static_cast<std::size_t>(array.shape(1));
  if (given == 2) {
    out.equations_per_node = static_cast<int>(width);
    if ((width != 2 && width != 3) || height * width != rows) {
      problems.push_back(Problem::of(rank, key, std::to_string(height) + "x" + std::to_string(width),
                                     "one row per owned node, 2 or 3 coordinates each, dim unknowns per node",
                                     std::to_string(rows) + " owned unknowns"));
      return out;
    }
    out.modes = tpetra::rigid_body_modes(a.matrix->getRowMap(), array.data(), static_cast<int>(width));
  } else {
    if (height != rows || width == 0) {
      problems.push_back(Problem::of(rank, key, std::to_string(height) + "x" + std::to_string(width),
                                     "one row per owned unknown, one column per mode", std::to_string(rows) + " owned unknowns"));
      return out;
    }
    out.modes = Teuchos::rcp(new MV(a.matrix->getRowMap(), width));
    auto v = out.modes->getLocalViewHost(Tpetra::Access::OverwriteAll);
    for (std::size_t i = 0; i < height; ++i)
      for (std::size_t j = 0; j < width; ++j) v(i, j) = array.at(i, j);
  }
  if (!equations_obj.is_none()) {
    try {
      out.equations_per_node = equations_obj.cast<int>();
    } catch (const py::cast_error&) {
      out.equations_per_node = 0;
    }
    if (out.equations_per_node < 1 || rows % static_cast<std::size_t>(out.equations_per_node) != 0)
      problems.push_back(Problem::of(rank, "equations_per_node", brief(equations_obj),
                                     "a positive int dividing the owned unknowns", std::to_string(rows) + " owned unknowns"));
  }
  return out;
}

py::tuple solve(const CrsMatrix& a, const py::object& b_obj, const py::object& x_obj, const std::string& method,
                const std::string& prec_name, double tolerance, int max_iterations, const py::object& parameters,
                const py::object& column_axis, const py::object& near_nullspace, const py::object& coordinates,
                const py::object& equations_per_node) {
  const std::map<std::string, std::string> belos{{"cg", "CG"}, {"gmres", "GMRES"}, {"minres", "MINRES"}};
  const auto solver_name = belos.find(method);
  const int rank = a.layout->distribution()->rank();
  std::vector<Problem> problems;
  if (solver_name == belos.end())
    problems.push_back(
        Problem::of(rank, "method", method, "method is 'cg', 'gmres' or 'minres'", "an unknown Belos method"));
#ifndef DAPETRA_PYTHON_MUELU
  if (prec_name == "MueLu")
    problems.push_back(Problem::of(rank, "preconditioner", prec_name, "a preconditioner this build has",
                                   "the module was built without MueLu (libtrilinos-muelu-dev)"));
#endif
  const Teuchos::ParameterList overrides = parameters_from(parameters, rank, problems);
  if (!a.square())
    problems.push_back(Problem::of(rank, "A", "a block between two fields", "a square matrix (made without columns=)",
                                   "its columns are another layout's"));
  const NearNullspace nullspace = near_nullspace_arg(a, near_nullspace, coordinates, equations_per_node, rank, problems);
  const auto [bv, xv] = owned_views({a.layout, a.layout}, b_obj, x_obj, std::move(problems), column_axis);
  py::gil_scoped_release release;
  Teuchos::RCP<OP> prec;
  mpi::agree_on(a.layout->distribution()->comm(), [&] {
    prec = tpetra::make_preconditioner(a.matrix, prec_name, overrides, nullspace.equations_per_node, nullspace.modes);
  });
  tpetra::SolverOptions how;
  how.method = solver_name->second;
  how.tolerance = tolerance;
  how.max_iterations = max_iterations;
  const tpetra::SolveResult done = tpetra::solve_with(a.matrix, xv, bv, prec, how);
  const int iterations = done.iterations;
  const double worst = done.relative_residual;
  py::gil_scoped_acquire gil;
  return py::make_tuple(iterations, worst);
}

#ifdef DAPETRA_PYTHON_MUELU
// `fields` as FieldSplit's lists: two counts (fields in blocks) or two
// arrays of local rows; a wrong one is this process's problem.
std::vector<std::vector<LO>> field_rows(const py::object& fields, std::size_t owned, int rank,
                                        std::vector<Problem>& problems) {
  std::vector<std::vector<LO>> rows;
  const auto wrong = [&](const std::string& why) {
    problems.push_back(Problem::of(rank, "fields", brief(fields),
                                   "two fields: two counts (in blocks) or two arrays of owned local rows", why));
    return std::vector<std::vector<LO>>(2);
  };
  if (!py::isinstance<py::sequence>(fields) || py::len(fields) != 2) return wrong("not a sequence of two");
  LO next = 0;
  for (const py::handle item : fields) {
    if (py::isinstance<py::int_>(item)) {
      const long long count = item.cast<long long>();
      if (count < 0 || static_cast<std::size_t>(next) + static_cast<std::size_t>(count) > owned)
        return wrong("counts past the owned rows");
      rows.emplace_back(static_cast<std::size_t>(count));
      for (LO& r : rows.back()) r = next++;
      continue;
    }
    const auto list = py::array_t<long long, py::array::c_style | py::array::forcecast>::ensure(item);
    if (!list || list.ndim() != 1) return wrong("an item neither a count nor a 1-D array of ints");
    rows.emplace_back();
    for (py::ssize_t i = 0; i < list.size(); ++i) {
      const long long row = list.data()[i];
      if (row < 0 || static_cast<unsigned long long>(row) >= owned) return wrong("a row outside the owned rows");
      rows.back().push_back(static_cast<LO>(row));
    }
  }
  return rows;
}

// The block options both forms of solve_block read alike; a wrong one is
// this process's problem.
tpetra::BlockOptions block_options(const std::string& kind, int equations_per_node, const py::object& first_parameters,
                                   const std::string& second, const py::object& second_parameters, int rank,
                                   std::vector<Problem>& problems) {
  if (kind != "diagonal" && kind != "upper")
    problems.push_back(
        Problem::of(rank, "kind", kind, "kind is 'diagonal' (MINRES) or 'upper' (GMRES)", "an unknown kind"));
  if (equations_per_node < 1)
    problems.push_back(Problem::of(rank, "equations_per_node", std::to_string(equations_per_node), "a positive int", ""));
  tpetra::BlockOptions block;
  block.kind = kind == "diagonal" ? tpetra::BlockKind::diagonal : tpetra::BlockKind::upper_triangular;
  block.first_equations_per_node = equations_per_node;
  block.first_parameters.setParameters(parameters_from(first_parameters, rank, problems));
  block.second = second;
  if (second != "RELAXATION") block.second_parameters = Teuchos::ParameterList();  // (the default's Jacobi sweeps)
  block.second_parameters.setParameters(parameters_from(second_parameters, rank, problems));
  return block;
}

tpetra::SolverOptions block_solver_options(const tpetra::BlockOptions& block, double tolerance, int max_iterations) {
  tpetra::SolverOptions how;
  how.tolerance = tolerance;
  how.max_iterations = max_iterations;
  return tpetra::BlockPreconditioner::solver_options(block, how);
}

// One matrix K and its preconditioning matrix P, the fields as lists of rows.
py::tuple solve_block_monolithic(const CrsMatrix& k, const CrsMatrix& p, const py::object& b_obj,
                                 const py::object& x_obj, const py::object& fields, const tpetra::BlockOptions& block,
                                 double tolerance, int max_iterations, std::vector<Problem> problems) {
  const int rank = k.layout->distribution()->rank();
  const std::size_t owned = tpetra::compat::local_num_elements(*k.matrix->getRowMap());
  auto rows = field_rows(fields, owned, rank, problems);
  if (!k.square() || !p.square())
    problems.push_back(Problem::of(rank, k.square() ? "P" : "K", "a block between two fields", "a square matrix", ""));
  if (!p.matrix->getRowMap()->isSameAs(*k.matrix->getRowMap()))  // collective
    problems.push_back(Problem::of(rank, "P", "", "P has K's rows", "another row map"));
  const auto [bv, xv] = owned_views({k.layout, k.layout}, b_obj, x_obj, std::move(problems));  // agrees
  py::gil_scoped_release release;
  const tpetra::FieldSplit split(k.matrix->getRowMap(), std::move(rows));  // collective; agrees on its own rules
  Teuchos::RCP<OP> prec;
  mpi::agree_on(k.layout->distribution()->comm(),
                [&] { prec = Teuchos::rcp(new tpetra::BlockPreconditioner(split, *k.matrix, *p.matrix, block)); });
  const tpetra::SolveResult done = tpetra::solve_with(k.matrix, xv, bv, prec, block_solver_options(block, tolerance, max_iterations));
  py::gil_scoped_acquire gil;
  return py::make_tuple(done.iterations, done.relative_residual);
}

// K as blocks: a list of two lists of two CrsMatrix objects or None (a
// zero block); a wrong one is this process's problem.
std::vector<std::vector<Teuchos::RCP<Matrix>>> blocks_arg(const py::object& k, int rank, std::vector<Problem>& problems) {
  std::vector<std::vector<Teuchos::RCP<Matrix>>> blocks(2, std::vector<Teuchos::RCP<Matrix>>(2));
  const auto wrong = [&](const std::string& why) {
    problems.push_back(Problem::of(rank, "K", brief(k), "one CrsMatrix, or blocks: two lists of two CrsMatrix or None", why));
    return blocks;
  };
  if (!py::isinstance<py::sequence>(k) || py::isinstance<py::str>(k) || py::len(k) != 2) return wrong("not two rows of blocks");
  for (std::size_t i = 0; i < 2; ++i) {
    const py::object row = k[py::int_(i)];
    if (!py::isinstance<py::sequence>(row) || py::isinstance<py::str>(row) || py::len(row) != 2)
      return wrong("row " + std::to_string(i) + " is not two blocks");
    for (std::size_t j = 0; j < 2; ++j) {
      const py::object item = row[py::int_(j)];
      if (item.is_none()) continue;
      if (!py::isinstance<CrsMatrix>(item))
        return wrong("block (" + std::to_string(i) + ", " + std::to_string(j) + ") is neither a CrsMatrix nor None");
      blocks[i][j] = item.cast<const CrsMatrix&>().matrix;
    }
  }
  return blocks;
}

// b and x over every field, each process's rows in blocks as the operator's
// map: views of their owned parts, their layouts checked against the map.
std::pair<Teuchos::RCP<MV>, Teuchos::RCP<MV>> views_on(const Map& map, const py::object& b_obj, const py::object& x_obj) {
  const Teuchos::RCP<const tpetra::Comm> comm = map.getComm();
  const int rank = comm->getRank();
  std::vector<Problem> problems;
  DistArray arrays[2];
  std::shared_ptr<const TpetraLayout> layouts[2];
  const py::object objects[2] = {b_obj, x_obj};
  for (int i = 0; i < 2; ++i) {
    layouts[i] = tpetra_layout_of(objects[i], comm, &arrays[i]);  // collective; refuses on every process
    if (!layouts[i]->owned_map()->isSameAs(map))                  // collective
      problems.push_back(Problem::of(rank, i ? "x" : "b", "", "the blocks' rows: each process's first field's, then its second's",
                                     "other owned rows"));
  }
  std::pair<Teuchos::RCP<MV>, Teuchos::RCP<MV>> views;
  if (problems.empty()) {
    try {
      views = {tpetra::owned_view<double>(*layouts[0], arrays[0]), tpetra::owned_view<double>(*layouts[1], arrays[1])};
    } catch (const ValidationError& e) {
      problems = e.problems();
    }
  }
  mpi::agree(problems, tpetra::mpi_comm_of(*comm));
  return views;
}

// K as blocks (BlockOperator: nothing copied into one matrix) and the
// Schur approximation S.
py::tuple solve_block_nested(const py::object& k, const CrsMatrix& s, const py::object& b_obj, const py::object& x_obj,
                             const py::object& fields, const tpetra::BlockOptions& block, double tolerance,
                             int max_iterations, std::vector<Problem> problems) {
  const int rank = s.layout->distribution()->rank();
  auto blocks = blocks_arg(k, rank, problems);
  if (!fields.is_none())
    problems.push_back(Problem::of(rank, "fields", brief(fields), "None with blocks (the blocks are the fields)", ""));
  if (!s.square())
    problems.push_back(Problem::of(rank, "P", "a block between two fields", "S, a square matrix on the second field", ""));
  mpi::agree(problems, s.layout->distribution()->comm());
  Teuchos::RCP<const tpetra::BlockOperator> op;
  {
    py::gil_scoped_release release;
    op = Teuchos::rcp(new tpetra::BlockOperator(std::move(blocks)));  // collective; agrees on its own rules
  }
  const auto [bv, xv] = views_on(*op->getDomainMap(), b_obj, x_obj);  // agrees
  py::gil_scoped_release release;
  Teuchos::RCP<OP> prec;
  mpi::agree_on(s.layout->distribution()->comm(),
                [&] { prec = Teuchos::rcp(new tpetra::BlockPreconditioner(*op, s.matrix, block)); });
  const tpetra::SolveResult done = tpetra::solve_with(op, xv, bv, prec, block_solver_options(block, tolerance, max_iterations));
  py::gil_scoped_acquire gil;
  return py::make_tuple(done.iterations, done.relative_residual);
}

// Saddle-point systems (dapetra/tpetra/block_system.hpp): K one matrix
// (FieldSplit, BlockPreconditioner) or blocks (BlockOperator). Every
// process passes the same form (one reduction over P's communicator).
py::tuple solve_block(const py::object& k, const CrsMatrix& p, const py::object& b_obj, const py::object& x_obj,
                      const py::object& fields, const std::string& kind, int equations_per_node, double tolerance,
                      int max_iterations, const py::object& first_parameters, const std::string& second,
                      const py::object& second_parameters) {
  const int rank = p.layout->distribution()->rank();
  std::vector<Problem> problems;
  const tpetra::BlockOptions block =
      block_options(kind, equations_per_node, first_parameters, second, second_parameters, rank, problems);
  const bool one = py::isinstance<CrsMatrix>(k);
  const MPI_Comm comm = p.layout->distribution()->comm();
  if (!mpi::all_true(one, comm) && !mpi::all_true(!one, comm)) {
    problems.push_back(Problem::of(rank, "K", one ? "one matrix" : "blocks",
                                   "every process passes one matrix, or every process blocks", "the processes differ"));
    mpi::agree(problems, comm);
  }
  if (one)
    return solve_block_monolithic(k.cast<const CrsMatrix&>(), p, b_obj, x_obj, fields, block, tolerance, max_iterations,
                                  std::move(problems));
  return solve_block_nested(k, p, b_obj, x_obj, fields, block, tolerance, max_iterations, std::move(problems));
}
#endif

// What the preconditioner `solve` would build reports of itself: its own
// description() (Ifpack2's names its type and settings), and for MueLu the
// levels of the hierarchy it built. Collective.
std::string describe_preconditioner(const CrsMatrix& a, const std::string& prec_name, const py::object& parameters) {
  std::vector<Problem> problems;
  const int rank = a.layout->distribution()->rank();
  const Teuchos::ParameterList overrides = parameters_from(parameters, rank, problems);
  mpi::agree(problems, a.layout->distribution()->comm());
  py::gil_scoped_release release;
  Teuchos::RCP<OP> prec;
  mpi::agree_on(a.layout->distribution()->comm(), [&] { prec = tpetra::make_preconditioner(a.matrix, prec_name, overrides); });
  if (prec.is_null()) return "none";
  std::string text = prec->description();
#ifdef DAPETRA_PYTHON_MUELU
  if (const auto muelu = Teuchos::rcp_dynamic_cast<MueLu::TpetraOperator<double, LO, GO, Node>>(prec); !muelu.is_null())
    text += " levels: " + std::to_string(muelu->GetHierarchy()->GetNumLevels());
#endif
  return text;
}

}  // namespace

// The rigid-body modes of nodes at `coordinates` (nodes x dim), as solve()'s
// coordinates= builds them (tpetra::rigid_body_modes, on a map of this
// process's unknowns alone): a new array, unknowns (node * dim + component) x modes.
py::array_t<double> rigid_body_modes(const py::array_t<double, py::array::c_style | py::array::forcecast>& coordinates) {
  if (coordinates.ndim() != 2 || (coordinates.shape(1) != 2 && coordinates.shape(1) != 3))
    throw py::value_error("rigid_body_modes: coordinates are nodes x dim, dim 2 or 3");
  const auto nodes = static_cast<std::size_t>(coordinates.shape(0));
  const int dim = static_cast<int>(coordinates.shape(1));
  const auto unknowns = nodes * static_cast<std::size_t>(dim);
  const auto map = Teuchos::rcp(new tpetra::Map(static_cast<Tpetra::global_size_t>(unknowns), 0,
                                                Teuchos::rcp(new Teuchos::SerialComm<int>())));
  const auto modes = tpetra::rigid_body_modes(map, coordinates.data(), dim);
  const std::size_t width = modes->getNumVectors();
  py::array_t<double> out({unknowns, width});
  auto v = modes->getLocalViewHost(Tpetra::Access::ReadOnly);
  auto o = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < unknowns; ++i)
    for (std::size_t j = 0; j < width; ++j) o(static_cast<py::ssize_t>(i), static_cast<py::ssize_t>(j)) = v(i, j);
  return out;
}

void bind_solve(py::module_& m) {
  if (import_mpi4py() < 0) throw py::error_already_set();  // mpi4py's C API is per translation unit
  // Tpetra finalizes the Kokkos it starts here at exit, after the module's statics go.
  tpetra::compat::make_belos_pool_before_kokkos<double, LO, GO, Node>();
  py::class_<CrsMatrix>(m, "CrsMatrix", R"(A Tpetra CrsMatrix (double) on a DAP layout's owned rows.

CrsMatrix(like, rows, cols, values, comm=None, columns=None) is collective:
`like` is any protocol object whose layout the vectors will have; rows,
cols (global indices, int64) and values are this process's COO triplets,
for any rows: duplicates are summed, and triplets of rows other processes
own are sent there (finite-element assembly). columns=: a protocol object
of the layout the matrix applies to, when it is another (a block between
two fields, such as B in Stokes: rows pressures, columns velocities);
cols are then its global indices. Every process passes it, or none. Such a
block applies (apply(x, y): x on columns, y on like) and goes into
solve_block's blocks; solve() takes square matrices only.)")
      .def(py::init(&make_matrix), py::arg("like"), py::arg("rows"), py::arg("cols"), py::arg("values"),
           py::arg("comm") = py::none(), py::arg("columns") = py::none())
      .def_static("from_csr", &matrix_from_csr, py::arg("like"), py::arg("indptr"), py::arg("indices"), py::arg("data"),
                  py::arg("first_row") = -1, py::arg("comm") = py::none(), py::arg("columns") = py::none(),
                  R"(A CrsMatrix from this process's owned rows in CSR form (collective; copies).

`like`: a protocol object whose layout's owned elements are the rows, in
order (row r is its r-th owned element). indptr (rows + 1 offsets),
indices (global columns, any order within a row, repeats summed) and data:
SciPy's csr_matrix arrays, or petsc4py's Mat.getValuesCSR() with
first_row=Mat.getOwnershipRange()[0], which is then checked against the
layout. Converted in bulk, no per-entry insert. A wrong input on any
process (a column outside the array, offsets that do not end at the entry
count, a row count other than the owned count, arrays of different
lengths) raises the same ValidationError on every process. columns=: as
in the constructor.)")
      .def_property_readonly("global_rows", [](const CrsMatrix& a) { return a.matrix->getGlobalNumRows(); })
      .def_property_readonly("global_entries", [](const CrsMatrix& a) { return a.matrix->getGlobalNumEntries(); })
      .def("apply", [](const CrsMatrix& a, const py::object& x_obj, const py::object& y_obj) {
             const auto [x, y] = owned_views({a.columns, a.layout}, x_obj, y_obj, {});
             py::gil_scoped_release release;
             a.matrix->apply(*x, *y);
           },
           py::arg("x"), py::arg("y"), "y = A x on the owned parts of two protocol objects (collective).");

#ifdef DAPETRA_PYTHON_MUELU
  m.attr("has_muelu") = true;  // solve(..., preconditioner="MueLu") works
#else
  m.attr("has_muelu") = false;
#endif
  m.def("solve", &solve, py::arg("A"), py::arg("b"), py::arg("x"), py::arg("method") = "cg",
        py::arg("preconditioner") = "RELAXATION", py::arg("tolerance") = 1e-10, py::arg("max_iterations") = 1000,
        py::arg("parameters") = py::none(), py::arg("column_axis") = py::none(), py::arg("near_nullspace") = py::none(),
        py::arg("coordinates") = py::none(), py::arg("equations_per_node") = py::none(),
        R"(Solves A x = b with Belos (collective), in place on x's owned part.

b and x are protocol objects with the layout A was made on; their owned
elements must be viewable by Tpetra (owned first, or contiguous). With
column_axis, b and x are 2-D (rows x right-hand sides, or the transpose)
and every column is solved: one Tpetra MultiVector each, no copy.
method: 'cg', 'gmres' or 'minres'. preconditioner: 'MueLu' (smoothed
aggregation, Dapetra's settings for CG: dapetra/tpetra/muelu_parameters.hpp),
an Ifpack2 name ('RELAXATION', 'ILUT', 'RILUK', 'CHEBYSHEV') or 'none'.
parameters: overrides of the preconditioner's parameters (MueLu's or
Ifpack2's names), a dict (nested dicts are sublists) or the path of a
Teuchos XML file. Returns (iterations, the largest column's relative
residual |b - A x| / |b|), the residual recomputed after the solve.

Vector-valued systems (elasticity, unknowns interleaved per node: node *
dim + component, as DOLFINx and PETSc number them) want MueLu told their
near-nullspace: coordinates= (owned nodes x dim) builds the rigid-body
modes (3 in 2-D, 6 in 3-D) and sets MueLu's number of equations to dim;
near_nullspace= (owned unknowns x modes) gives any modes, with
equations_per_node= their unknowns per node. Used by MueLu only.)");
#ifdef DAPETRA_PYTHON_MUELU
  m.def("solve_block", &solve_block, py::arg("K"), py::arg("P"), py::arg("b"), py::arg("x"), py::arg("fields") = py::none(),
        py::arg("kind") = "diagonal", py::arg("equations_per_node") = 1, py::arg("tolerance") = 1e-10,
        py::arg("max_iterations") = 1000, py::arg("first_parameters") = py::none(),
        py::arg("second") = "RELAXATION", py::arg("second_parameters") = py::none(),
        R"(Solves a saddle-point system K x = b, K = [[A, B^T], [B, -C]], with a
block preconditioner (collective), in place on x's owned part.

K one matrix: K and P are CrsMatrix objects with the same rows; P holds A
in its first field's block and the Schur approximation S in its second's
(for Stokes, the pressure mass matrix; DOLFINx's Stokes demo assembles it
so). fields: two counts (this process's rows in blocks: the first
field's, then the second's, as DOLFINx's blocked assembly numbers them) or
two arrays of owned local rows.

K as blocks (DOLFINx's nested matrices, deal.II's block matrices):
[[A, Bt], [B, C]], each a CrsMatrix (Bt and B made with columns=, see
CrsMatrix) or None (a zero block); nothing is copied into one matrix. P is
then S alone, on the second field's layout; fields is None. b and x are
over both fields, each process's rows in blocks (its first field's, then
its second's: a DOLFINx block vector).

Every process passes the same form. kind 'diagonal': MINRES with diag(A^-1, S^-1); 'upper':
GMRES with [[A, B^T], [0, -S]]^-1. A^-1 is one MueLu V-cycle
(equations_per_node: a velocity's components, interleaved;
first_parameters: overrides of MueLu's, which by default are
BlockOptions::velocity_multigrid(): drop tolerance 0.05, Chebyshev of
degree 3 over the upper seventh of the spectrum), S^-1 the preconditioner `second` names (an Ifpack2 name or
'MueLu'; by default three Jacobi sweeps damped by 0.67;
second_parameters: overrides). Returns (iterations, |b - K x| / |b|
recomputed).)");
#endif
  m.def("rigid_body_modes", &rigid_body_modes, py::arg("coordinates"),
        R"(The rigid-body modes of nodes at `coordinates` (nodes x dim, dim 2 or 3),
as solve(..., coordinates=) builds them for MueLu: a new array of unknowns
(node * dim + component) x modes, 3 in 2-D (two translations, the rotation
(-y, x)), 6 in 3-D (three translations, the rotations about x, y and z).
Local: not collective.)");
  m.def("describe_preconditioner", &describe_preconditioner, py::arg("A"), py::arg("preconditioner") = "RELAXATION",
        py::arg("parameters") = py::none(),
        R"(What the preconditioner solve() would build with these arguments says of
itself (collective): Ifpack2's description (its type and settings), MueLu's
with the number of levels of its hierarchy. Builds it, then drops it.)");
}

}  // namespace dapetra::python
