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

// (allgather_words and exchange_words: dapetra/mpi/word_collectives.hpp,
// shared with the adapters.)

// Thrown by every process alike when `words` (known to every process) does
// not fit MPI's int counts.
void throw_if_too_large_for_mpi(long long words, const std::string& what);

}  // namespace dapetra::mpi::detail
