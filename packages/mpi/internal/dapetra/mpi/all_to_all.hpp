// Internal, for the mpi layer and Dapetra's own adapters: the one
// all-to-all of words they all use. Built against, never installed.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

namespace dapetra::mpi::detail {

// Collective: every process sends per_dest[p] to process p (one
// MPI_Alltoall of counts, one MPI_Alltoallv); what arrived from p is
// words[displs[p] ... displs[p] + counts[p]). Exchanges too large for MPI's
// int counts are refused by every process alike (ValidationError), never
// truncated.
struct Exchanged {
  std::vector<int> counts, displs;
  std::vector<std::int64_t> words;
};
Exchanged alltoallv_words(const std::vector<std::vector<std::int64_t>>& per_dest, MPI_Comm comm);

}  // namespace dapetra::mpi::detail
