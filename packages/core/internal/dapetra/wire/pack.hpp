/// \file
/// dapetra/wire/pack.hpp (internal, not installed): one process's records as 64-bit words.
///
/// MPI adapters gather every process's dim_data (and buffer shape, memory
/// order and locally found problems) so that every process can run the same
/// checks and reach the same verdict. This is the wire format: plain int64
/// words, so one MPI_Allgatherv moves it. Unpacking checks every length and
/// throws ValidationError on corrupt input; it never reads out of bounds.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "dapetra/error.hpp"
#include "dapetra/global_layout.hpp"

namespace dapetra {

/// One process's records and local facts, as the mpi layer gathers them (packed into 64-bit words).
struct PackedRank {
  RankEntry entry;                 ///< dim_data and (optional) local_shape
  std::vector<int> memory_order;   ///< buffer axes from slowest to fastest in memory; empty if unknown
  std::vector<Problem> problems;   ///< what this process found wrong on its own
  std::vector<std::int64_t> extra; ///< values an adapter wants every process to see
};

/// One process's records as 64-bit words.
std::vector<std::int64_t> pack_rank(const PackedRank& rank);
/// The records from pack_rank's words.
PackedRank unpack_rank(const std::int64_t* words, std::size_t count);

}  // namespace dapetra
