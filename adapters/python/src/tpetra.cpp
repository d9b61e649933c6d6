// dapetra.tpetra_view, dapetra.new_tpetra_vector, dapetra.TpetraVector: any
// __distarray__ object as a Tpetra vector over its own memory, and Tpetra
// vectors as __distarray__ objects whose buffer is Tpetra's memory. Only
// double vectors (the one Scalar Debian's Tpetra is built for).
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <Tpetra_MultiVector.hpp>

#include <chrono>

#include "bindings.hpp"
#include "dapetra/mpi/agree.hpp"
#include "dapetra/tpetra/compat.hpp"
#include "dapetra/tpetra/tpetra.hpp"
#include "ownership_args.hpp"
#include "teuchos.hpp"

namespace dapetra::python {
namespace {

using tpetra::TpetraLayout;
using Vector = tpetra::MultiVector<double>;

// A Tpetra vector and what keeps its memory valid: for a view, the
// producer's buffer (`array.buffer.keep_alive`); for a new vector, itself.
// `layout` is the producer's distribution, whose buffer map the vector is
// on; an owned part (owned_view, copy_owned) has none: its map is one-to-one.
struct TpetraVector {
  Teuchos::RCP<Vector> vector;
  std::shared_ptr<const TpetraLayout> layout;
  DistArray array;  // the producer's array, for a view
};

// The protocol's dict over the vector's memory: the numpy buffer holds the
// vector (and the producer, for a view) alive through a capsule, so the dict
// outlives this object.
py::dict to_python(const TpetraVector& v) {
  const DistArray a = v.layout ? tpetra::to_distarray<double>(v.vector, *v.layout) : tpetra::to_distarray<double>(v.vector);
  using Owners = std::pair<std::shared_ptr<const void>, std::shared_ptr<const void>>;
  auto* owner = new Owners(a.buffer.keep_alive, v.array.buffer.keep_alive);
  py::capsule base(owner, [](void* p) { delete static_cast<Owners*>(p); });
  std::vector<py::ssize_t> shape(a.buffer.shape.begin(), a.buffer.shape.end());
  std::vector<py::ssize_t> strides(a.buffer.strides.begin(), a.buffer.strides.end());
  py::array buffer(py::dtype::of<double>(), shape, strides, a.buffer.data, base);
  py::dict d;
  d["__version__"] = a.version;
  d["buffer"] = buffer;
  d["dim_data"] = py::tuple(dim_data_to_python(a.dim_data));
  return d;
}

// Whether the owned rows are one run of the buffer (or the whole of it).
bool owned_rows_are_a_run(const TpetraVector& v) {
  return !v.layout || v.layout->buffer_map_is_owned_map() || v.layout->owned_rows();
}

// The owned rows, each global element once: what reductions count (a
// buffer holds ghosts, padding and shared copies besides). A view where they
// are one run, a copy where they are scattered.
Teuchos::RCP<const Vector> owned_part(const TpetraVector& v) {
  if (!v.layout) return v.vector;
  if (owned_rows_are_a_run(v)) return tpetra::owned_rows_view<double>(*v.layout, *v.vector);
  return tpetra::copy_owned_rows_to_new_vector<double>(*v.layout, *v.vector);
}

Teuchos::RCP<const tpetra::Map> owned_map(const TpetraVector& v) {
  return v.layout ? v.layout->owned_map() : v.vector->getMap();
}

// One value per column: a float for a single column, else a list.
py::object per_column(const Teuchos::Array<double>& values) {
  if (values.size() == 1) return py::float_(values[0]);
  return py::cast(std::vector<double>(values.begin(), values.end()));
}

// A norm of the owned rows (collective), GIL released while Tpetra reduces.
template <class Norm>
py::object owned_norm(const TpetraVector& v, Norm norm) {
  Teuchos::Array<double> values(v.vector->getNumVectors());
  {
    py::gil_scoped_release release;
    norm(*owned_part(v), values);
  }
  return per_column(values);
}

// Collective. Both vectors' owned maps hold the same elements on every
// process, agreed on first (Map::isSameAs returns early on some processes
// only, which would leave the others waiting).
py::object owned_dot(const TpetraVector& v, const TpetraVector& w) {
  Teuchos::Array<double> values(v.vector->getNumVectors());
  std::vector<Problem> problems;
  if (!owned_map(v)->locallySameAs(*owned_map(w)) || v.vector->getNumVectors() != w.vector->getNumVectors())
    problems.push_back(Problem::of(owned_map(v)->getComm()->getRank(), "map", "",
                                   "dot() takes two vectors with the same owned map and columns",
                                   "the vectors are distributed differently here"));
  {
    py::gil_scoped_release release;
    mpi::agree(problems, tpetra::mpi_comm_of(*owned_map(v)->getComm()));
    owned_part(v)->dot(*owned_part(w), values());
  }
  return per_column(values);
}

// Collective over the layout's communicator. A column axis (None: none)
// makes the MultiVector's columns; owner and owned_ranges as Layout takes them.
TpetraVector view_of(const py::object& obj, const py::object& comm, const py::object& column_axis,
                     const py::object& owner, const py::object& owned_ranges) {
  const auto tc = teuchos_comm(comm);
  std::vector<Problem> problems;
  tpetra::TpetraLayoutOptions options;
  options.distribution.ownership = ownership_args(owner, owned_ranges, tc->getRank(), problems);
  options.column_axis = column_axis_arg(column_axis, tc->getRank(), problems);  // refused with the rest
  TpetraVector v;
  v.layout = tpetra_layout_of(obj, tc, &v.array, options, problems);
  py::gil_scoped_release release;
  v.vector = tpetra::buffer_view<double>(*v.layout, v.array);
  return v;
}

// The owned rows sharing the vector's memory: a vector on the owned map.
TpetraVector owned_view(const TpetraVector& v) {
  if (!owned_rows_are_a_run(v))
    throw ValidationError({Problem::of(v.layout->distribution()->rank(), "dim_data", "",
                                       "an owned view needs the owned elements contiguous in the buffer",
                                       "the owned elements are scattered through the buffer; use copy_owned()")});
  if (!v.layout) return v;
  return TpetraVector{tpetra::owned_rows_view<double>(*v.layout, *v.vector), nullptr, v.array};
}

TpetraVector copy_owned(const TpetraVector& v) {
  if (!v.layout) return TpetraVector{Teuchos::rcp(new Vector(*v.vector, Teuchos::Copy)), nullptr, {}};
  return TpetraVector{tpetra::copy_owned_rows_to_new_vector<double>(*v.layout, *v.vector), nullptr, {}};
}

}  // namespace

void bind_tpetra(py::module_& m) {
  // mpi4py's C API pointers are per translation unit.
  if (import_mpi4py() < 0) throw py::error_already_set();
  py::class_<TpetraVector>(m, "TpetraVector", R"(A Tpetra vector (double) with a DAP layout.

Made by tpetra_view(obj) over a producer's own memory (no copy: writes show
on both sides) or by new_tpetra_vector(obj) in Tpetra's memory. Such a vector
covers the producer's whole buffer (ghosts, padding and shared copies too),
on the layout's buffer map; fill, scale and update act on all of it.
Reductions (norms, dot, global_length) count each global element once, by
its owner. owned_view() is the owned rows alone over the same memory (what a
solver takes), copy_owned() a copy of them.
__distarray__() returns the protocol's dict whose buffer is a NumPy array
over the vector's memory, keeping it alive.)")
      .def("__distarray__", &to_python, "The protocol's dict over this vector's memory (a view; keeps it alive).")
      .def("norm2", [](const TpetraVector& v) {
        return owned_norm(v, [](const Vector& x, Teuchos::Array<double>& n) { x.norm2(n()); });
      }, "The 2-norm of the owned elements, each global element once (collective).")
      .def("norm1", [](const TpetraVector& v) {
        return owned_norm(v, [](const Vector& x, Teuchos::Array<double>& n) { x.norm1(n()); });
      }, "The 1-norm of the owned elements, each global element once (collective).")
      .def("norm_inf", [](const TpetraVector& v) {
        return owned_norm(v, [](const Vector& x, Teuchos::Array<double>& n) { x.normInf(n()); });
      }, "The largest magnitude among the owned elements (collective).")
      .def("dot", &owned_dot, py::arg("other"),
           "The dot product over the owned elements, each global element once (collective). Both vectors have "
           "the same owned map; otherwise ValidationError on every process.")
      .def("owned_view", &owned_view,
           "The owned rows as a vector on the owned map, over the same memory (no copy; not collective). "
           "ValidationError if they are scattered through the buffer: then copy_owned().")
      .def("copy_owned", &copy_owned, "A copy of the owned rows, a new vector on the owned map (not collective).")
      .def("fill", [](TpetraVector& v, double value) { v.vector->putScalar(value); }, py::arg("value"),
           "Every element of the buffer, owned or not, set to value.")
      .def("scale", [](TpetraVector& v, double alpha) { v.vector->scale(alpha); }, py::arg("alpha"),
           "Every element of the buffer multiplied by alpha.")
      .def("update", [](TpetraVector& v, double alpha, const TpetraVector& x, double beta) {
        v.vector->update(alpha, *x.vector, beta);
      }, py::arg("alpha"), py::arg("x"), py::arg("beta"), "self = alpha * x + beta * self, element by element.")
      .def_property_readonly("global_length", [](const TpetraVector& v) { return owned_map(v)->getGlobalNumElements(); },
                             "Elements of the global array, each once.")
      .def_property_readonly("owned_length", [](const TpetraVector& v) { return tpetra::compat::local_num_elements(*owned_map(v)); },
                             "Elements this process owns.")
      .def_property_readonly("buffer_length", [](const TpetraVector& v) { return v.vector->getLocalLength(); },
                             "Rows of this process's buffer (owned, ghosts, padding and shared copies).")
      .def_property_readonly("num_columns", [](const TpetraVector& v) { return v.vector->getNumVectors(); },
                             "Columns of the MultiVector.");

  m.def("tpetra_view", &view_of, py::arg("obj"), py::arg("comm") = py::none(), py::arg("column_axis") = py::none(),
        py::arg("owner") = py::none(), py::arg("owned_ranges") = py::none(),
        R"(A Tpetra vector over obj's buffer, without copying (collective).

obj is any __distarray__ object or the dict. Its buffer must be writable,
of doubles ('d'; Dapetra's Python vectors hold no other type), and laid out
so that Tpetra can view it; otherwise ValidationError says why on every
process. column_axis names an undistributed, unpadded axis whose entries
become the MultiVector's columns (components of a field over nodes): each
column must be contiguous, so it is the slowest axis in memory, axis 0 of a
C-ordered array (shape (k, nodes)) or the last axis of a Fortran-ordered
one (numpy.asfortranarray of (nodes, k)). Without it, every element is a
row of one column. owner and owned_ranges say who owns a 'u' index held by
several processes, as Layout takes them (a rule, or the owner's rank of
every held position): the owned map, reductions and owned_view() follow
them. The producer's buffer stays alive as long as the vector does.)");

  m.def("_views_timed_in_cpp", [](const py::object& obj, const py::object& comm, int calls) {
          // For the benchmark driver: tpetra_view's work (the collective
          // layout, then the view) from a C++ loop, seconds per call here;
          // and what the last view saw, for the driver to check: whether it
          // is the buffer's memory, and the sum of its local values.
          const auto tc = teuchos_comm(comm);
          Read r = read_distarray(obj, tc->getRank());
          if (!r.ok()) throw ValidationError(r.problems);
          py::gil_scoped_release release;
          Teuchos::RCP<Vector> last;
          const auto t0 = std::chrono::steady_clock::now();
          for (int i = 0; i < calls; ++i) last = tpetra::buffer_view<double>(*TpetraLayout::create(r.array, tc), r.array);
          const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / calls;
          const auto local = last->getLocalViewHost(Tpetra::Access::ReadOnly);
          double sum = 0;
          for (std::size_t i = 0; i < local.extent(0); ++i) sum += local(i, 0);
          const bool same_memory = local.data() == static_cast<const double*>(r.array.buffer.data);
          py::gil_scoped_acquire acquire;
          return py::make_tuple(seconds, same_memory, sum);
        },
        py::arg("obj"), py::arg("comm"), py::arg("calls"));

  m.def("new_tpetra_vector", [](const py::object& obj, const py::object& comm, const py::object& column_axis,
                                 const py::object& owner, const py::object& owned_ranges) {
          // The layout of obj (its records and buffer shape), a vector in Tpetra's memory.
          TpetraVector v = view_of(obj, comm, column_axis, owner, owned_ranges);
          TpetraVector fresh;
          fresh.layout = v.layout;
          fresh.vector = Teuchos::rcp(new Vector(v.layout->buffer_map(), v.layout->num_vectors()));
          return fresh;
        },
        py::arg("obj"), py::arg("comm") = py::none(), py::arg("column_axis") = py::none(), py::arg("owner") = py::none(),
        py::arg("owned_ranges") = py::none(),
        "A new Tpetra vector (zeros) with obj's layout, in Tpetra's own memory (collective); owner and "
        "owned_ranges as tpetra_view takes them.");
}

}  // namespace dapetra::python
