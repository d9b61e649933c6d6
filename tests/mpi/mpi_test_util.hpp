// Helpers for the communication layer's tests (MPI only, no Trilinos).
#pragma once

#include <mpi.h>

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "../common/flat_indices.hpp"
#include "dapetra/distarray.hpp"
#include "dapetra/json.hpp"

namespace dapetra::testing {

// MPI_COMM_WORLD with its rank and size at hand (comm->rank()).
struct World {
  MPI_Comm raw = MPI_COMM_WORLD;
  int rank() const {
    int r = 0;
    MPI_Comm_rank(raw, &r);
    return r;
  }
  int size() const {
    int n = 1;
    MPI_Comm_size(raw, &n);
    return n;
  }
  const World* operator->() const { return this; }
  operator MPI_Comm() const { return raw; }
};
inline World world() { return World{}; }

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
