// Internal: the owner= and owned_ranges= arguments that Layout, tpetra_view
// and new_tpetra_vector take, as the C++ mpi::Ownership, in this one place.
// A value that does not convert becomes a problem of this process's input,
// refused in the collective creation like any other (never an exception on
// one process alone).
#pragma once

#include <pybind11/pybind11.h>

#include <vector>

#include "dapetra/error.hpp"
#include "dapetra/mpi/ownership.hpp"

namespace dapetra::python {

namespace py = pybind11;

// owner: None or 'lowest' (the default), 'highest', a callable(index,
// holders) -> rank, or an array of integers, the owner's rank of every held
// position along the 'u' axis. owned_ranges: None or P + 1 integers. One of
// the two at most names the owners.
mpi::Ownership ownership_args(const py::object& owner, const py::object& owned_ranges, int rank,
                              std::vector<Problem>& problems);

}  // namespace dapetra::python
