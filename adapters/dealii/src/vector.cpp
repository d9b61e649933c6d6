#include "dapetra/dealii/vector.hpp"

#include <mpi.h>

#include <algorithm>
#include <string>
#include <vector>

#include "dapetra/mpi/agree.hpp"

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

// Each process's owned index set as a range, its global size, and whether
// the partitioner numbers its memory by that range (local_range(), which
// deal.II derives from the owned counts of the ranks before it), gathered.
struct Range {
  std::int64_t first = 0, last = 0, size = 0, numbered_alike = 1;
};

Range range_of(const ::dealii::Utilities::MPI::Partitioner& p) {
  const ::dealii::IndexSet& owned = p.locally_owned_range();
  const auto [first, last] = p.local_range();
  Range r;
  r.size = static_cast<std::int64_t>(p.size());
  if (owned.n_elements() == 0) {
    r.numbered_alike = first == last;
    return r;
  }
  r.first = static_cast<std::int64_t>(owned.nth_index_in_set(0));
  r.last = r.first + static_cast<std::int64_t>(owned.n_elements());
  r.numbered_alike = owned.is_contiguous() && static_cast<std::int64_t>(first) == r.first && static_cast<std::int64_t>(last) == r.last;
  return r;
}

// The global size most processes have (ties: the one of the lowest rank among them).
std::int64_t common_size(const std::vector<Range>& all) {
  std::int64_t best = all[0].size;
  std::size_t best_count = 0;
  for (const Range& r : all) {
    const auto count = static_cast<std::size_t>(std::count_if(all.begin(), all.end(), [&](const Range& o) { return o.size == r.size; }));
    if (count > best_count) {
      best = r.size;
      best_count = count;
    }
  }
  return best;
}

// What is wrong with the gathered ranges. A global size other than most
// processes' names each process that has it. Otherwise, in rank order
// (deal.II's Partitioner numbers ranges by rank: it finds a process's range
// from the owned counts before it), every boundary where one non-empty set
// does not end where the next begins names both sides (which of them is at
// fault no process can tell), as do a first set not at 0 and a last one not
// ending at the size; last, a partitioner whose memory is not numbered by
// its own set names itself.
std::vector<Problem> problems_of(const std::vector<Range>& all) {
  std::vector<Problem> out;
  const std::int64_t size = common_size(all);
  for (std::size_t p = 0; p < all.size(); ++p)
    if (all[p].size != size)
      out.push_back(Problem::of(static_cast<int>(p), "size", std::to_string(all[p].size),
                                "every process's vector has the same global size (most have " + std::to_string(size) + ")",
                                "the processes passed vectors of different partitioners"));
  if (!out.empty()) return out;
  const std::string rule = "the owned ranges tile [0, size) once, in rank order";
  const auto name = [&](std::size_t p, const char* why) {
    out.push_back(Problem::of(static_cast<int>(p), "local_range",
                              "[" + std::to_string(all[p].first) + ", " + std::to_string(all[p].last) + ")", rule, why));
  };
  std::vector<std::size_t> owning;  // the processes with a non-empty set: an empty one has no place
  for (std::size_t p = 0; p < all.size(); ++p)
    if (all[p].last != all[p].first) owning.push_back(p);
  if (owning.empty() && size > 0) name(0, "no process owns anything");
  for (std::size_t k = 0; k < owning.size(); ++k) {
    const std::size_t p = owning[k];
    const std::int64_t start = k == 0 ? 0 : all[owning[k - 1]].last;
    if (all[p].first != start) {
      if (k > 0) name(owning[k - 1], "does not end where the next process's range begins");
      name(p, k == 0 ? "the first range does not begin at 0" : "does not begin where the previous process's range ends");
    }
  }
  if (!owning.empty() && all[owning.back()].last != size) name(owning.back(), "the last range does not end at the size");
  if (!out.empty()) return out;
  for (std::size_t p = 0; p < all.size(); ++p)
    if (!all[p].numbered_alike)
      out.push_back(Problem::of(static_cast<int>(p), "local_range", "[" + std::to_string(all[p].first) + ", " + std::to_string(all[p].last) + ")",
                                "the partitioner numbers its memory by its owned index set", "deal.II's local_range() differs"));
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
  const MPI_Comm comm = v.get_mpi_communicator();
  const auto& p = *v.get_partitioner();
  const Range mine = range_of(p);
  int size = 1;
  MPI_Comm_size(comm, &size);
  std::vector<Range> all(static_cast<std::size_t>(size));
  MPI_Allgather(&mine, 4, MPI_INT64_T, all.data(), 4, MPI_INT64_T, comm);
  // Every process finds the same problems in the same gathered ranges.
  if (auto problems = problems_of(all); !problems.empty()) throw ValidationError(std::move(problems));
  std::vector<global_index_t> boundaries{0};
  for (const Range& r : all) boundaries.push_back(r.last == r.first ? boundaries.back() : r.last);
  return mpi::Ownership::from_ranges(std::move(boundaries));
}

}  // namespace dapetra::dealii
