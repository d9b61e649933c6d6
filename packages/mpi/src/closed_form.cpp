// Regular layouts agreed by the creation's vote: when each axis is an even
// 'b' split with one halo width, a 'c' axis, or not distributed, every grid
// rank's record follows from a few numbers per axis, so the processes agree
// on those numbers (a fingerprint in the vote) instead of gathering every
// process's records. What each process receives does not grow with P.
// Any other split of a 'b' axis with one halo width needs only where each
// process's owned range begins: one word per process, gathered.
#include <algorithm>
#include <optional>

#include "dapetra/dim_math.hpp"
#include "dapetra/validate.hpp"
#include "dapetra/wire/layout_words.hpp"
#include "dapetra/wire/mix.hpp"
#include "collectives.hpp"
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

// Grid rank c's record of a 'b' axis split at `lo` (where c's owned range
// begins) and `hi` (where the next one's does), with halo h on every side:
// as Dim::even_block lays it out, for any split.
Dim block_between(const Dim& d, int c, global_index_t lo, global_index_t hi) {
  const global_index_t h = d.padding[0];
  return Dim::block(d.size, d.proc_grid_size, c, c > 0 ? lo - h : lo, c < d.proc_grid_size - 1 ? hi + h : hi, {h, h},
                    d.periodic);
}

// Where this process's owned range begins along a distributed 'b' axis, when
// its record is one of a split with the same halo on every side (any split);
// nothing otherwise.
std::optional<global_index_t> cut_of(const Dim& d) {
  if (d.dist_type != DistType::block || d.proc_grid_size == 1 || d.padding[0] != d.padding[1]) return std::nullopt;
  const int c = d.proc_grid_rank;
  const global_index_t h = d.padding[0];
  const global_index_t lo = c > 0 ? d.start + h : d.start, hi = c < d.proc_grid_size - 1 ? d.stop - h : d.stop;
  if (lo > hi || block_between(d, c, lo, hi) != d) return std::nullopt;
  return lo;
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

std::optional<std::int64_t> cut_fingerprint(const PackedRank& mine, const std::vector<Dim>& dims) {
  std::int64_t h = fold_all(mine.extra.data(), extra_scattered_axis + 1, static_cast<std::int64_t>(dims.size()) + 7);
  const std::vector<std::int64_t> order(mine.memory_order.begin(), mine.memory_order.end());
  h = fold_all(order.data(), order.size(), fold(h, static_cast<std::int64_t>(order.size())));
  for (const Dim& d : dims) {
    if (cut_of(d)) {
      const std::int64_t keys[] = {d.size, d.proc_grid_size, d.padding[0], static_cast<std::int64_t>(d.periodic)};
      h = fold(h, fold_all(keys, 4, 3));
      continue;
    }
    const auto f = axis_fingerprint(d);
    if (!f) return std::nullopt;
    h = fold(h, *f);
  }
  return h;
}

namespace {

// Whether a distributed 'b' axis with halo h on every inner side, whose
// grid ranks own `fewest` indices at the least, passes the axis rules
// (check_axis) whatever its split: each communication padding is at most the
// neighbour's owned count, and a periodic axis's interior is at least each
// edge's padding. (The owned ranges of the formulas' records are adjacent,
// from 0 to size, by construction.) Then the axis is kept as a formula or as
// its boundaries, and no grid rank's record is built.
bool block_rules_hold(const Dim& d, global_index_t fewest) {
  const global_index_t h = d.padding[0];
  return h <= fewest && (!d.periodic || d.size - 2 * h >= h);
}

// Every grid rank's records of each axis, checked as a gather would check
// them: the same verdict on every process, from the same records. An axis
// that passes its rules for sure is kept as its formula, in O(1) (or its
// boundaries), without building any other grid rank's record.
class CheckedAxes {
 public:
  CheckedAxes(const std::vector<Dim>& dims, int rank, const SharedIndexOwner& rule)
      : grid_(ProcessGrid::of(dims)), rank_(rank), rule_(rule) {}
  const ProcessGrid& grid() const { return grid_; }
  // An axis known to pass its rules.
  void add_checked(AxisPartition axis) { axes_.push_back(std::move(axis)); }
  // Axis a's records, record_of(c) for each grid rank c, checked.
  template <class RecordOf>
  void add(int a, int grid_size, RecordOf&& record_of) {
    std::vector<Dim> records;
    std::vector<int> mpi_rank, coords = grid_.coords_of(rank_);
    for (int c = 0; c < grid_size; ++c) {
      records.push_back(record_of(c));
      coords[a] = c;
      mpi_rank.push_back(grid_.rank_of(coords));
    }
    std::vector<const Dim*> by_grid_rank;
    for (const Dim& d : records) by_grid_rank.push_back(&d);
    const auto found = check_axis(a, by_grid_rank, mpi_rank);
    problems_.insert(problems_.end(), found.begin(), found.end());
    if (found.empty()) axes_.emplace_back(std::move(records), rule_);
  }
  // The layout; throws every axis's problems (on every process alike).
  std::unique_ptr<GlobalLayout> layout() {
    throw_if_any(problems_);
    return std::make_unique<GlobalLayout>(std::move(axes_));
  }

 private:
  ProcessGrid grid_;
  int rank_;
  const SharedIndexOwner& rule_;
  std::vector<AxisPartition> axes_;
  std::vector<Problem> problems_;
};

// A regular axis (regular_record's), kept as its formula when it passes its
// rules for sure; otherwise every grid rank's record, `record_of(c)`, built
// and checked (the way to the exception, or a rare halo as wide as a block).
template <class RecordOf>
void add_formula_axis(CheckedAxes& checked, const std::vector<Dim>& dims, int a, RecordOf&& record_of) {
  const Dim& d = dims[a];
  const int P = d.proc_grid_size;
  const bool formula = P > 1 && regular_record(d, d.proc_grid_rank) == d &&
                       (d.dist_type == DistType::cyclic || block_rules_hold(d, d.size / P));
  if (formula)
    checked.add_checked(AxisPartition::regular(d));
  else
    checked.add(a, P, record_of);
}

}  // namespace

std::unique_ptr<GlobalLayout> cut_layout(const std::vector<Dim>& dims, int rank, MPI_Comm comm,
                                         const SharedIndexOwner& rule) {
  // Where this process's owned range begins along each split axis, gathered:
  // as many words on every process (the vote agreed on the axes), 8 bytes
  // per process and axis.
  std::vector<std::int64_t> mine;
  for (const Dim& d : dims)
    if (const auto lo = cut_of(d)) mine.push_back(*lo);
  const int n = static_cast<int>(mine.size()), nprocs = size_of(comm);
  std::vector<std::int64_t> cuts(mine.size() * static_cast<std::size_t>(nprocs));
  MPI_Allgather(mine.data(), n, MPI_INT64_T, cuts.data(), n, MPI_INT64_T, comm);
  CheckedAxes checked(dims, rank, rule);
  bool matches = true;  // every process's cuts are one split per axis, and its records those of its split
  std::size_t k = 0;    // the cut's place in each process's words
  for (int a = 0; a < static_cast<int>(dims.size()); ++a) {
    const Dim& d = dims[a];
    const bool cut = cut_of(d).has_value();  // (the same on every process: the vote agreed)
    std::vector<global_index_t> at(static_cast<std::size_t>(d.proc_grid_size) + 1, -1);
    at.back() = d.size;
    for (int p = 0; cut && p < nprocs; ++p) {
      auto& lo = at[static_cast<std::size_t>(checked.grid().coord_of(p, a))];
      const std::int64_t given = cuts[static_cast<std::size_t>(p * n) + k];
      matches = matches && (lo < 0 || lo == given);
      lo = given;
    }
    k += cut;
    if (cut && std::count(at.begin(), at.end(), -1) > 0) return nullptr;  // (a grid rank nobody holds: alike everywhere)
    const auto record_of = [&](int c) {
      return cut ? block_between(d, c, at[c], std::max(at[c], at[c + 1])) : *regular_record(d, c);
    };
    matches = matches && record_of(d.proc_grid_rank) == d;
    if (!matches) break;  // (no layout: the vote below sends every process to the full gather)
    global_index_t fewest = d.size;
    for (int c = 0; cut && c < d.proc_grid_size; ++c) fewest = std::min(fewest, at[c + 1] - at[c]);
    if (cut && at.front() == 0 && block_rules_hold(d, fewest))  // (then the boundaries rise from 0 to size)
      checked.add_checked(AxisPartition::block_split(d, std::move(at)));
    else
      add_formula_axis(checked, dims, a, record_of);
  }
  // Whether every process's records are those built: one more reduction
  // (a process whose record is not its split's sends all to the full gather).
  Ballot ballot;
  const std::size_t all_match = ballot.lowest(matches);
  ballot.cast(comm);
  if (ballot.lowest_of(all_match) != 1) return nullptr;
  return checked.layout();
}

// Every process agreed on the same numbers: each builds every grid rank's
// records alone.
std::unique_ptr<GlobalLayout> closed_form_layout(const std::vector<Dim>& dims, int rank, const SharedIndexOwner& rule) {
  CheckedAxes checked(dims, rank, rule);
  for (int a = 0; a < static_cast<int>(dims.size()); ++a)
    add_formula_axis(checked, dims, a, [&](int c) { return *regular_record(dims[a], c); });
  return checked.layout();
}

}  // namespace dapetra::mpi::detail
