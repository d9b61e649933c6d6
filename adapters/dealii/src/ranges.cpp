#include "ranges.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

#include "dapetra/error.hpp"

namespace dapetra::dealii {
namespace {

// Each process's owned index set as a range, its global size, and whether
// the set is one range, gathered.
struct Range {
  std::int64_t first = 0, last = 0, size = 0, one_range = 1;
};

Range range_of(const ::dealii::IndexSet& owned) {
  Range r;
  r.size = static_cast<std::int64_t>(owned.size());
  if (owned.n_elements() == 0) return r;
  r.first = static_cast<std::int64_t>(owned.nth_index_in_set(0));
  r.last = r.first + static_cast<std::int64_t>(owned.n_elements());
  r.one_range = owned.is_contiguous();
  return r;
}

// The global size most processes have (ties: the one of the lowest rank among them).
std::int64_t common_size(const std::vector<Range>& all) {
  std::map<std::int64_t, std::size_t> count;
  for (const Range& r : all) ++count[r.size];
  std::int64_t best = all[0].size;
  for (const Range& r : all)  // in rank order, so a tie goes to the lowest rank's size
    if (count[r.size] > count[best]) best = r.size;
  return best;
}

// What is wrong with the gathered ranges. A set that is not one range names
// its process; so does a global size other than most processes'. Otherwise, in rank order
// (deal.II's Partitioner numbers ranges by rank: it finds a process's range
// from the owned counts before it), every boundary where one non-empty set
// does not end where the next begins names both sides (which of them is at
// fault no process can tell), as do a first set not at 0 and a last one not
// ending at the size.
std::vector<Problem> problems_of(const std::vector<Range>& all) {
  std::vector<Problem> out;
  const std::int64_t size = common_size(all);
  for (std::size_t p = 0; p < all.size(); ++p)
    if (!all[p].one_range)
      out.push_back(Problem::of(static_cast<int>(p), "local_range", std::to_string(all[p].last - all[p].first) + " indices",
                                "each process's owned indices are one range", "deal.II numbers owned dofs as one range"));
  if (!out.empty()) return out;
  for (std::size_t p = 0; p < all.size(); ++p)
    if (all[p].size != size)
      out.push_back(Problem::of(static_cast<int>(p), "size", std::to_string(all[p].size),
                                "every process's index set has the same global size (most have " + std::to_string(size) + ")",
                                "the processes passed objects of different partitions"));
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
  return out;
}

}  // namespace

std::vector<global_index_t> boundaries_of(const ::dealii::IndexSet& owned, MPI_Comm comm) {
  const Range mine = range_of(owned);
  int size = 1, rank = 0;
  MPI_Comm_size(comm, &size);
  MPI_Comm_rank(comm, &rank);
  // Where this process's range must begin: after every process before it
  // (one prefix sum). Each process checks its own place; one reduction
  // tells whether all are in place and of one global size.
  const std::int64_t count = mine.last - mine.first;
  std::int64_t before = 0;
  MPI_Exscan(&count, &before, 1, MPI_INT64_T, MPI_SUM, comm);
  if (rank == 0) before = 0;  // (MPI leaves rank 0's undefined)
  const bool placed = mine.one_range && (count == 0 || mine.first == before) &&
                      (rank < size - 1 || before + count == mine.size);
  const std::int64_t votes[3] = {placed ? 1 : 0, mine.size, -mine.size};
  std::int64_t lowest[3] = {0, 0, 0};
  MPI_Allreduce(votes, lowest, 3, MPI_INT64_T, MPI_MIN, comm);
  if (lowest[0] == 1 && lowest[1] == -lowest[2]) {  // 8 bytes per process: where each range ends
    std::vector<global_index_t> boundaries(static_cast<std::size_t>(size) + 1, 0);
    const std::int64_t end = before + count;
    MPI_Allgather(&end, 1, MPI_INT64_T, boundaries.data() + 1, 1, MPI_INT64_T, comm);
    return boundaries;
  }
  // Only now, to name the processes at fault: every process's range.
  std::vector<Range> all(static_cast<std::size_t>(size));
  MPI_Allgather(&mine, 4, MPI_INT64_T, all.data(), 4, MPI_INT64_T, comm);
  // Every process finds the same problems in the same gathered ranges.
  if (auto problems = problems_of(all); !problems.empty()) throw ValidationError(std::move(problems));
  std::vector<global_index_t> boundaries{0};
  for (const Range& r : all) boundaries.push_back(r.last == r.first ? boundaries.back() : r.last);
  return boundaries;
}

}  // namespace dapetra::dealii
