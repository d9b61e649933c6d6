/// \file
/// dapetra/tpetra/comm.hpp: the MPI communicator under a Teuchos one.
///
/// Tpetra objects carry Teuchos communicators; Dapetra's layouts, plans and
/// dapetra::mpi::agree take MPI ones. Kept apart from dapetra/tpetra/tpetra.hpp
/// so that code needing only this pulls in no Tpetra class.
#pragma once

#include <Teuchos_DefaultMpiComm.hpp>
#include <mpi.h>

#include "dapetra/tpetra/types.hpp"

namespace dapetra::tpetra {

/// The MPI communicator of `comm`, or MPI_COMM_SELF for a serial Teuchos
/// communicator (one process deciding alone). Not collective; no duplicate.
/// @param comm a Teuchos communicator.
/// @return its MPI communicator (MPI_COMM_SELF for a serial one).
inline MPI_Comm mpi_comm_of(const Comm& comm) {
  const auto* mpi = dynamic_cast<const Teuchos::MpiComm<int>*>(&comm);
  return mpi ? static_cast<MPI_Comm>(*mpi->getRawMpiComm()) : MPI_COMM_SELF;
}

}  // namespace dapetra::tpetra
