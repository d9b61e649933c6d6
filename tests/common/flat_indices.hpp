// Test helper: the global C-order flat index of every element of one
// process's buffer, in local C order, computed from the records alone.
#pragma once

#include <vector>

#include "dapetra/dim_math.hpp"
#include "dapetra/layout.hpp"

namespace dapetra::testing {

inline std::vector<global_index_t> global_flat_indices(const std::vector<Dim>& dims) {
  const std::vector<global_index_t> shape = local_shape_of(dims);
  global_index_t n = 1;
  for (auto s : shape) n *= s;
  std::vector<global_index_t> out;
  for (global_index_t flat = 0; flat < n; ++flat) {
    global_index_t rest = flat, g = 0, stride = 1;
    for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
      g += global_index(dims[d], rest % shape[d]) * stride;
      stride *= dims[d].size;
      rest /= shape[d];
    }
    out.push_back(g);
  }
  return out;
}

}  // namespace dapetra::testing
