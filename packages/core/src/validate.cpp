#include "dapetra/validate.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <set>

#include "dapetra/dim_math.hpp"
#include "dapetra/process_grid.hpp"
#include "dapetra/wire/leading_run.hpp"
#include "holdings.hpp"

namespace dapetra {
namespace {

// A rule that can fire once per index (overlaps, duplicates) is reported at
// most max_listed_problems times (error.hpp), then summarised, so a bad
// 10^7-index layout gives a readable list rather than millions of lines.

std::string pair_str(const std::array<global_index_t, 2>& p) {
  return "[" + std::to_string(p[0]) + ", " + std::to_string(p[1]) + "]";
}

bool parse_version(const std::string& v, long long parts[3]) {
  std::size_t pos = 0;
  for (int i = 0; i < 3; ++i) {
    if (pos >= v.size() || !std::isdigit(static_cast<unsigned char>(v[pos]))) return false;
    std::size_t end = pos;
    while (end < v.size() && std::isdigit(static_cast<unsigned char>(v[end]))) ++end;
    if (end - pos > 9) return false;
    parts[i] = std::stoll(v.substr(pos, end - pos));
    pos = end;
    if (i < 2) {
      if (pos >= v.size() || v[pos] != '.') return false;
      ++pos;
    }
  }
  return pos == v.size();
}

// The first key on which two records differ, with both values.
struct Difference {
  std::string key, a, b;
};
std::string key_text(DistType t) { return std::string(1, to_char(t)); }
std::string key_text(bool b) { return b ? "true" : "false"; }
std::string key_text(const std::array<global_index_t, 2>& p) { return pair_str(p); }
std::string key_text(global_index_t v) { return std::to_string(v); }
std::string key_text(int v) { return std::to_string(v); }

Difference first_difference(const Dim& x, const Dim& y) {
  Difference diff;
  for_each_scalar_key(
      [&](const char* key, const auto& a, const auto& b) {
        if (diff.key.empty() && a != b) diff = {key, key_text(a), key_text(b)};
      },
      x, y);
  if (diff.key.empty() && x.indices != y.indices)
    return {"indices", std::to_string(x.indices.size()) + " indices",
            std::to_string(y.indices.size()) + " indices (different values)"};
  return diff;
}

void block_axis_rules(std::vector<Problem>& out, int d, const std::vector<const Dim*>& dims,
                      const std::vector<int>& mpi_rank) {
  const int P = static_cast<int>(dims.size());
  const global_index_t size = dims[0]->size;
  for (int k = 0; k < P; ++k)
    if (dims[k]->periodic != dims[0]->periodic)
      out.push_back(Problem::of(mpi_rank[k], "periodic", dims[k]->periodic ? "true" : "false",
                                "periodic is the same on every grid rank of an axis",
                                "grid rank " + std::to_string(k) + " disagrees with grid rank 0 on periodic", d));

  const GlobalRange first = owned_global_range(*dims[0]);
  if (first.begin != 0)
    out.push_back(Problem::of(
        mpi_rank[0], "start", std::to_string(dims[0]->start),
        "grid rank 0 owns from global index 0 (start + boundary padding counted from 0)",
        "grid rank 0 owns from global index " + std::to_string(first.begin) + ", so indices below it have no owner",
        d));
  const GlobalRange last = owned_global_range(*dims[P - 1]);
  if (last.end != size)
    out.push_back(Problem::of(
        mpi_rank[P - 1], "stop", std::to_string(dims[P - 1]->stop), "the last grid rank owns up to size",
        "the last grid rank owns up to " + std::to_string(last.end) + " but size is " + std::to_string(size), d));

  for (int k = 0; k + 1 < P; ++k) {
    const Dim& a = *dims[k];
    const Dim& b = *dims[k + 1];
    const GlobalRange ra = owned_global_range(a), rb = owned_global_range(b);
    if (ra.end != rb.begin) {
      out.push_back(
          Problem::of(mpi_rank[k + 1], "start", std::to_string(b.start),
                      "owned ranges of neighbouring grid ranks are adjacent (stop - right communication padding "
                      "of rank k == start + left communication padding of rank k+1)",
                      "grid rank " + std::to_string(k) + " owns up to " + std::to_string(ra.end) + " but grid rank " +
                          std::to_string(k + 1) + " owns from " + std::to_string(rb.begin) +
                          (ra.end < rb.begin ? " (a gap)" : " (an overlap)"),
                      d));
      continue;
    }
    if (a.padding[1] != b.padding[0])
      out.push_back(Problem::of(
          mpi_rank[k + 1], "padding", pair_str(b.padding),
          "right communication padding of grid rank k equals left communication padding of grid rank k+1",
          "grid rank " + std::to_string(k) + " has right padding " + std::to_string(a.padding[1]) + " but grid rank " +
              std::to_string(k + 1) + " has left padding " + std::to_string(b.padding[0]),
          d));
    if (b.padding[0] > ra.size())
      out.push_back(Problem::of(mpi_rank[k + 1], "padding", pair_str(b.padding),
                                "communication padding is at most the neighbour's owned count",
                                "left padding " + std::to_string(b.padding[0]) + " is wider than the " +
                                    std::to_string(ra.size()) + " indices grid rank " + std::to_string(k) + " owns",
                                d));
    if (a.padding[1] > rb.size())
      out.push_back(Problem::of(mpi_rank[k], "padding", pair_str(a.padding),
                                "communication padding is at most the neighbour's owned count",
                                "right padding " + std::to_string(a.padding[1]) + " is wider than the " +
                                    std::to_string(rb.size()) + " indices grid rank " + std::to_string(k + 1) + " owns",
                                d));
  }

  // Periodic wrap (Dapetra's rule, as Domi did it): edge padding index g is
  // filled from g + M (left) or g - M (right), M = size - both edge widths.
  // The source must be interior, which needs M >= each edge width.
  if (dims[0]->periodic) {
    const global_index_t left = dims[0]->padding[0], right = dims[P - 1]->padding[1];
    const global_index_t period = size - left - right;
    if (period < left || period < right)
      out.push_back(Problem::of(
          mpi_rank[left >= right ? 0 : P - 1], "padding",
          pair_str(left >= right ? dims[0]->padding : dims[P - 1]->padding),
          "on a periodic axis each edge padding is at most the interior period (size - edge paddings)",
          "edge padding (" + std::to_string(left) + ", " + std::to_string(right) + ") leaves an interior of " +
              std::to_string(period) + ", too short to fill it from the opposite end",
          d));
  }
}

void check_unstructured_axis(std::vector<Problem>& out, int d, const std::vector<const Dim*>& dims,
                             const std::vector<int>& mpi_rank, bool index_rules) {
  const int P = static_cast<int>(dims.size());
  for (int k = 0; k < P; ++k)
    if (dims[k]->one_to_one != dims[0]->one_to_one)
      out.push_back(Problem::of(mpi_rank[k], "one_to_one", dims[k]->one_to_one ? "true" : "false",
                                "one_to_one is the same on every grid rank of an axis",
                                "grid rank " + std::to_string(k) + " disagrees with grid rank 0 on one_to_one", d));
  if (!index_rules) return;
  const auto held = detail::sorted_holdings(dims);
  global_index_t distinct = 0;
  std::size_t overlaps = 0;
  for (std::size_t a = 0; a < held.size();) {
    std::size_t b = a + 1;
    while (b < held.size() && held[b].index == held[a].index) ++b;
    ++distinct;
    if (dims[0]->one_to_one && b - a > 1) {
      for (std::size_t j = a + 1; j < b; ++j) {
        if (held[j].grid_rank == held[j - 1].grid_rank) continue;  // a local duplicate, reported locally
        if (++overlaps <= max_listed_problems)
          out.push_back(Problem::of(mpi_rank[held[j].grid_rank], "indices", std::to_string(held[a].index),
                                    "with one_to_one true each index is held by exactly one process",
                                    "index " + std::to_string(held[a].index) + " is held by grid ranks " +
                                        std::to_string(held[j - 1].grid_rank) + " and " +
                                        std::to_string(held[j].grid_rank),
                                    d));
      }
    }
    a = b;
  }
  if (overlaps > max_listed_problems)
    out.push_back(Problem::of(-1, "indices", std::to_string(overlaps) + " overlaps",
                              "with one_to_one true each index is held by exactly one process",
                              "... and " + std::to_string(overlaps - max_listed_problems) + " more overlaps", d));
  if (distinct != dims[0]->size)
    out.push_back(Problem::of(-1, "size", std::to_string(dims[0]->size),
                              "size equals the number of distinct indices held over the axis",
                              "the processes hold " + std::to_string(distinct) + " distinct indices but size is " +
                                  std::to_string(dims[0]->size),
                              d));
}

// Each index at most once on this process. The cheap test first (one pass
// over a bitmap when the indices lie in [0, size) and size is not much larger
// than their number, else a sort); positions are found only when there is a
// duplicate to report.
// Whether any index of [first, last) appears twice.
bool any_repeated(const global_index_t* first, const global_index_t* last, global_index_t size) {
  const auto n = static_cast<global_index_t>(last - first);
  if (size <= 64 * n + 64) {  // a bitmap of the axis costs less than sorting
    std::vector<bool> seen(static_cast<std::size_t>(size));
    bool repeated = false;
    const global_index_t* g = first;
    for (; g != last && *g >= 0 && *g < size; ++g) {  // out of range: the sort below decides
      repeated = repeated || seen[static_cast<std::size_t>(*g)];
      seen[static_cast<std::size_t>(*g)] = true;
    }
    if (g == last) return repeated;
  }
  std::vector<global_index_t> plain(first, last);
  std::sort(plain.begin(), plain.end());
  return std::adjacent_find(plain.begin(), plain.end()) != plain.end();
}

void add_uniqueness_problems(const Dim& d, int rank, int dim, std::vector<Problem>& out) {
  // A leading ascending run (a finite-element numbering's owned prefix)
  // holds no index twice: only what follows it is checked, against itself
  // and against the run's stretch of indices.
  const global_index_t* first = d.indices.data();
  const global_index_t* last = first + d.indices.size();
  const global_index_t* rest = first + leading_run(first, d.indices.size());
  const auto in_run = [&](global_index_t g) { return rest != first && *first <= g && g <= *(rest - 1); };
  const bool repeated = std::any_of(rest, last, in_run) || any_repeated(rest, last, d.size);
  std::size_t dups = 0;
  if (repeated) {
    std::vector<std::pair<global_index_t, std::size_t>> sorted(d.indices.size());
    for (std::size_t i = 0; i < d.indices.size(); ++i) sorted[i] = {d.indices[i], i};
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 1; i < sorted.size(); ++i)
      if (sorted[i].first == sorted[i - 1].first && ++dups <= max_listed_problems)
        out.push_back(Problem::of(rank, "indices", std::to_string(sorted[i].first), "indices are locally unique",
                                  "index " + std::to_string(sorted[i].first) + " appears at positions " +
                                      std::to_string(sorted[i - 1].second) + " and " + std::to_string(sorted[i].second),
                                  dim));
  }
  if (dups > max_listed_problems)
    out.push_back(Problem::of(rank, "indices", std::to_string(dups) + " duplicates", "indices are locally unique",
                              "... and " + std::to_string(dups - max_listed_problems) + " more duplicates", dim));
}

// In several dimensions the flat global index is linearised from the
// per-axis indices, so 'u' indices must be axis positions. Returns whether
// all are.
bool add_range_problems(const Dim& d, int rank, int dim, std::vector<Problem>& out) {
  std::size_t bad = 0;
  for (global_index_t g : d.indices)
    if ((g < 0 || g >= d.size) && ++bad <= max_listed_problems)
      out.push_back(Problem::of(rank, "indices", std::to_string(g),
                                "in a multi-dimensional array 'u' indices lie in [0, size)",
                                "index " + std::to_string(g) + " is outside [0, " + std::to_string(d.size) + ")", dim));
  return bad == 0;
}

}  // namespace

std::vector<Problem> check_version(const std::string& version) {
  std::vector<Problem> out;
  if (version == dap_version) return out;  // the usual case, without parsing
  long long have[3], ours[3];
  parse_version(dap_version, ours);
  if (!parse_version(version, have))
    out.push_back(Problem::of(-1, "__version__", "'" + version + "'", "__version__ is 'major.minor.patch'",
                              "not a semantic version string", -1));
  else if (have[0] != ours[0])
    out.push_back(Problem::of(-1, "__version__", "'" + version + "'",
                              "the major version is " + std::to_string(ours[0]) + " (this library speaks DAP " +
                                  dap_version + "; minor and patch may differ)",
                              "major version " + std::to_string(have[0]) + " is not spoken by this library", -1));
  return out;
}

namespace {

std::vector<Problem> check_dim_rules(const Dim& d, int rank, int dim, std::optional<global_index_t> extent,
                                     bool check_index_rules) {
  std::vector<Problem> out;
  bool common_ok = true;
  if (d.size < 0) {
    out.push_back(Problem::of(rank, "size", std::to_string(d.size), "size >= 0", "negative size", dim));
    common_ok = false;
  }
  if (d.proc_grid_size < 1) {
    out.push_back(Problem::of(rank, "proc_grid_size", std::to_string(d.proc_grid_size), "proc_grid_size >= 1",
                              "a grid axis needs at least one process", dim));
    common_ok = false;
  } else if (d.proc_grid_rank < 0 || d.proc_grid_rank >= d.proc_grid_size) {
    out.push_back(
        Problem::of(rank, "proc_grid_rank", std::to_string(d.proc_grid_rank), "0 <= proc_grid_rank < proc_grid_size",
                    "grid rank outside the grid axis of " + std::to_string(d.proc_grid_size) + " processes", dim));
    common_ok = false;
  }
  if (!common_ok) return out;

  switch (d.dist_type) {
    case DistType::block: {
      bool range_ok = true;
      if (d.start < 0) {
        out.push_back(Problem::of(rank, "start", std::to_string(d.start), "start >= 0", "negative start", dim));
        range_ok = false;
      }
      if (d.stop < d.start) {
        // The spec says stop > start; start == stop is the empty buffer of 1.6.4.
        out.push_back(Problem::of(rank, "stop", std::to_string(d.stop), "stop >= start",
                                  "stop " + std::to_string(d.stop) + " is below start " + std::to_string(d.start),
                                  dim));
        range_ok = false;
      }
      if (d.stop > d.size) {
        out.push_back(Problem::of(rank, "stop", std::to_string(d.stop), "stop <= size",
                                  "stop " + std::to_string(d.stop) + " exceeds size " + std::to_string(d.size), dim));
        range_ok = false;
      }
      for (int side = 0; side < 2; ++side)
        if (d.padding[side] < 0) {
          out.push_back(
              Problem::of(rank, "padding", pair_str(d.padding), "padding widths >= 0", "negative padding width", dim));
          range_ok = false;
        }
      if (range_ok && d.padding[0] + d.padding[1] > d.stop - d.start)
        out.push_back(Problem::of(rank, "padding", pair_str(d.padding), "padding[0] + padding[1] <= stop - start",
                                  "padding wider than the " + std::to_string(d.stop - d.start) + " indices held", dim));
      break;
    }
    case DistType::cyclic: {
      if (d.block_size < 1) {
        out.push_back(Problem::of(rank, "block_size", std::to_string(d.block_size), "block_size >= 1",
                                  "block size must be positive", dim));
        break;
      }
      // Grid rank r's first block starts at r * block_size; a rank with no
      // block may say so with that value or with start == size (section 1.6.4).
      global_index_t first = 0;
      if (__builtin_mul_overflow(static_cast<global_index_t>(d.proc_grid_rank), d.block_size, &first))
        first = std::numeric_limits<global_index_t>::max();
      const bool empty_ok = first >= d.size && d.start == d.size;
      if (d.start != first && !empty_ok)
        out.push_back(Problem::of(rank, "start", std::to_string(d.start),
                                  "start == proc_grid_rank * block_size (or size when that is past the end)",
                                  "grid rank " + std::to_string(d.proc_grid_rank) + " with block size " +
                                      std::to_string(d.block_size) + " starts at " +
                                      (first >= d.size ? std::to_string(d.size) : std::to_string(first)),
                                  dim));
      break;
    }
    case DistType::unstructured: {
      if (static_cast<global_index_t>(d.indices.size()) > d.size)
        out.push_back(Problem::of(rank, "indices", std::to_string(d.indices.size()) + " indices",
                                  "len(indices) <= size", "more indices than size", dim));
      if (check_index_rules) add_uniqueness_problems(d, rank, dim, out);
      break;
    }
  }
  const global_index_t n = local_extent(d);
  if (n > std::numeric_limits<local_index_t>::max())
    out.push_back(Problem::of(rank, d.dist_type == DistType::unstructured ? "indices" : "size", std::to_string(n),
                              "local extent fits a 32-bit local index",
                              "this process would hold " + std::to_string(n) + " indices along the axis", dim));
  if (extent && out.empty() && *extent != n)
    out.push_back(Problem::of(
        rank,
        d.dist_type == DistType::block    ? "stop"
        : d.dist_type == DistType::cyclic ? "size"
                                          : "indices",
        std::to_string(*extent),
        d.dist_type == DistType::block ? "stop - start == buffer shape" : "number of indices held == buffer shape",
        "the record describes " + std::to_string(n) + " elements along this axis but the buffer has " +
            std::to_string(*extent),
        dim));
  return out;
}

}  // namespace

std::vector<Problem> check_dim(const Dim& d, int rank, int dim, std::optional<global_index_t> extent) {
  return check_dim_rules(d, rank, dim, extent, true);
}

std::vector<Problem> check_rank(const std::vector<Dim>& dim_data, int rank,
                                const std::optional<std::vector<global_index_t>>& local_shape,
                                int defer_index_rules_axis) {
  std::vector<Problem> out;
  const bool shape_fits = !local_shape || local_shape->size() == dim_data.size();
  if (!shape_fits)
    out.push_back(Problem::of(rank, "local_shape", std::to_string(local_shape->size()) + " axes",
                              "the buffer has one axis per dimension dictionary",
                              "dim_data has " + std::to_string(dim_data.size()) + " records", -1));
  bool all_ok = true;
  for (std::size_t d = 0; d < dim_data.size(); ++d) {
    std::optional<global_index_t> extent;
    if (local_shape && shape_fits) extent = (*local_shape)[d];
    const bool index_rules = static_cast<int>(d) != defer_index_rules_axis;
    auto p = check_dim_rules(dim_data[d], rank, static_cast<int>(d), extent, index_rules);
    all_ok = all_ok && p.empty();
    out.insert(out.end(), p.begin(), p.end());
    if (index_rules && dim_data.size() > 1 && dim_data[d].dist_type == DistType::unstructured)
      all_ok = add_range_problems(dim_data[d], rank, static_cast<int>(d), out) && all_ok;
  }
  if (all_ok) {
    global_index_t total = 1;
    for (const Dim& d : dim_data) {
      const global_index_t n = local_extent(d);
      total = (n != 0 && total > std::numeric_limits<local_index_t>::max() / n) ? std::numeric_limits<global_index_t>::max() : total * n;
    }
    if (total > std::numeric_limits<local_index_t>::max())
      out.push_back(Problem::of(rank, "dim_data", std::to_string(total),
                                "the local buffer's element count fits a 32-bit local index",
                                "the buffer would hold more than 2^31 - 1 elements", -1));
  }
  return out;
}

std::vector<Problem> check_block_axis(int axis, const std::vector<const Dim*>& by_grid_rank,
                                      const std::vector<int>& mpi_rank) {
  std::vector<Problem> out;
  block_axis_rules(out, axis, by_grid_rank, mpi_rank);
  return out;
}

std::vector<Problem> check_axis(int axis, const std::vector<const Dim*>& by_grid_rank, const std::vector<int>& mpi_rank,
                                const CheckOptions& options) {
  std::vector<Problem> out;
  const int P = static_cast<int>(by_grid_rank.size());
  switch (by_grid_rank[0]->dist_type) {
    case DistType::block:
      block_axis_rules(out, axis, by_grid_rank, mpi_rank);
      break;
    case DistType::cyclic:
      for (int k = 1; k < P; ++k)
        if (by_grid_rank[k]->block_size != by_grid_rank[0]->block_size)
          out.push_back(Problem::of(mpi_rank[k], "block_size", std::to_string(by_grid_rank[k]->block_size),
                                    "block_size is the same on every grid rank of an axis",
                                    "grid rank 0 has block_size " + std::to_string(by_grid_rank[0]->block_size), axis));
      break;
    case DistType::unstructured:
      check_unstructured_axis(out, axis, by_grid_rank, mpi_rank, options.unstructured_indices);
      break;
  }
  return out;
}

std::vector<Problem> check_index_rules(const std::vector<Dim>& dim_data, int axis, int rank) {
  std::vector<Problem> out;
  const Dim& d = dim_data[static_cast<std::size_t>(axis)];
  if (d.dist_type != DistType::unstructured) return out;
  add_uniqueness_problems(d, rank, axis, out);
  if (dim_data.size() > 1) add_range_problems(d, rank, axis, out);
  return out;
}

namespace {

// Which records passed the local rules: wholly (the per-axis checks need
// that) or at least in their common keys (enough for the agreement and grid
// checks). Checks whose inputs failed locally are skipped, so one mistake is
// reported once, while independent mistakes are all reported. The flags of
// rank r's axis d sit at first_axis[r] + d (one array for all ranks).
struct LocalVerdicts {
  std::vector<std::size_t> first_axis;
  std::vector<char> whole, common;
  bool whole_ok(int r, std::size_t d) const { return whole[first_axis[static_cast<std::size_t>(r)] + d] != 0; }
  bool common_ok(int r, std::size_t d) const { return common[first_axis[static_cast<std::size_t>(r)] + d] != 0; }
};

// Every rank's records by the local rules; their problems go to `out`.
LocalVerdicts check_each_rank(const LayoutRecords& layout, std::vector<Problem>& out) {
  const int nprocs = static_cast<int>(layout.ranks.size());
  LocalVerdicts v;
  v.first_axis.assign(static_cast<std::size_t>(nprocs) + 1, 0);
  for (int r = 0; r < nprocs; ++r) v.first_axis[r + 1] = v.first_axis[r] + layout.ranks[r].dim_data.size();
  v.whole.assign(v.first_axis.back(), 1);
  v.common.assign(v.first_axis.back(), 1);
  for (int r = 0; r < nprocs; ++r) {
    auto p = check_rank(layout.ranks[r].dim_data, r, layout.ranks[r].local_shape);
    for (const Problem& q : p) {
      if (q.dim < 0) continue;
      v.whole[v.first_axis[r] + static_cast<std::size_t>(q.dim)] = 0;
      if (q.key == "size" || q.key == "proc_grid_size" || q.key == "proc_grid_rank")
        v.common[v.first_axis[r] + static_cast<std::size_t>(q.dim)] = 0;
    }
    out.insert(out.end(), p.begin(), p.end());
  }
  return v;
}

// Whether every process describes as many dimensions as rank 0.
bool same_number_of_axes(const LayoutRecords& layout, std::vector<Problem>& out) {
  const std::size_t ndim = layout.ranks[0].dim_data.size();
  bool same = true;
  for (int r = 1; r < static_cast<int>(layout.ranks.size()); ++r)
    if (layout.ranks[r].dim_data.size() != ndim) {
      out.push_back(Problem::of(r, "dim_data", std::to_string(layout.ranks[r].dim_data.size()) + " records",
                                "every process describes the same number of dimensions",
                                "rank 0 has " + std::to_string(ndim) + " records", -1));
      same = false;
    }
  return same;
}

// The keys every process must agree on, per axis, judged against the first
// process whose common keys are sound: each axis's agreement and grid
// extent. Returns whether the grid is known (every proc_grid_size agreed).
bool agree_per_axis(const LayoutRecords& layout, const LocalVerdicts& v, std::vector<Problem>& out,
                    std::vector<char>& axis_agrees, std::vector<int>& grid_shape) {
  const int nprocs = static_cast<int>(layout.ranks.size());
  const std::size_t ndim = layout.ranks[0].dim_data.size();
  bool grid_ok = true;
  axis_agrees.assign(ndim, 1);
  grid_shape.assign(ndim, 1);
  for (std::size_t d = 0; d < ndim; ++d) {
    const int di = static_cast<int>(d);
    int ref_rank = -1;
    for (int r = 0; r < nprocs && ref_rank < 0; ++r)
      if (v.common_ok(r, d)) ref_rank = r;
    if (ref_rank < 0) {
      grid_ok = false;
      axis_agrees[d] = 0;
      continue;
    }
    const Dim& ref = layout.ranks[ref_rank].dim_data[d];
    grid_shape[d] = ref.proc_grid_size;
    const std::string who = "rank " + std::to_string(ref_rank);
    for (int r = ref_rank + 1; r < nprocs; ++r) {
      if (!v.common_ok(r, d)) {
        grid_ok = false;
        continue;
      }
      const Dim& x = layout.ranks[r].dim_data[d];
      if (x.dist_type != ref.dist_type) {
        out.push_back(Problem::of(r, "dist_type", std::string("'") + to_char(x.dist_type) + "'",
                                  "dist_type is the same on every process",
                                  who + " has '" + to_char(ref.dist_type) + "'", di));
        axis_agrees[d] = 0;
      }
      if (x.size != ref.size) {
        out.push_back(Problem::of(r, "size", std::to_string(x.size), "size is the same on every process",
                                  who + " has size " + std::to_string(ref.size), di));
        axis_agrees[d] = 0;
      }
      if (x.proc_grid_size != ref.proc_grid_size) {
        out.push_back(Problem::of(r, "proc_grid_size", std::to_string(x.proc_grid_size),
                                  "proc_grid_size is the same on every process",
                                  who + " has proc_grid_size " + std::to_string(ref.proc_grid_size), di));
        grid_ok = false;
      }
    }
  }
  return grid_ok;
}

// Whether the grid holds exactly the layout's processes.
bool grid_holds_every_process(const ProcessGrid& grid, int nprocs, std::vector<Problem>& out) {
  long long grid_procs = 1;
  for (int n : grid.shape()) grid_procs = std::min<long long>(grid_procs * n, 1LL << 40);
  if (grid_procs == nprocs) return true;
  std::string shape;
  for (int n : grid.shape()) shape += (shape.empty() ? "" : " x ") + std::to_string(n);
  out.push_back(Problem::of(
      -1, "proc_grid_size", shape.empty() ? "()" : shape,
      "the product of proc_grid_size over the dimensions equals the number of processes",
      "the grid holds " + std::to_string(grid_procs) + " processes but the layout has " + std::to_string(nprocs), -1));
  return false;
}

// Whether every rank sits at its C-order grid coordinates.
bool ranks_at_their_coordinates(const LayoutRecords& layout, const ProcessGrid& grid, std::vector<Problem>& out) {
  bool ok = true;
  for (int r = 0; r < static_cast<int>(layout.ranks.size()); ++r)
    for (std::size_t d = 0; d < layout.ranks[r].dim_data.size(); ++d) {
      const int want = grid.coord_of(r, static_cast<int>(d)), have = layout.ranks[r].dim_data[d].proc_grid_rank;
      if (want != have) {
        out.push_back(Problem::of(
            r, "proc_grid_rank", std::to_string(have), "rank r sits at the C-order grid coordinates of r",
            "rank " + std::to_string(r) + " belongs at grid coordinate " + std::to_string(want) + " on this axis",
            static_cast<int>(d)));
        ok = false;
      }
    }
  return ok;
}

// Axis d's records, one per grid rank, when every rank's passed the local
// rules and the axis agrees. Records of the same grid rank along an axis
// are identical (section 1.6.4). The spec's one exception, padding
// differing "on edge processes", is about ranks at different positions
// along the axis; ranks sharing a grid rank share the same edge, so padding
// must agree too. Then the axis's own rules (check_axis).
void check_one_axis(const LayoutRecords& layout, std::size_t d, int P, const CheckOptions& options,
                    std::vector<Problem>& out) {
  const int di = static_cast<int>(d);
  std::vector<const Dim*> by_grid_rank(static_cast<std::size_t>(P), nullptr);
  std::vector<int> mpi_rank(static_cast<std::size_t>(P), -1);
  for (int r = 0; r < static_cast<int>(layout.ranks.size()); ++r) {
    const Dim& x = layout.ranks[r].dim_data[d];
    const int k = x.proc_grid_rank;
    if (!by_grid_rank[k]) {
      by_grid_rank[k] = &x;
      mpi_rank[k] = r;
      continue;
    }
    const Difference diff = first_difference(*by_grid_rank[k], x);
    if (!diff.key.empty())
      out.push_back(
          Problem::of(r, diff.key, diff.b,
                      "processes with the same proc_grid_rank on an axis have identical dimension dictionaries",
                      "rank " + std::to_string(mpi_rank[k]) + " at the same grid rank " + std::to_string(k) + " has " +
                          diff.key + " = " + diff.a,
                      di));
  }
  const auto axis_problems = check_axis(di, by_grid_rank, mpi_rank, options);
  out.insert(out.end(), axis_problems.begin(), axis_problems.end());
}

}  // namespace

std::vector<Problem> check_layout(const LayoutRecords& layout, const CheckOptions& options) {
  std::vector<Problem> out = check_version(layout.version);
  const int nprocs = static_cast<int>(layout.ranks.size());
  if (nprocs == 0) {
    out.push_back(Problem::of(-1, "ranks", "[]", "a layout describes at least one process", "no ranks", -1));
    return out;
  }
  const LocalVerdicts verdicts = check_each_rank(layout, out);
  if (!same_number_of_axes(layout, out)) return out;
  std::vector<char> axis_agrees;
  std::vector<int> grid_shape;
  if (!agree_per_axis(layout, verdicts, out, axis_agrees, grid_shape)) return out;
  const ProcessGrid grid(grid_shape);
  if (!grid_holds_every_process(grid, nprocs, out) || !ranks_at_their_coordinates(layout, grid, out)) return out;
  for (std::size_t d = 0; d < grid_shape.size(); ++d) {
    bool records_ok = axis_agrees[d] != 0;
    for (int r = 0; r < nprocs; ++r) records_ok = records_ok && verdicts.whole_ok(r, d);
    if (records_ok) check_one_axis(layout, d, grid.shape()[d], options, out);
  }
  return out;
}

}  // namespace dapetra
