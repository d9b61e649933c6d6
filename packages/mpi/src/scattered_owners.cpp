// Owners along a lone 'u' axis whose indices stay on their processes: what
// each process tells of its indices, the checks of owned ranges and held
// owners, and the settling of every index's owner (a proof from
// fingerprints, the closed form of owned ranges, or a rendezvous).
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "collectives.hpp"
#include "dapetra/mpi/agree.hpp"
#include "dapetra/dim_math.hpp"
#include "dapetra/validate.hpp"
#include "dapetra/wire/layout_words.hpp"
#include "dapetra/wire/leading_run.hpp"
#include "layout_access.hpp"
#include "layout_builder.hpp"
#include "ownership_access.hpp"
#include "rendezvous.hpp"

namespace dapetra::mpi::detail {
namespace {

bool fingerprint_proves(const Dim& u) { return u.one_to_one && u.size <= fingerprint_limit; }

// The axis owned ranges and held owners describe: the scattered one, or on
// one process (where nothing is distributed) the lone 'u' axis; else -1.
int lone_u_axis(const std::vector<Dim>& dim_data, int scattered, int nprocs) {
  const auto is_u = [](const Dim& d) { return d.dist_type == DistType::unstructured; };
  if (scattered >= 0) return scattered;
  if (nprocs == 1 && std::count_if(dim_data.begin(), dim_data.end(), is_u) == 1)
    return static_cast<int>(std::find_if(dim_data.begin(), dim_data.end(), is_u) - dim_data.begin());
  return -1;
}

// A fault of this process's ownership argument `key` on `axis`, as the one
// problem the checks below return.
struct ArgumentFault {
  int rank, axis;
  const char* key;
  std::vector<Problem> operator()(std::string value, std::string rule, std::string detail) const {
    return {Problem::of(rank, key, std::move(value), std::move(rule), std::move(detail), axis)};
  }
  std::vector<Problem> no_lone_u_axis(const std::string& what) const {
    return (*this)("", what + " describe a layout whose only distributed axis is 'u'",
                   "this layout's distributed axes are not one 'u' axis");
  }
};

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

std::unique_ptr<ScatteredOwners> from_prefix(PrefixOwners found, int me) {
  return owned_prefix_and_rest(found.prefix, std::move(found.rest), me);
}

// The owned ranges, or none (empty) when ownership is not by ranges.
const std::vector<global_index_t>& ranges_of(const Ownership& ownership) {
  static const std::vector<global_index_t> none;
  return detail::OwnershipAccess::ranges(ownership) ? *detail::OwnershipAccess::ranges(ownership) : none;
}

// The held owners, or none (empty) when the ownership names none.
const std::vector<int>& held_owners_of(const Ownership& ownership) {
  static const std::vector<int> none;
  return detail::OwnershipAccess::held_owners(ownership) ? *detail::OwnershipAccess::held_owners(ownership) : none;
}

}  // namespace

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

SummaryPlaces put_summary(Ballot& ballot, const PackedRank& mine, int rank) {
  const auto& x = mine.extra;
  const bool without_held_owners = x[extra_held_owners] != 1 && x[extra_held] > 0;  // holds indices, names no owners
  SummaryPlaces at;
  at.default_rule = ballot.lowest(x[extra_default_rule]);
  at.in_range = ballot.lowest(x[extra_in_range]);
  at.lowest_negative = ballot.lowest(x[extra_lowest_negative]);
  at.ranges = ballot.same(x[extra_ranges]);
  at.held_owners_given = ballot.highest(x[extra_held_owners] == 1);
  at.first_without_held_owners = ballot.lowest(without_held_owners ? rank : std::numeric_limits<std::int64_t>::max());
  at.without_held_owners = ballot.sum(without_held_owners);
  at.held = ballot.sum(x[extra_held]);
  at.fingerprint = ballot.sum(x[extra_fingerprint_1]);
  ballot.sum(x[extra_fingerprint_2]);  // (at.fingerprint + 1)
  return at;
}

ScatteredSummary read_summary(const Ballot& ballot, const SummaryPlaces& at, const Dim& u) {
  ScatteredSummary everyone;
  everyone.default_rule = ballot.lowest_of(at.default_rule) != 0;
  everyone.in_range = ballot.lowest_of(at.in_range) != 0;
  everyone.lowest_negative = ballot.lowest_of(at.lowest_negative);
  everyone.same_ranges = ballot.same_of(at.ranges);
  everyone.held_owners_given = ballot.highest_of(at.held_owners_given) == 1;
  if (everyone.held_owners_given && ballot.sum_of(at.without_held_owners) > 0) {
    everyone.first_without_held_owners = static_cast<int>(ballot.lowest_of(at.first_without_held_owners));
    everyone.without_held_owners = ballot.sum_of(at.without_held_owners);
  }
  everyone.held = ballot.sum_of(at.held);
  IndexFingerprint total;
  total.sum[0] = static_cast<std::uint64_t>(ballot.sum_of(at.fingerprint));
  total.sum[1] = static_cast<std::uint64_t>(ballot.sum_of(at.fingerprint + 1));
  everyone.fingerprint_matches = fingerprint_proves(u) && total.is_zero();
  return everyone;
}

SharedIndexOwner rule_of(const Ownership& ownership) {
  const SharedIndexOwner* rule = detail::OwnershipAccess::rule(ownership);
  return rule ? *rule : SharedIndexOwner(lowest_holder);
}

// What this process can tell of the owners it names (see
// Ownership::from_held_owners): one per position it holds along
// the lone 'u' axis, each a rank. Whether the holders agree is settled in
// the rendezvous.
std::vector<Problem> check_held_owners(const std::vector<int>& held_owners, const std::vector<Dim>& dim_data,
                                       int scattered, int rank, int nprocs) {
  const int axis = lone_u_axis(dim_data, scattered, nprocs);
  const ArgumentFault problem{rank, axis, "held_owners"};
  if (axis < 0) return problem.no_lone_u_axis("held owners");
  const std::size_t held = dim_data[axis].indices.size();
  if (held_owners.size() != held)
    return problem(std::to_string(held_owners.size()),
                   "held_owners names one owner per position held along the 'u' axis",
                   std::to_string(held_owners.size()) + " owners for " + std::to_string(held) + " positions");
  for (std::size_t i = 0; i < held; ++i)
    if (held_owners[i] < 0 || held_owners[i] >= nprocs)
      return problem(std::to_string(held_owners[i]), "every owner named is a rank of the communicator",
                     "position " + std::to_string(i) + " names rank " + std::to_string(held_owners[i]) + " of " +
                         std::to_string(nprocs) + " processes");
  return {};
}

// What this process can tell of the owned ranges it was given (see
// Ownership::from_ranges): their shape, that it holds its
// own range first, in order, and that every index past it lies in another
// range, none twice. With the ranges, that is every per-index rule of the
// axis (check_rank defers them), checked at the cost of the ghosts: the
// prefix needs one comparison per index. That every process passed the
// same ranges is checked from their folds in the creation's vote.
std::vector<Problem> check_owned_ranges(const std::vector<global_index_t>& boundaries, const std::vector<Dim>& dim_data,
                                        int scattered, int rank, int nprocs) {
  const int axis = lone_u_axis(dim_data, scattered, nprocs);
  const ArgumentFault problem{rank, axis, "owned_ranges"};
  if (axis < 0) return problem.no_lone_u_axis("owned ranges");
  const Dim& u = dim_data[axis];
  if (boundaries.size() != static_cast<std::size_t>(nprocs) + 1)
    return problem(std::to_string(boundaries.size()), "owned_ranges holds one boundary more than there are processes",
                   std::to_string(boundaries.size()) + " boundaries for " + std::to_string(nprocs) + " processes");
  if (boundaries.front() != 0 || boundaries.back() != u.size || !std::is_sorted(boundaries.begin(), boundaries.end()))
    return problem("", "the owned ranges run from 0 to size without decreasing",
                   "they run from " + std::to_string(boundaries.front()) + " to " + std::to_string(boundaries.back()) +
                       " over an axis of size " + std::to_string(u.size));
  const global_index_t first = boundaries[static_cast<std::size_t>(rank)], mine = boundaries[static_cast<std::size_t>(rank) + 1] - first;
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

namespace {

// The refusals every process reaches alike from the combined summaries:
// owned ranges that differ between processes, and held owners some holders left out.
void refuse_disagreeing_ownership(const ScatteredSummary& summary, int axis) {
  if (!summary.same_ranges)
    throw ValidationError({Problem::of(-1, "owned_ranges", "", "every process passes the same owned ranges",
                                       "the processes passed different owned ranges (or only some passed any)", axis)});
  if (summary.without_held_owners > 0)
    throw ValidationError({Problem::of(summary.first_without_held_owners, "held_owners", "",
                                       "every process holding an index names its owners, or none does",
                                       std::to_string(summary.without_held_owners) +
                                           " process(es) holding indices passed no held owners where others did",
                                       axis)});
}

// The owner of every position this process holds, by the path the combined
// summary picks (the same on every process): held owners confirmed in a
// rendezvous; owned ranges in closed form past the owned prefix; otherwise a
// rendezvous over stretches of [0, size), or by hash for other indices. `rule` is null
// for the default (lowest holder). Collective.
std::unique_ptr<ScatteredOwners> settle_owners(const Dim& u, const ScatteredSummary& summary,
                                               const std::vector<global_index_t>& owned_ranges,
                                               const std::vector<int>& held_owners, const SharedIndexOwner& rule,
                                               int me, MPI_Comm comm) {
  const SharedIndexOwner* told = summary.default_rule ? nullptr : &rule;
  if (summary.held_owners_given)  // indices in [0, size) settle in plain arrays, the others by a hash
    return summary.in_range ? from_prefix(holders_by_stretch(u.indices, u.size, nullptr, comm, &held_owners), me)
                            : owned_prefix_and_rest(0, holders_by_held_owners(u.indices, held_owners, comm), me);
  if (!owned_ranges.empty()) {  // the owned range comes first; only what follows needs its owner named
    const auto prefix = static_cast<local_index_t>(owned_ranges[me + 1] - owned_ranges[me]);
    return owned_prefix_and_rest(prefix, owners_from_ranges(u.indices.data() + prefix, u.indices.size() - prefix, owned_ranges),
                                 me);
  }
  return summary.in_range ? from_prefix(holders_by_stretch(u.indices, u.size, told, comm), me)
                          : owned_prefix_and_rest(0, holders_by_rule(u.indices, rule, comm), me);
}

// The count of distinct indices is not the axis's size, or a one_to_one
// axis holds an index twice: every process names what it sees, and all
// throw the same error. Collective (every process is here: the verdict came
// from a reduction).
[[noreturn]] void refuse_miscounted(const Dim& u, const ScatteredOwners& owners, long long distinct, int axis, int me,
                                    MPI_Comm comm) {
  PackedRank report;
  if (u.one_to_one) {
    std::size_t named = 0;
    for (std::size_t i = 0; i < u.indices.size() && named < max_listed_problems; ++i)
      if (const int owner = owners.owner_of(static_cast<global_index_t>(i), me); owner != me)
        report.problems.push_back(Problem::of(me, "indices", std::to_string(u.indices[i]),
                                              "with one_to_one true each index is held by exactly one process",
                                              "index " + std::to_string(u.indices[i]) + " is also held by rank " +
                                                  std::to_string(owner) + " (" + std::to_string(++named) + ")",
                                              axis));
  }
  if (distinct != u.size && me == 0)
    report.problems.push_back(
        Problem::of(-1, "size", std::to_string(u.size), "size equals the number of distinct indices held over the axis",
                    "the processes hold " + std::to_string(distinct) + " distinct indices", axis));
  throw ValidationError(gathered_problems(report, comm));
}

}  // namespace

// Owners along the scattered 'u' axis. A one_to_one flag the combined
// fingerprint confirms needs nothing more: every index is held once, by its
// owner. Otherwise a rendezvous finds every index's owner; it also tells
// whether the flag holds and how many distinct indices there are. Every
// process takes the same branch: each decides from the summaries combined in the vote.
void LayoutBuilder::resolve_scattered(DistributedLayout& self, const ScatteredSummary& summary,
                                      const DistributedLayoutOptions& options) {
  const std::vector<global_index_t>& owned_ranges = ranges_of(options.ownership);
  const Dim& u = self.dim_data_[self.scattered_axis_];
  const int me = self.rank_;
  const bool by_ranges = !owned_ranges.empty();  // on every process alike: the ranges were compared
  refuse_disagreeing_ownership(summary, self.scattered_axis_);
  if (by_ranges) {  // the owner of a shared index is the one whose range holds it
    self.shared_owner_ = [boundaries = owned_ranges](global_index_t g, const std::vector<int>&) { return range_holding(boundaries, g); };
  }
  if (summary.held_owners_given) mark_held_owners(self);
  self.lowest_index_ = self.dim_data_.size() == 1 ? summary.lowest_negative : 0;
  // Under owned ranges (checked on every process) each range's indices are
  // held first by its process: the counts summing to size leave no room for
  // a copy anywhere.
  // (Held owners are checked in the rendezvous even then: a proof of the
  // indices says nothing of the owners named.)
  const bool proven = u.one_to_one && summary.held == u.size && !summary.held_owners_given &&
                      (by_ranges || (summary.in_range && summary.fingerprint_matches));
  if (u.one_to_one && !proven) {
    // The proof failed: the per-index rules check_rank deferred decide first,
    // on every process alike (one reduction; the problems are gathered only
    // when there are some).
    agree(check_index_rules(self.dim_data_, self.scattered_axis_, me), self.comm_);
  }
  if (proven) {
    self.scattered_ = owned_prefix_and_rest(static_cast<local_index_t>(u.indices.size()), {}, me);
    self.every_element_owned_ = true;
    return;
  }
  self.scattered_ =
      settle_owners(u, summary, owned_ranges, held_owners_of(options.ownership), self.shared_owner_, me, self.comm_);
  // Distinct indices = owned ones summed (under owned ranges, checked: each
  // index of [0, size) once, by its range's process); with one_to_one
  // nothing may be held twice.
  const long long distinct = by_ranges ? u.size : sum_all(self.scattered_->count_owned(me), self.comm_);
  self.every_element_owned_ = summary.held == distinct;
  if ((!u.one_to_one || self.every_element_owned_) && distinct == u.size) return;
  refuse_miscounted(u, *self.scattered_, distinct, self.scattered_axis_, me, self.comm_);
}

}  // namespace dapetra::mpi::detail
