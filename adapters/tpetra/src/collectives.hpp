// Internal: the few collectives the adapter needs, on a Teuchos communicator
// (MPI or serial). Every process must call each of them, in the same order.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "dapetra/dim.hpp"
#include "dapetra/tpetra/types.hpp"

namespace dapetra::tpetra::detail {

// Every process's words, in one array: rank r's are words[begin[r] ...
// begin[r] + length[r]). Records of up to `slot - 1` words on every process
// (the usual case) travel in one fixed-size MPI_Allgather of `slot` words
// each; longer ones need an MPI_Allgatherv too. Every process must pass the
// same slot: a small one for small records saves copying (it shows at the
// microsecond scale).
struct Gathered {
  std::vector<std::int64_t> words;
  std::vector<std::size_t> begin, length;

  int count() const { return static_cast<int>(begin.size()); }
  const std::int64_t* of(int r) const { return words.data() + begin[static_cast<std::size_t>(r)]; }
  std::size_t size(int r) const { return length[static_cast<std::size_t>(r)]; }
};
Gathered allgather_words(const std::vector<std::int64_t>& mine, const Comm& comm, std::size_t slot = 64);

// True on every process iff `value` is true on every process.
bool all_true(bool value, const Comm& comm);

// Rendezvous: for indices in [0, size) held by this process, the lowest rank
// holding each and that rank's position of it (every process calls it;
// indices locally unique).
struct Holders {
  std::vector<int> owner;
  std::vector<local_index_t> position;
};
Holders lowest_holders(const std::vector<std::int64_t>& indices, std::int64_t size, const Comm& comm);

// Every process sends per_dest[p] to process p (one MPI_Alltoall of counts,
// one MPI_Alltoallv); what arrived from p is words[displs[p] ...
// displs[p] + counts[p]). Exchanges too large for MPI's int counts are
// refused by every process alike (ValidationError), never truncated.
struct Exchanged {
  std::vector<int> counts, displs;
  std::vector<std::int64_t> words;
};
Exchanged alltoallv_words(const std::vector<std::vector<std::int64_t>>& per_dest, const Comm& comm);

// The MPI communicator under a Teuchos one (MPI_COMM_SELF for a serial one).
MPI_Comm raw_comm(const Comm& comm);

// A message tag for the next communication plan: plans are created
// collectively, so every process numbers them alike, and interleaved
// exchanges of different plans never match each other's messages.
int next_plan_tag();

}  // namespace dapetra::tpetra::detail
