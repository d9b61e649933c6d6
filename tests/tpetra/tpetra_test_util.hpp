// Helpers for the Tpetra adapter tests.
#pragma once

#include <Tpetra_Core.hpp>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "dapetra/distarray.hpp"
#include "../common/flat_indices.hpp"
#include "dapetra/json.hpp"

namespace dapetra::testing {

inline Teuchos::RCP<const Teuchos::Comm<int>> world() { return Tpetra::getDefaultComm(); }

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
