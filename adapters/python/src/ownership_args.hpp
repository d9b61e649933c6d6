// Internal: the owner= and owned_ranges= arguments that Layout and
// tpetra_view take, as the C++ layout options. A value that does not convert
// becomes a problem of this process's input, refused in the collective
// creation like any other (never an exception on one process alone).
#pragma once

#include <pybind11/pybind11.h>

#include <vector>

#include "dapetra/axis.hpp"
#include "dapetra/error.hpp"

namespace dapetra::python {

namespace py = pybind11;

struct OwnershipArgs {
  SharedIndexOwner shared_owner = lowest_holder;
  std::vector<global_index_t> owned_ranges;
  std::vector<int> held_owners;
};

// owner: None or 'lowest' (the default), 'highest', a callable(index,
// holders) -> rank, or an array of integers, the owner's rank of every held
// position along the 'u' axis. owned_ranges: None or P + 1 integers.
OwnershipArgs ownership_args(const py::object& owner, const py::object& owned_ranges, int rank,
                             std::vector<Problem>& problems);

}  // namespace dapetra::python
