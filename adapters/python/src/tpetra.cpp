// dapetra.tpetra_view, dapetra.new_tpetra_vector, dapetra.TpetraVector: any
// __distarray__ object as a Tpetra vector over its own memory, and Tpetra
// vectors as __distarray__ objects whose buffer is Tpetra's memory. Only
// double vectors (the one Scalar Debian's Tpetra is built for).
#include <pybind11/numpy.h>

#include <Tpetra_MultiVector.hpp>

#include <chrono>

#include "bindings.hpp"
#include "dapetra/tpetra/tpetra.hpp"
#include "teuchos.hpp"

namespace dapetra::python {
namespace {

using tpetra::TpetraLayout;
using Vector = tpetra::MultiVector<double>;

// A Tpetra vector and what keeps its memory valid: for a view, the
// producer's buffer (`array.buffer.keep_alive`); for a new vector, itself.
struct TpetraVector {
  Teuchos::RCP<Vector> vector;
  std::shared_ptr<const TpetraLayout> layout;
  DistArray array;  // the producer's array, for a view
};

// The protocol's dict over the vector's memory: the numpy buffer holds the
// vector alive through a capsule (so the dict outlives this object).
py::dict to_python(const TpetraVector& v) {
  const DistArray a = tpetra::to_distarray<double>(v.vector, *v.layout);
  auto* owner = new std::shared_ptr<const void>(a.buffer.keep_alive);
  py::capsule base(owner, [](void* p) { delete static_cast<std::shared_ptr<const void>*>(p); });
  std::vector<py::ssize_t> shape(a.buffer.shape.begin(), a.buffer.shape.end());
  std::vector<py::ssize_t> strides(a.buffer.strides.begin(), a.buffer.strides.end());
  py::array buffer(py::dtype::of<double>(), shape, strides, a.buffer.data, base);
  py::dict d;
  d["__version__"] = a.version;
  d["buffer"] = buffer;
  d["dim_data"] = py::tuple(dim_data_to_python(a.dim_data));
  return d;
}

double norm2(const TpetraVector& v) {
  Teuchos::Array<double> norms(v.vector->getNumVectors());
  v.vector->norm2(norms());
  return norms[0];
}

// Collective over the layout's communicator.
TpetraVector view_of(const py::object& obj, const py::object& comm) {
  TpetraVector v;
  v.layout = tpetra_layout_of(obj, teuchos_comm(comm), &v.array);
  py::gil_scoped_release release;
  v.vector = tpetra::buffer_view<double>(*v.layout, v.array);
  return v;
}

}  // namespace

void bind_tpetra(py::module_& m) {
  // mpi4py's C API pointers are per translation unit.
  if (import_mpi4py() < 0) throw py::error_already_set();
  py::class_<TpetraVector>(m, "TpetraVector", R"(A Tpetra vector (double) with a DAP layout.

Made by tpetra_view(obj) over a producer's own memory (no copy: writes show
on both sides) or by new_tpetra_vector(obj) in Tpetra's memory.
__distarray__() returns the protocol's dict whose buffer is a NumPy array
over the vector's memory, keeping it alive.)")
      .def("__distarray__", &to_python)
      .def("norm2", [](const TpetraVector& v) {
        py::gil_scoped_release release;
        return norm2(v);
      }, "The 2-norm over all processes (collective; padding and ghost copies counted once, by their owner).")
      .def("dot", [](const TpetraVector& v, const TpetraVector& w) {
        py::gil_scoped_release release;
        Teuchos::Array<double> dots(1);
        v.vector->dot(*w.vector, dots());
        return dots[0];
      }, py::arg("other"), "The dot product over all processes (collective).")
      .def("fill", [](TpetraVector& v, double value) { v.vector->putScalar(value); }, py::arg("value"))
      .def("scale", [](TpetraVector& v, double alpha) { v.vector->scale(alpha); }, py::arg("alpha"))
      .def("update", [](TpetraVector& v, double alpha, const TpetraVector& x, double beta) {
        v.vector->update(alpha, *x.vector, beta);
      }, py::arg("alpha"), py::arg("x"), py::arg("beta"), "self = alpha * x + beta * self.")
      .def_property_readonly("global_length", [](const TpetraVector& v) { return v.vector->getGlobalLength(); })
      .def_property_readonly("local_length", [](const TpetraVector& v) { return v.vector->getLocalLength(); });

  m.def("tpetra_view", &view_of, py::arg("obj"), py::arg("comm") = py::none(),
        R"(A Tpetra vector over obj's buffer, without copying (collective).

obj is any __distarray__ object or the dict. Its buffer must be writable,
of doubles, and laid out so that Tpetra can view it (one contiguous column);
otherwise ValidationError says why. The producer's buffer stays alive as
long as the vector does.)");

  m.def("_views_timed_in_cpp", [](const py::object& obj, const py::object& comm, int calls) {
          // For the benchmark driver: tpetra_view's work (the collective
          // layout, then the view) from a C++ loop, seconds per call here.
          const auto tc = teuchos_comm(comm);
          Read r = read_distarray(obj, tc->getRank());
          if (!r.ok()) throw ValidationError(r.problems);
          py::gil_scoped_release release;
          const auto t0 = std::chrono::steady_clock::now();
          for (int i = 0; i < calls; ++i) tpetra::buffer_view<double>(*TpetraLayout::create(r.array, tc), r.array);
          return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / calls;
        },
        py::arg("obj"), py::arg("comm"), py::arg("calls"));

  m.def("new_tpetra_vector", [](const py::object& obj, const py::object& comm) {
          // The layout of obj (its records and buffer shape), a vector in Tpetra's memory.
          TpetraVector v = view_of(obj, comm);
          TpetraVector fresh;
          fresh.layout = v.layout;
          fresh.vector = Teuchos::rcp(new Vector(v.layout->buffer_map(), 1));
          return fresh;
        },
        py::arg("obj"), py::arg("comm") = py::none(),
        "A new Tpetra vector (zeros) with obj's layout, in Tpetra's own memory (collective).");
}

}  // namespace dapetra::python
