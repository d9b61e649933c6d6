// Internal, for the mpi layer and Dapetra's own adapters: the word
// collectives they all use (a gather to every process, a sparse exchange).
// Every process of the communicator calls each of them, in the same order.
// Built against, never installed.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace dapetra::mpi::detail {

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
Gathered allgather_words(const std::vector<std::int64_t>& mine, MPI_Comm comm, std::size_t slot = 64);

// Words to send, by destination rank: only the destinations named get a
// message (an empty list sends nothing). Kept sparse: a process names its
// neighbours, never the whole communicator.
using Outbox = std::map<int, std::vector<std::int64_t>>;

// What arrived, by source rank in ascending order: the words from
// sources[k] are words[begin[k] ... begin[k + 1]).
struct Inbox {
  std::vector<int> sources;
  std::vector<std::size_t> begin{0};
  std::vector<std::int64_t> words;

  std::size_t count() const { return sources.size(); }
  const std::int64_t* of(std::size_t k) const { return words.data() + begin[k]; }
  std::size_t size(std::size_t k) const { return begin[k + 1] - begin[k]; }
  // Where rank p's words are (count() when p sent nothing).
  std::size_t index_of(int p) const;
};

// Collective: every process sends out[q] to each q it names and receives
// what was sent to it, without knowing its sources beforehand. The NBX
// algorithm (Hoefler, Siebert and Lumsdaine, PPoPP 2010): synchronous
// sends, receives of whatever arrives, and a nonblocking reduction entered
// once one's own sends are matched, which completes when everyone's are.
// Per process it costs its own messages plus one small reduction
// (O(log P) messages of one word): no array the size of the communicator,
// no all-to-all. A message too large for MPI's int counts is refused by
// every process alike (the reduction carries the verdict), never truncated.
Inbox exchange_words(const Outbox& out, MPI_Comm comm);

}  // namespace dapetra::mpi::detail
