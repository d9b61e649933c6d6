// Internal: what the Tpetra parts of the module share: a Teuchos
// communicator over an mpi4py one, and a Tpetra layout made collectively
// from a protocol object (a process that cannot read its object refuses, so
// every process raises). Each translation unit that includes this must call
// import_mpi4py() once (mpi4py's C API pointers are per translation unit).
#pragma once

#include <Teuchos_DefaultMpiComm.hpp>
#include <mpi4py/mpi4py.h>

#include "convert.hpp"
#include "dapetra/mpi/adapter_access.hpp"
#include "dapetra/mpi/distributed_layout.hpp"
#include "dapetra/tpetra/comm.hpp"
#include "dapetra/tpetra/tpetra_layout.hpp"

namespace dapetra::python {

inline Teuchos::RCP<const tpetra::Comm> teuchos_comm(const py::object& comm) {
  py::object c = comm.is_none() ? py::module_::import("mpi4py.MPI").attr("COMM_WORLD") : comm;
  MPI_Comm* raw = PyMPIComm_Get(c.ptr());
  if (!raw) throw py::error_already_set();
  return Teuchos::rcp(new Teuchos::MpiComm<int>(Teuchos::opaqueWrapper(*raw)));
}

// Collective. The array read (a view of obj's buffer) comes back with the
// layout. `problems` are this process's own of other arguments, refused with
// its reading problems.
inline std::shared_ptr<const tpetra::TpetraLayout> tpetra_layout_of(const py::object& obj,
                                                                     const Teuchos::RCP<const tpetra::Comm>& comm,
                                                                     DistArray* array = nullptr,
                                                                     const tpetra::TpetraLayoutOptions& options = {},
                                                                     const std::vector<Problem>& problems = {}) {
  Read r = read_distarray(obj, comm->getRank());
  r.problems.insert(r.problems.end(), problems.begin(), problems.end());
  py::gil_scoped_release release;
  if (!r.ok()) mpi::adapter::refuse_layout(r.problems, tpetra::mpi_comm_of(*comm), options.distribution);
  auto layout = tpetra::TpetraLayout::create(r.array, comm, options);
  if (array) *array = std::move(r.array);
  return layout;
}

}  // namespace dapetra::python
