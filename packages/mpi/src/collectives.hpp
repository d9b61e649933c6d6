// Internal: the few collectives the mpi layer needs. Every process of the
// communicator must call each of them, in the same order.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "dapetra/mpi/word_collectives.hpp"

namespace dapetra::mpi::detail {

int rank_of(MPI_Comm comm);
int size_of(MPI_Comm comm);

// The sum over every process.
long long sum_all(long long value, MPI_Comm comm);

// Values every process puts to one vote, each combined over every process
// by its lowest, its (wrapping) sum, or whether it is the same everywhere:
// many decisions for the cost of one reduction (O(log P) messages of a few
// words per process). Every process puts the same kinds in the same order,
// then casts. Each put returns the value's place, read after the cast.
class Ballot {
 public:
  std::size_t lowest(std::int64_t value);
  std::size_t highest(std::int64_t value);
  std::size_t same(std::int64_t value);
  std::size_t sum(std::int64_t value);
  // Collective: one MPI_Allreduce.
  void cast(MPI_Comm comm);
  std::int64_t lowest_of(std::size_t place) const { return low_[place]; }
  std::int64_t highest_of(std::size_t place) const { return ~low_[place]; }
  bool same_of(std::size_t place) const { return low_[place] == ~low_[place + 1]; }
  std::int64_t sum_of(std::size_t place) const { return sums_[place]; }

 private:
  std::vector<std::int64_t> low_, sums_;
};

// (allgather_words and exchange_words: dapetra/mpi/word_collectives.hpp,
// shared with the adapters.)

// Thrown by every process alike when `words` (known to every process) does
// not fit MPI's int counts.
void throw_if_too_large_for_mpi(long long words, const std::string& what);

}  // namespace dapetra::mpi::detail
