// dapetra.Layout, dapetra.HaloPlan, dapetra.RedistributionPlan: the
// communication layer (dapetra/mpi) for any __distarray__ object.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <mpi4py/mpi4py.h>

#include "bindings.hpp"
#include "convert.hpp"
#include "dapetra/dim_math.hpp"
#include "dapetra/mpi/adapter_access.hpp"
#include "dapetra/mpi/mpi.hpp"
#include "ownership_args.hpp"
#include "plan_args.hpp"

namespace dapetra::python {

MPI_Comm comm_of(const py::object& comm) {
  py::object c = comm.is_none() ? py::module_::import("mpi4py.MPI").attr("COMM_WORLD") : comm;
  MPI_Comm* raw = PyMPIComm_Get(c.ptr());
  if (!raw) throw py::error_already_set();
  return *raw;
}

int rank_in(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

CallArray call_array(const py::handle& obj, const mpi::DistributedLayout& layout) {
  CallArray c{read_distarray(obj, layout.rank()), {}};
  c.unfit.dim_data.clear();
  return c;
}

Layout make_layout(const py::object& obj, const py::object& comm_obj, const py::object& owner,
                   const py::object& owned_ranges) {
  const MPI_Comm comm = comm_of(comm_obj);
  Read r = read_distarray(obj, rank_in(comm));
  mpi::DistributedLayoutOptions options;
  options.ownership = ownership_args(owner, owned_ranges, rank_in(comm), r.problems);
  Layout out{nullptr, comm_obj};
  py::gil_scoped_release release;
  if (!r.ok()) mpi::adapter::refuse_layout(r.problems, comm, options);
  out.layout = mpi::DistributedLayout::create(r.array, comm, options);
  return out;
}

namespace {

using mpi::DistributedLayout;
using mpi::PlanExchange;
using mpi::HaloPlan;
using mpi::RedistributionPlan;

// Split-phase calls in flight, by the memory of the array they write; each
// keeps its arrays' buffers alive until its end.
struct InFlight {
  PlanExchange exchange;
  DistArray from, to;
  std::string end;  // the name of the call that ends it
};
using InFlightCalls = std::map<const void*, InFlight>;

// Starts a split-phase call: `begin(exchange)` on the arrays, kept in
// `calls` under the written array's memory. When this process raises
// instead (an array it could not read), `end(exchange)` drains the call's
// messages first: its peers learn of the fault at their end.
template <class Begin, class End>
void begin_call(InFlightCalls& calls, const CallArray& from, const CallArray& to, const char* end_name, Begin&& begin,
                End&& end) {
  const void* key = to.array().buffer.data;
  if (calls.count(key)) throw py::value_error("a split-phase call on this array is already in flight");
  PlanExchange ex;
  try {
    run({&from, &to}, [&] { begin(ex); });
  } catch (...) {
    if (ex.in_flight()) {
      py::gil_scoped_release release;
      try {
        end(ex);
      } catch (const ValidationError&) {  // the fault this process raises anyway
      }
    }
    throw;
  }
  calls[key] = InFlight{std::move(ex), from.array(), to.array(), end_name};
}

// Ends the call in flight on `to`'s memory: `end(exchange)`.
template <class End>
void end_call(InFlightCalls& calls, const CallArray& from, const CallArray& to, const char* name, End&& end) {
  const auto it = calls.find(to.array().buffer.data);
  if (it == calls.end()) throw py::value_error(std::string(name) + ": no split-phase call in flight on this array");
  if (it->second.end != name)
    throw py::value_error(std::string(name) + ": the call in flight on this array ends with " + it->second.end);
  InFlight call = std::move(it->second);
  calls.erase(it);
  run({&from, &to}, [&] { end(call.exchange); });
}

struct PyHaloPlan {
  std::shared_ptr<const HaloPlan> plan;
  InFlightCalls in_flight;

  template <class F>
  void typed(F&& f) const {
    with_scalar(plan->layout().format(), std::forward<F>(f));
  }

  // begin_update (or begin_assemble, `assemble`) on obj, and its end.
  template <class T>
  void begin_typed(const CallArray& a, bool assemble, PlanExchange& ex) const {
    assemble ? plan->begin_assemble<T>(a.array(), ex) : plan->begin_update<T>(a.array(), ex);
  }
  template <class T>
  void end_typed(const CallArray& a, bool assemble, mpi::CombineMode mode, PlanExchange& ex) const {
    assemble ? plan->end_assemble<T>(a.array(), ex, mode) : plan->end_update<T>(a.array(), ex);
  }
  void begin(const py::object& obj, bool assemble) {
    const CallArray a = call_array(obj, plan->layout());
    const auto end_with = [&](PlanExchange& ex) {  // drains a begin this process then refuses
      typed([&](auto t) { end_typed<typename decltype(t)::type>(a, assemble, mpi::CombineMode::add, ex); });
    };
    begin_call(
        in_flight, a, a, assemble ? "end_assemble" : "end_update",
        [&](PlanExchange& ex) { typed([&](auto t) { begin_typed<typename decltype(t)::type>(a, assemble, ex); }); },
        end_with);
  }
  void end(const py::object& obj, bool assemble, mpi::CombineMode mode) {
    const CallArray a = call_array(obj, plan->layout());
    end_call(in_flight, a, a, assemble ? "end_assemble" : "end_update", [&](PlanExchange& ex) {
      typed([&](auto t) { end_typed<typename decltype(t)::type>(a, assemble, mode, ex); });
    });
  }
};

struct PyRedistributionPlan {
  std::shared_ptr<const RedistributionPlan> plan;
  InFlightCalls in_flight;

  template <class F>
  void typed(F&& f) const {
    with_scalar(plan->source_layout().format(), std::forward<F>(f));  // the messages carry the source's element type
  }

  // apply (forward: source array to target array) or apply_reverse.
  void move(const py::object& from_obj, const py::object& to_obj, bool forward) const {
    const CallArray from = call_array(from_obj, plan->source_layout()), to = call_array(to_obj, plan->source_layout());
    run({&from, &to}, [&] {
      typed([&](auto t) {
        using T = typename decltype(t)::type;
        forward ? plan->apply<T>(from.array(), to.array()) : plan->apply_reverse<T>(from.array(), to.array());
      });
    });
  }
  // begin_apply (forward) or begin_apply_reverse, and their ends.
  template <class T>
  void begin_typed(const CallArray& from, const CallArray& to, bool forward, PlanExchange& ex) const {
    forward ? plan->begin_apply<T>(from.array(), to.array(), ex)
            : plan->begin_apply_reverse<T>(from.array(), to.array(), ex);
  }
  template <class T>
  void end_typed(const CallArray& from, const CallArray& to, bool forward, PlanExchange& ex) const {
    forward ? plan->end_apply<T>(from.array(), to.array(), ex) : plan->end_apply_reverse<T>(from.array(), to.array(), ex);
  }
  void begin(const py::object& from_obj, const py::object& to_obj, bool forward) {
    const CallArray from = call_array(from_obj, plan->source_layout()), to = call_array(to_obj, plan->source_layout());
    begin_call(
        in_flight, from, to, forward ? "end_apply" : "end_apply_reverse",
        [&](PlanExchange& ex) { typed([&](auto t) { begin_typed<typename decltype(t)::type>(from, to, forward, ex); }); },
        [&](PlanExchange& ex) { typed([&](auto t) { end_typed<typename decltype(t)::type>(from, to, forward, ex); }); });
  }
  void end(const py::object& from_obj, const py::object& to_obj, bool forward) {
    const CallArray from = call_array(from_obj, plan->source_layout()), to = call_array(to_obj, plan->source_layout());
    end_call(in_flight, from, to, forward ? "end_apply" : "end_apply_reverse", [&](PlanExchange& ex) {
      typed([&](auto t) { end_typed<typename decltype(t)::type>(from, to, forward, ex); });
    });
  }
};

// A read-only NumPy view of a vector the index map owns (the map stays alive with it).
template <class T>
py::array read_only_view(const std::vector<T>& v, const py::handle& owner) {
  py::array out(py::dtype::of<T>(), {static_cast<py::ssize_t>(v.size())}, {static_cast<py::ssize_t>(sizeof(T))},
                v.data(), owner);
  out.attr("flags").attr("writeable") = false;
  return out;
}

struct PyIndexMap {
  std::shared_ptr<const mpi::IndexMap> map;
};

void bind_index_map(py::module_& m) {
  using Map = PyIndexMap;
  py::class_<Map>(m, "IndexMap", R"(Ownership, global indices and neighbours of one layout's elements.

Made by Layout.index_map() (collective). Local elements are numbered in C
order over this process's buffer; an element's global index is its C-order
flat index over the global shape (a 1-D 'u' array's own index). owners and
global_indices are read-only NumPy views into the map (no copies).)")
      .def_property_readonly("local_size", [](const Map& x) { return x.map->local_size(); }, "Elements held here.")
      .def_property_readonly("num_owned", [](const Map& x) { return x.map->num_owned(); }, "Elements owned here.")
      .def_property_readonly("num_ghosts", [](const Map& x) { return x.map->num_ghosts(); },
                             "Elements held here and owned elsewhere.")
      .def_property_readonly("global_size", [](const Map& x) { return x.map->global_size(); },
                             "Elements of the global array, each once.")
      .def_property_readonly("global_indices", [](py::object self) {
        return read_only_view(self.cast<const Map&>().map->global_indices(), self);
      }, "The global index of every local element (int64, read-only view).")
      .def_property_readonly("owners", [](py::object self) {
        return read_only_view(self.cast<const Map&>().map->owners(), self);
      }, "The owning rank of every local element (int32, read-only view).")
      .def("local_index", [](const Map& x, global_index_t g) { return x.map->local_index(g); }, py::arg("g"),
           "The local index of global index g, or -1 when it is not held here.")
      .def("local_index", [](const Map& x, const py::array_t<global_index_t, py::array::forcecast>& g) {
        py::array_t<local_index_t> out(g.size());
        auto o = out.mutable_unchecked<1>();
        const global_index_t* in = g.data();
        for (py::ssize_t k = 0; k < g.size(); ++k) o(k) = x.map->local_index(in[k]);
        return out;
      }, py::arg("g"), "The local index of each global index (-1 where not held), as a new array.")
      .def_property_readonly("owned_range", [](const Map& x) -> py::object {
        if (!x.map->owned_range()) return py::none();
        return py::make_tuple(x.map->owned_range()->first, x.map->owned_range()->second);
      }, "(first, last) when the owned global indices are exactly range(first, last), else None.")
      .def_property_readonly("src", [](const Map& x) { return x.map->src(); },
                             "Ranks owning this process's ghosts, ascending.")
      .def_property_readonly("dest", [](const Map& x) { return x.map->dest(); },
                             "Ranks holding copies of this process's owned elements, ascending.")
      .def("sharers", [](const Map& x, local_index_t i) {
        if (i < 0 || i >= x.map->local_size()) throw py::index_error("no such local element");
        const auto [b, e] = x.map->sharers(i);
        return std::vector<int>(b, e);
      }, py::arg("i"), "The ranks holding copies of local element i, ascending (empty for a ghost).");
}

mpi::CombineMode mode_of(const std::string& name) {
  if (name == "add") return mpi::CombineMode::add;
  if (name == "insert") return mpi::CombineMode::insert;
  if (name == "absmax") return mpi::CombineMode::absmax;
  throw py::value_error("mode is 'add', 'insert' or 'absmax', not '" + name + "'");
}

}  // namespace

void bind_plans(py::module_& m) {
  if (import_mpi4py() < 0) throw py::error_already_set();

  py::class_<Layout>(m, "Layout", R"(One distributed array's layout over an MPI communicator.

Layout(obj, comm=None) is collective: every process passes its own protocol
object (anything with __distarray__(), or the dict) and the same mpi4py
communicator (default MPI.COMM_WORLD). All processes' records are checked
together; if any process's input is wrong, every process raises the same
ValidationError. The layout keeps no reference to obj's buffer.

owner picks the owner of a 'u' index held by several processes: 'lowest'
(the default), 'highest', or a callable(index, holders) -> rank, one of the
holders (sorted ranks); every process passes the same rule. It may be called
on any process, for indices that process does not hold; a rule that raises
or picks a non-holder makes every process raise ValidationError.
Or owner is an integer array with the owner's rank of every position this
process holds along the 'u' axis, as the caller's numbering names it
(DOLFINx: this rank for the owned dofs, then index_map.owners for the
ghosts; PETSc: the ghosts' owners). Every process holding an index must name
the same owner, one that holds it; creation checks that with one message
per index and otherwise makes every process raise ValidationError (key
'held_owners').

owned_ranges, for a 1-D 'u' array numbered as DOLFINx, PETSc and Tpetra's
contiguous maps number it: P + 1 integers, process p owning the indices
[owned_ranges[p], owned_ranges[p + 1]) and holding them first in its
buffer, in order (petsc4py's Vec.getOwnershipRanges() gives them). The
owners are then found in closed form, with no rendezvous, and owner is not
used. Every process passes the same ones; ranges that do not fit make every
process raise ValidationError.)")
      .def(py::init(&make_layout), py::arg("obj"), py::arg("comm") = py::none(), py::arg("owner") = py::none(),
           py::arg("owned_ranges") = py::none())
      .def_property_readonly("comm", [](const Layout& l) { return l.comm; })
      .def_property_readonly("rank", [](const Layout& l) { return l.layout->rank(); })
      .def_property_readonly("nprocs", [](const Layout& l) { return l.layout->nprocs(); })
      .def_property_readonly("global_shape", [](const Layout& l) { return py::tuple(py::cast(l.layout->global_shape())); })
      .def_property_readonly("local_shape", [](const Layout& l) { return py::tuple(py::cast(l.layout->local_shape())); })
      .def_property_readonly("format", [](const Layout& l) { return l.layout->format(); })
      .def_property_readonly("dim_data", [](const Layout& l) { return dim_data_to_python(l.layout->dim_data()); })
      .def_property_readonly("num_owned", [](const Layout& l) { return l.layout->num_owned(); })
      .def("is_owned", [](const Layout& l, int axis, global_index_t i) { return l.layout->is_owned(axis, i); },
           py::arg("axis"), py::arg("position"), "Whether this process owns position i of its buffer along axis.")
      .def(
          "global_indices",
          [](const Layout& l, int axis) {
            const auto& dims = l.layout->dim_data();
            if (axis < 0 || axis >= static_cast<int>(dims.size())) throw py::index_error("no such axis");
            const Dim& d = dims[static_cast<std::size_t>(axis)];
            py::array_t<std::int64_t> out(local_extent(d));
            auto v = out.mutable_unchecked<1>();
            for (global_index_t i = 0; i < local_extent(d); ++i) v(i) = global_index(d, i);
            return out;
          },
          py::arg("axis"), "The global index of every position of this process's buffer along axis (a new array).")
      .def("index_map", [](const Layout& l) {
        py::gil_scoped_release release;
        return PyIndexMap{mpi::IndexMap::create(l.layout)};
      }, "The layout's IndexMap: owners, global indices, look-ups and neighbours (collective).");
  bind_index_map(m);

  py::class_<PyHaloPlan>(m, "HaloPlan", R"(Fills ghost and padding elements from their owners, in place.

HaloPlan(layout) is collective. update(a), begin_update(a) / end_update(a),
assemble(a, mode="add", then_update=False) and begin_assemble(a) /
end_assemble(a, mode="add") take an array of the
layout's records, shape, strides and element type and work in place on its
buffer, with the GIL released while waiting on MPI. A wrong array on one
process raises ValidationError there and on every process it exchanges with.

Between begin_update(a) and end_update(a) the messages may read and write
a itself (contiguous halos go straight from and into it, as in PETSc and
DOLFINx): compute on the interior, but do not write elements that are sent
nor touch the ghosts until end_update. Between begin_assemble(a) and
end_assemble(a) do not write the ghosts; owned elements may change, and
end_assemble combines into what they then hold.)")
      .def(py::init([](const Layout& l) {
             py::gil_scoped_release release;
             return PyHaloPlan{HaloPlan::create(l.layout), {}};
           }),
           py::arg("layout"))
      .def("update",
           [](const PyHaloPlan& p, const py::object& obj) {
             const CallArray a = call_array(obj, p.plan->layout());
             run({&a}, [&] { p.typed([&](auto t) { p.plan->update<typename decltype(t)::type>(a.array()); }); });
           })
      .def("begin_update", [](PyHaloPlan& p, const py::object& a) { p.begin(a, false); }, py::arg("a"))
      .def("end_update", [](PyHaloPlan& p, const py::object& a) { p.end(a, false, mpi::CombineMode::add); },
           py::arg("a"))
      .def("begin_assemble", [](PyHaloPlan& p, const py::object& a) { p.begin(a, true); }, py::arg("a"))
      .def("end_assemble",
           [](PyHaloPlan& p, const py::object& a, const std::string& mode) { p.end(a, true, mode_of(mode)); },
           py::arg("a"), py::arg("mode") = "add")
      .def("assemble",
           [](const PyHaloPlan& p, const py::object& obj, const std::string& mode, bool then_update) {
             const CallArray a = call_array(obj, p.plan->layout());
             const mpi::CombineMode cm = mode_of(mode);
             run({&a}, [&] { p.typed([&](auto t) { p.plan->assemble<typename decltype(t)::type>(a.array(), cm, then_update); }); });
           },
           py::arg("a"), py::arg("mode") = "add", py::arg("then_update") = false)
      .def(
          "_update_timed_in_cpp",
          [](const PyHaloPlan& p, const py::object& obj, int calls) {
            // For the benchmark driver: `calls` updates from a C++ loop (the
            // baseline of a Python call), seconds per call on this process.
            const CallArray a = call_array(obj, p.plan->layout());
            a.raise_if_unread();
            py::gil_scoped_release release;
            const auto t0 = std::chrono::steady_clock::now();
            p.typed([&](auto t) {
              for (int i = 0; i < calls; ++i) p.plan->update<typename decltype(t)::type>(a.array());
            });
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / calls;
          },
          py::arg("a"), py::arg("calls"))
      .def_property_readonly("num_ghosts", [](const PyHaloPlan& p) { return p.plan->num_ghosts(); },
                             "Elements an update writes on this process (ghost copies, padding).")
      .def_property_readonly("num_sent", [](const PyHaloPlan& p) { return p.plan->num_sent(); },
                             "Elements this process sends to other processes per update.")
      .def_property_readonly("num_received", [](const PyHaloPlan& p) { return p.plan->num_received(); },
                             "Elements this process receives from other processes per update.")
      .def_property_readonly("num_neighbours", [](const PyHaloPlan& p) { return p.plan->num_neighbours(); });

  py::class_<PyRedistributionPlan>(m, "RedistributionPlan",
                                                         R"(Moves an array from one layout to another, in place.

RedistributionPlan(source, target) is collective; apply(a, b) writes every
owned element of b from a, apply_reverse(b, a) the reverse. Each has a split
phase, begin_apply(a, b) / end_apply(a, b) and begin_apply_reverse(b, a) /
end_apply_reverse(b, a): until the end, do not write the array read nor
touch the one written.)")
      .def(py::init([](const Layout& source, const Layout& target) {
             py::gil_scoped_release release;
             return PyRedistributionPlan{RedistributionPlan::create(source.layout, target.layout), {}};
           }),
           py::arg("source"), py::arg("target"))
      .def("apply", [](const PyRedistributionPlan& p, const py::object& a, const py::object& b) { p.move(a, b, true); },
           py::arg("a"), py::arg("b"))
      .def("apply_reverse",
           [](const PyRedistributionPlan& p, const py::object& b, const py::object& a) { p.move(b, a, false); },
           py::arg("b"), py::arg("a"))
      .def("begin_apply", [](PyRedistributionPlan& p, const py::object& a, const py::object& b) { p.begin(a, b, true); },
           py::arg("a"), py::arg("b"))
      .def("end_apply", [](PyRedistributionPlan& p, const py::object& a, const py::object& b) { p.end(a, b, true); },
           py::arg("a"), py::arg("b"))
      .def("begin_apply_reverse",
           [](PyRedistributionPlan& p, const py::object& b, const py::object& a) { p.begin(b, a, false); },
           py::arg("b"), py::arg("a"))
      .def("end_apply_reverse",
           [](PyRedistributionPlan& p, const py::object& b, const py::object& a) { p.end(b, a, false); },
           py::arg("b"), py::arg("a"))
      .def_property_readonly("num_sent", [](const PyRedistributionPlan& p) { return p.plan->num_sent(); },
                             "Elements this process sends to other processes per apply().")
      .def_property_readonly("num_received", [](const PyRedistributionPlan& p) { return p.plan->num_received(); },
                             "Elements this process receives from other processes per apply().")
      .def_property_readonly("num_local", [](const PyRedistributionPlan& p) { return p.plan->num_local(); },
                             "Elements this process copies to itself per apply().");
}

}  // namespace dapetra::python
