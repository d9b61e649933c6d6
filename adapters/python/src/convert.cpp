#include "convert.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <limits>
#include <string>

#include "dapetra/json.hpp"
#include "dapetra/record_reader.hpp"

namespace dapetra::python {

std::string brief(const py::handle& h) {
  std::string s;
  try {
    s = py::str(py::repr(h));
  } catch (py::error_already_set&) {
    s = std::string("<") + Py_TYPE(h.ptr())->tp_name + " object whose repr() raised>";
  }
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

int column_axis_arg(const py::handle& axis, int rank, std::vector<Problem>& problems) {
  if (axis.is_none()) return -1;
  if (PyLong_Check(axis.ptr()) && !PyBool_Check(axis.ptr())) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(axis.ptr(), &overflow);
    if (!overflow && !PyErr_Occurred() && v >= 0 && v <= std::numeric_limits<int>::max()) return static_cast<int>(v);
    PyErr_Clear();
  }
  problems.push_back(Problem::of(rank, "column_axis", brief(axis), "None, or an int naming an axis of the array",
                                 "this column axis is no axis of any array"));
  return -1;
}

namespace {

// NumPy's boolean scalar, by type name so that reading a record never imports
// NumPy: numpy.bool_ in NumPy 1, numpy.bool in NumPy 2 (bool_ its alias).
bool is_numpy_bool(PyObject* v) {
  const char* name = Py_TYPE(v)->tp_name;
  return !std::strcmp(name, "numpy.bool") || !std::strcmp(name, "numpy.bool_");
}

// An item that iterating its container failed to produce: the reader
// refuses it as a value of the wrong type, naming why.
class Unreadable final : public RecordValue {
 public:
  explicit Unreadable(std::string why) : why_(std::move(why)) {}
  Kind kind() const override { return Kind::other; }
  bool boolean() const override { return false; }
  std::optional<global_index_t> integer() const override { return std::nullopt; }
  std::string text() const override { return {}; }
  void for_each_item(const std::function<bool(const RecordValue&)>&) const override {}
  void for_each_member(const std::function<void(std::string_view, const RecordValue&)>&) const override {}
  std::string brief() const override { return why_.size() > 60 ? why_.substr(0, 57) + "..." : why_; }
  std::string type_name() const override { return "an item that could not be read (" + brief() + ")"; }

 private:
  std::string why_;
};

// A Python object as the core's record reader sees it: ints and anything
// with __index__ (NumPy integers) are integers, bool and numpy.bool_ are
// booleans, lists, tuples and 1-D buffers (NumPy arrays, read without a
// Python-level loop where they hold int32 or int64) are lists.
class PyValue final : public RecordValue {
 public:
  explicit PyValue(PyObject* o) : o_(o) {}

  Kind kind() const override {
    // Most values are plain ints: tested first (bool is an int, so before that).
    if (PyBool_Check(o_)) return Kind::boolean;
    if (PyLong_Check(o_)) return Kind::integer;
    if (o_ == Py_None) return Kind::null;
    if (PyFloat_Check(o_)) return Kind::number;
    if (PyUnicode_Check(o_)) return Kind::string;
    if (PyDict_Check(o_)) return Kind::object;
    if (PyList_Check(o_) || PyTuple_Check(o_)) return Kind::list;
    if (is_numpy_bool(o_)) return Kind::boolean;
    // NumPy arrays have __index__ too (for one element): buffers before it.
    if (PyObject_CheckBuffer(o_) && !PyBytes_Check(o_) && !PyByteArray_Check(o_)) {
      if (ndim() != 0) return Kind::list;
      return PyIndex_Check(o_) ? Kind::integer : Kind::number;  // NumPy scalars
    }
    if (PyIndex_Check(o_)) return Kind::integer;
    return Kind::other;
  }
  bool boolean() const override { return PyObject_IsTrue(o_) == 1; }
  std::optional<global_index_t> integer() const override {
    const bool plain = PyLong_Check(o_);
    PyObject* index = plain ? o_ : PyNumber_Index(o_);
    if (!index) return PyErr_Clear(), std::nullopt;
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(index, &overflow);
    if (!plain) Py_DECREF(index);
    if (PyErr_Occurred()) return PyErr_Clear(), std::nullopt;
    if (overflow) return std::nullopt;
    return v;
  }
  std::string text() const override {
    const char* t = PyUnicode_AsUTF8(o_);
    if (!t) return PyErr_Clear(), std::string();
    return t;
  }
  void for_each_item(const std::function<bool(const RecordValue&)>& f) const override {
    if (PyList_Check(o_) || PyTuple_Check(o_)) {
      const Py_ssize_t n = PySequence_Fast_GET_SIZE(o_);
      for (Py_ssize_t i = 0; i < n; ++i)
        if (!f(PyValue(PySequence_Fast_GET_ITEM(o_, i)))) return;
      return;
    }
    try {
      for (const py::handle& item : py::reinterpret_borrow<py::iterable>(o_))
        if (!f(PyValue(item.ptr()))) return;
    } catch (py::error_already_set& e) {  // becomes this process's problem, not an exception here alone
      f(Unreadable(e.what()));
    }
  }
  void for_each_member(const std::function<void(std::string_view, const RecordValue&)>& f) const override {
    PyObject *key = nullptr, *v = nullptr;
    Py_ssize_t at = 0;
    while (PyDict_Next(o_, &at, &key, &v)) {
      Py_ssize_t n = 0;
      const char* k = PyUnicode_Check(key) ? PyUnicode_AsUTF8AndSize(key, &n) : nullptr;
      if (k) {
        f(std::string_view(k, static_cast<std::size_t>(n)), PyValue(v));
      } else {  // named as Python writes it, and refused as no key of the spec
        PyErr_Clear();
        f(python::brief(key), PyValue(v));
      }
    }
  }
  bool packed_integers(std::vector<global_index_t>& out) const override {
    if (PyList_Check(o_) || PyTuple_Check(o_) || !PyObject_CheckBuffer(o_)) return false;
    Py_buffer view;
    if (PyObject_GetBuffer(o_, &view, PyBUF_STRIDES | PyBUF_FORMAT) != 0) return PyErr_Clear(), false;
    const std::string f = normalized_format(view.format ? view.format : "B", static_cast<std::size_t>(view.itemsize));
    const bool packed = view.ndim == 1 && (f == "q" || f == "i");
    if (packed) {
      const auto* base = static_cast<const char*>(view.buf);
      out.resize(static_cast<std::size_t>(view.shape[0]));
      for (std::size_t i = 0; i < out.size(); ++i) {
        const char* at = base + static_cast<std::ptrdiff_t>(i) * view.strides[0];
        out[i] = f == "q" ? *reinterpret_cast<const std::int64_t*>(at) : *reinterpret_cast<const std::int32_t*>(at);
      }
    }
    PyBuffer_Release(&view);
    return packed;
  }
  std::string brief() const override { return python::brief(o_); }
  std::string type_name() const override {
    if (kind() != Kind::other) return RecordValue::type_name();
    return std::string("a value of type ") + Py_TYPE(o_)->tp_name;
  }

 private:
  int ndim() const {
    Py_buffer view;
    if (PyObject_GetBuffer(o_, &view, PyBUF_ND) != 0) return PyErr_Clear(), -1;
    const int n = view.ndim;
    PyBuffer_Release(&view);
    return n;
  }

  PyObject* o_;
};

// One record. Problems name this rank and axis.
void read_dim(const py::handle& item, int rank, int axis, const std::vector<global_index_t>& shape, Read& r) {
  std::optional<global_index_t> extent;
  if (axis < static_cast<int>(shape.size())) extent = shape[static_cast<std::size_t>(axis)];
  if (auto d = read_dim_record(PyValue(item.ptr()), RecordPlace{rank, axis}, extent, r.problems))
    r.array.dim_data.push_back(std::move(*d));
}

void read_buffer(const py::handle& b, int rank, Read& r) {
  if (!PyObject_CheckBuffer(b.ptr())) {
    r.problems.push_back(Problem::of(rank, "buffer", brief(b), "buffer supports the buffer protocol",
                                     "an object of type " + std::string(py::str(py::type::handle_of(b).attr("__name__")))));
    return;
  }
  // A writable view when the object allows it, else a read-only one.
  auto view = std::make_shared<Py_buffer>();
  const int flags = PyBUF_STRIDES | PyBUF_FORMAT;
  bool writable = PyObject_GetBuffer(b.ptr(), view.get(), flags | PyBUF_WRITABLE) == 0;
  if (!writable) {
    PyErr_Clear();
    if (PyObject_GetBuffer(b.ptr(), view.get(), flags) != 0) {
      PyErr_Clear();
      r.problems.push_back(Problem::of(rank, "buffer", brief(b), "buffer exposes shape and strides",
                                       "the object refused a strided buffer request"));
      return;
    }
  }
  BufferView& v = r.array.buffer;
  v.data = view->buf;
  v.itemsize = static_cast<std::size_t>(view->itemsize);
  v.format = normalized_format(view->format ? view->format : "B", v.itemsize);
  if (v.format.empty())
    r.problems.push_back(Problem::of(rank, "format", view->format ? view->format : "B",
                                     "the buffer's element type is one Dapetra moves (f, d, i, q, Zf, Zd)",
                                     "an element type Dapetra does not know"));
  for (int a = 0; a < view->ndim; ++a) {
    v.shape.push_back(view->shape[a]);
    v.strides.push_back(view->strides[a]);
  }
  v.readonly = !writable;
  // The view (and so the Python object) lives as long as any copy of this
  // DistArray: the handle's deleter releases it, with the GIL.
  v.keep_alive = std::shared_ptr<const void>(view.get(), [view](const void*) {
    py::gil_scoped_acquire gil;
    PyBuffer_Release(view.get());
  });
}

}  // namespace


std::string normalized_format(const std::string& format, std::size_t itemsize) {
  std::string f = format;
  // Native or little-endian byte order (this library runs on little-endian machines).
  if (!f.empty() && (f[0] == '@' || f[0] == '=' || f[0] == '<')) f.erase(0, 1);
  if (f == "d" && itemsize == 8) return "d";
  if (f == "f" && itemsize == 4) return "f";
  if ((f == "i" || f == "l" || f == "q") && itemsize == 4) return "i";
  if ((f == "l" || f == "q") && itemsize == 8) return "q";
  if (f == "Zd" && itemsize == 16) return "Zd";
  if (f == "Zf" && itemsize == 8) return "Zf";
  return "";
}

Read read_distarray(const py::handle& obj, int rank) {
  Read r;
  py::object d = py::reinterpret_borrow<py::object>(obj);
  try {
    if (!py::isinstance<py::dict>(d) && py::hasattr(d, "__distarray__")) d = d.attr("__distarray__")();
  } catch (py::error_already_set& e) {
    r.problems.push_back(Problem::of(rank, "__distarray__", "", "__distarray__() returns the protocol's dict",
                                     std::string("__distarray__() raised ") + e.what()));
    return r;
  }
  if (!py::isinstance<py::dict>(d)) {
    r.problems.push_back(Problem::of(rank, "__distarray__", brief(d),
                                     "a distributed array is a dict or has __distarray__() returning one",
                                     "neither a dict nor an object with __distarray__()"));
    return r;
  }
  const auto dict = py::reinterpret_borrow<py::dict>(d);
  for (const char* key : {"__version__", "buffer", "dim_data"})
    if (!PyDict_GetItemString(dict.ptr(), key))
      r.problems.push_back(Problem::of(rank, key, "", std::string("'") + key + "' is present", "missing key"));
  if (!r.problems.empty()) return r;
  if (!py::isinstance<py::str>(dict["__version__"]))
    r.problems.push_back(Problem::of(rank, "__version__", brief(dict["__version__"]), "__version__ is a string",
                                     "not a string"));
  else
    r.array.version = dict["__version__"].cast<std::string>();
  read_buffer(dict["buffer"], rank, r);
  const py::handle dims = dict["dim_data"];
  if (!py::isinstance<py::list>(dims) && !py::isinstance<py::tuple>(dims)) {
    r.problems.push_back(Problem::of(rank, "dim_data", brief(dims), "dim_data is a list or tuple of dicts",
                                     "not a list or tuple"));
    return r;
  }
  int axis = 0;
  for (const py::handle& item : dims) read_dim(item, rank, axis++, r.array.buffer.shape, r);
  return r;
}

py::list dim_data_to_python(const std::vector<Dim>& dim_data) {
  // The core's writer knows the spec's keys per dist_type; json.loads reads it.
  return py::module_::import("json").attr("loads")(dim_data_to_json(dim_data));
}

py::list problems_to_python(const std::vector<Problem>& problems) {
  py::list out;
  for (const Problem& p : problems) {
    py::dict d;
    d["rank"] = p.rank;
    d["dim"] = p.dim;
    d["key"] = p.key;
    d["value"] = p.value;
    d["rule"] = p.rule;
    d["message"] = p.message;
    out.append(d);
  }
  return out;
}

}  // namespace dapetra::python
