// Internal: Python protocol objects to Dapetra's C++ form and back.
//
// `__distarray__()` returns a dict (section 1.5): '__version__', 'buffer'
// (anything with the buffer protocol) and 'dim_data' (a list or tuple of
// dicts, `{}` the empty-dictionary alias). Reading one never raises in the
// middle of a collective call: every problem becomes a dapetra::Problem, and
// the caller decides (DistributedLayout::refuse for a collective creation,
// a deliberately unfit array for a plan call, so that peers learn of it).
#pragma once

#include <pybind11/pybind11.h>

#include <memory>
#include <vector>

#include "dapetra/distarray.hpp"

namespace dapetra::python {

namespace py = pybind11;

// What was read from one protocol object: the array (a view of the Python
// buffer, which `array.buffer.keep_alive` holds), or the problems.
struct Read {
  DistArray array;
  std::vector<Problem> problems;
  bool ok() const { return problems.empty(); }
};

// `obj` is an object with __distarray__() or the dict itself.
Read read_distarray(const py::handle& obj, int rank);

// `h` quoted for a problem's message, at most 60 characters. A __repr__
// that raises gives the type's name instead: one process's refusal must not
// become an exception the others never see.
std::string brief(const py::handle& h);

// A column_axis argument: None gives -1 (no column axis), an int in C's int
// range itself; anything else is this process's problem (rank, key
// "column_axis", the value quoted), to refuse with the others', and -1.
int column_axis_arg(const py::handle& axis, int rank, std::vector<Problem>& problems);

// The element format as Dapetra names it ("d", "f", "i", "q", "Zf", "Zd"),
// from a PEP-3118 format and itemsize as Python reports them ("<d", "l",
// "=q", ...); "" when Dapetra has no such type.
std::string normalized_format(const std::string& format, std::size_t itemsize);

// The spec's dict for `dim_data` (keys at their defaults included, as the
// spec's examples write them).
py::list dim_data_to_python(const std::vector<Dim>& dim_data);

// ValidationError's problems as a list of dicts (rank, dim, key, value,
// rule, message).
py::list problems_to_python(const std::vector<Problem>& problems);

}  // namespace dapetra::python
