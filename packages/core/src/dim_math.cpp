#include "dapetra/dim_math.hpp"

#include <algorithm>

namespace dapetra {

global_index_t cyclic_count(global_index_t size, global_index_t block_size, int grid_size,
                            int grid_rank) {
  if (size <= 0 || block_size <= 0 || grid_size <= 0) return 0;
  const global_index_t nblocks = size / block_size + (size % block_size != 0);
  if (grid_rank >= nblocks) return 0;
  const global_index_t my_blocks = (nblocks - 1 - grid_rank) / grid_size + 1;
  global_index_t count = my_blocks * block_size;
  if ((nblocks - 1) % grid_size == grid_rank) count -= nblocks * block_size - size;
  return count;
}

global_index_t local_extent(const Dim& d) {
  switch (d.dist_type) {
    case DistType::block: return d.stop - d.start;
    case DistType::cyclic: return cyclic_count(d.size, d.block_size, d.proc_grid_size, d.proc_grid_rank);
    case DistType::unstructured: return static_cast<global_index_t>(d.indices.size());
  }
  return 0;
}

global_index_t global_index(const Dim& d, global_index_t i) {
  switch (d.dist_type) {
    case DistType::block: return d.start + i;
    case DistType::cyclic: return cyclic_global_index(i, d.block_size, d.proc_grid_size, d.proc_grid_rank);
    case DistType::unstructured: return d.indices[static_cast<std::size_t>(i)];
  }
  return -1;
}

std::array<global_index_t, 2> communication_padding(const Dim& d) {
  if (d.dist_type != DistType::block) return {0, 0};
  return {d.proc_grid_rank > 0 ? d.padding[0] : 0,
          d.proc_grid_rank < d.proc_grid_size - 1 ? d.padding[1] : 0};
}

std::array<global_index_t, 2> boundary_padding(const Dim& d) {
  if (d.dist_type != DistType::block) return {0, 0};
  return {d.proc_grid_rank == 0 ? d.padding[0] : 0,
          d.proc_grid_rank == d.proc_grid_size - 1 ? d.padding[1] : 0};
}

LocalRange owned_local_range(const Dim& d) {
  const auto n = static_cast<local_index_t>(local_extent(d));
  if (d.dist_type != DistType::block) return {0, n};
  const auto comm = communication_padding(d);
  return {static_cast<local_index_t>(comm[0]), static_cast<local_index_t>(n - comm[1])};
}

GlobalRange owned_global_range(const Dim& d) {
  const LocalRange r = owned_local_range(d);
  return {d.start + r.begin, d.start + r.end};
}

PaddingKind padding_kind(const Dim& d, global_index_t i) {
  if (d.dist_type != DistType::block) return PaddingKind::none;
  const global_index_t n = local_extent(d);
  if (i < d.padding[0])
    return d.proc_grid_rank == 0 ? PaddingKind::boundary : PaddingKind::communication;
  if (i >= n - d.padding[1])
    return d.proc_grid_rank == d.proc_grid_size - 1 ? PaddingKind::boundary
                                                    : PaddingKind::communication;
  return PaddingKind::none;
}

global_index_t num_held_owned(const Dim& d) {
  if (d.dist_type == DistType::block) return owned_local_range(d).size();
  return local_extent(d);
}

global_index_t local_position(const Dim& d, global_index_t g) {
  switch (d.dist_type) {
    case DistType::block: return (g >= d.start && g < d.stop) ? g - d.start : -1;
    case DistType::cyclic:
      if (g < 0 || g >= d.size || cyclic_owner(g, d.block_size, d.proc_grid_size) != d.proc_grid_rank)
        return -1;
      return cyclic_local_position(g, d.block_size, d.proc_grid_size);
    case DistType::unstructured: {
      const auto it = std::find(d.indices.begin(), d.indices.end(), g);
      return it == d.indices.end() ? -1 : static_cast<global_index_t>(it - d.indices.begin());
    }
  }
  return -1;
}

}  // namespace dapetra
