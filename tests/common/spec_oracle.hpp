// Test oracle: the global index and the owner of every buffer element,
// computed from DAP 0.10.0's wording in the plainest way, by brute force and
// without the library's index code, so that tests do not take their
// expected answers from the code they test.
//
//  - 'b' (section 1.6.1): position i stands for global index start + i.
//    Padding at a grid edge is boundary padding, owned like the interior;
//    padding between two grid ranks is communication padding, a copy of the
//    neighbour's element.
//  - 'c' (section 1.6.2): with block size b on P grid ranks, grid rank r
//    holds the blocks r, r + P, r + 2P, ... in increasing order; it owns
//    everything it holds.
//  - 'u' (section 1.6.3): position i stands for indices[i]; an index held by
//    several grid ranks is owned by the lowest of them (Dapetra's default).
#pragma once

#include <vector>

#include "dapetra/dim.hpp"
#include "dapetra/global_layout.hpp"

namespace dapetra::testing::oracle {

inline global_index_t spec_extent(const Dim& d) {
  switch (d.dist_type) {
    case DistType::block: return d.stop - d.start;
    case DistType::unstructured: return static_cast<global_index_t>(d.indices.size());
    case DistType::cyclic: {
      global_index_t n = 0;  // count by walking the global indices
      for (global_index_t g = 0; g < d.size; ++g) n += (g / d.block_size) % d.proc_grid_size == d.proc_grid_rank;
      return n;
    }
  }
  return 0;
}

inline global_index_t spec_index(const Dim& d, global_index_t i) {
  switch (d.dist_type) {
    case DistType::block: return d.start + i;
    case DistType::unstructured: return d.indices[static_cast<std::size_t>(i)];
    case DistType::cyclic:
      for (global_index_t g = 0, seen = 0; g < d.size; ++g)  // the i-th index this grid rank holds
        if ((g / d.block_size) % d.proc_grid_size == d.proc_grid_rank && seen++ == i) return g;
  }
  return -1;
}

// Whether grid rank k owns position i along an axis whose records, by grid
// rank, are `along`.
inline bool owns(const std::vector<Dim>& along, int k, global_index_t i) {
  const Dim& d = along[static_cast<std::size_t>(k)];
  const int P = static_cast<int>(along.size());
  switch (d.dist_type) {
    case DistType::cyclic: return true;
    case DistType::block:
      if (i < d.padding[0]) return k == 0;
      if (i >= spec_extent(d) - d.padding[1]) return k == P - 1;
      return true;
    case DistType::unstructured:
      for (int lower = 0; lower < k; ++lower)
        for (global_index_t g : along[static_cast<std::size_t>(lower)].indices)
          if (g == d.indices[static_cast<std::size_t>(i)]) return false;
      return true;
  }
  return false;
}

// The records along axis a of every grid rank (from the rank at grid
// coordinate k along a and 0 elsewhere: C order, so rank k * stride).
inline std::vector<Dim> records_along(const LayoutRecords& layout, int a) {
  const auto& first = layout.ranks.front().dim_data;
  int stride = 1;
  for (std::size_t b = static_cast<std::size_t>(a) + 1; b < first.size(); ++b) stride *= first[b].proc_grid_size;
  std::vector<Dim> along;
  for (int k = 0; k < first[static_cast<std::size_t>(a)].proc_grid_size; ++k)
    along.push_back(layout.ranks[static_cast<std::size_t>(k * stride)].dim_data[static_cast<std::size_t>(a)]);
  return along;
}

// Whether `rank` owns its buffer element at local multi-index `at` (owned
// along every axis).
inline bool owns_element(const LayoutRecords& layout, int rank, const std::vector<global_index_t>& at) {
  const auto& dims = layout.ranks[static_cast<std::size_t>(rank)].dim_data;
  for (std::size_t a = 0; a < dims.size(); ++a)
    if (!owns(records_along(layout, static_cast<int>(a)), dims[a].proc_grid_rank, at[a])) return false;
  return true;
}

// Whether `rank` owns each element of its buffer, in local C order.
inline std::vector<bool> owned_elements(const LayoutRecords& layout, int rank) {
  const auto& dims = layout.ranks[static_cast<std::size_t>(rank)].dim_data;
  std::vector<global_index_t> shape;
  global_index_t n = 1;
  for (const Dim& d : dims) n *= shape.emplace_back(spec_extent(d));
  std::vector<bool> out;
  std::vector<global_index_t> at(shape.size(), 0);
  for (global_index_t flat = 0; flat < n; ++flat) {
    global_index_t rest = flat;
    for (int a = static_cast<int>(shape.size()) - 1; a >= 0; --a) {
      at[static_cast<std::size_t>(a)] = rest % shape[static_cast<std::size_t>(a)];
      rest /= shape[static_cast<std::size_t>(a)];
    }
    out.push_back(owns_element(layout, rank, at));
  }
  return out;
}

// The global C-order flat index of every element of one buffer, in local C order.
inline std::vector<global_index_t> global_flat_indices(const std::vector<Dim>& dims) {
  std::vector<global_index_t> shape;
  global_index_t n = 1;
  for (const Dim& d : dims) n *= shape.emplace_back(spec_extent(d));
  std::vector<global_index_t> out;
  for (global_index_t flat = 0; flat < n; ++flat) {
    global_index_t rest = flat, g = 0, stride = 1;
    for (int a = static_cast<int>(dims.size()) - 1; a >= 0; --a) {
      g += spec_index(dims[a], rest % shape[a]) * stride;
      stride *= dims[a].size;
      rest /= shape[a];
    }
    out.push_back(g);
  }
  return out;
}

}  // namespace dapetra::testing::oracle
