#include "dapetra/layout.hpp"

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

GlobalLayout::GlobalLayout(Layout layout, SharedIndexOwner rule)
    : GlobalLayout(assume_valid, (throw_if_any(check_layout(layout)), std::move(layout)), std::move(rule)) {}

GlobalLayout::GlobalLayout(assume_valid_t, Layout layout, SharedIndexOwner rule) : layout_(std::move(layout)) {
  const std::vector<Dim>& first = layout_.ranks.front().dim_data;
  grid_ = ProcessGrid::of(first);
  global_shape_ = global_shape_of(first);
  axes_.reserve(first.size());
  for (int d = 0; d < static_cast<int>(first.size()); ++d) {
    // The record of grid rank k along axis d, from the rank at (0, .., k, .., 0).
    const int extent = grid_.shape()[d];
    std::vector<Dim> along;
    along.reserve(static_cast<std::size_t>(extent));
    for (int k = 0; k < extent; ++k) along.push_back(layout_.ranks[grid_.rank_at(d, k)].dim_data[d]);
    axes_.emplace_back(std::move(along), rule);
  }
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
