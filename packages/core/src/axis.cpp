#include "dapetra/axis.hpp"

#include <algorithm>

#include "dapetra/error.hpp"
#include "holdings.hpp"

namespace dapetra {

int lowest_holder(global_index_t, const std::vector<int>& holders) { return holders.front(); }

static ValidationError axis_error(const std::string& message) {
  return ValidationError({Problem{-1, -1, "", "", "records of one axis are consistent", message}});
}

AxisPartition::AxisPartition(std::vector<Dim> dims, SharedIndexOwner rule) : dims_(std::move(dims)) {
  if (dims_.empty()) throw axis_error("AxisPartition needs the record of at least one grid rank");
  const int P = grid_size();
  for (int k = 0; k < P; ++k)
    if (dims_[k].dist_type != dims_[0].dist_type || dims_[k].size != dims_[0].size ||
        dims_[k].proc_grid_size != P || dims_[k].proc_grid_rank != k)
      throw axis_error("grid rank " + std::to_string(k) + " record " + describe(dims_[k]) +
                       " does not fit the axis of " + describe(dims_[0]));

  switch (dist_type()) {
    case DistType::block: {
      block_bounds_.resize(P + 1);
      for (int k = 0; k < P; ++k) {
        const GlobalRange r = owned_global_range(dims_[k]);
        block_bounds_[k] = r.begin;
        if (r.begin != (k == 0 ? 0 : owned_global_range(dims_[k - 1]).end))
          throw axis_error("owned block ranges are not adjacent at grid rank " + std::to_string(k));
      }
      block_bounds_[P] = size();
      if (owned_global_range(dims_[P - 1]).end != size())
        throw axis_error("owned block ranges do not end at size");
      break;
    }
    case DistType::cyclic: break;
    case DistType::unstructured: {
      std::vector<const Dim*> ptrs;
      for (const Dim& d : dims_) ptrs.push_back(&d);
      const auto held = detail::sorted_holdings(ptrs);
      u_owned_.resize(P);
      u_num_owned_.assign(P, 0);
      for (int k = 0; k < P; ++k) u_owned_[k].assign(dims_[k].indices.size(), false);
      std::vector<int> holders;
      for (std::size_t a = 0; a < held.size();) {
        std::size_t b = a + 1;
        while (b < held.size() && held[b].index == held[a].index) ++b;
        int owner = held[a].grid_rank;
        if (b - a > 1) {
          holders.clear();
          for (std::size_t j = a; j < b; ++j) {
            if (held[j].grid_rank == held[a].grid_rank && j > a)
              throw axis_error("index " + std::to_string(held[a].index) + " appears twice on grid rank " +
                               std::to_string(held[a].grid_rank));
            holders.push_back(held[j].grid_rank);
          }
          owner = rule(held[a].index, holders);
          if (!std::binary_search(holders.begin(), holders.end(), owner))
            throw axis_error("the shared-index owner rule chose grid rank " + std::to_string(owner) +
                             " for index " + std::to_string(held[a].index) + ", which does not hold it");
        }
        for (std::size_t j = a; j < b; ++j)
          if (held[j].grid_rank == owner) u_owned_[owner][held[j].position] = true;
        ++u_num_owned_[owner];
        u_index_.push_back(held[a].index);
        u_owner_.push_back(owner);
        a = b;
      }
      break;
    }
  }
}

int AxisPartition::owner(global_index_t g) const {
  switch (dist_type()) {
    case DistType::block: {
      if (g < 0 || g >= size()) return -1;
      const auto it = std::upper_bound(block_bounds_.begin(), block_bounds_.end(), g);
      return static_cast<int>(it - block_bounds_.begin()) - 1;
    }
    case DistType::cyclic:
      if (g < 0 || g >= size()) return -1;
      return cyclic_owner(g, dims_[0].block_size, grid_size());
    case DistType::unstructured: {
      const auto it = std::lower_bound(u_index_.begin(), u_index_.end(), g);
      if (it == u_index_.end() || *it != g) return -1;
      return u_owner_[static_cast<std::size_t>(it - u_index_.begin())];
    }
  }
  return -1;
}

global_index_t AxisPartition::num_owned(int k) const {
  switch (dist_type()) {
    case DistType::block: return block_bounds_[k + 1] - block_bounds_[k];
    case DistType::cyclic: return local_extent(dims_[k]);
    case DistType::unstructured: return u_num_owned_[k];
  }
  return 0;
}

bool AxisPartition::is_owned(int k, global_index_t i) const {
  switch (dist_type()) {
    case DistType::block: return owned_local_range(dims_[k]).contains(static_cast<local_index_t>(i));
    case DistType::cyclic: return i >= 0 && i < local_extent(dims_[k]);
    case DistType::unstructured: return u_owned_[k][static_cast<std::size_t>(i)];
  }
  return false;
}

IndexLookup::IndexLookup(const Dim& d) : dim_(d) {
  if (dim_.dist_type != DistType::unstructured) return;
  sorted_.reserve(dim_.indices.size());
  for (std::size_t i = 0; i < dim_.indices.size(); ++i)
    sorted_.emplace_back(dim_.indices[i], static_cast<global_index_t>(i));
  std::sort(sorted_.begin(), sorted_.end());
  dim_.indices.clear();
  dim_.indices.shrink_to_fit();
}

global_index_t IndexLookup::position(global_index_t g) const {
  if (dim_.dist_type != DistType::unstructured) return local_position(dim_, g);
  const auto it = std::lower_bound(sorted_.begin(), sorted_.end(), std::make_pair(g, global_index_t{-1}));
  return (it != sorted_.end() && it->first == g) ? it->second : -1;
}

}  // namespace dapetra
