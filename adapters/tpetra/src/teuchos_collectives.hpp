// Internal: the few collectives the adapter runs on a Teuchos communicator
// (MPI or serial). Every process must call each of them, in the same order.
#pragma once

#include <Teuchos_CommHelpers.hpp>
#include <Teuchos_DefaultMpiComm.hpp>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "dapetra/mpi/agree.hpp"
#include "dapetra/mpi/word_collectives.hpp"
#include "dapetra/tpetra/comm.hpp"
#include "dapetra/tpetra/types.hpp"

namespace dapetra::tpetra::detail {

inline MPI_Comm raw_comm(const Comm& comm) { return mpi_comm_of(comm); }

// The mpi layer's all_true on a Teuchos communicator (a serial one decides alone).
inline bool all_true(bool value, const Comm& comm) { return mpi::all_true(value, raw_comm(comm)); }

// Every process's words, on every process (the mpi layer's gather).
inline mpi::detail::Gathered gather_words(const std::vector<std::int64_t>& mine, const Comm& comm, std::size_t slot) {
  return mpi::detail::allgather_words(mine, raw_comm(comm), slot);
}

}  // namespace dapetra::tpetra::detail
