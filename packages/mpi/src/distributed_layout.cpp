// A DistributedLayout's creation and public face: what each process tells
// (describe_local), the gather of every process's records or of its grid
// lines, one verdict for all, then the owners (scattered_owners.cpp for a
// lone 'u' axis) and the owned counts.
#include "dapetra/mpi/distributed_layout.hpp"

#include "dapetra/mpi/adapter_access.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "collectives.hpp"
#include "dapetra/mpi/agree.hpp"
#include "comm.hpp"
#include "dapetra/dim_math.hpp"
#include "dapetra/validate.hpp"
#include "dapetra/wire/layout_words.hpp"
#include "dapetra/wire/mix.hpp"
#include "dapetra/wire/pack.hpp"
#include "layout_access.hpp"
#include "layout_builder.hpp"
#include "ownership_access.hpp"

namespace dapetra::mpi {
namespace detail {
namespace {

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

// 1. What this process can tell on its own, and what it shares.
// (`dim_data` is the layout's own copy: its 'u' indices are lent out, not
// copied, while the record is packed.)
PackedRank describe_local(const std::string& version, const BufferView& buffer, std::vector<Dim>& dim_data, int rank,
                          int nprocs, const DistributedLayoutOptions& options) {
  PackedRank mine;
  mine.problems = check_version(version);
  for (Problem& p : mine.problems) p.rank = rank;
  const auto buffer_problems = check_buffer(buffer, rank);
  // A one_to_one flag on a scattered 'u' axis is confirmed later from a
  // fingerprint of everyone's indices, which implies the per-index rules
  // (each index once here, in range); they run only if that proof fails.
  // Owned ranges imply them too, checked from the ghosts alone.
  const int scattered = scattered_axis_of(dim_data);
  const Ownership& ownership = options.ownership;
  const bool by_ranges = detail::OwnershipAccess::ranges(ownership) != nullptr;
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
    mine.extra[extra_default_rule] = !detail::OwnershipAccess::rule(ownership) || detail::OwnershipAccess::is_lowest_holder(ownership);
    mine.extra[extra_in_range] = summary.in_range;
    mine.extra[extra_lowest_negative] = summary.lowest_negative;
    mine.extra[extra_held] = static_cast<std::int64_t>(dim_data[scattered].indices.size());
    mine.extra[extra_fingerprint_1] = static_cast<std::int64_t>(summary.fingerprint.sum[0]);
    mine.extra[extra_fingerprint_2] = static_cast<std::int64_t>(summary.fingerprint.sum[1]);
  }
  if (by_ranges) {
    const auto& ranges = *detail::OwnershipAccess::ranges(ownership);
    const auto problems = check_owned_ranges(ranges, dim_data, scattered, rank, nprocs);
    mine.problems.insert(mine.problems.end(), problems.begin(), problems.end());
    mine.extra[extra_ranges] = fold_all(ranges.data(), ranges.size(), 1);
  }
  if (detail::OwnershipAccess::held_owners(ownership)) {
    const auto problems = check_held_owners(*detail::OwnershipAccess::held_owners(ownership), dim_data, scattered, rank, nprocs);
    mine.problems.insert(mine.problems.end(), problems.begin(), problems.end());
    mine.extra[extra_held_owners] = 1;
  }
  return mine;
}

// 2. The creation's vote (one reduction): the path every process takes
// alike, and the summaries of a lone 'u' axis's indices, combined.
enum class Path { closed_form, grid_lines, scattered, cuts, gather };
struct Vote {
  Path path = Path::gather;
  ScatteredSummary summary;  // (a lone 'u' axis only)
};

// What every process of a sound layout whose only distributed axis is 'u'
// says alike: its records without the 'u' indices and with that axis's grid
// rank left out, the element type and the memory order.
std::int64_t scattered_fingerprint(const PackedRank& mine, int scattered) {
  PackedRank shape;
  shape.entry.dim_data = mine.entry.dim_data;  // (the scattered axis's indices were left out)
  shape.entry.dim_data[static_cast<std::size_t>(scattered)].proc_grid_rank = 0;
  shape.memory_order = mine.memory_order;
  const auto words = pack_rank(shape);
  return fold_all(mine.extra.data(), extra_scattered_axis + 1, fold_all(words.data(), words.size()));
}

// Regular layouts are built in closed form; many processes with two or more
// distributed axes check grid lines; a lone 'u' axis keeps its indices where
// they are; 'b' axes split anywhere with one halo width gather one word per
// process; anything else, and any layout some process finds fault with (or
// one whose processes differ in memory order), gathers every record.
Vote vote_on_path(const PackedRank& mine, const std::vector<Dim>& dims, int rank, int nprocs, MPI_Comm comm,
                  const LayoutTuning& tuning) {
  const bool sound = sound_here(mine, dims, rank, nprocs);
  const auto scattered = static_cast<int>(mine.extra[extra_scattered_axis]);
  const auto regular = nprocs > 1 && sound ? regular_fingerprint(mine, dims) : std::nullopt;
  const auto lines = nprocs >= tuning.grid_lines_from ? grid_lines_fingerprint(mine, dims, rank, nprocs) : std::nullopt;
  const bool spread = sound && scattered >= 0;
  const auto cut = nprocs > 1 && sound ? cut_fingerprint(mine, dims) : std::nullopt;
  Ballot ballot;
  const auto put_if = [&](bool has, std::int64_t fingerprint) {
    return std::pair{ballot.lowest(has), ballot.same(has ? fingerprint : 0)};
  };
  const auto put = [&](const std::optional<std::int64_t>& f) { return put_if(f.has_value(), f.value_or(0)); };
  const auto at_regular = put(regular), at_lines = put(lines), at_cuts = put(cut);
  const auto at_spread = put_if(spread, spread ? scattered_fingerprint(mine, scattered) : 0);
  const SummaryPlaces at_summary = put_summary(ballot, mine, rank);
  ballot.cast(comm);
  const auto agreed = [&](std::pair<std::size_t, std::size_t> at) {
    return ballot.lowest_of(at.first) == 1 && ballot.same_of(at.second);
  };
  Vote vote;
  vote.path = agreed(at_regular) ? Path::closed_form
              : agreed(at_lines) ? Path::grid_lines
              : agreed(at_spread) ? Path::scattered
              : agreed(at_cuts)   ? Path::cuts
                                  : Path::gather;
  if (scattered >= 0) vote.summary = read_summary(ballot, at_summary, dims[static_cast<std::size_t>(scattered)]);
  return vote;
}

// 3. When records are gathered, every process judges the same words, so all
// reach the same verdict.
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
      j.problems.push_back(Problem::of(r, "format", "", "every process's buffer has the same element type",
                                       "rank " + std::to_string(r) + " and rank 0 differ in format or itemsize"));
  const bool all_scattered = std::all_of(j.all.begin(), j.all.end(), [&](const PackedRank& p) {
    return p.extra[extra_scattered_axis] == scattered;
  });
  CheckOptions checks;
  checks.unstructured_indices = scattered < 0;
  if (all_scattered) {
    auto collective = check_layout(j.layout, checks);
    j.problems.insert(j.problems.end(), collective.begin(), collective.end());
  } else if (j.problems.empty()) {  // can only come with records that disagree; say so plainly
    j.problems.push_back(Problem::of(-1, "proc_grid_size", "", "every process describes the same process grid",
                                     "the processes disagree on which axes are distributed"));
  }
  return j;
}

}  // namespace

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

std::shared_ptr<const DistributedLayout> LayoutBuilder::create(const std::string& version, const BufferView& buffer,
                                                               const std::vector<Dim>& dim_data, MPI_Comm comm,
                                                               const DistributedLayoutOptions& options,
                                                               const std::vector<Problem>* unread) {
  std::shared_ptr<DistributedLayout> self(new DistributedLayout());
  // Everything from here on, including a refusal's messages, happens on
  // Dapetra's own duplicate of the caller's communicator.
  self->inner_ = inner_comm(comm);
  self->comm_ = self->inner_->comm;
  self->number_ = self->inner_->layouts_created++;
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
  // Every process takes the path the vote gives: regular layouts and a lone
  // 'u' axis gather nothing; grid lines gather along them; other splits of
  // 'b' axes one word per process; the rest, and any layout that fails its
  // checks, gathers every record.
  const Vote vote = vote_on_path(mine, dim_data, rank, nprocs, self->comm_, options.tuning);
  if (vote.path == Path::closed_form) self->global_ = closed_form_layout(dim_data, rank, self->shared_owner_);
  if (vote.path == Path::grid_lines) self->global_ = gather_grid_lines(*self->inner_, dim_data, rank, self->shared_owner_);
  if (vote.path == Path::cuts) self->global_ = cut_layout(dim_data, rank, self->comm_, self->shared_owner_);
  if (self->global_ || vote.path == Path::scattered)
    self->memory_orders_ = {mine.memory_order};  // the same on every process
  if (vote.path == Path::scattered)
    resolve_scattered(*self, vote.summary, options);
  else if (!self->global_)  // (grid lines or cuts that failed their checks too)
    gather_everything(*self, mine, vote.summary, options);
  // (On one process the held owners were checked alone: each names this rank.)
  if (nprocs == 1 && detail::OwnershipAccess::held_owners(options.ownership)) mark_held_owners(*self);
  // Only now: records that failed the checks may describe no grid at all.
  self->grid_ = ProcessGrid::of(dim_data);
  self->coords_ = grid_coords(dim_data);
  count_owned(*self);
  return self;
}

// Every process's records on every process (collective, O(P) per
// process): for irregular layouts the other paths do not cover, or to name
// the problems exactly when a process's records fail.
void LayoutBuilder::gather_everything(DistributedLayout& self, const PackedRank& mine, const ScatteredSummary& summary,
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
    resolve_scattered(self, summary, options);
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
    if (axis.dist_type() == DistType::cyclic) continue;  // a 'c' grid rank owns all it holds
    for (int c = 0; c < axis.grid_size() && all_owned; ++c) all_owned = axis.num_owned(c) == axis.extent(c);
  }
  self.every_element_owned_ = all_owned;
  if (ndim == 1 && self.dim_data_[0].dist_type == DistType::unstructured)
    for (int c = 0; c < g.axis(0).grid_size(); ++c) {
      const Dim d = g.axis(0).dim(c);
      for (global_index_t i : d.indices) self.lowest_index_ = std::min(self.lowest_index_, i);
    }
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
int scattered_axis(const DistributedLayout& layout) { return detail::LayoutAccess::scattered_axis(layout); }
bool has_held_owners(const DistributedLayout& layout) { return detail::LayoutAccess::has_held_owners(layout); }

std::vector<int> owners_of_held(const DistributedLayout& layout) {
  const int a = detail::LayoutAccess::scattered_axis(layout);
  if (a < 0 || detail::LayoutAccess::gathered(layout)) return {};
  const auto& owners = detail::LayoutAccess::scattered(layout);
  std::vector<int> out(static_cast<std::size_t>(layout.local_shape()[static_cast<std::size_t>(a)]));
  for (std::size_t p = 0; p < out.size(); ++p) out[p] = owners.owner_of(static_cast<global_index_t>(p), layout.rank());
  return out;
}

void agree_on_layouts(const std::vector<const DistributedLayout*>& layouts, const char* call) {
  const MPI_Comm comm = layouts.front()->comm();
  std::int64_t mine = 0x4c41594f;  // "LAYO"
  for (const DistributedLayout* l : layouts) mine = fold(mine, detail::LayoutAccess::number(*l));
  detail::Ballot ballot;
  const std::size_t at = ballot.same(mine);
  ballot.cast(comm);
  if (ballot.same_of(at)) return;
  // Only now, to name them: rank 0's, and each process that differs from it.
  std::int64_t first = mine;
  MPI_Bcast(&first, 1, MPI_INT64_T, 0, comm);
  const int rank = detail::rank_of(comm);
  std::vector<Problem> problems;
  if (mine != first || rank == 0) {
    std::string numbers;
    for (const DistributedLayout* l : layouts)
      numbers += (numbers.empty() ? "" : ", ") + std::to_string(detail::LayoutAccess::number(*l));
    problems.push_back(
        Problem::of(rank, "layout", numbers, "every process passes the same layouts to a collective call",
                    std::string(call) + ": rank " + std::to_string(rank) + " passed the layouts of creations " +
                        numbers + " on this communicator" + (mine != first ? ", unlike rank 0" : "")));
  }
  agree(problems, comm);
}

void refuse_layout(std::vector<Problem> problems, MPI_Comm comm, const DistributedLayoutOptions& options) {
  for (Problem& p : problems) p.rank = detail::rank_of(comm);
  if (problems.empty())
    problems.push_back(
        Problem::of(detail::rank_of(comm), "", "", "a protocol object this library can read", "unreadable input"));
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
