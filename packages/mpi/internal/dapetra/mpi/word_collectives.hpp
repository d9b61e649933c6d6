// Internal, for the mpi layer and Dapetra's own adapters: the word
// collectives they all use (a gather to every process, and the public
// sparse exchange under the names they use).
// Every process of the communicator calls each of them, in the same order.
// Built against, never installed.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "dapetra/mpi/sparse_exchange.hpp"

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

// The sparse exchange is public (dapetra/mpi/sparse_exchange.hpp): Dapetra's
// own creation steps and its users' codes run on the same one.
using mpi::exchange_words;
using mpi::Inbox;
using mpi::Outbox;

}  // namespace dapetra::mpi::detail
