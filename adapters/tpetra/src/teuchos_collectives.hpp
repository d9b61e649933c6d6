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
#include "dapetra/tpetra/comm.hpp"
#include "dapetra/tpetra/types.hpp"

namespace dapetra::tpetra::detail {

inline MPI_Comm raw_comm(const Comm& comm) { return mpi_comm_of(comm); }

// The mpi layer's all_true on a Teuchos communicator (a serial one decides alone).
inline bool all_true(bool value, const Comm& comm) { return mpi::all_true(value, raw_comm(comm)); }

// Every process's words in a fixed slot of `slot` words (length first); a
// record too long for the slot arrives as length 0.
struct FixedGather {
  std::vector<long long> words;
  std::size_t slot;
  FixedGather(const std::vector<std::int64_t>& mine, const Comm& comm, std::size_t slot_words) : slot(slot_words) {
    std::vector<long long> fixed(slot, 0);
    if (mine.size() < slot) {
      fixed[0] = static_cast<long long>(mine.size());
      std::copy(mine.begin(), mine.end(), fixed.begin() + 1);
    }
    words.resize(slot * static_cast<std::size_t>(comm.getSize()));
    Teuchos::gatherAll<int, long long>(comm, static_cast<int>(slot), fixed.data(), static_cast<int>(words.size()),
                                       words.data());
  }
  const std::int64_t* of(int r) const { return reinterpret_cast<const std::int64_t*>(words.data()) + slot * r + 1; }
  std::size_t size(int r) const { return static_cast<std::size_t>(words[slot * r]); }
};

}  // namespace dapetra::tpetra::detail
