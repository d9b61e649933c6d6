#include "convert.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "dapetra/json.hpp"

namespace dapetra::python {
namespace {

using nlohmann::json;

Problem problem(int rank, int dim, std::string key, std::string value, std::string rule, std::string message) {
  return Problem{rank, dim, std::move(key), std::move(value), std::move(rule), std::move(message)};
}

std::string brief(const py::handle& h) {
  std::string s = py::str(py::repr(h));
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

// A record's keys but 'indices' as JSON, for the core's reader (which names
// every wrong type or missing key). Python bool before int: bool is an int.
bool to_json(const py::handle& v, json& out) {
  if (v.is_none()) return out = nullptr, true;
  if (py::isinstance<py::bool_>(v)) return out = v.cast<bool>(), true;
  if (py::isinstance<py::int_>(v) || py::hasattr(v, "__index__")) {
    if (py::isinstance<py::float_>(v)) return out = v.cast<double>(), true;
    try {
      out = py::reinterpret_steal<py::int_>(PyNumber_Index(v.ptr())).cast<long long>();
      return true;
    } catch (const std::exception&) {  // out of range for int64
      PyErr_Clear();
      return out = v.cast<double>(), true;  // the reader refuses it as too large
    }
  }
  if (py::isinstance<py::float_>(v)) return out = v.cast<double>(), true;
  if (py::isinstance<py::str>(v)) return out = v.cast<std::string>(), true;
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    out = json::array();
    for (const py::handle& item : v) {
      json j;
      if (!to_json(item, j)) return false;
      out.push_back(std::move(j));
    }
    return true;
  }
  return false;
}

// 'indices': any buffer of integers (numpy arrays without a copy of their
// own), or a list or tuple of ints.
bool read_indices(const py::handle& v, std::vector<global_index_t>& out) {
  if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
    out.clear();
    out.reserve(py::len(v));
    for (const py::handle& item : v) {
      if (py::isinstance<py::bool_>(item) || !(py::isinstance<py::int_>(item) || py::hasattr(item, "__index__")) ||
          py::isinstance<py::float_>(item))
        return false;
      out.push_back(item.cast<global_index_t>());
    }
    return true;
  }
  if (!PyObject_CheckBuffer(v.ptr())) return false;
  const py::buffer_info info = py::reinterpret_borrow<py::buffer>(v).request();
  if (info.ndim != 1) return false;
  const std::string f = normalized_format(info.format, static_cast<std::size_t>(info.itemsize));
  const auto* base = static_cast<const char*>(info.ptr);
  out.resize(static_cast<std::size_t>(info.shape[0]));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const char* at = base + static_cast<std::ptrdiff_t>(i) * info.strides[0];
    if (f == "q") out[i] = *reinterpret_cast<const std::int64_t*>(at);
    else if (f == "i") out[i] = *reinterpret_cast<const std::int32_t*>(at);
    else return false;
  }
  return true;
}

// The common case read directly (plan calls read a record on every call,
// and the JSON route costs microseconds): a dict with exactly the spec's
// keys for its dist_type, plain ints and bools. Anything else returns false
// and takes the JSON route, whose reader names what is wrong.
bool int_of(PyObject* v, global_index_t& out) {
  if (PyBool_Check(v) || !PyIndex_Check(v) || PyFloat_Check(v)) return false;
  int overflow = 0;
  PyObject* index = PyNumber_Index(v);
  if (!index) return PyErr_Clear(), false;
  out = PyLong_AsLongLongAndOverflow(index, &overflow);
  Py_DECREF(index);
  if (PyErr_Occurred()) return PyErr_Clear(), false;
  return overflow == 0;
}

bool bool_of(PyObject* v, bool& out) {
  if (PyBool_Check(v)) return out = v == Py_True, true;
  if (!std::strcmp(Py_TYPE(v)->tp_name, "numpy.bool_")) return out = PyObject_IsTrue(v) == 1, true;
  return false;
}

bool read_dim_directly(const py::dict& d, const std::vector<global_index_t>& shape, int axis, Dim& out) {
  if (d.empty()) {  // the empty-dictionary alias
    if (axis >= static_cast<int>(shape.size())) return false;
    return out = Dim::undistributed(shape[axis]), true;
  }
  PyObject* type = PyDict_GetItemString(d.ptr(), "dist_type");
  const char* t = type && PyUnicode_Check(type) ? PyUnicode_AsUTF8(type) : nullptr;
  if (!t || !t[0] || t[1] || (t[0] != 'b' && t[0] != 'c' && t[0] != 'u')) return false;
  out.dist_type = t[0] == 'b' ? DistType::block : t[0] == 'c' ? DistType::cyclic : DistType::unstructured;
  // The keys each dist_type may have (the core's JSON reader has the same lists).
  const auto allowed = [&](const char* k) {
    static constexpr const char* common[] = {"dist_type", "size", "proc_grid_size", "proc_grid_rank"};
    for (const char* c : common)
      if (!std::strcmp(k, c)) return true;
    static constexpr const char* b[] = {"start", "stop", "padding", "periodic"};
    static constexpr const char* c[] = {"start", "block_size"};
    static constexpr const char* u[] = {"indices", "one_to_one"};
    if (t[0] == 'b') return std::any_of(std::begin(b), std::end(b), [&](const char* x) { return !std::strcmp(k, x); });
    if (t[0] == 'c') return std::any_of(std::begin(c), std::end(c), [&](const char* x) { return !std::strcmp(k, x); });
    return std::any_of(std::begin(u), std::end(u), [&](const char* x) { return !std::strcmp(k, x); });
  };
  std::size_t required = 4 + (t[0] == 'b' ? 2 : 1);
  global_index_t grid_size = 0, grid_rank = 0;
  PyObject *key = nullptr, *v = nullptr;
  Py_ssize_t at = 0;
  while (PyDict_Next(d.ptr(), &at, &key, &v)) {
    const char* k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : nullptr;
    if (!k || !allowed(k)) return false;
    const auto is = [k](const char* name) { return std::strcmp(k, name) == 0; };
    bool ok = true;
    if (is("dist_type")) --required;
    else if (is("size")) ok = int_of(v, out.size), --required;
    else if (is("proc_grid_size")) ok = int_of(v, grid_size), --required;
    else if (is("proc_grid_rank")) ok = int_of(v, grid_rank), --required;
    else if (is("start")) ok = int_of(v, out.start), --required;
    else if (is("stop")) ok = int_of(v, out.stop), --required;
    else if (is("block_size")) ok = int_of(v, out.block_size);
    else if (is("periodic")) ok = bool_of(v, out.periodic);
    else if (is("one_to_one")) ok = bool_of(v, out.one_to_one);
    else if (is("indices")) ok = read_indices(v, out.indices), --required;
    else if (is("padding")) {
      ok = (PyTuple_Check(v) || PyList_Check(v)) && PySequence_Size(v) == 2;
      for (Py_ssize_t i = 0; ok && i < 2; ++i) {
        PyObject* item = PySequence_GetItem(v, i);
        ok = item && int_of(item, out.padding[static_cast<std::size_t>(i)]);
        Py_XDECREF(item);
      }
    }
    if (!ok) return false;
  }
  if (required != 0 || grid_size < 0 || grid_size > INT32_MAX || grid_rank < 0 || grid_rank > INT32_MAX) return false;
  out.proc_grid_size = static_cast<int>(grid_size);
  out.proc_grid_rank = static_cast<int>(grid_rank);
  return true;
}

// One record. Problems name this rank and axis.
void read_dim(const py::handle& item, int rank, int axis, const std::vector<global_index_t>& shape, Read& r) {
  if (Dim d; py::isinstance<py::dict>(item) && read_dim_directly(py::reinterpret_borrow<py::dict>(item), shape, axis, d)) {
    r.array.dim_data.push_back(std::move(d));
    return;
  }
  if (!py::isinstance<py::dict>(item)) {
    r.problems.push_back(problem(rank, axis, "dim_data", brief(item), "each dim_data entry is a dict",
                                 "entry " + std::to_string(axis) + " is not a dict"));
    return;
  }
  json record = json::object();
  std::vector<global_index_t> indices;
  bool has_indices = false;
  for (const auto& [k, v] : py::reinterpret_borrow<py::dict>(item)) {
    if (!py::isinstance<py::str>(k)) {
      r.problems.push_back(problem(rank, axis, brief(k), "", "dimension keys are strings", "a key that is not a string"));
      continue;
    }
    const auto key = k.cast<std::string>();
    if (key == "indices") {
      has_indices = true;
      if (!read_indices(v, indices))
        r.problems.push_back(problem(rank, axis, "indices", brief(v),
                                     "indices is a one-dimensional sequence or buffer of integers",
                                     "indices could not be read as integers"));
      record["indices"] = json::array();
      continue;
    }
    json value;
    if (!to_json(v, value)) {
      r.problems.push_back(problem(rank, axis, key, brief(v), "dimension values are ints, bools, strings or pairs",
                                   "a value of type " + std::string(py::str(v.get_type().attr("__name__")))));
      continue;
    }
    record[key] = std::move(value);
  }
  if (!r.problems.empty()) return;
  try {
    const std::vector<global_index_t> one{axis < static_cast<int>(shape.size()) ? shape[axis] : 0};
    std::vector<Dim> dims = dim_data_from_json(json::array({record}).dump(), &one, rank);
    if (has_indices) dims[0].indices = std::move(indices);
    r.array.dim_data.push_back(std::move(dims[0]));
  } catch (const ValidationError& e) {
    for (Problem p : e.problems()) r.problems.push_back((p.dim = axis, p));
  }
}

void read_buffer(const py::handle& b, int rank, Read& r) {
  if (!PyObject_CheckBuffer(b.ptr())) {
    r.problems.push_back(problem(rank, -1, "buffer", brief(b), "buffer supports the buffer protocol",
                                 "an object of type " + std::string(py::str(b.get_type().attr("__name__")))));
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
      r.problems.push_back(problem(rank, -1, "buffer", brief(b), "buffer exposes shape and strides",
                                   "the object refused a strided buffer request"));
      return;
    }
  }
  BufferView& v = r.array.buffer;
  v.data = view->buf;
  v.itemsize = static_cast<std::size_t>(view->itemsize);
  v.format = normalized_format(view->format ? view->format : "B", v.itemsize);
  if (v.format.empty())
    r.problems.push_back(problem(rank, -1, "format", view->format ? view->format : "B",
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
    r.problems.push_back(problem(rank, -1, "__distarray__", "", "__distarray__() returns the protocol's dict",
                                 std::string("__distarray__() raised ") + e.what()));
    return r;
  }
  if (!py::isinstance<py::dict>(d)) {
    r.problems.push_back(problem(rank, -1, "__distarray__", brief(d),
                                 "a distributed array is a dict or has __distarray__() returning one",
                                 "neither a dict nor an object with __distarray__()"));
    return r;
  }
  const auto dict = py::reinterpret_borrow<py::dict>(d);
  for (const char* key : {"__version__", "buffer", "dim_data"})
    if (!PyDict_GetItemString(dict.ptr(), key))
      r.problems.push_back(problem(rank, -1, key, "", std::string("'") + key + "' is present", "missing key"));
  if (!r.problems.empty()) return r;
  if (!py::isinstance<py::str>(dict["__version__"]))
    r.problems.push_back(problem(rank, -1, "__version__", brief(dict["__version__"]), "__version__ is a string",
                                 "not a string"));
  else
    r.array.version = dict["__version__"].cast<std::string>();
  read_buffer(dict["buffer"], rank, r);
  const py::handle dims = dict["dim_data"];
  if (!py::isinstance<py::list>(dims) && !py::isinstance<py::tuple>(dims)) {
    r.problems.push_back(problem(rank, -1, "dim_data", brief(dims), "dim_data is a list or tuple of dicts",
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
