#include "ownership_args.hpp"

#include "convert.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <limits>
#include <memory>
#include <optional>
#include <string>

namespace dapetra::python {
namespace {

// A Python callable as the C++ owner rule. It runs inside the collective
// creation with the GIL released, so it takes the GIL; whatever it raises
// becomes rank -1, a choice the creation refuses on every process (never an
// exception on one process alone). Its reference is dropped under the GIL.
SharedIndexOwner python_rule(const py::object& f) {
  std::shared_ptr<py::object> held(new py::object(f), [](py::object* p) {
    if (!Py_IsInitialized()) return;  // at interpreter exit, leak rather than touch Python
    py::gil_scoped_acquire gil;
    delete p;
  });
  return [held](global_index_t g, const std::vector<int>& holders) -> int {
    py::gil_scoped_acquire gil;
    try {
      return (*held)(g, holders).cast<int>();
    } catch (const std::exception&) {
      PyErr_Clear();
      return -1;
    }
  };
}

bool is_string(const py::object& o) { return py::isinstance<py::str>(o) || py::isinstance<py::bytes>(o); }

// An array of integer ranks (any integer dtype; floats and the like are not
// ranks). A rank beyond int becomes -1, which the layout refuses as no rank.
bool held_owner_ranks(const py::object& owner, std::vector<int>& out) {
  py::array a = py::array::ensure(owner);  // null (error cleared) when NumPy cannot make an array of it
  if (!a || a.ndim() != 1 || (a.size() > 0 && a.dtype().kind() != 'i' && a.dtype().kind() != 'u')) return false;
  const auto ranks = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>::ensure(a);
  if (!ranks) return false;
  out.resize(static_cast<std::size_t>(ranks.size()));
  std::transform(ranks.data(), ranks.data() + ranks.size(), out.begin(), [](std::int64_t r) {
    return r < 0 || r > std::numeric_limits<int>::max() ? -1 : static_cast<int>(r);
  });
  return true;
}

// The owner= argument alone; a problem (and the default) when it is no owner.
mpi::Ownership owner_arg(const py::object& owner, int rank, std::vector<Problem>& problems) {
  const bool named = is_string(owner);
  const std::string name = named ? owner.cast<std::string>() : "";
  std::vector<int> held_owners;
  if (owner.is_none() || name == "lowest") return mpi::Ownership::lowest_holder();
  if (name == "highest") return mpi::Ownership::highest_holder();
  if (PyCallable_Check(owner.ptr())) return mpi::Ownership::by_rule(python_rule(owner));
  if (!named && held_owner_ranks(owner, held_owners)) return mpi::Ownership::from_held_owners(std::move(held_owners));
  problems.push_back(
      Problem::of(rank, "owner", brief(owner),
                  "owner is 'lowest', 'highest', a callable(index, holders) -> rank, or an integer array "
                  "of the owner's rank of every held position",
                  "not an owner rule"));
  return mpi::Ownership::lowest_holder();
}

// The owned_ranges= argument, when given; a problem when it is no sequence of integers.
std::optional<std::vector<global_index_t>> owned_ranges_arg(const py::object& owned_ranges, int rank,
                                                            std::vector<Problem>& problems) {
  if (owned_ranges.is_none()) return std::nullopt;
  if (!is_string(owned_ranges)) {
    try {
      return owned_ranges.cast<std::vector<global_index_t>>();
    } catch (const py::cast_error&) {
    }
  }
  problems.push_back(Problem::of(rank, "owned_ranges", brief(owned_ranges),
                                 "owned_ranges is a sequence of P + 1 integers", "not a sequence of integers"));
  return std::nullopt;
}

}  // namespace

mpi::Ownership ownership_args(const py::object& owner, const py::object& owned_ranges, int rank,
                              std::vector<Problem>& problems) {
  const bool owner_given = !owner.is_none() && !(is_string(owner) && owner.cast<std::string>() == "lowest");
  mpi::Ownership by_owner = owner_arg(owner, rank, problems);
  auto ranges = owned_ranges_arg(owned_ranges, rank, problems);
  if (!ranges) return by_owner;
  if (owner_given)
    problems.push_back(Problem::of(rank, "owned_ranges", brief(owned_ranges),
                                   "owner or owned_ranges names the owners, not both", "both were given"));
  return mpi::Ownership::from_ranges(std::move(*ranges));
}

}  // namespace dapetra::python
