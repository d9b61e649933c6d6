// Test arrays shared by the MPI and Tpetra suites: C-ordered owning buffers
// and the spec's chapter-2 examples.
#pragma once

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "dapetra/distarray.hpp"

namespace dapetra::testing {

// A C-ordered buffer for `dims`, owning its storage through keep_alive.
template <class T = double>
DistArray owning_array(const std::vector<Dim>& dims, T fill = T{}) {
  auto shape = local_shape_of(dims);
  global_index_t n = 1;
  for (auto s : shape) n *= s;
  auto storage = std::make_shared<std::vector<T>>(static_cast<std::size_t>(n), fill);
  DistArray a;
  a.buffer = view_buffer(storage->data(), shape, storage);
  a.dim_data = dims;
  return a;
}

inline nlohmann::json spec_examples() {
  std::ifstream in(DAPETRA_SPEC_DATA);
  return nlohmann::json::parse(in)["examples"];
}

}  // namespace dapetra::testing
