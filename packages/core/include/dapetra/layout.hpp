// dapetra/layout.hpp: every process's dim_data of one array, in one place.
//
// A Layout is what a layout file holds (`{"__version__": ..., "ranks": [...]}`,
// see json.hpp) and what the collective checks and the inspection tool work
// on. `ranks[r]` is MPI rank r. A GlobalLayout is a validated Layout with the
// derived facts (global shape, process grid, one AxisPartition per axis)
// computed once.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dapetra/axis.hpp"
#include "dapetra/dim.hpp"
#include "dapetra/process_grid.hpp"

namespace dapetra {

// The DAP version this library writes.
inline constexpr const char* dap_version = "0.10.0";

struct RankEntry {
  std::vector<Dim> dim_data;
  // The buffer's shape, when known; checked against dim_data.
  std::optional<std::vector<global_index_t>> local_shape;
};

struct Layout {
  std::string version = dap_version;
  std::vector<RankEntry> ranks;
};

// Buffer shape implied by one process's dim_data.
std::vector<global_index_t> local_shape_of(const std::vector<Dim>& dim_data);

// Global shape (the sizes) of one process's dim_data.
std::vector<global_index_t> global_shape_of(const std::vector<Dim>& dim_data);

// Tag for building a GlobalLayout from records already checked with check_layout.
struct assume_valid_t {};
inline constexpr assume_valid_t assume_valid{};

class GlobalLayout {
 public:
  // Validates `layout` (local and collective rules) and throws ValidationError
  // listing every problem if it is not valid.
  explicit GlobalLayout(Layout layout, SharedIndexOwner rule = lowest_holder);
  // Skips the checks (the caller ran check_layout and found nothing).
  GlobalLayout(assume_valid_t, Layout layout, SharedIndexOwner rule = lowest_holder);

  const Layout& layout() const { return layout_; }
  int nprocs() const { return static_cast<int>(layout_.ranks.size()); }
  int ndim() const { return static_cast<int>(axes_.size()); }
  const ProcessGrid& grid() const { return grid_; }
  const std::vector<global_index_t>& global_shape() const { return global_shape_; }
  const AxisPartition& axis(int d) const { return axes_[d]; }
  const std::vector<Dim>& dim_data(int rank) const { return layout_.ranks[rank].dim_data; }

  // Rank owning the element at global multi-index `g`, or -1 if none holds it.
  int owner(const std::vector<global_index_t>& g) const;
  // Number of elements rank r owns (product over axes); sums to the global size.
  global_index_t num_owned(int rank) const;

 private:
  Layout layout_;
  ProcessGrid grid_;
  std::vector<global_index_t> global_shape_;
  std::vector<AxisPartition> axes_;
};

}  // namespace dapetra
