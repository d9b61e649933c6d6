// Regular layouts agreed by the creation's vote: when each axis is an even
// 'b' split with one halo width, a 'c' axis, or not distributed, every grid
// rank's record follows from a few numbers per axis, so the processes agree
// on those numbers (a fingerprint in the vote) instead of gathering every
// process's records. What each process receives does not grow with P.
#include <algorithm>
#include <optional>

#include "dapetra/dim_math.hpp"
#include "dapetra/validate.hpp"
#include "dapetra/wire/layout_words.hpp"
#include "dapetra/wire/mix.hpp"
#include "layout_builder.hpp"

namespace dapetra::mpi::detail {
namespace {

// The record of grid rank c along an axis whose record here is `d`, when the
// axis is regular; nothing otherwise.
std::optional<Dim> regular_record(const Dim& d, int c) {
  if (d.proc_grid_size == 1) return c == 0 ? std::optional<Dim>(d) : std::nullopt;
  switch (d.dist_type) {
    case DistType::block: return Dim::even_block(d.size, d.proc_grid_size, c, d.padding[0], d.periodic);
    case DistType::cyclic: return Dim::cyclic(d.size, d.proc_grid_size, c, d.block_size);
    case DistType::unstructured: return std::nullopt;
  }
  return std::nullopt;
}

// The words every process must agree on for the axis: the numbers the
// closed form needs ('b': size, grid size, halo, periodic; 'c': size, grid
// size, block size), or the whole record where it is not distributed (every
// process holds the same). Nothing when the axis is not regular here.
std::optional<std::int64_t> axis_fingerprint(const Dim& d) {
  const std::optional<Dim> expected = regular_record(d, d.proc_grid_rank);
  if (!expected || *expected != d) return std::nullopt;
  if (d.proc_grid_size == 1) {
    PackedRank record;
    record.entry.dim_data = {d};
    const auto words = pack_rank(record);
    return fold_all(words.data(), words.size(), 1);
  }
  const std::int64_t keys[] = {to_char(d.dist_type), d.size, d.proc_grid_size,
                               d.dist_type == DistType::block ? d.padding[0] : d.block_size,
                               d.dist_type == DistType::block ? static_cast<std::int64_t>(d.periodic) : 0};
  return fold_all(keys, 5, 2);
}

}  // namespace

std::optional<std::int64_t> regular_fingerprint(const PackedRank& mine, const std::vector<Dim>& dims) {
  std::int64_t h = fold_all(mine.extra.data(), extra_scattered_axis + 1, static_cast<std::int64_t>(dims.size()));
  const std::vector<std::int64_t> order(mine.memory_order.begin(), mine.memory_order.end());
  h = fold_all(order.data(), order.size(), fold(h, static_cast<std::int64_t>(order.size())));
  for (const Dim& d : dims) {
    const auto f = axis_fingerprint(d);
    if (!f) return std::nullopt;
    h = fold(h, *f);
  }
  return h;
}

// Every process agreed on the same numbers: each builds every grid rank's
// records alone, and checks them as a gather would (the same verdict on
// every process, from the same records).
std::unique_ptr<GlobalLayout> closed_form_layout(const std::vector<Dim>& dims, int rank, const SharedIndexOwner& rule) {
  const ProcessGrid grid = ProcessGrid::of(dims);
  std::vector<AxisPartition> axes;
  std::vector<Problem> problems;
  for (int a = 0; a < static_cast<int>(dims.size()); ++a) {
    std::vector<Dim> records;
    std::vector<int> mpi_rank, coords = grid.coords_of(rank);
    for (int c = 0; c < dims[a].proc_grid_size; ++c) {
      records.push_back(*regular_record(dims[a], c));
      coords[a] = c;
      mpi_rank.push_back(grid.rank_of(coords));
    }
    std::vector<const Dim*> by_grid_rank;
    for (const Dim& d : records) by_grid_rank.push_back(&d);
    const auto found = check_axis(a, by_grid_rank, mpi_rank);
    problems.insert(problems.end(), found.begin(), found.end());
    if (found.empty()) axes.emplace_back(std::move(records), rule);
  }
  throw_if_any(problems);
  return std::make_unique<GlobalLayout>(std::move(axes));
}

}  // namespace dapetra::mpi::detail
