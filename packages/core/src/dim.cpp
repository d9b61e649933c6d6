#include "dapetra/dim.hpp"

#include <algorithm>
#include <sstream>

namespace dapetra {

Dim Dim::undistributed(global_index_t n) { return block(n, 1, 0, 0, n); }

namespace {

// The keys every record has, set once for the factories below.
Dim common(DistType type, global_index_t size, int grid_size, int grid_rank) {
  Dim d;
  d.dist_type = type;
  d.size = size;
  d.proc_grid_size = grid_size;
  d.proc_grid_rank = grid_rank;
  return d;
}

}  // namespace

Dim Dim::block(global_index_t size, int grid_size, int grid_rank, global_index_t start,
               global_index_t stop, std::array<global_index_t, 2> padding, bool periodic) {
  Dim d = common(DistType::block, size, grid_size, grid_rank);
  d.start = start;
  d.stop = stop;
  d.padding = padding;
  d.periodic = periodic;
  return d;
}

Dim Dim::even_block(global_index_t size, int grid_size, int grid_rank, global_index_t halo,
                    bool periodic) {
  const global_index_t base = size / grid_size, extra = size % grid_size;
  const auto begin = [&](global_index_t r) { return r * base + std::min(r, extra); };
  const global_index_t lo = begin(grid_rank), hi = begin(grid_rank + 1);
  // At the grid edges the padding is boundary padding: it lies inside the
  // owned range (it is counted in size), so only interior sides reach into
  // the neighbour. This reproduces the spec's example 2.2 for size 18, P 2, halo 1.
  const global_index_t start = grid_rank > 0 ? lo - halo : lo;
  const global_index_t stop = grid_rank < grid_size - 1 ? hi + halo : hi;
  return block(size, grid_size, grid_rank, start, stop, {halo, halo}, periodic);
}

Dim Dim::cyclic(global_index_t size, int grid_size, int grid_rank, global_index_t block_size) {
  Dim d = common(DistType::cyclic, size, grid_size, grid_rank);
  d.block_size = block_size;
  d.start = std::min<global_index_t>(static_cast<global_index_t>(grid_rank) * block_size, size);
  return d;
}

Dim Dim::unstructured(global_index_t size, int grid_size, int grid_rank,
                      std::vector<global_index_t> indices, bool one_to_one) {
  Dim d = common(DistType::unstructured, size, grid_size, grid_rank);
  d.indices = std::move(indices);
  d.one_to_one = one_to_one;
  return d;
}

bool operator==(const Dim& a, const Dim& b) {
  return same_scalar_keys(a, b) && a.indices == b.indices;
}

std::string describe(const Dim& d) {
  std::ostringstream os;
  os << "{'" << to_char(d.dist_type) << "' size=" << d.size << " grid " << d.proc_grid_rank << "/"
     << d.proc_grid_size;
  switch (d.dist_type) {
    case DistType::block:
      os << " [" << d.start << "," << d.stop << ")";
      if (d.padding[0] || d.padding[1]) os << " pad (" << d.padding[0] << "," << d.padding[1] << ")";
      if (d.periodic) os << " periodic";
      break;
    case DistType::cyclic:
      os << " start=" << d.start << " block_size=" << d.block_size;
      break;
    case DistType::unstructured:
      os << " " << d.indices.size() << " indices" << (d.one_to_one ? " one_to_one" : "");
      break;
  }
  os << "}";
  return os.str();
}

}  // namespace dapetra
