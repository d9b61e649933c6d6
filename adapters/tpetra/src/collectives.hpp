// Internal: the few collectives the adapter needs, on a Teuchos communicator
// (MPI or serial). Every process must call each of them, in the same order.
#pragma once

#include <cstdint>
#include <vector>

#include "dapetra/tpetra/types.hpp"

namespace dapetra::tpetra::detail {

// Every process's words, indexed by rank.
std::vector<std::vector<std::int64_t>> allgather_words(const std::vector<std::int64_t>& mine, const Comm& comm);

// True on every process iff `value` is true on every process.
bool all_true(bool value, const Comm& comm);

// Sum of `value` over the processes of lower rank.
long long exclusive_sum(long long value, const Comm& comm);

}  // namespace dapetra::tpetra::detail
