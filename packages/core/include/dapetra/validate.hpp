/// \file
/// dapetra/validate.hpp: every rule DAP 0.10.0 states, as checks.
///
/// Local checks need one process's record; collective checks need the records
/// of all processes (a LayoutRecords). All of them return the complete list of
/// problems found instead of stopping at the first. None communicates: the
/// MPI adapters gather the records and call these same functions, so a layout
/// is judged identically in one process and in many.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dapetra/dim.hpp"
#include "dapetra/error.hpp"
#include "dapetra/global_layout.hpp"

namespace dapetra {

/// A version string this library speaks: "major.minor.patch" with the same
/// major as dap_version. Minor and patch may differ (semantic versioning, as
/// section 1.5 asks). Returns the problems (rank field left at -1).
/// @param version the protocol version given.
std::vector<Problem> check_version(const std::string& version);

/// Rules one record must satisfy on its own (section 1.6). `extent`, when
/// given, is the buffer's length along this dimension.
/// @param d a record.
/// @param rank the rank to name.
/// @param dim the dimension to name.
/// @param extent the buffer's extent along it, when known.
std::vector<Problem> check_dim(const Dim& d, int rank, int dim,
                               std::optional<global_index_t> extent = std::nullopt);

/// Local rules for one process: each record, plus the buffer shape when known
/// and the 32-bit local index limit on the whole buffer. The per-index rules
/// of one 'u' axis (each index once here; in [0, size) in several dimensions)
/// may be deferred: for a caller that proves them another way (the mpi
/// layer confirms a one_to_one flag from a fingerprint of all processes'
/// indices, which implies them) and runs check_index_rules when its proof
/// fails.
/// @param dim_data a process's records.
/// @param rank its rank.
/// @param local_shape its buffer shape, when known.
/// @param defer_index_rules_axis an axis whose per-index rules are left to the caller (-1: none).
std::vector<Problem> check_rank(const std::vector<Dim>& dim_data, int rank,
                                const std::optional<std::vector<global_index_t>>& local_shape =
                                    std::nullopt,
                                int defer_index_rules_axis = -1);

/// The per-index rules of 'u' axis `axis` that check_rank may defer.
/// @param dim_data a process's records.
/// @param axis the 'u' axis.
/// @param rank its rank.
std::vector<Problem> check_index_rules(const std::vector<Dim>& dim_data, int axis, int rank);

/// The collective rules of one 'b' axis, as check_layout applies them: owned
/// ranges tile [0, size) in grid-rank order, neighbouring communication
/// padding agrees and fits, periodic is the same everywhere and the interior
/// can fill the edge padding. `by_grid_rank[k]` is grid rank k's record (each
/// locally valid, all of the same size), sent by MPI rank `mpi_rank[k]`. For
/// adapters that check a block split without building a LayoutRecords.
/// @param axis the axis.
/// @param by_grid_rank each grid rank's record.
/// @param mpi_rank the rank to name for each.
std::vector<Problem> check_block_axis(int axis, const std::vector<const Dim*>& by_grid_rank,
                                      const std::vector<int>& mpi_rank);

/// What check_layout checks beyond the spec's rules.
struct CheckOptions {
  /// Check the index-level rules of 'u' axes across processes (one_to_one
  /// overlaps, distinct count == size). An MPI adapter that does not gather
  /// every process's indices turns this off and checks them distributedly.
  bool unstructured_indices = true;
};

/// The collective rules of one axis (any dist_type), as check_layout applies
/// them once the records of each grid rank along the axis are known to agree.
/// `by_grid_rank[k]` is grid rank k's record (each locally valid, all of the
/// same dist_type and size), sent by MPI rank `mpi_rank[k]`. For adapters that
/// gather only the records of one grid line.
/// @param axis the axis.
/// @param by_grid_rank each grid rank's record.
/// @param mpi_rank the rank to name for each.
/// @param options what to check.
std::vector<Problem> check_axis(int axis, const std::vector<const Dim*>& by_grid_rank, const std::vector<int>& mpi_rank,
                                const CheckOptions& options = {});

/// All rules, local and collective, over every process's records. Collective
/// rules are checked only on axes whose records passed the local rules, so one
/// mistake is not reported many times over.
/// @param layout every process's records.
/// @param options what to check.
std::vector<Problem> check_layout(const LayoutRecords& layout, const CheckOptions& options = {});

}  // namespace dapetra
