// Internal: the arguments every communication-layer call of the Python
// package takes (plans.cpp, checkpoint.cpp): a Layout, an mpi4py
// communicator, an array read for a collective call, and the element type.
#pragma once

#include <mpi.h>
#include <pybind11/pybind11.h>

#include <initializer_list>
#include <memory>
#include <string>

#include "convert.hpp"
#include "dapetra/error.hpp"
#include "dapetra/mpi/distributed_layout.hpp"
#include "dapetra/mpi/scalar.hpp"

namespace dapetra::python {

// dapetra.Layout: one array's layout and the mpi4py communicator it was
// created on. Hidden, as pybind11's own types are (it holds a py::object).
struct
#if defined(__GNUC__)
    __attribute__((visibility("hidden")))
#endif
    Layout {
  std::shared_ptr<const mpi::DistributedLayout> layout;
  py::object comm;
};

// Collective over comm: Layout(obj, comm, owner, owned_ranges). Every
// process's problems reading obj are refused on every process.
Layout make_layout(const py::object& obj, const py::object& comm_obj, const py::object& owner,
                   const py::object& owned_ranges);

// The MPI communicator of an mpi4py one (None: COMM_WORLD).
MPI_Comm comm_of(const py::object& comm);

// This process's rank in comm.
int rank_in(MPI_Comm comm);

// The array a collective call works on. An object this process cannot read
// still goes through the call as an array that fits no layout, so that
// every peer learns of the fault from its message instead of waiting; this
// process then raises what it could not read.
struct CallArray {
  Read read;
  const DistArray& array() const { return read.ok() ? read.array : unfit; }
  void raise_if_unread() const {
    if (!read.ok()) throw ValidationError(read.problems);
  }
  DistArray unfit;  // no records: the plans report Fault::dim_data for this rank
};

// obj read for a call on `layout`'s processes.
CallArray call_array(const py::handle& obj, const mpi::DistributedLayout& layout);

// Runs a collective call with the GIL released; a failure to read an array
// here wins over the call's own report of it.
template <class Call>
void run(std::initializer_list<const CallArray*> arrays, Call&& call) {
  const auto raise_if_unread = [&] {
    for (const CallArray* a : arrays) a->raise_if_unread();
  };
  try {
    py::gil_scoped_release release;
    call();
  } catch (const ValidationError&) {
    raise_if_unread();
    throw;
  }
  raise_if_unread();
}

// The element type named by a format: one branch per type of the mpi
// layer's list, so a type added there is a type handled here.
template <class T>
struct Tag {
  using type = T;
};

template <class F>
void with_scalar(const std::string& format, F&& f) {
#define DAPETRA_DISPATCH(T) \
  if (format == format_of<T>()) return f(Tag<T>{});
  DAPETRA_FOR_EACH_PLAN_SCALAR(DAPETRA_DISPATCH)
#undef DAPETRA_DISPATCH
  throw ValidationError({Problem::of(-1, "format", format, "a format Dapetra's plans move (f, d, i, q, Zf, Zd)",
                                     "no plan moves this element type")});
}

}  // namespace dapetra::python
