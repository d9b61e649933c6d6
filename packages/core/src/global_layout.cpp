#include "dapetra/global_layout.hpp"

#include "dapetra/dim_math.hpp"
#include "dapetra/validate.hpp"

namespace dapetra {

std::vector<global_index_t> local_shape_of(const std::vector<Dim>& dim_data) {
  std::vector<global_index_t> shape;
  shape.reserve(dim_data.size());
  for (const Dim& d : dim_data) shape.push_back(local_extent(d));
  return shape;
}

std::vector<global_index_t> global_shape_of(const std::vector<Dim>& dim_data) {
  std::vector<global_index_t> shape;
  shape.reserve(dim_data.size());
  for (const Dim& d : dim_data) shape.push_back(d.size);
  return shape;
}

GlobalLayout::GlobalLayout(const LayoutRecords& layout, SharedIndexOwner rule)
    : GlobalLayout(assume_valid, (throw_if_any(check_layout(layout)), layout), std::move(rule)) {}

namespace {

// The records of grid ranks 0, 1, .. along each axis, from the ranks at
// (0, .., k, .., 0).
std::vector<AxisPartition> axes_of(const LayoutRecords& layout, const SharedIndexOwner& rule) {
  const std::vector<Dim>& first = layout.ranks.front().dim_data;
  const ProcessGrid grid = ProcessGrid::of(first);
  std::vector<AxisPartition> axes;
  axes.reserve(first.size());
  for (int d = 0; d < static_cast<int>(first.size()); ++d) {
    const int extent = grid.shape()[d];
    std::vector<Dim> along;
    along.reserve(static_cast<std::size_t>(extent));
    for (int k = 0; k < extent; ++k) along.push_back(layout.ranks[grid.rank_at(d, k)].dim_data[d]);
    axes.emplace_back(std::move(along), rule);
  }
  return axes;
}

}  // namespace

GlobalLayout::GlobalLayout(assume_valid_t, const LayoutRecords& layout, SharedIndexOwner rule)
    : GlobalLayout(axes_of(layout, rule)) {}

GlobalLayout::GlobalLayout(std::vector<AxisPartition> axes) : axes_(std::move(axes)) {
  std::vector<int> shape;
  shape.reserve(axes_.size());
  global_shape_.reserve(axes_.size());
  for (const AxisPartition& a : axes_) {
    shape.push_back(a.grid_size());
    global_shape_.push_back(a.size());
  }
  grid_ = ProcessGrid(std::move(shape));
}

std::vector<Dim> GlobalLayout::dim_data(int rank) const {
  std::vector<Dim> out;
  out.reserve(axes_.size());
  for (int d = 0; d < ndim(); ++d) out.push_back(record(rank, d));
  return out;
}

int GlobalLayout::owner(const std::vector<global_index_t>& g) const {
  std::vector<int> coords(axes_.size());
  for (std::size_t d = 0; d < axes_.size(); ++d)
    if ((coords[d] = axes_[d].owner(g[d])) < 0) return -1;
  return grid_.rank_of(coords);
}

global_index_t GlobalLayout::num_owned(int rank) const {
  const std::vector<int> coords = grid_.coords_of(rank);
  global_index_t n = 1;
  for (std::size_t d = 0; d < axes_.size(); ++d) n *= axes_[d].num_owned(coords[d]);
  return n;
}

}  // namespace dapetra
