// A downstream program that checkpoints: a block array saved to parallel
// HDF5, its shape read back, and loaded into a cyclic layout of it, every
// element checked; linked through the one target Dapetra::hdf5 (no HDF5
// found by this project). Built when the Dapetra found has Dapetra::hdf5.
#include <dapetra/dim_math.hpp>
#include <dapetra/hdf5/checkpoint.hpp>
#include <dapetra/mpi/distributed_layout.hpp>
#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  using namespace dapetra;
  int P = 1, r = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  const global_index_t n = 50 * P + 3;
  const std::string file = "downstream_checkpoint.h5";
  int wrong = 0;
  {
    // Saved from an even block split ...
    const Dim block = Dim::even_block(n, P, r);
    std::vector<double> u(static_cast<std::size_t>(local_extent(block)));
    for (global_index_t i = 0; i < local_extent(block); ++i) u[static_cast<std::size_t>(i)] = 0.5 * global_index(block, i);
    DistArray a{dap_version, view_buffer(u.data(), {local_extent(block)}), {block}};
    hdf5::save<double>(a, mpi::DistributedLayout::create(a, MPI_COMM_WORLD), file, "u");
    // ... loaded into a cyclic one of the shape the file says.
    const auto shape = hdf5::dataset_shape(file, "u", MPI_COMM_WORLD);
    const Dim cyclic = Dim::cyclic(shape.at(0), P, r, 4);
    std::vector<double> v(static_cast<std::size_t>(local_extent(cyclic)), -1.0);
    DistArray b{dap_version, view_buffer(v.data(), {local_extent(cyclic)}), {cyclic}};
    hdf5::load<double>(file, "u", mpi::DistributedLayout::create(b, MPI_COMM_WORLD), b);
    for (global_index_t i = 0; i < local_extent(cyclic); ++i)
      wrong += v[static_cast<std::size_t>(i)] != 0.5 * global_index(cyclic, i);
  }
  int total = 0;
  MPI_Allreduce(&wrong, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (r == 0) {
    std::remove(file.c_str());
    std::printf("checkpoint: %lld doubles saved by block, loaded cyclic, %d wrong\n", static_cast<long long>(n), total);
  }
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
