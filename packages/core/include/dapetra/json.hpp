/// \file
/// dapetra/json.hpp: dim_data and layout files as JSON.
///
/// Dimension records use exactly the spec's keys. A layout file is
///   {"__version__": "0.10.0", "ranks": [{"dim_data": [...], "local_shape": [...]}, ...]}
/// with ranks[r] the record set of MPI rank r. `{}` is the spec's empty
/// dimension dictionary alias and needs the rank's local_shape. Readers never
/// crash on bad input: wrong types, missing keys, numbers out of range and
/// malformed text all become Problems naming rank, dimension and key.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "dapetra/error.hpp"
#include "dapetra/global_layout.hpp"

namespace dapetra {

/// Keys left at their defaults (padding (0,0), periodic false, block_size 1,
/// one_to_one false) are omitted. `indent` < 0 writes one line.
/// @param dim_data records.
/// @param indent JSON indentation (-1: one line).
std::string dim_data_to_json(const std::vector<Dim>& dim_data, int indent = -1);
/// A layout as a layout file's JSON (`indent` as nlohmann-json's dump; -1: one line).
/// @param layout every process's records.
/// @param indent JSON indentation (-1: one line).
std::string layout_to_json(const LayoutRecords& layout, int indent = -1);

/// Parses a JSON array of dimension records. `local_shape` expands `{}`
/// entries. Throws ValidationError on any problem (rank reported as `rank`).
/// @param text the JSON text.
/// @param local_shape the buffer shape, when known.
/// @param rank the rank to name in problems.
std::vector<Dim> dim_data_from_json(std::string_view text,
                                    const std::vector<global_index_t>* local_shape = nullptr,
                                    int rank = -1);

/// The layout and every problem met while reading it. Records that could not be
/// read are listed in `unreadable` as (rank, dim) (dim -1: the whole rank).
struct ParsedLayout {
  /// What could be read.
  LayoutRecords layout;
  /// What could not, each naming where.
  std::vector<Problem> problems;
  /// (rank, dimension) of records that could not be read.
  std::vector<std::pair<int, int>> unreadable;
  /// @return whether the file was read without a problem.
  bool ok() const { return problems.empty(); }
};

/// A layout file's text read; what could not be read is in problems, never thrown.
/// @param text a layout file's text.
/// @return the records and every problem found.
ParsedLayout parse_layout(std::string_view text);

/// Reads, parses and validates (local and collective rules); throws
/// ValidationError listing every problem.
/// @param path the file.
LayoutRecords read_layout_file(const std::string& path);

}  // namespace dapetra
