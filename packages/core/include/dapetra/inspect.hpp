/// \file
/// dapetra/inspect.hpp: a person's (or a script's) view of a layout.
///
/// Backs the `dapetra-inspect` tool: it validates a layout file and describes
/// it (global shape, per-rank shapes and owned counts, halo sizes, load
/// imbalance, the owner map). Single process; no MPI.
#pragma once

#include <string>
#include <vector>

#include "dapetra/error.hpp"
#include "dapetra/json.hpp"

namespace dapetra {

/// One axis of one process, as dapetra-inspect describes it.
struct DimReport {
  std::vector<global_index_t> global_indices;  ///< per local position, buffer order
  std::vector<bool> owned;                     ///< per local position
};

/// One process of a layout, as dapetra-inspect describes it.
struct RankReport {
  /// The process's rank.
  int rank = 0;
  /// Its coordinates in the process grid.
  std::vector<int> grid_coords;
  /// Its buffer's shape.
  std::vector<global_index_t> local_shape;
  global_index_t num_local = 0;  ///< buffer elements
  global_index_t num_owned = 0;  ///< elements this rank owns
  /// Each axis.
  std::vector<DimReport> dims;
};

/// What dapetra-inspect reports on a layout file: validity, shapes, and each process's records.
struct InspectReport {
  /// Whether the layout follows every rule.
  bool valid = false;
  std::vector<Problem> problems;  ///< every problem when not valid
  /// The array's global shape.
  std::vector<global_index_t> global_shape;
  /// The process grid's shape.
  std::vector<int> grid_shape;
  /// Processes in the layout.
  int nprocs = 0;
  /// Each process, in rank order.
  std::vector<RankReport> ranks;
  /// Owner rank per global element in C order, for 1-D and 2-D arrays of at
  /// most `owner_map_limit` elements (empty otherwise).
  std::vector<int> owner_map;
};

/// Largest array whose owner map dapetra-inspect prints in full.
inline constexpr global_index_t owner_map_limit = 4096;

/// Validates and describes a parsed layout (dapetra-inspect's report).
/// @param parsed a layout file, read.
InspectReport inspect(const ParsedLayout& parsed);

/// The `--json` form: {"valid": true, "global_shape": ..., "nprocs": ..., "ranks": [...]}
/// or {"valid": false, "errors": [{"rank", "dim", "key", "value", "rule", "message"}]}.
/// @param report the report.
std::string report_to_json(const InspectReport& report);

/// The human form: validity, shapes, per-rank table, imbalance, owner map.
/// @param report the report.
/// @return it as text for a person.
std::string report_to_text(const InspectReport& report);

}  // namespace dapetra
