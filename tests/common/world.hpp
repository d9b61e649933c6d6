// Test helper: this process's rank and the number of processes of a
// communicator (MPI_COMM_WORLD unless another is given), read once.
#pragma once

#include <mpi.h>

namespace dapetra::testing {

struct World {
  int rank = 0, size = 1;
  explicit World(MPI_Comm comm = MPI_COMM_WORLD) {
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
  }
};

}  // namespace dapetra::testing
