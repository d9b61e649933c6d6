// Helpers for the communication layer's tests (MPI only, no Trilinos).
#pragma once

#include <mpi.h>

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

#include "../common/arrays.hpp"
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

}  // namespace dapetra::testing
