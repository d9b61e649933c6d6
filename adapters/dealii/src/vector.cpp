#include "dapetra/dealii/vector.hpp"

#include <mpi.h>

#include <algorithm>
#include <string>
#include <vector>

#include "dapetra/mpi/agree.hpp"
#include "ranges.hpp"

namespace dapetra::dealii {
namespace {

int rank_in(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  return rank;
}

// Whether the ghosts fill the ghost region in order: they do unless the
// partitioner addresses them inside a larger ghost set.
bool ghosts_contiguous(const ::dealii::Utilities::MPI::Partitioner& p) {
  const auto& within = p.ghost_indices_within_larger_ghost_set();
  return within.empty() || (within.size() == 1 && within[0].first == 0 && within[0].second == p.n_ghost_indices());
}

// The buffer's global indices: the owned range, then the ghosts ascending.
std::vector<global_index_t> held_indices(const ::dealii::Utilities::MPI::Partitioner& p) {
  const auto [first, last] = p.local_range();
  std::vector<global_index_t> out;
  out.reserve(static_cast<std::size_t>(last - first) + p.n_ghost_indices());
  for (auto g = first; g < last; ++g) out.push_back(static_cast<global_index_t>(g));
  for (const auto g : p.ghost_indices()) out.push_back(static_cast<global_index_t>(g));
  return out;
}

}  // namespace

DistArray vector_as_distarray(Vector& v) {
  const MPI_Comm comm = v.get_mpi_communicator();
  const auto& p = *v.get_partitioner();
  DistArray a;
  mpi::agree_on(comm, [&] {
    if (!ghosts_contiguous(p))
      throw ValidationError({Problem::of(rank_in(comm), "ghost_indices", std::to_string(p.n_ghost_indices()) + " ghosts",
                                         "the ghosts fill the vector's ghost region in order",
                                         "the partitioner addresses its ghosts inside a larger ghost set")});
  });
  int size = 1;
  MPI_Comm_size(comm, &size);
  std::vector<global_index_t> indices = held_indices(p);
  const auto held = static_cast<global_index_t>(indices.size());
  a.dim_data = {Dim::unstructured(static_cast<global_index_t>(v.size()), size, rank_in(comm), std::move(indices), false)};
  a.buffer = view_buffer(v.get_values(), {held});
  return a;
}

std::vector<DistArray> block_vector_as_distarrays(BlockVector& v) {
  std::vector<DistArray> out;
  out.reserve(v.n_blocks());
  for (unsigned int b = 0; b < v.n_blocks(); ++b) out.push_back(vector_as_distarray(v.block(b)));
  return out;
}

mpi::Ownership owners_of(const Vector& v) {
  return mpi::Ownership::from_ranges(boundaries_of(v.get_partitioner()->locally_owned_range(), v.get_mpi_communicator()));
}

}  // namespace dapetra::dealii
