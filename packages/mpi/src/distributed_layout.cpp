#include "dapetra/mpi/distributed_layout.hpp"

#include "dapetra/mpi/adapter_access.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "collectives.hpp"
#include "comm.hpp"
#include "dapetra/dim_math.hpp"
#include "dapetra/wire/index_fingerprint.hpp"
#include "dapetra/wire/leading_run.hpp"
#include "dapetra/wire/pack.hpp"
#include "dapetra/validate.hpp"
#include "layout_access.hpp"
#include "rendezvous.hpp"

namespace dapetra::mpi {
namespace detail {
namespace {

// Values each process shares beside its records.
enum Extra {
  extra_itemsize,
  extra_format,
  extra_scattered_axis,
  // Summary of the scattered 'u' axis's indices (see summarize_indices).
  extra_default_rule,
  extra_in_range,
  extra_lowest_negative,
  extra_held,
  extra_fingerprint_1,
  extra_fingerprint_2,
  extra_unread,  // 1: this process could not read its input (DistributedLayout::refuse)
  extra_ranges,  // a fold of the owned ranges passed (0: none)
  extra_lead_first,   // the scattered axis's leading run of indices (see ranges_of_leading_runs) ...
  extra_lead_length,  // ... and its length
  extra_claims,       // 1: this process passed held_owners
  extra_count
};

// What every process sends about the indices it holds along the scattered
// axis instead of the indices themselves. A one_to_one claim is confirmed
// from the fingerprints (index_fingerprint.hpp) without moving any index:
// every process adds what it holds and subtracts its own stretch of [0,
// size); a zero total, with every index in [0, size) and the counts summing
// to size, means each index is held exactly once. Anything else is not
// trusted either way: the exact checks then run and name the indices at
// fault. Axes longer than fingerprint_limit take the exact path always.
struct IndexSummary {
  bool in_range = true;              // every index held lies in [0, size)
  std::int64_t lowest_negative = 0;  // the lowest index held below 0, else 0
  IndexFingerprint fingerprint;      // what is held minus this process's stretch
  std::size_t lead = 0;              // the leading run's length (leading_run)
};

// The summaries of all processes, combined.
struct ScatteredSummary {
  bool default_rule = true;          // every process uses lowest_holder
  bool in_range = true;              // every index in [0, size)
  std::int64_t lowest_negative = 0;  // the lowest index held below 0, else 0
  std::int64_t held = 0;             // indices held, summed over processes
  bool fingerprint_matches = false;  // the fingerprints prove every index of [0, size) held once
  bool same_ranges = true;           // every process passed the same owned ranges (or none)
  bool claimed = false;              // some process passed held_owners
  std::vector<int> unclaimed;        // then, the processes holding indices that passed none
  std::vector<global_index_t> shown_ranges;  // owned ranges the leading runs show (empty: none)
};

bool fingerprint_proves(const Dim& u) { return u.one_to_one && u.size <= fingerprint_limit; }

IndexSummary summarize_indices(const Dim& u, int rank, int nprocs) {
  IndexSummary s;
  const bool fingerprinted = fingerprint_proves(u);
  const global_index_t* held = u.indices.data();
  s.lead = leading_run(held, u.indices.size());
  const auto in_range = [&](global_index_t g) { return static_cast<std::uint64_t>(g) < static_cast<std::uint64_t>(u.size); };
  if (fingerprinted) {  // the range check and the fingerprint in one pass
    const auto pass = fingerprint_indices(held, u.indices.size(), u.size, true);
    s.in_range = pass.in_range;
    s.fingerprint = pass.fingerprint;
  } else {  // the leading run is in range when its ends are
    s.in_range = (s.lead == 0 || (in_range(held[0]) && in_range(held[s.lead - 1]))) &&
                 std::all_of(held + s.lead, held + u.indices.size(), in_range);
  }
  if (!s.in_range) {  // no proof then; the lowest negative index is needed
    for (global_index_t g : u.indices) s.lowest_negative = std::min(s.lowest_negative, g);
    return s;
  }
  if (fingerprinted && u.size > 0) {  // minus this process's stretch of [0, size)
    const global_index_t chunk = u.size / nprocs + (u.size % nprocs != 0);
    const global_index_t lo = std::min<global_index_t>(u.size, chunk * rank), hi = std::min(u.size, lo + chunk);
    s.fingerprint -= fingerprint_range(lo, hi);
  }
  return s;
}

std::int64_t encode_format(const std::string& f) {
  std::int64_t v = 0;
  std::memcpy(&v, f.data(), std::min<std::size_t>(f.size(), 7));
  return v;
}

// The axis whose indices stay distributed: the only axis spread over more
// than one process, when it is 'u'; -1 otherwise.
int scattered_axis_of(const std::vector<Dim>& dims) {
  int found = -1;
  for (int a = 0; a < static_cast<int>(dims.size()); ++a)
    if (dims[a].proc_grid_size > 1) {
      if (found >= 0) return -1;
      found = a;
    }
  return found >= 0 && dims[found].dist_type == DistType::unstructured ? found : -1;
}

// A copy of a record without its 'u' indices, made without copying them
// (the indices are lent out of `d` while it is copied).
Dim without_indices(Dim& d) {
  std::vector<global_index_t> held;
  held.swap(d.indices);
  Dim copy = d;
  d.indices.swap(held);
  return copy;
}

// The rule of an ownership given as one; where ranges or claims name the
// owners, the default (which they then replace).
SharedIndexOwner rule_of(const Ownership& ownership) {
  const SharedIndexOwner* rule = ownership.rule();
  return rule ? *rule : SharedIndexOwner(lowest_holder);
}

// The owned ranges, or none (empty) when ownership is not by ranges.
const std::vector<global_index_t>& ranges_of(const Ownership& ownership) {
  static const std::vector<global_index_t> none;
  return ownership.ranges() ? *ownership.ranges() : none;
}

// The claimed owners, or none (empty) when ownership is not claimed.
const std::vector<int>& claims_of(const Ownership& ownership) {
  static const std::vector<int> none;
  return ownership.held_owners() ? *ownership.held_owners() : none;
}

// Every process's `report.problems`, on every process (collective).
std::vector<Problem> gathered_problems(const PackedRank& report, MPI_Comm comm) {
  const auto gathered = allgather_words(pack_rank(report), comm);
  std::vector<Problem> every;
  for (int r = 0; r < gathered.count(); ++r) {
    const auto p = unpack_rank(gathered.of(r), gathered.size(r)).problems;
    every.insert(every.end(), p.begin(), p.end());
  }
  return every;
}

// Words folded into one value below 2^62 (so that it and its negation fit
// one reduction); equal words give equal values on every process.
std::int64_t fold(std::int64_t h, std::int64_t word) {
  std::uint64_t z = static_cast<std::uint64_t>(h) + 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(word);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return static_cast<std::int64_t>((z ^ (z >> 31)) >> 2);
}

std::int64_t fold_all(const std::int64_t* words, std::size_t n, std::int64_t h = 0) {
  for (std::size_t i = 0; i < n; ++i) h = fold(h, words[i]);
  return h;
}

// The axis owned ranges and held owners describe: the scattered one, or on
// one process (where nothing is distributed) the lone 'u' axis; else -1.
int lone_u_axis(const std::vector<Dim>& dim_data, int scattered, int nprocs) {
  const auto is_u = [](const Dim& d) { return d.dist_type == DistType::unstructured; };
  if (scattered >= 0) return scattered;
  if (nprocs == 1 && std::count_if(dim_data.begin(), dim_data.end(), is_u) == 1)
    return static_cast<int>(std::find_if(dim_data.begin(), dim_data.end(), is_u) - dim_data.begin());
  return -1;
}

// What this process can tell of the owners it claims (see
// DistributedLayoutOptions::held_owners): one per position it holds along
// the lone 'u' axis, each a rank. Whether the holders agree is settled in
// the rendezvous.
std::vector<Problem> check_held_owners(const std::vector<int>& claims, const std::vector<Dim>& dim_data, int scattered,
                                       int rank, int nprocs) {
  const int axis = lone_u_axis(dim_data, scattered, nprocs);
  const auto problem = [&](const std::string& value, const std::string& rule, const std::string& detail) {
    return std::vector<Problem>{{rank, axis, "held_owners", value, rule, detail}};
  };
  if (axis < 0)
    return problem("", "held owners describe a layout whose only distributed axis is 'u'",
                   "this layout's distributed axes are not one 'u' axis");
  const std::size_t held = dim_data[axis].indices.size();
  if (claims.size() != held)
    return problem(std::to_string(claims.size()), "held_owners names one owner per position held along the 'u' axis",
                   std::to_string(claims.size()) + " owners for " + std::to_string(held) + " positions");
  for (std::size_t i = 0; i < held; ++i)
    if (claims[i] < 0 || claims[i] >= nprocs)
      return problem(std::to_string(claims[i]), "every owner named is a rank of the communicator",
                     "position " + std::to_string(i) + " names rank " + std::to_string(claims[i]) + " of " +
                         std::to_string(nprocs) + " processes");
  return {};
}

// What this process can tell of the owned ranges it was given (see
// DistributedLayoutOptions::owned_ranges): their shape, that it holds its
// own range first, in order, and that every index past it lies in another
// range, none twice. With the ranges, that is every per-index rule of the
// axis (check_rank defers them), checked at the cost of the ghosts: the
// prefix needs one comparison per index. That every process passed the
// same ranges is checked from the gathered folds.
std::vector<Problem> check_owned_ranges(const std::vector<global_index_t>& starts, const std::vector<Dim>& dim_data,
                                        int scattered, int rank, int nprocs) {
  const int axis = lone_u_axis(dim_data, scattered, nprocs);
  const auto problem = [&](const std::string& value, const std::string& rule, const std::string& detail) {
    return std::vector<Problem>{{rank, axis, "owned_ranges", value, rule, detail}};
  };
  if (axis < 0)
    return problem("", "owned ranges describe a layout whose only distributed axis is 'u'",
                   "this layout's distributed axes are not one 'u' axis");
  const Dim& u = dim_data[axis];
  if (starts.size() != static_cast<std::size_t>(nprocs) + 1)
    return problem(std::to_string(starts.size()), "owned_ranges holds one boundary more than there are processes",
                   std::to_string(starts.size()) + " boundaries for " + std::to_string(nprocs) + " processes");
  if (starts.front() != 0 || starts.back() != u.size || !std::is_sorted(starts.begin(), starts.end()))
    return problem("", "the owned ranges run from 0 to size without decreasing",
                   "they run from " + std::to_string(starts.front()) + " to " + std::to_string(starts.back()) +
                       " over an axis of size " + std::to_string(u.size));
  const global_index_t first = starts[static_cast<std::size_t>(rank)], mine = starts[static_cast<std::size_t>(rank) + 1] - first;
  if (static_cast<global_index_t>(u.indices.size()) < mine)
    return problem(std::to_string(mine), "each process holds its owned range first, in ascending order",
                   "its range has " + std::to_string(mine) + " indices, it holds " + std::to_string(u.indices.size()));
  for (global_index_t i = 0; i < mine; ++i)
    if (u.indices[static_cast<std::size_t>(i)] != first + i)
      return problem(std::to_string(u.indices[static_cast<std::size_t>(i)]),
                     "each process holds its owned range first, in ascending order",
                     "position " + std::to_string(i) + " holds index " + std::to_string(u.indices[static_cast<std::size_t>(i)]) +
                         ", not " + std::to_string(first + i));
  std::vector<global_index_t> ghosts(u.indices.begin() + mine, u.indices.end());
  for (global_index_t g : ghosts)
    if (g < 0 || g >= u.size)
      return problem(std::to_string(g), "every index held lies in one owned range",
                     "index " + std::to_string(g) + " is outside [0, " + std::to_string(u.size) + ")");
  std::sort(ghosts.begin(), ghosts.end());
  const bool repeated = std::adjacent_find(ghosts.begin(), ghosts.end()) != ghosts.end();
  const auto in_own = std::lower_bound(ghosts.begin(), ghosts.end(), first);
  if (repeated || (in_own != ghosts.end() && *in_own < first + mine))
    return check_index_rules(dim_data, axis, rank);  // names the index held twice
  return {};
}

// The owners of this process's scattered positions: `prefix` positions
// owned here, then `rest` for the positions after them. A leading run of
// `rest` owned here at itself joins the prefix, so that plans skip it.
std::unique_ptr<ScatteredOwners> owned_prefix_and_rest(local_index_t prefix, Owners rest, int me) {
  std::size_t run = 0;
  while (run < rest.owner.size() && rest.owner[run] == me && rest.position[run] == prefix + static_cast<local_index_t>(run))
    ++run;
  auto owners = std::make_unique<ScatteredOwners>();
  owners->prefix = prefix + static_cast<local_index_t>(run);
  owners->owner.assign(rest.owner.begin() + static_cast<std::ptrdiff_t>(run), rest.owner.end());
  owners->where.assign(rest.position.begin() + static_cast<std::ptrdiff_t>(run), rest.position.end());
  owners->rest_foreign = std::find(owners->owner.begin(), owners->owner.end(), me) == owners->owner.end();
  return owners;
}

// 1. What this process can tell on its own, and what it shares.
// (`dim_data` is the layout's own copy: its 'u' indices are lent out, not
// copied, while the record is packed.)
PackedRank describe_local(const std::string& version, const BufferView& buffer, std::vector<Dim>& dim_data, int rank,
                          int nprocs, const DistributedLayoutOptions& options) {
  PackedRank mine;
  mine.problems = check_version(version);
  for (Problem& p : mine.problems) p.rank = rank;
  const auto buffer_problems = check_buffer(buffer, rank);
  // A one_to_one claim on a scattered 'u' axis is confirmed later from a
  // fingerprint of everyone's indices, which implies the per-index rules
  // (each index once here, in range); they run only if that proof fails.
  // Owned ranges imply them too, checked from the ghosts alone.
  const int scattered = scattered_axis_of(dim_data);
  const Ownership& ownership = options.ownership;
  const bool by_ranges = ownership.ranges() != nullptr;
  const bool defer_index_rules = scattered >= 0 && (dim_data[scattered].one_to_one || by_ranges);
  const auto record_problems = check_rank(dim_data, rank, buffer.shape, defer_index_rules ? scattered : -1);
  mine.problems.insert(mine.problems.end(), buffer_problems.begin(), buffer_problems.end());
  mine.problems.insert(mine.problems.end(), record_problems.begin(), record_problems.end());
  // Records for everyone: whole, or without the indices of a lone
  // distributed 'u' axis (checked from a summary instead).
  mine.entry.dim_data.reserve(dim_data.size());
  for (int a = 0; a < static_cast<int>(dim_data.size()); ++a)
    mine.entry.dim_data.push_back(a == scattered ? without_indices(dim_data[a]) : dim_data[a]);
  if (scattered < 0) mine.entry.local_shape = buffer.shape;
  mine.memory_order = dapetra::memory_order(buffer);
  mine.extra.assign(extra_count, 0);
  mine.extra[extra_itemsize] = static_cast<std::int64_t>(buffer.itemsize);
  mine.extra[extra_format] = encode_format(buffer.format);
  mine.extra[extra_scattered_axis] = scattered;
  if (scattered >= 0) {
    // Under owned ranges the indices were checked against them: nothing
    // more is needed of them (a fault found there is among the problems).
    const auto summary = by_ranges ? IndexSummary{} : summarize_indices(dim_data[scattered], rank, nprocs);
    mine.extra[extra_default_rule] = !ownership.rule() || ownership.is_lowest_holder();
    mine.extra[extra_in_range] = summary.in_range;
    mine.extra[extra_lowest_negative] = summary.lowest_negative;
    mine.extra[extra_held] = static_cast<std::int64_t>(dim_data[scattered].indices.size());
    mine.extra[extra_fingerprint_1] = static_cast<std::int64_t>(summary.fingerprint.sum[0]);
    mine.extra[extra_fingerprint_2] = static_cast<std::int64_t>(summary.fingerprint.sum[1]);
    if (summary.lead > 0) {  // (told the ranges, none need showing)
      mine.extra[extra_lead_first] = dim_data[scattered].indices[0];
      mine.extra[extra_lead_length] = static_cast<std::int64_t>(summary.lead);
    }
  }
  if (by_ranges) {
    const auto& ranges = *ownership.ranges();
    const auto problems = check_owned_ranges(ranges, dim_data, scattered, rank, nprocs);
    mine.problems.insert(mine.problems.end(), problems.begin(), problems.end());
    mine.extra[extra_ranges] = fold_all(ranges.data(), ranges.size(), 1);
  }
  if (ownership.held_owners()) {
    const auto problems = check_held_owners(*ownership.held_owners(), dim_data, scattered, rank, nprocs);
    mine.problems.insert(mine.problems.end(), problems.begin(), problems.end());
    mine.extra[extra_claims] = 1;
  }
  return mine;
}

// 2. Every process judges the same gathered words, so all reach the same verdict.
struct Judged {
  std::vector<Problem> problems;
  LayoutRecords layout;
  std::vector<PackedRank> all;
};

Judged judge(const Gathered& gathered, int scattered) {
  const int nprocs = gathered.count();
  Judged j;
  j.layout.ranks.reserve(static_cast<std::size_t>(nprocs));
  j.all.resize(static_cast<std::size_t>(nprocs));
  for (int r = 0; r < nprocs; ++r) {
    try {
      j.all[r] = unpack_rank(gathered.of(r), gathered.size(r));
    } catch (const ValidationError& e) {
      for (Problem p : e.problems()) j.problems.push_back((p.rank = r, p));
    }
    j.problems.insert(j.problems.end(), j.all[r].problems.begin(), j.all[r].problems.end());
    j.layout.ranks.push_back(std::move(j.all[r].entry));
    if (j.all[r].extra.size() != extra_count) j.all[r].extra.assign(extra_count, -2);
  }
  // Without one process's records nothing can be judged together: its
  // reading problems and the others' own problems are the whole verdict.
  if (std::any_of(j.all.begin(), j.all.end(), [](const PackedRank& p) { return p.extra[extra_unread] == 1; }))
    return j;
  for (int r = 1; r < nprocs; ++r)
    if (j.all[r].extra[extra_format] != j.all[0].extra[extra_format] ||
        j.all[r].extra[extra_itemsize] != j.all[0].extra[extra_itemsize])
      j.problems.push_back({r, -1, "format", "", "every process's buffer has the same element type",
                            "rank " + std::to_string(r) + " and rank 0 differ in format or itemsize"});
  const bool all_scattered = std::all_of(j.all.begin(), j.all.end(), [&](const PackedRank& p) {
    return p.extra[extra_scattered_axis] == scattered;
  });
  CheckOptions checks;
  checks.unstructured_indices = scattered < 0;
  if (all_scattered) {
    auto collective = check_layout(j.layout, checks);
    j.problems.insert(j.problems.end(), collective.begin(), collective.end());
  } else if (j.problems.empty()) {  // can only come with records that disagree; say so plainly
    j.problems.push_back({-1, -1, "proc_grid_size", "", "every process describes the same process grid",
                          "the processes disagree on which axes are distributed"});
  }
  return j;
}

ScatteredSummary combine_summaries(const std::vector<PackedRank>& all, const Dim& u) {
  ScatteredSummary everyone;
  IndexFingerprint total;
  std::vector<global_index_t> lead_first, lead_length;
  for (const PackedRank& p : all) {
    lead_first.push_back(p.extra[extra_lead_first]);
    lead_length.push_back(p.extra[extra_lead_length]);
    everyone.default_rule = everyone.default_rule && p.extra[extra_default_rule] != 0;
    everyone.in_range = everyone.in_range && p.extra[extra_in_range] != 0;
    everyone.lowest_negative = std::min(everyone.lowest_negative, p.extra[extra_lowest_negative]);
    everyone.held += p.extra[extra_held];
    total.sum[0] += static_cast<std::uint64_t>(p.extra[extra_fingerprint_1]);
    total.sum[1] += static_cast<std::uint64_t>(p.extra[extra_fingerprint_2]);
    everyone.same_ranges = everyone.same_ranges && p.extra[extra_ranges] == all.front().extra[extra_ranges];
    everyone.claimed = everyone.claimed || p.extra[extra_claims] == 1;
  }
  for (int r = 0; r < static_cast<int>(all.size()) && everyone.claimed; ++r)
    if (all[r].extra[extra_claims] != 1 && all[r].extra[extra_held] > 0) everyone.unclaimed.push_back(r);
  everyone.fingerprint_matches = fingerprint_proves(u) && total.is_zero();
  everyone.shown_ranges = ranges_of_leading_runs(lead_first, lead_length, u.size);
  return everyone;
}


// The lowest of each value over every process, and whether it is the same
// everywhere (one reduction: the minima of the values and of their negations).
struct MinMax {
  std::vector<std::int64_t> lowest;
  std::vector<bool> same;
};

MinMax min_max(const std::vector<std::int64_t>& values, MPI_Comm comm) {
  const std::size_t n = values.size();
  std::vector<std::int64_t> both(2 * n), out(2 * n);
  for (std::size_t i = 0; i < n; ++i) both[i] = values[i], both[n + i] = -values[i];
  MPI_Allreduce(both.data(), out.data(), static_cast<int>(2 * n), MPI_INT64_T, MPI_MIN, comm);
  MinMax m{std::vector<std::int64_t>(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n)), std::vector<bool>(n)};
  for (std::size_t i = 0; i < n; ++i) m.same[i] = out[i] == -out[n + i];
  return m;
}

// This process found nothing wrong on its own and sits at the C-order grid
// coordinates of its rank in the grid its records describe.
bool sound_here(const PackedRank& mine, const std::vector<Dim>& dims, int rank, int nprocs) {
  if (!mine.problems.empty()) return false;
  long long procs = 1;
  for (const Dim& d : dims) procs = std::min<long long>(procs * d.proc_grid_size, 1LL << 40);
  return procs == nprocs && grid_coords(dims) == ProcessGrid::of(dims).coords_of(rank);
}

// 2. Whether, on every process alike, the records can be checked grid line by
// grid line (O(sum of the grid's extents) words gathered per process) rather
// than all gathered everywhere (O(P)): every process sound, all describing
// the same array and grid with two or more distributed axes, every buffer
// laid out in the same axis order. One reduction. Anything else takes the
// full gather, which also names every problem exactly.
bool agree_on_grid_lines(const PackedRank& mine, const std::vector<Dim>& dims, int rank, int nprocs, MPI_Comm comm) {
  std::int64_t shape = fold_all(mine.extra.data(), extra_scattered_axis + 1, static_cast<std::int64_t>(dims.size()));
  int distributed = 0;
  for (const Dim& d : dims) {
    const std::int64_t keys[] = {to_char(d.dist_type), d.size, d.proc_grid_size};
    shape = fold_all(keys, 3, shape);
    distributed += d.proc_grid_size > 1;
  }
  const std::vector<std::int64_t> order(mine.memory_order.begin(), mine.memory_order.end());
  const MinMax m = min_max({sound_here(mine, dims, rank, nprocs) ? 1 : 0, shape, fold_all(order.data(), order.size())}, comm);
  return m.lowest[0] == 1 && m.same[1] && m.same[2] && distributed >= 2;
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
  const MinMax m = min_max(verdict, inner.comm);
  if (m.lowest[0] != 1 || !std::all_of(m.same.begin(), m.same.end(), [](bool same) { return same; })) return nullptr;
  std::vector<AxisPartition> axes;
  axes.reserve(along.size());
  for (auto& records : along) axes.emplace_back(std::move(records), rule);
  return std::make_unique<GlobalLayout>(std::move(axes));
}

}  // namespace

struct LayoutBuilder {
  static std::shared_ptr<const DistributedLayout> create(const std::string& version, const BufferView& buffer,
                                                         const std::vector<Dim>& dim_data, MPI_Comm comm,
                                                         const DistributedLayoutOptions& options,
                                                         const std::vector<Problem>* unread = nullptr);
  static void gather_everything(DistributedLayout& self, const PackedRank& mine, const DistributedLayoutOptions& options);
  static void resolve_scattered(DistributedLayout& self, const ScatteredSummary& summary,
                                const DistributedLayoutOptions& options);
  static void count_owned(DistributedLayout& self);
  // Owners claimed by their holders: no rule names them (each holder knows
  // its own indices' owners only).
  static void mark_claimed(DistributedLayout& self) {
    self.owners_claimed_ = true;
    self.shared_owner_ = [](global_index_t g, const std::vector<int>&) -> int {
      throw std::logic_error("dapetra::mpi::DistributedLayout: the owner of index " + std::to_string(g) +
                             " was claimed by its holders (held_owners); no rule names it");
    };
  }
};

std::shared_ptr<const DistributedLayout> LayoutBuilder::create(const std::string& version, const BufferView& buffer,
                                                               const std::vector<Dim>& dim_data, MPI_Comm comm,
                                                               const DistributedLayoutOptions& options,
                                                               const std::vector<Problem>* unread) {
  std::shared_ptr<DistributedLayout> self(new DistributedLayout());
  // Everything from here on, including a refusal's messages, happens on
  // Dapetra's own duplicate of the caller's communicator.
  self->inner_ = inner_comm(comm);
  self->comm_ = self->inner_->comm;
  const int rank = self->rank_ = rank_of(self->comm_);
  const int nprocs = self->nprocs_ = size_of(self->comm_);
  self->dim_data_ = dim_data;
  PackedRank mine = describe_local(version, buffer, self->dim_data_, rank, nprocs, options);
  if (unread) {  // what could not be read is all there is to say
    mine.problems = *unread;
    mine.extra[extra_unread] = 1;
  }
  self->local_shape_ = buffer.shape;
  self->local_strides_ = buffer.strides;
  self->global_shape_ = global_shape_of(dim_data);
  self->format_ = buffer.format;
  self->itemsize_ = buffer.itemsize;
  self->scattered_axis_ = static_cast<int>(mine.extra[extra_scattered_axis]);
  self->shared_owner_ = rule_of(options.ownership);
  if (nprocs >= options.tuning.grid_lines_from && agree_on_grid_lines(mine, dim_data, rank, nprocs, self->comm_))
    self->global_ = gather_grid_lines(*self->inner_, dim_data, rank, self->shared_owner_);
  if (self->global_)
    self->memory_orders_ = {mine.memory_order};  // the same on every process
  else
    gather_everything(*self, mine, options);
  // (On one process the claims were checked alone: each names this rank.)
  if (nprocs == 1 && options.ownership.held_owners()) mark_claimed(*self);
  // Only now: records that failed the checks may describe no grid at all.
  self->grid_ = ProcessGrid::of(dim_data);
  self->coords_ = grid_coords(dim_data);
  count_owned(*self);
  return self;
}

// Every process's records on every process (collective): for one
// distributed axis (where that is O(sum of the grid's extents) anyway), or
// to name the problems exactly when a process's records fail.
void LayoutBuilder::gather_everything(DistributedLayout& self, const PackedRank& mine,
                                      const DistributedLayoutOptions& options) {
  const int scattered = self.scattered_axis_;
  Judged judged = judge(allgather_words(pack_rank(mine), self.comm_), scattered);
  throw_if_any(judged.problems);  // on every process alike
  const bool same_order = std::all_of(judged.all.begin(), judged.all.end(),
                                      [&](const PackedRank& p) { return p.memory_order == mine.memory_order; });
  if (same_order) self.memory_orders_ = {mine.memory_order};
  else
    for (PackedRank& p : judged.all) self.memory_orders_.push_back(std::move(p.memory_order));
  if (scattered < 0)
    self.global_ = std::make_unique<GlobalLayout>(assume_valid, judged.layout, self.shared_owner_);
  else
    resolve_scattered(self, combine_summaries(judged.all, self.dim_data_[scattered]), options);
}

// Owners along the scattered 'u' axis. A one_to_one claim the gathered
// fingerprint confirms needs nothing more: every index is held once, by its
// owner. Otherwise a rendezvous finds every index's owner; it also tells
// whether the claim holds and how many distinct indices there are. Every
// process takes the same branch: each decides from the gathered summaries.
void LayoutBuilder::resolve_scattered(DistributedLayout& self, const ScatteredSummary& summary,
                                      const DistributedLayoutOptions& options) {
  const std::vector<global_index_t>& owned_ranges = ranges_of(options.ownership);
  const std::vector<int>& claims = claims_of(options.ownership);
  const Dim& u = self.dim_data_[self.scattered_axis_];
  const int me = self.rank_;
  const bool by_ranges = !owned_ranges.empty();  // on every process alike: the ranges were compared
  if (!summary.same_ranges)
    throw ValidationError({{-1, self.scattered_axis_, "owned_ranges", "", "every process passes the same owned ranges",
                            "the processes passed different owned ranges (or only some passed any)"}});
  if (!summary.unclaimed.empty())
    throw ValidationError({{summary.unclaimed.front(), self.scattered_axis_, "held_owners", "",
                            "every process holding an index names its owners, or none does",
                            std::to_string(summary.unclaimed.size()) + " process(es) holding indices passed no held owners "
                            "where others did"}});
  if (by_ranges) {  // the owner of a shared index is the one whose range holds it
    self.shared_owner_ = [starts = owned_ranges](global_index_t g, const std::vector<int>&) { return range_holding(starts, g); };
  }
  if (summary.claimed) mark_claimed(self);
  self.lowest_index_ = self.dim_data_.size() == 1 ? summary.lowest_negative : 0;
  // Under owned ranges (checked on every process) each range's indices are
  // held first by its process: the counts summing to size leave no room for
  // a copy anywhere.
  // (Claimed owners are checked in the rendezvous even then: a proof of the
  // indices says nothing of the owners named.)
  const bool proven = u.one_to_one && summary.held == u.size && !summary.claimed &&
                      (by_ranges || (summary.in_range && summary.fingerprint_matches));
  if (u.one_to_one && !proven) {
    // The proof failed: the per-index rules check_rank deferred decide first,
    // on every process alike (the verdict is gathered).
    PackedRank report;
    report.problems = check_index_rules(self.dim_data_, self.scattered_axis_, me);
    throw_if_any(gathered_problems(report, self.comm_));
  }
  if (proven) {
    self.scattered_ = owned_prefix_and_rest(static_cast<local_index_t>(u.indices.size()), {}, me);
    self.every_element_owned_ = true;
    return;
  }
  if (summary.claimed) {  // indices in [0, size) settle in plain arrays, the others by a hash
    self.scattered_ = owned_prefix_and_rest(
        0, summary.in_range ? holders_by_stretch(u.indices, u.size, nullptr, self.comm_, &claims)
                            : holders_by_claims(u.indices, claims, self.comm_),
        me);
  } else if (by_ranges) {  // the owned range comes first; only what follows needs its owner named
    const auto prefix = static_cast<local_index_t>(owned_ranges[me + 1] - owned_ranges[me]);
    self.scattered_ = owned_prefix_and_rest(
        prefix, owners_from_ranges(u.indices.data() + prefix, u.indices.size() - prefix, owned_ranges), me);
  } else if (summary.in_range && !summary.shown_ranges.empty()) {  // numbered by ranges, untold
    auto found = holders_by_ranges(u.indices, summary.shown_ranges, summary.default_rule ? nullptr : &self.shared_owner_,
                                   self.comm_);
    self.scattered_ = owned_prefix_and_rest(found.prefix, std::move(found.rest), me);
  } else {
    self.scattered_ = owned_prefix_and_rest(
        0,
        summary.in_range ? holders_by_stretch(u.indices, u.size, summary.default_rule ? nullptr : &self.shared_owner_, self.comm_)
                         : holders_by_rule(u.indices, self.shared_owner_, self.comm_),
        me);
  }
  const ScatteredOwners& owners = *self.scattered_;
  // Distinct indices = owned ones summed (under owned ranges, checked: each
  // index of [0, size) once, by its range's process); with one_to_one
  // nothing may be held twice.
  const long long distinct = by_ranges ? u.size : sum_all(owners.count_owned(me), self.comm_);
  self.every_element_owned_ = summary.held == distinct;
  if ((!u.one_to_one || self.every_element_owned_) && distinct == u.size) return;
  // Every process is here (the verdict came from a reduction): gather the details.
  PackedRank report;
  if (u.one_to_one) {
    std::size_t named = 0;
    for (std::size_t i = 0; i < u.indices.size() && named < 20; ++i)
      if (const int owner = owners.owner_of(static_cast<global_index_t>(i), me); owner != me)
        report.problems.push_back({me, self.scattered_axis_, "indices", std::to_string(u.indices[i]),
                                   "with one_to_one true each index is held by exactly one process",
                                   "index " + std::to_string(u.indices[i]) + " is also held by rank " +
                                       std::to_string(owner) + " (" + std::to_string(++named) + ")"});
  }
  if (distinct != u.size && me == 0)
    report.problems.push_back({-1, self.scattered_axis_, "size", std::to_string(u.size),
                               "size equals the number of distinct indices held over the axis",
                               "the processes hold " + std::to_string(distinct) + " distinct indices"});
  throw ValidationError(gathered_problems(report, self.comm_));
}

// Elements owned here (an element is owned when owned along every axis), and
// whether any process holds one it does not own (gathered records only; a
// scattered layout decided that in resolve_scattered).
void LayoutBuilder::count_owned(DistributedLayout& self) {
  const int ndim = static_cast<int>(self.dim_data_.size());
  self.num_owned_ = 1;
  for (int a = 0; a < ndim; ++a) {
    const Dim& d = self.dim_data_[a];
    global_index_t n = local_extent(d);
    if (a == self.scattered_axis_)
      n = self.scattered_->count_owned(self.rank_);
    else if (a != self.scattered_axis_ && d.dist_type == DistType::block)
      n = owned_local_range(d).size();
    else if (a != self.scattered_axis_ && d.dist_type == DistType::unstructured && self.global_)
      for (global_index_t i = 0; i < local_extent(d); ++i) n -= !self.is_owned(a, i);
    self.num_owned_ *= n;
  }
  if (!self.global_) return;
  const GlobalLayout& g = *self.global_;
  bool all_owned = true;
  for (int a = 0; a < ndim && all_owned; ++a) {
    const AxisPartition& axis = g.axis(a);
    for (int c = 0; c < axis.grid_size() && all_owned; ++c) {
      const Dim& d = axis.dim(c);
      if (d.dist_type == DistType::block) {
        all_owned = owned_local_range(d).size() == local_extent(d);
      } else if (d.dist_type == DistType::unstructured) {
        for (global_index_t i = 0; i < local_extent(d) && all_owned; ++i) all_owned = axis.is_owned(c, i);
      }
    }
  }
  self.every_element_owned_ = all_owned;
  if (ndim == 1 && self.dim_data_[0].dist_type == DistType::unstructured)
    for (int c = 0; c < g.axis(0).grid_size(); ++c)
      for (global_index_t i : g.axis(0).dim(c).indices) self.lowest_index_ = std::min(self.lowest_index_, i);
}

}  // namespace detail

DistributedLayout::~DistributedLayout() = default;


bool DistributedLayout::is_owned(int axis, global_index_t position) const {
  if (axis == scattered_axis_) return scattered_->owner_of(position, rank_) == rank_;
  if (!global_) return true;  // an undistributed axis beside the scattered one
  return global_->axis(axis).is_owned(coords_[static_cast<std::size_t>(axis)], position);
}

std::shared_ptr<const DistributedLayout> DistributedLayout::create(const DistArray& local, MPI_Comm comm,
                                                                   const DistributedLayoutOptions& options) {
  return detail::LayoutBuilder::create(local.version, local.buffer, local.dim_data, comm, options);
}

namespace adapter {

global_index_t lowest_index(const DistributedLayout& layout) { return detail::LayoutAccess::lowest_index(layout); }

const GlobalLayout* gathered_records(const DistributedLayout& layout) { return detail::LayoutAccess::gathered(layout); }

void refuse_layout(std::vector<Problem> problems, MPI_Comm comm, const DistributedLayoutOptions& options) {
  for (Problem& p : problems) p.rank = detail::rank_of(comm);
  if (problems.empty())
    problems.push_back({detail::rank_of(comm), -1, "", "", "a protocol object this library can read", "unreadable input"});
  detail::LayoutBuilder::create(dap_version, BufferView{}, {}, comm, options, &problems);
  throw std::logic_error("dapetra::mpi::adapter::refuse_layout: the collective check passed");  // cannot happen
}

}  // namespace adapter

std::shared_ptr<const DistributedLayout> DistributedLayout::create(const std::vector<Dim>& dim_data, MPI_Comm comm,
                                                                   const DistributedLayoutOptions& options) {
  // A stand-in buffer of the implied shape in C order; the layout records
  // only its shape, strides and element type and never touches its memory.
  BufferView buffer;
  buffer.format = "d";
  buffer.itemsize = sizeof(double);
  buffer.shape = local_shape_of(dim_data);
  for (auto& s : buffer.shape) s = std::max<global_index_t>(s, 0);
  buffer.strides = c_strides(buffer.shape, sizeof(double));
  static double placeholder;
  buffer.data = &placeholder;
  return detail::LayoutBuilder::create(dap_version, buffer, dim_data, comm, options);
}

}  // namespace dapetra::mpi
