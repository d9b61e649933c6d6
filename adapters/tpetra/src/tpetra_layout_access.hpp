// Internal: what the views and transfers read of a TpetraLayout beyond its
// public face: the buffer's row geometry and the owned rows' table.
#pragma once

#include <cstddef>
#include <vector>

#include "dapetra/tpetra/tpetra_layout.hpp"

namespace dapetra::tpetra::detail {

struct TpetraLayoutAccess {
  // Rows of the buffer: elements per column.
  static std::size_t local_rows(const TpetraLayout& l) { return l.local_rows_; }
  // Elements between columns in the buffer.
  static std::size_t leading_dimension(const TpetraLayout& l) { return l.leading_dimension_; }
  // The buffer row (in memory order) of each owned-map row, in owned-map
  // order, listed at creation (4 bytes per owned row) only when owned_rows()
  // is not set; empty otherwise.
  static const std::vector<local_index_t>& owned_row_list(const TpetraLayout& l) { return l.owned_row_list_; }
  // The global shape of the linearised array (the column axis left out).
  static const std::vector<global_index_t>& map_shape(const TpetraLayout& l) { return l.map_shape_; }
};

}  // namespace dapetra::tpetra::detail
