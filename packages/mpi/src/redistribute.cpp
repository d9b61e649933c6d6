#include "dapetra/mpi/redistribute.hpp"

#include <mpi.h>

#include <algorithm>
#include <map>
#include <array>
#include <complex>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "collectives.hpp"
#include "dapetra/mpi/adapter_access.hpp"
#include "dapetra/mpi/agree.hpp"
#include "dapetra/wire/pack.hpp"
#include "exchange.hpp"
#include "layout_access.hpp"
#include "plan_parts.hpp"
#include "runs.hpp"

namespace dapetra::mpi {
namespace {

using Run = detail::StridedRun;

// The bytes a buffer's elements span, [first, last).
std::pair<const char*, const char*> byte_span(const BufferView& b) {
  const char* first = static_cast<const char*>(b.data);
  const char* last = first + b.itemsize;
  for (std::size_t a = 0; a < b.shape.size() && a < b.strides.size(); ++a) {
    if (b.shape[a] == 0) return {first, first};
    const std::ptrdiff_t reach = static_cast<std::ptrdiff_t>((b.shape[a] - 1) * b.strides[a]);
    (reach < 0 ? first : last) += reach;
  }
  return {first, last};
}

bool overlap(std::pair<const char*, const char*> a, std::pair<const char*, const char*> b) {
  return a.first < a.second && b.first < b.second && a.first < b.second && b.first < a.second;
}

// Copies element k of `from` runs to element k of `to` runs, for all k.
template <class Scalar>
void zip_copy(const std::vector<Run>& from, const char* src, const std::vector<Run>& to, char* dst) {
  std::size_t i = 0, j = 0, di = 0, dj = 0;  // run indices and positions inside them
  while (i < from.size() && j < to.size()) {
    const Run& a = from[i];
    const Run& b = to[j];
    const std::size_t n = std::min(a.count - di, b.count - dj);
    detail::copy_elements<Scalar>(src + a.offset + static_cast<std::ptrdiff_t>(di) * a.step, a.step,
                                  dst + b.offset + static_cast<std::ptrdiff_t>(dj) * b.step, b.step, n);
    di += n;
    dj += n;
    if (di == a.count) ++i, di = 0;
    if (dj == b.count) ++j, dj = 0;
  }
}

// Consecutive owned positions along one axis, rising in global index, all
// owned in the other layout by one grid coordinate (-1: not held there).
struct Segment {
  global_index_t position, length;
  int other_coord;
};

// Number of global indices below `bound` that grid rank r of a block-cyclic
// axis (block b, P ranks) holds: its positions below that index.
global_index_t cyclic_positions_below(global_index_t bound, global_index_t b, int P, int r) {
  const global_index_t cycle = b * P;
  return (bound / cycle) * b + std::clamp<global_index_t>(bound % cycle - r * b, 0, b);
}

std::vector<Segment> axis_segments(const DistributedLayout& layout, int a, const AxisPartition& other) {
  const Dim& d = layout.dim_data()[a];
  const Dim& od = other.dim(0);
  std::vector<Segment> out;
  const auto add = [&](global_index_t p, global_index_t len, int coord) {
    if (len <= 0) return;
    if (!out.empty() && out.back().other_coord == coord && out.back().position + out.back().length == p)
      out.back().length += len;
    else
      out.push_back({p, len, coord});
  };
  // A cyclic axis against blocks: each block of the other layout is one range
  // of this process's positions (closed form, O(P) work).
  if (d.dist_type == DistType::cyclic && od.dist_type == DistType::block) {
    for (int k = 0; k < other.grid_size(); ++k) {
      const global_index_t lo = cyclic_positions_below(other.owned_begin(k), d.block_size, d.proc_grid_size, d.proc_grid_rank);
      const global_index_t hi = cyclic_positions_below(other.owned_begin(k + 1), d.block_size, d.proc_grid_size, d.proc_grid_rank);
      add(lo, hi - lo, k);
    }
    return out;
  }
  // Otherwise: this process's owned positions as runs whose global indices
  // rise with them, split where the other layout's owner changes.
  std::vector<std::array<global_index_t, 3>> runs;  // (global, position, length)
  switch (d.dist_type) {
    case DistType::block: {
      const LocalRange r = owned_local_range(d);
      if (r.size() > 0) runs.push_back({d.start + r.begin, r.begin, r.size()});
      break;
    }
    case DistType::cyclic:
      for (global_index_t p = 0; p < local_extent(d); p += d.block_size)
        runs.push_back({global_index(d, p), p, std::min(d.block_size, local_extent(d) - p)});
      break;
    case DistType::unstructured: {
      std::vector<std::pair<global_index_t, global_index_t>> owned;
      for (global_index_t p = 0; p < local_extent(d); ++p)
        if (layout.is_owned(a, p)) owned.emplace_back(d.indices[p], p);
      std::sort(owned.begin(), owned.end());
      for (const auto& [g, p] : owned) {
        if (!runs.empty() && runs.back()[0] + runs.back()[2] == g && runs.back()[1] + runs.back()[2] == p)
          ++runs.back()[2];
        else
          runs.push_back({g, p, 1});
      }
      break;
    }
  }
  for (const auto& [g0, p0, len] : runs)
    for (global_index_t g = g0; g < g0 + len;) {
      const int coord = other.owner(g);
      global_index_t end = g + 1;
      if (coord >= 0 && od.dist_type == DistType::block) end = other.owned_begin(coord + 1);
      if (coord >= 0 && od.dist_type == DistType::cyclic) end = (g / od.block_size + 1) * od.block_size;
      end = std::min(end, g0 + len);
      add(p0 + (g - g0), end - g, coord);
      g = end;
    }
  return out;
}

// This process's owned elements of `layout`, in blocks:
// visit(offset, count, step, rank in `other`). For every destination the
// blocks come in increasing global index with the axes taken in `order`
// (slowest first), the order both sides of a transfer agree on; it follows
// the source's memory order, so column-major buffers are walked down their
// columns. The fastest axis hands over whole segments; against a pure cyclic
// axis it hands over one strided block per destination.
template <class Visit>
void owned_in_global_order(const DistributedLayout& layout, const GlobalLayout& other, const std::vector<int>& order,
                           Visit&& visit) {
  const int nd = static_cast<int>(layout.dim_data().size());
  if (nd == 0) return visit(std::ptrdiff_t{0}, std::size_t{1}, std::ptrdiff_t{0}, 0);
  const int last = order[nd - 1];
  const Dim& fast = layout.dim_data()[last];
  const AxisPartition& other_fast = other.axis(last);
  // Pure cyclic on the other side, and rising runs on this side (a block):
  // destination q takes every P-th element.
  const bool strided_fast = other_fast.dim(0).dist_type == DistType::cyclic && other_fast.dim(0).block_size == 1 &&
                            other_fast.grid_size() > 1 && fast.dist_type == DistType::block;
  std::vector<std::vector<Segment>> seg(nd);  // indexed by axis
  for (int a = 0; a < nd; ++a) {
    if (a == last && strided_fast) {
      const LocalRange r = owned_local_range(fast);
      if (r.size() > 0) seg[a].push_back({r.begin, r.size(), 0});
    } else {
      seg[a] = axis_segments(layout, a, other.axis(a));
    }
    if (seg[a].empty()) return;
  }
  std::vector<int> grid_stride(nd, 1);
  for (int a = nd - 2; a >= 0; --a) grid_stride[a] = grid_stride[a + 1] * other.grid().shape()[a + 1];
  const std::vector<global_index_t>& strides = layout.local_strides();
  const auto fast_stride = static_cast<std::ptrdiff_t>(strides[last]);
  std::vector<std::size_t> k(nd, 0);  // indexed by axis
  std::vector<global_index_t> i(nd, 0);
  while (true) {
    std::ptrdiff_t base = 0;
    int rank = 0;
    bool held = true;
    for (int o = 0; o < nd - 1; ++o) {
      const int a = order[o];
      const Segment& s = seg[a][k[a]];
      base += (s.position + i[a]) * strides[a];
      rank += s.other_coord * grid_stride[a];
      held = held && s.other_coord >= 0;
    }
    if (strided_fast) {
      const Segment& s = seg[last][0];
      const global_index_t g0 = fast.start + s.position;
      const int P = other_fast.grid_size();
      // The first min(P, length) indices from g0 on each start one
      // destination's stride (not a loop over every process).
      for (global_index_t first = g0; first < g0 + std::min<global_index_t>(P, s.length); ++first) {
        const auto q = static_cast<int>(first % P);
        const auto count = static_cast<std::size_t>((g0 + s.length - 1 - first) / P + 1);
        visit(base + (s.position + first - g0) * fast_stride, count, fast_stride * P,
              held ? rank + q * grid_stride[last] : -1);
      }
    } else {
      for (const Segment& s : seg[last])
        visit(base + s.position * fast_stride, static_cast<std::size_t>(s.length), fast_stride,
              held && s.other_coord >= 0 ? rank + s.other_coord * grid_stride[last] : -1);
    }
    int o = nd - 2;
    while (o >= 0) {
      const int a = order[o];
      if (++i[a] < seg[a][k[a]].length) break;
      i[a] = 0;
      if (++k[a] < seg[a].size()) break;
      k[a] = 0;
      --o;
    }
    if (o < 0) return;
  }
}

// Every process's records, 'u' indices included: the layout's own, or
// gathered here once when the layout kept its 'u' indices on their processes
// (and so did the other layout of the plan: see records_near).
// Collective over the layout's communicator.
struct Records {
  std::unique_ptr<GlobalLayout> gathered;
  const GlobalLayout* global = nullptr;
};

// The owners of a layout whose holders named them (held owners), as a
// rule over every process's records: each process's indices it holds but
// does not own, with their owners, gathered (an index held twice is one of
// them somewhere). Collective.
SharedIndexOwner held_owners_rule(const DistributedLayout& layout) {
  const int a = detail::LayoutAccess::scattered_axis(layout), me = layout.rank();
  const auto& owners = detail::LayoutAccess::scattered(layout);
  const auto& indices = layout.dim_data()[a].indices;
  std::vector<std::int64_t> ghosts;  // (index, owner) pairs
  for (std::size_t p = 0; p < indices.size(); ++p)
    if (const int owner = owners.owner_of(static_cast<global_index_t>(p), me); owner != me)
      ghosts.insert(ghosts.end(), {indices[p], owner});
  const detail::Gathered words = detail::allgather_words(ghosts, layout.comm());
  auto owner_of = std::make_shared<std::unordered_map<global_index_t, int>>();
  for (int q = 0; q < words.count(); ++q)
    for (std::size_t k = 0; k < words.size(q); k += 2) (*owner_of)[words.of(q)[k]] = static_cast<int>(words.of(q)[k + 1]);
  return [owner_of](global_index_t g, const std::vector<int>& holders) {
    const auto it = owner_of->find(g);
    return it == owner_of->end() ? holders.front() : it->second;
  };
}

Records every_record(const DistributedLayout& layout) {
  Records r;
  if (detail::LayoutAccess::gathered(layout)) {
    r.global = &detail::LayoutAccess::global(layout);
    return r;
  }
  PackedRank mine;
  mine.entry.dim_data = layout.dim_data();
  const detail::Gathered words = detail::allgather_words(pack_rank(mine), layout.comm());
  LayoutRecords all;
  for (int p = 0; p < words.count(); ++p) all.ranks.push_back(unpack_rank(words.of(p), words.size(p)).entry);
  r.gathered = std::make_unique<GlobalLayout>(assume_valid, std::move(all),
                                              detail::LayoutAccess::has_held_owners(layout) ? held_owners_rule(layout) : detail::LayoutAccess::shared_owner(layout));
  r.global = r.gathered.get();
  return r;
}

// The records of a layout whose 'u' axis stayed on its processes, as far as
// this process needs them to walk its owned elements of `other`: every
// process's owned indices that this process owns along that axis in `other`
// (the only questions its walk asks), sent by one sparse exchange to the
// processes of `other` that own them. What each process handles is in
// proportion to its part, where gathering every index everywhere and sorting
// them is in proportion to the whole array (13.7 s of a 10^7-node mesh's
// distribution on 4 processes went there). Collective over the layouts'
// communicator; `other` must have its records (LayoutAccess::gathered).
Records records_near(const DistributedLayout& scattered, const DistributedLayout& other) {
  const int a = detail::LayoutAccess::scattered_axis(scattered);
  const Dim& mine = scattered.dim_data()[a];
  const AxisPartition& along = detail::LayoutAccess::global(other).axis(a);
  std::vector<std::vector<int>> ranks_at(static_cast<std::size_t>(along.grid_size()));  // other's ranks by coordinate along a
  for (int r = 0; r < other.nprocs(); ++r) ranks_at[static_cast<std::size_t>(other.grid().coord_of(r, a))].push_back(r);
  detail::Outbox per_dest;
  for (global_index_t p = 0; p < static_cast<global_index_t>(mine.indices.size()); ++p) {
    if (!scattered.is_owned(a, p)) continue;
    const global_index_t g = mine.indices[static_cast<std::size_t>(p)];
    const int coord = along.owner(g);
    if (coord < 0) continue;  // held by nobody in `other`: the other side's walk finds it missing
    for (int r : ranks_at[static_cast<std::size_t>(coord)]) per_dest[r].push_back(g);
  }
  const detail::Inbox got = detail::exchange_words(per_dest, scattered.comm());
  LayoutRecords near;
  for (int q = 0; q < scattered.nprocs(); ++q) {
    RankEntry entry;
    entry.dim_data = scattered.dim_data();  // the other axes are not distributed: alike on every process
    const std::size_t k = got.index_of(q);
    const std::int64_t* first = k < got.count() ? got.of(k) : nullptr;
    entry.dim_data[a] = Dim::unstructured(mine.size, mine.proc_grid_size, scattered.grid().coord_of(q, a),
                                          std::vector<global_index_t>(first, first + (k < got.count() ? got.size(k) : 0)), true);
    near.ranks.push_back(std::move(entry));
  }
  Records r;
  r.gathered = std::make_unique<GlobalLayout>(assume_valid, std::move(near), detail::LayoutAccess::shared_owner(scattered));
  r.global = r.gathered.get();
  return r;
}

// The records `layout`'s partner in a plan walks against: the layout's own,
// the part of them near this process, or, when neither layout has its
// records, every process's gathered.
Records records_for(const DistributedLayout& layout, const DistributedLayout& partner) {
  if (!detail::LayoutAccess::gathered(layout) && detail::LayoutAccess::gathered(partner)) return records_near(layout, partner);
  return every_record(layout);
}

void require_same_array(const DistributedLayout& source, const DistributedLayout& target) {
  int same_group = MPI_UNEQUAL;
  MPI_Comm_compare(source.comm(), target.comm(), &same_group);
  if (same_group != MPI_CONGRUENT && same_group != MPI_IDENT)
    throw ValidationError(
        {Problem::of(-1, "comm", "", "source and target layouts span the same processes in the same order",
                     "the layouts were built on different communicators")});
  if (source.global_shape() != target.global_shape())
    throw ValidationError({Problem::of(-1, "size", "", "source and target describe the same global array",
                                       "the layouts' global shapes differ")});
}

}  // namespace

struct RedistributionPlanBuilder {
  static std::shared_ptr<const RedistributionPlan> create(std::shared_ptr<const DistributedLayout> source,
                                                          std::shared_ptr<const DistributedLayout> target,
                                                          const RedistributionOptions& options);
  static void keep_peers(RedistributionPlan& self, std::map<int, detail::PlanPeer> by_rank);
};

std::shared_ptr<const RedistributionPlan> RedistributionPlanBuilder::create(
    std::shared_ptr<const DistributedLayout> source, std::shared_ptr<const DistributedLayout> target,
    const RedistributionOptions& options) {
  // Every process judges the same facts (group, global shapes), so all agree.
  require_same_array(*source, *target);
  adapter::agree_on_layouts({source.get(), target.get()}, "RedistributionPlan::create");
  std::shared_ptr<RedistributionPlan> self(new RedistributionPlan());
  self->source_ = source;
  self->target_ = target;
  self->parts_->tag = detail::LayoutAccess::next_tag(*source);
  const Records source_records = records_for(*source, *target), target_records = records_for(*target, *source);

  std::map<int, detail::PlanPeer> by_rank;  // only the processes this one exchanges with
  bool missing = false;  // an element the other layout does not hold (1-D 'u' index sets differ)
  const auto src_item = static_cast<std::ptrdiff_t>(source->itemsize());
  const auto tgt_item = static_cast<std::ptrdiff_t>(target->itemsize());
  // Both sides walk the axes in the source's memory order (rank 0's).
  const std::vector<int>& order = source->memory_order_of(0);
  owned_in_global_order(*source, *target_records.global, order,
                        [&](std::ptrdiff_t offset, std::size_t n, std::ptrdiff_t step, int to) {
                          if (to < 0) return void(missing = true);
                          detail::append_elements(by_rank[to].send, offset, n, step, src_item);
                          by_rank[to].send_count += n;
                        });
  owned_in_global_order(*target, *source_records.global, order,
                        [&](std::ptrdiff_t offset, std::size_t n, std::ptrdiff_t step, int from) {
                          if (from < 0) return void(missing = true);
                          detail::append_elements(by_rank[from].recv, offset, n, step, tgt_item);
                          by_rank[from].recv_count += n;
                        });
  // Only 1-D 'u' layouts choose their own index sets (every other layout
  // covers [0, size) on every axis, checked at creation), so only they can
  // miss an element, and only they need a reduction: every process knows
  // both layouts' dist types alike. The plan of any other pair sends no message.
  const auto chooses_indices = [](const DistributedLayout& l) {
    return l.dim_data().size() == 1 && l.dim_data()[0].dist_type == DistType::unstructured;
  };
  if (chooses_indices(*source) || chooses_indices(*target)) {
    std::vector<Problem> mine;
    if (missing)
      mine.push_back(Problem::of(
          source->rank(), "indices", "", "source and target hold the same global indices",
          "an index this process owns in one layout is missing from the other (1-D 'u' index sets differ)", 0));
    agree(mine, source->comm());
  } else if (missing) {
    throw std::logic_error("dapetra: redistribution found an element no process owns in a validated layout");
  }
  keep_peers(*self, std::move(by_rank));
  if (options.fill_target_padding) self->parts_->target_halo = HaloPlan::create(target);
  return self;
}

void RedistributionPlanBuilder::keep_peers(RedistributionPlan& self, std::map<int, detail::PlanPeer> by_rank) {
  const int me = self.source_->rank();
  std::size_t largest = 0;  // elements in one message
  self.parts_->self.rank = me;  // (nothing local unless this process is among by_rank)
  for (auto& [p, peer] : by_rank) {
    peer.rank = p;
    if (p == me) {
      self.parts_->local_count = peer.send_count;
      self.parts_->self = std::move(peer);
    } else if (peer.send_count > 0 || peer.recv_count > 0) {
      largest = std::max({largest, peer.send_count, peer.recv_count});
      self.parts_->peers.push_back(std::move(peer));
    }
  }
  self.parts_->messages_fit = detail::fits_one_message(largest, self.source_->itemsize());
}

std::shared_ptr<const RedistributionPlan> RedistributionPlan::create(std::shared_ptr<const DistributedLayout> source,
                                                                     std::shared_ptr<const DistributedLayout> target,
                                                                     const RedistributionOptions& options) {
  return RedistributionPlanBuilder::create(std::move(source), std::move(target), options);
}

RedistributionPlan::RedistributionPlan() : parts_(std::make_unique<detail::RedistributionParts>()) {}
RedistributionPlan::~RedistributionPlan() = default;
std::size_t RedistributionPlan::num_local() const { return parts_->local_count; }

std::size_t RedistributionPlan::num_sent() const {
  std::size_t n = 0;
  for (const detail::PlanPeer& p : parts_->peers) n += p.send_count;
  return n;
}

std::size_t RedistributionPlan::num_received() const {
  std::size_t n = 0;
  for (const detail::PlanPeer& p : parts_->peers) n += p.recv_count;
  return n;
}

std::size_t RedistributionPlan::num_runs() const {
  std::size_t n = parts_->self.send.size() + parts_->self.recv.size();
  for (const detail::PlanPeer& p : parts_->peers) n += p.send.size() + p.recv.size();
  return n;
}

namespace {

// The operation a fault names: a move forward (apply) or back, blocking or one half of its split phase.
enum class Phase { whole, begin, end };
const char* operation_name(bool forward, Phase phase) {
  static constexpr const char* names[2][3] = {
      {"RedistributionPlan::apply_reverse", "RedistributionPlan::begin_apply_reverse",
       "RedistributionPlan::end_apply_reverse"},
      {"RedistributionPlan::apply", "RedistributionPlan::begin_apply", "RedistributionPlan::end_apply"}};
  return names[forward ? 1 : 0][static_cast<int>(phase)];
}

}  // namespace

namespace detail {

template <class Scalar>
FaultNote RedistributionParts::check(const DistributedLayout& source, const DistributedLayout& target, bool forward,
                                     const DistArray& from, const DistArray& to) const {
  const int rank = source.rank();
  if (const Fault f = check_array<Scalar>(forward ? source : target, from, false); f != Fault::none) return {f, rank};
  if (const Fault f = check_array<Scalar>(forward ? target : source, to, true); f != Fault::none) return {f, rank};
  if (!messages_fit) return {Fault::message_size, rank};
  return {};
}

template <class Scalar>
bool RedistributionParts::post(Round& round, bool forward, std::size_t item, MPI_Comm comm, const FaultNote& note,
                               const DistArray& from, const DistArray& to) const {
  // Buffers that overlap in memory: receives are staged, and what stays on
  // this process moves after the messages are done, so no message reads an
  // element this call has written already.
  const bool apart = note.ok() && !overlap(byte_span(from.buffer), byte_span(to.buffer));
  char* dst = static_cast<char*>(to.buffer.data);
  post_round<Scalar>(round, peers, forward, item, forward ? tag : tag + 1, comm, note,
                     static_cast<const char*>(from.buffer.data), apart ? dst : nullptr);
  if (note.ok() && apart) copy_local<Scalar>(forward, from, to);  // while the messages travel
  return apart;
}

template <class Scalar>
void RedistributionParts::finish(const Round& round, bool forward, bool apart, const DistArray& from,
                                 const DistArray& to) const {
  if (!apart) copy_local<Scalar>(forward, from, to);
  unpack_round<Scalar>(round, peers, forward, static_cast<char*>(to.buffer.data));
}

template <class Scalar>
void RedistributionParts::fill_padding(const DistributedLayout& target, bool forward, const DistArray& to,
                                       FaultNote note, const char* operation) const {
  if (forward && target_halo)
    note = target_halo->parts_->run_update<Scalar>(target, static_cast<char*>(to.buffer.data), note);
  if (!note.ok()) throw_fault(note, operation);
}

template <class Scalar>
void RedistributionParts::copy_local(bool forward, const DistArray& from, const DistArray& to) const {
  zip_copy<Scalar>(forward ? self.send : self.recv, static_cast<const char*>(from.buffer.data),
                   forward ? self.recv : self.send, static_cast<char*>(to.buffer.data));
}

}  // namespace detail

template <class Scalar>
void RedistributionPlan::move(const DistArray& from, const DistArray& to, bool forward) const {
  const detail::RedistributionParts& parts = *parts_;
  detail::FaultNote note = parts.check<Scalar>(*source_, *target_, forward, from, to);
  {
    detail::ScratchLease lease;
    const bool apart = parts.post<Scalar>(lease.round(), forward, source_->itemsize(), source_->comm(), note, from, to);
    note = lease.round().wait(note);
    if (note.ok()) parts.finish<Scalar>(lease.round(), forward, apart, from, to);
  }
  parts.fill_padding<Scalar>(*target_, forward, to, note, operation_name(forward, Phase::whole));
}

template <class Scalar>
void RedistributionPlan::begin_move(const DistArray& from, const DistArray& to, PlanExchange& exchange,
                                    bool forward) const {
  PlanExchange::State& x = exchange.state();
  x.begin(this, forward ? detail::SplitCall::apply : detail::SplitCall::apply_reverse, from.buffer.data,
          to.buffer.data, operation_name(forward, Phase::begin));
  x.note = parts_->check<Scalar>(*source_, *target_, forward, from, to);
  x.apart = parts_->post<Scalar>(x.round, forward, source_->itemsize(), source_->comm(), x.note, from, to);
}

template <class Scalar>
void RedistributionPlan::end_move(const DistArray& from, const DistArray& to, PlanExchange& exchange,
                                  bool forward) const {
  PlanExchange::State& x = exchange.state();
  const char* operation = operation_name(forward, Phase::end);
  detail::FaultNote note = x.end(this, forward ? detail::SplitCall::apply : detail::SplitCall::apply_reverse,
                                 from.buffer.data, to.buffer.data, source_->rank(), operation);
  if (note.ok()) note = parts_->check<Scalar>(*source_, *target_, forward, from, to);
  if (note.ok()) parts_->finish<Scalar>(x.round, forward, x.apart, from, to);
  parts_->fill_padding<Scalar>(*target_, forward, to, note, operation);
}

#define DAPETRA_INSTANTIATE_REDISTRIBUTION(S)                                                                  \
  template void RedistributionPlan::move<S>(const DistArray&, const DistArray&, bool) const;                     \
  template void RedistributionPlan::begin_move<S>(const DistArray&, const DistArray&, PlanExchange&, bool) const; \
  template void RedistributionPlan::end_move<S>(const DistArray&, const DistArray&, PlanExchange&, bool) const;

DAPETRA_FOR_EACH_PLAN_SCALAR(DAPETRA_INSTANTIATE_REDISTRIBUTION)

}  // namespace dapetra::mpi
