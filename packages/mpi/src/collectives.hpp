// Internal: the few collectives the mpi layer needs. Every process of the
// communicator must call each of them, in the same order.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dapetra/mpi/all_to_all.hpp"

namespace dapetra::mpi::detail {

int rank_of(MPI_Comm comm);
int size_of(MPI_Comm comm);

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

// The sum over every process.
long long sum_all(long long value, MPI_Comm comm);

// (alltoallv_words: dapetra/mpi/all_to_all.hpp, shared with the adapters.)

// Thrown by every process alike when `words` (known to every process) does
// not fit MPI's int counts.
void throw_if_too_large_for_mpi(long long words, const std::string& what);

}  // namespace dapetra::mpi::detail
