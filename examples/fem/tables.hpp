// Internal to the example: a process's rank and size, and a table of rows
// (one per node or cell, `width` values each) as a DAP array, the rows
// distributed by a record and the width not; what distribute.cpp and
// checkpoint.cpp move with Dapetra's plans and save with its HDF5 adapter.
#pragma once
#include <mpi.h>

#include <vector>

#include "dapetra/dim.hpp"
#include "dapetra/distarray.hpp"

namespace fem {

struct Ranks {
  int rank = 0, size = 1;
  explicit Ranks(MPI_Comm comm) {
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
  }
};

// A DAP view of `values` as rows x `width`, C order: rows distributed by
// `rows_dim`, the width not distributed.
template <class T>
dapetra::DistArray table_view(std::vector<T>& values, const dapetra::Dim& rows_dim, int width) {
  using dapetra::global_index_t;
  dapetra::DistArray a;
  a.dim_data = {rows_dim, dapetra::Dim::undistributed(width)};
  a.buffer = dapetra::view_buffer(values.data(), {static_cast<global_index_t>(values.size() / static_cast<std::size_t>(width)),
                                                  static_cast<global_index_t>(width)});
  return a;
}

}  // namespace fem
