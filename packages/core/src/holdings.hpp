// Internal: the sorted table of who holds which 'u' index along one axis,
// shared by AxisPartition (owners) and the collective checks (overlaps).
#pragma once

#include <algorithm>
#include <vector>

#include "dapetra/dim.hpp"

namespace dapetra::detail {

struct Holding {
  global_index_t index;
  int grid_rank;
  local_index_t position;
};

// Every (index, grid rank, position) of the records, sorted by index, then
// grid rank. `dims[k]` is the record of grid rank k.
inline std::vector<Holding> sorted_holdings(const std::vector<const Dim*>& dims) {
  std::size_t total = 0;
  for (const Dim* d : dims) total += d->indices.size();
  std::vector<Holding> h;
  h.reserve(total);
  for (std::size_t k = 0; k < dims.size(); ++k)
    for (std::size_t i = 0; i < dims[k]->indices.size(); ++i)
      h.push_back({dims[k]->indices[i], static_cast<int>(k), static_cast<local_index_t>(i)});
  std::sort(h.begin(), h.end(), [](const Holding& a, const Holding& b) {
    return a.index != b.index ? a.index < b.index : a.grid_rank < b.grid_rank;
  });
  return h;
}

}  // namespace dapetra::detail
