// On many processes (LayoutTuning::grid_lines_from), a layout with two or
// more distributed axes gathers only the records of each process's grid
// lines and checks them there, O(sum of the grid's extents) words per
// process instead of O(P).
#include <algorithm>
#include <optional>

#include "collectives.hpp"
#include "dapetra/dim_math.hpp"
#include "dapetra/validate.hpp"
#include "dapetra/wire/layout_words.hpp"
#include "dapetra/wire/mix.hpp"
#include "layout_builder.hpp"

namespace dapetra::mpi::detail {

bool sound_here(const PackedRank& mine, const std::vector<Dim>& dims, int rank, int nprocs) {
  if (!mine.problems.empty()) return false;
  long long procs = 1;
  for (const Dim& d : dims) procs = std::min<long long>(procs * d.proc_grid_size, 1LL << 40);
  return procs == nprocs && grid_coords(dims) == ProcessGrid::of(dims).coords_of(rank);
}

// Whether the records can be checked grid line by grid line (O(sum of the
// grid's extents) words gathered per process) rather than all gathered
// everywhere (O(P)): this process sound, with two or more distributed axes;
// every process must then give the same fingerprint (the same array and
// grid, every buffer laid out in the same axis order). Anything else takes
// the full gather, which also names every problem exactly.
std::optional<std::int64_t> grid_lines_fingerprint(const PackedRank& mine, const std::vector<Dim>& dims, int rank,
                                                   int nprocs) {
  std::int64_t shape = fold_all(mine.extra.data(), extra_scattered_axis + 1, static_cast<std::int64_t>(dims.size()));
  int distributed = 0;
  for (const Dim& d : dims) {
    const std::int64_t keys[] = {to_char(d.dist_type), d.size, d.proc_grid_size};
    shape = fold_all(keys, 3, shape);
    distributed += d.proc_grid_size > 1;
  }
  const std::vector<std::int64_t> order(mine.memory_order.begin(), mine.memory_order.end());
  if (distributed < 2 || !sound_here(mine, dims, rank, nprocs)) return std::nullopt;
  return fold_all(order.data(), order.size(), shape);
}

// 3. The records of this process's grid line along each distributed axis,
// checked there; the lines of one axis must hold the same records, which one
// reduction of their fingerprints confirms. Null on every process alike if
// any line or axis fails: the caller then gathers everything to name the
// problems.
std::unique_ptr<GlobalLayout> gather_grid_lines(InnerComm& inner, const std::vector<Dim>& dims, int rank,
                                                const SharedIndexOwner& rule) {
  const ProcessGrid grid = ProcessGrid::of(dims);
  const int ndim = static_cast<int>(dims.size());
  std::vector<std::vector<Dim>> along(static_cast<std::size_t>(ndim));
  std::vector<std::int64_t> verdict(1 + static_cast<std::size_t>(ndim), 1);  // all lines sound, then one fingerprint per axis
  for (int a = 0; a < ndim; ++a) {
    PackedRank record;
    record.entry.dim_data = {dims[a]};
    const auto words = pack_rank(record);
    if (grid.shape()[a] == 1) {
      along[a] = {dims[a]};
      verdict[1 + a] = fold_all(words.data(), words.size());
      continue;
    }
    const Gathered line = allgather_words(words, inner.grid_line(grid.shape(), a), 24);
    std::vector<int> coords = grid.coords_of(rank), mpi_rank;
    std::int64_t h = 0;
    try {
      for (int k = 0; k < line.count(); ++k) {
        h = fold_all(line.of(k), line.size(k), fold(h, static_cast<std::int64_t>(line.size(k))));
        along[a].push_back(unpack_rank(line.of(k), line.size(k)).entry.dim_data.at(0));
        coords[a] = k;
        mpi_rank.push_back(grid.rank_of(coords));
      }
      std::vector<const Dim*> by_grid_rank;
      for (const Dim& d : along[a]) by_grid_rank.push_back(&d);
      if (!check_axis(a, by_grid_rank, mpi_rank).empty()) verdict[0] = 0;
    } catch (const std::exception&) {
      verdict[0] = 0;
    }
    verdict[1 + a] = h;
  }
  Ballot ballot;
  const std::size_t sound = ballot.lowest(verdict[0]);
  std::vector<std::size_t> lines;
  for (std::size_t a = 1; a < verdict.size(); ++a) lines.push_back(ballot.same(verdict[a]));
  ballot.cast(inner.comm);
  if (ballot.lowest_of(sound) != 1 ||
      !std::all_of(lines.begin(), lines.end(), [&](std::size_t at) { return ballot.same_of(at); }))
    return nullptr;
  std::vector<AxisPartition> axes;
  axes.reserve(along.size());
  for (auto& records : along) axes.emplace_back(std::move(records), rule);
  return std::make_unique<GlobalLayout>(std::move(axes));
}

}  // namespace dapetra::mpi::detail
