// Building a HaloPlan: which positions each process fills, from whom, and
// what it sends (from the gathered records with no message, or by asking the
// owners where a lone 'u' axis kept its indices). Applying it: halo_apply.cpp.
#include "dapetra/mpi/halo.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>

#include "collectives.hpp"
#include "dapetra/mpi/adapter_access.hpp"
#include "exchange.hpp"
#include "layout_access.hpp"
#include "plan_parts.hpp"
#include "runs.hpp"

namespace dapetra::mpi {
namespace {

// One row axis of this process's buffer: which positions the plan fills
// (communication padding, periodic edge padding, copies held for others)
// and where each position's value comes from along the axis.
struct AxisPlan {
  int axis = 0;
  global_index_t extent = 0;
  std::ptrdiff_t stride = 0;     // bytes
  LocalRange keep;               // positions kept as they are, when a range ...
  std::vector<char> keep_flags;  // ... or per position ('u' axes)
  global_index_t period = 0;     // periodic 'b': interior period M ...
  global_index_t first_edge = 0, last_edge = 0;  // ... and the axis's edge padding widths
  const Dim* dim = nullptr;
  // Tables by position: source() ..., the grid coordinate owning it, and
  // (requests) its position on the owner. A kept range (not flags) is left
  // out of them: a kept position holds its own index, owned at this
  // coordinate, so an axis that is mostly owned (an owned prefix of 'u'
  // indices) costs its halo alone. The *_at accessors read every position.
  LocalRange untabled;  // set by plan_axis_ranges: the kept range within [0, extent), or empty
  std::vector<global_index_t> source_table;
  std::vector<int> owner_table;
  std::vector<global_index_t> digit_table;

  bool kept(global_index_t p) const {
    return keep_flags.empty() ? keep.contains(static_cast<local_index_t>(p)) : keep_flags[p] != 0;
  }
  bool tabled(global_index_t p) const { return !untabled.contains(static_cast<local_index_t>(p)); }
  std::size_t slot(global_index_t p) const {
    return static_cast<std::size_t>(p >= untabled.end ? p - untabled.size() : p);
  }
  std::size_t table_size() const { return static_cast<std::size_t>(extent - untabled.size()); }
  // Calls f(p, slot(p)) for every tabled position, in order.
  template <class F>
  void for_each_tabled(F&& f) const {
    for (global_index_t p = 0; p < untabled.begin; ++p) f(p, static_cast<std::size_t>(p));
    for (global_index_t p = untabled.end; p < extent; ++p) f(p, slot(p));
  }
  global_index_t source_at(global_index_t p) const { return tabled(p) ? source_table[slot(p)] : global_index(*dim, p); }
  int owner_at(global_index_t p) const { return tabled(p) ? owner_table[slot(p)] : dim->proc_grid_rank; }
  // Where the owner keeps position p's source along an axis it holds as
  // this process does (undistributed, or a scattered axis's owned prefix):
  // a 'b' axis by the source's own position, any other at p itself.
  global_index_t own_digit(global_index_t p, global_index_t source) const {
    return dim->dist_type == DistType::block ? source - dim->start : p;
  }
  global_index_t digit_at(global_index_t p) const {
    return tabled(p) ? digit_table[slot(p)] : own_digit(p, global_index(*dim, p));
  }
  // Global index along the axis whose value position p holds after an update.
  // The wrap goes by global index, not by position: a communication padding
  // copy of an edge padding element also takes the wrapped value, so every
  // copy of an element agrees after one update.
  global_index_t source(global_index_t p) const {
    const global_index_t g = global_index(*dim, p);
    if (period > 0 && g < first_edge) return g + period;
    if (period > 0 && g >= dim->size - last_edge) return g - period;
    return g;
  }
  // Calls f(p) for every position that is not kept, in order.
  template <class F>
  void for_each_filled(F&& f) const {
    if (keep_flags.empty()) {
      for (global_index_t p = 0; p < std::min<global_index_t>(keep.begin, extent); ++p) f(p);
      for (global_index_t p = std::max<global_index_t>(keep.end, 0); p < extent; ++p) f(p);
    } else {
      for (global_index_t p = 0; p < extent; ++p)
        if (!keep_flags[static_cast<std::size_t>(p)]) f(p);
    }
  }
  bool any_filled = false;  // set by plan_axis
};

AxisPlan plan_axis_ranges(const DistributedLayout& layout, int a, const Dim& d, bool mine);

// The axis plan with every position's source and its owner looked up once,
// so the walk below does no searching per ghost. `d` is this process's record
// along axis a (mine) or another process's (gathered records only).
AxisPlan plan_axis(const DistributedLayout& layout, int a, const Dim& d, bool mine) {
  AxisPlan ax = plan_axis_ranges(layout, a, d, mine);
  // Kept positions hold their own index and belong to the process's own
  // coordinate (written in bulk where tabled); only filled ones need a wrap
  // and a look-up.
  ax.source_table.resize(ax.table_size());
  if (ax.untabled.size() == 0) global_indices(d, ax.source_table.data());
  else ax.for_each_tabled([&](global_index_t p, std::size_t q) { ax.source_table[q] = global_index(d, p); });
  ax.owner_table.assign(ax.table_size(), d.proc_grid_rank);
  ax.for_each_filled([&](global_index_t p) {
    ax.any_filled = true;
    const std::size_t q = ax.slot(p);
    ax.source_table[q] = ax.source(p);
    ax.owner_table[q] = mine && a == detail::LayoutAccess::scattered_axis(layout)
                            ? detail::LayoutAccess::scattered(layout).owner_of(p, layout.rank())
                        : d.proc_grid_size == 1 ? 0
                                                : detail::LayoutAccess::global(layout).axis(a).owner(ax.source_table[q]);
  });
  return ax;
}

// Which positions along the axis are kept (plan_axis_ranges without the tables' range).
AxisPlan plan_axis_keep(const DistributedLayout& layout, int a, const Dim& d, bool mine) {
  AxisPlan ax;
  ax.axis = a;
  ax.dim = &d;
  ax.extent = local_extent(d);
  ax.stride = mine ? static_cast<std::ptrdiff_t>(layout.local_strides()[a]) : 0;
  ax.keep = {0, static_cast<local_index_t>(ax.extent)};
  if (d.dist_type == DistType::unstructured && mine && a == detail::LayoutAccess::scattered_axis(layout) &&
      detail::LayoutAccess::scattered(layout).rest_foreign) {  // owned: a prefix
    ax.keep = {0, detail::LayoutAccess::scattered(layout).prefix};
    return ax;
  }
  if (d.dist_type == DistType::unstructured) {
    ax.keep_flags.resize(static_cast<std::size_t>(ax.extent));
    for (global_index_t i = 0; i < ax.extent; ++i)
      ax.keep_flags[i] = mine ? layout.is_owned(a, i) : detail::LayoutAccess::global(layout).axis(a).is_owned(d.proc_grid_rank, i);
    return ax;
  }
  if (d.dist_type != DistType::block) return ax;
  // Communication padding is filled; boundary padding is kept, unless the
  // axis is periodic, where it is filled from the opposite end of the interior.
  ax.keep = owned_local_range(d);
  if (d.periodic) {
    const std::array<global_index_t, 2> edge = boundary_padding(d);
    const bool alone = d.proc_grid_size == 1;
    const global_index_t first_edge = alone ? d.padding[0] : detail::LayoutAccess::global(layout).axis(a).dim(0).padding[0];
    const global_index_t last_edge = alone ? d.padding[1] : detail::LayoutAccess::global(layout).axis(a).dim(d.proc_grid_size - 1).padding[1];
    ax.period = d.size - first_edge - last_edge;
    ax.first_edge = first_edge;
    ax.last_edge = last_edge;
    ax.keep = {static_cast<local_index_t>(std::max<global_index_t>(ax.keep.begin, edge[0])),
               static_cast<local_index_t>(std::min<global_index_t>(ax.keep.end, ax.extent - edge[1]))};
  }
  return ax;
}

AxisPlan plan_axis_ranges(const DistributedLayout& layout, int a, const Dim& d, bool mine) {
  AxisPlan ax = plan_axis_keep(layout, a, d, mine);
  if (ax.keep_flags.empty()) {
    const auto extent = static_cast<local_index_t>(ax.extent);
    const local_index_t begin = std::clamp<local_index_t>(ax.keep.begin, 0, extent);
    ax.untabled = {begin, std::clamp<local_index_t>(ax.keep.end, begin, extent)};
  }
  return ax;
}

// What this process sends, found without messages from the gathered
// records: for every process q whose halo holds elements this process owns,
// those elements' offsets in this buffer, in the order q's own walk (below)
// lists them. q's walk visits its positions axis by axis in q's memory order;
// an element belongs to this process exactly when, on every axis, the
// position's owner coordinate is this process's. So the walk is redone here
// over q's records, visiting along each axis only the positions this process
// owns: the cost is the data sent plus one pass along each axis.
struct AxisSends {
  std::vector<std::ptrdiff_t> my_offset;  // per position of q along the axis that this process owns, in order
};

using detail::RunList;
using detail::StridedRun;

// Every process whose coordinate on each axis is a candidate (but this
// one) gets what its walk over its records visits of this process's owned
// elements: the product of the axes' lists, in that process's memory order.
void add_sends_to_candidates(const DistributedLayout& layout, const std::vector<std::map<int, AxisSends>>& along,
                             const std::vector<std::vector<int>>& candidates, detail::RunsByPeer& sends) {
  const int ndim = static_cast<int>(candidates.size()), me = layout.rank();
  for (int a = 0; a < ndim; ++a)
    if (candidates[a].empty()) return;
  std::vector<std::size_t> pick(static_cast<std::size_t>(ndim), 0);
  std::vector<int> c(static_cast<std::size_t>(ndim), 0);
  while (true) {
    for (int a = 0; a < ndim; ++a) c[a] = candidates[a][pick[a]];
    const int q = layout.grid().rank_of(c);
    if (q != me) {
      std::vector<const AxisSends*> levels;  // q's axes from slowest to fastest in memory
      for (int a : layout.memory_order_of(q)) levels.push_back(&along[a].at(c[a]));
      RunList& out = sends[q];
      const auto walk = [&](auto&& recurse, std::size_t level, std::ptrdiff_t offset) -> void {
        const auto& offs = levels[level]->my_offset;
        if (level + 1 == levels.size()) {
          for (std::ptrdiff_t o : offs) out.add(offset + o);
          return;
        }
        for (std::ptrdiff_t o : offs) recurse(recurse, level + 1, offset + o);
      };
      if (!levels.empty()) walk(walk, 0, 0);
    }
    int a = ndim - 1;
    for (; a >= 0; --a) {
      if (++pick[a] < candidates[a].size()) break;
      pick[a] = 0;
    }
    if (a < 0) return;
  }
}

// The grid coordinates along an axis, other than `mine`, whose filled
// positions this coordinate may own: none along 'c' (nothing is filled);
// along 'b' the neighbours (communication padding is at most a neighbour's
// owned count: validate.hpp) and, on a periodic axis, every coordinate that
// holds a copy of an edge's padding (filled from the opposite end, wherever
// the copy sits: the edges, and their neighbours where an edge owns little),
// found by walking in from each end while the held range reaches the edge;
// along a gathered 'u' axis every other coordinate.
std::vector<int> coordinates_that_may_fill_from(const AxisPartition& axis, int mine) {
  const int n = axis.grid_size();
  std::vector<int> out;
  switch (axis.dist_type()) {
    case DistType::cyclic: break;
    case DistType::block: {
      out = {mine - 1, mine + 1};
      const Dim first = axis.dim(0);
      if (!first.periodic) break;
      const global_index_t low_edge = first.padding[0], high_edge = first.size - axis.dim(n - 1).padding[1];
      for (int c = 0; c < n && axis.dim(c).start < low_edge; ++c) out.push_back(c);
      for (int c = n - 1; c >= 0 && axis.dim(c).stop > high_edge; --c) out.push_back(c);
      break;
    }
    case DistType::unstructured:
      for (int c = 0; c < n; ++c) out.push_back(c);
      break;
  }
  out.erase(std::remove_if(out.begin(), out.end(), [&](int c) { return c < 0 || c >= n || c == mine; }), out.end());
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void sends_in_closed_form(const DistributedLayout& layout, detail::RunsByPeer& sends) {
  const GlobalLayout& global = detail::LayoutAccess::global(layout);
  const int ndim = static_cast<int>(layout.dim_data().size());
  const std::vector<int> my_coords = layout.grid().coords_of(layout.rank());

  // Per axis and grid coordinate c along it: the positions of a process at c
  // whose value this process owns, as offsets into this buffer (empty if none).
  std::vector<std::map<int, AxisSends>> along(static_cast<std::size_t>(ndim));
  std::vector<std::vector<int>> candidates(static_cast<std::size_t>(ndim));  // coordinates with any
  std::vector<std::optional<IndexLookup>> lookups(static_cast<std::size_t>(ndim));  // 'u' only; formulas otherwise
  const auto list_sends = [&](int a, int c) {
    const AxisPartition& axis = global.axis(a);
    const Dim& my_dim = layout.dim_data()[a];
    const auto my_stride = static_cast<std::ptrdiff_t>(layout.local_strides()[a]);
    const Dim their_dim = axis.dim(c);  // (the plan points to it)
    const AxisPlan ax = plan_axis(layout, a, their_dim, false);
    if (my_dim.dist_type == DistType::unstructured && !lookups[a]) lookups[a].emplace(my_dim);
    std::vector<std::ptrdiff_t>& out = along[a][c].my_offset;
    const bool same_record = c == my_coords[a];  // then a kept position is the same position here
    out.reserve(static_cast<std::size_t>(same_record ? ax.extent : 0));
    for (global_index_t p = 0; p < ax.extent; ++p) {
      if (ax.owner_at(p) != my_coords[a]) continue;
      if (same_record && ax.kept(p)) {
        out.push_back(p * my_stride);
        continue;
      }
      const global_index_t g = ax.source_at(p);
      const global_index_t here = lookups[a] ? lookups[a]->position(g) : local_position(my_dim, g);
      out.push_back(here * my_stride);
    }
    if (!out.empty()) candidates[a].push_back(c);
  };
  // Other coordinates first: only their filled positions can be owned here
  // ('c' axes have none, 'b' axes their padding, gathered 'u' axes their
  // copies), so most are ruled out from a few positions.
  std::vector<char> foreign(static_cast<std::size_t>(ndim), 0);
  for (int a = 0; a < ndim; ++a) {
    const AxisPartition& axis = global.axis(a);
    for (int c : coordinates_that_may_fill_from(axis, my_coords[a])) {
      const Dim d = axis.dim(c);
      const AxisPlan ranges = plan_axis_ranges(layout, a, d, false);
      bool any = false;
      ranges.for_each_filled([&](global_index_t p) { any = any || axis.owner(ranges.source(p)) == my_coords[a]; });
      if (any) list_sends(a, c);
    }
    foreign[a] = !candidates[a].empty();
  }
  // This process's own coordinate along an axis matters only for processes
  // that differ from it along another axis.
  for (int a = 0; a < ndim; ++a) {
    bool needed = false;
    for (int b2 = 0; b2 < ndim; ++b2) needed = needed || (b2 != a && foreign[b2]);
    if (needed) list_sends(a, my_coords[a]);
    std::sort(candidates[a].begin(), candidates[a].end());
  }

  add_sends_to_candidates(layout, along, candidates, sends);
}

// A scalar has no padding, an empty buffer nothing to fill or send.
bool holds_nothing(const std::vector<AxisPlan>& axes) {
  return axes.empty() || std::any_of(axes.begin(), axes.end(), [](const AxisPlan& ax) { return ax.extent == 0; });
}

// Where a scattered layout's ghosts are named to their owners: by the owner's
// own position, the owner's position along the scattered axis times the
// size of the other axes (undistributed, so the same everywhere), plus the
// C-order position along those. The owner decodes it with divisions, no
// look-up. Returns each axis's multiplier (`radix`).
std::vector<global_index_t> request_radix(const DistributedLayout& layout, std::vector<AxisPlan>& axes) {
  const std::vector<Dim>& dims = layout.dim_data();
  const int ndim = static_cast<int>(dims.size()), scattered = detail::LayoutAccess::scattered_axis(layout);
  std::vector<global_index_t> radix(static_cast<std::size_t>(ndim), 0);
  global_index_t r = 1;
  for (int a = ndim - 1; a >= 0; --a)
    if (a != scattered) {
      radix[a] = r;
      r *= local_extent(dims[a]);
    }
  radix[scattered] = r;
  const auto& owners = detail::LayoutAccess::scattered(layout);
  // Along the other axes (undistributed: the owner's records are these) the
  // owner keeps the source at the source's own position, which differs from
  // p only where a periodic 'b' axis wraps.
  for (AxisPlan& ax : axes) {
    ax.digit_table.resize(ax.table_size());
    ax.for_each_tabled([&](global_index_t p, std::size_t q) {
      ax.digit_table[q] = ax.axis == scattered ? owners.position_on_owner(p) : ax.own_digit(p, ax.source_table[q]);
    });
  }
  return radix;
}

// The ghosts of this process, found by one walk over its buffer: grouped by
// owner (the runs they fill and, beside a scattered axis, the requests that
// name them to the owner), plus copies from this process to itself
// (periodic wraps).
struct Ghosts {
  detail::RunsByPeer fill;
  detail::Outbox wanted;
  std::vector<std::pair<std::ptrdiff_t, std::ptrdiff_t>> local_copies;
};

// Every element update() writes: some axis at a filled position. Slower axes
// at kept positions recurse; the fastest then visits only its filled
// positions, so the walk costs the halo plus the outer extents. Partial sums
// travel down the levels (request code, owner rank, offset), so the fastest
// axis's loop does a few additions per ghost.
Ghosts walk_ghosts(const DistributedLayout& layout, const std::vector<AxisPlan>& axes,
                   const std::vector<global_index_t>& radix) {
  const int me = layout.rank();
  const bool named = !radix.empty();  // requests are sent (a scattered axis)
  Ghosts g{detail::RunsByPeer(static_cast<std::ptrdiff_t>(layout.itemsize())), {}, {}};
  if (holds_nothing(axes)) return g;
  const int ndim = static_cast<int>(layout.dim_data().size());
  std::vector<int> grid_stride(static_cast<std::size_t>(ndim), 1);  // C order, as ranks are numbered
  for (int a = ndim - 2; a >= 0; --a) grid_stride[a] = grid_stride[a + 1] * layout.grid().shape()[a + 1];
  std::vector<global_index_t> pos(axes.size());
  const auto emit = [&](std::int64_t code, int owner, std::ptrdiff_t offset) {
    if (owner == me) {  // a periodic wrap onto this process: a local copy
      std::ptrdiff_t from = 0;
      for (std::size_t k = 0; k < axes.size(); ++k)
        from += local_position(*axes[k].dim, axes[k].source_at(pos[k])) * axes[k].stride;
      g.local_copies.emplace_back(from, offset);
      return;
    }
    if (named) g.wanted[owner].push_back(code);
    g.fill[owner].add(offset);
  };
  // Below a kept position, a subtree whose deeper axes fill nothing holds
  // only kept elements: it is skipped whole.
  std::vector<char> fill_below(axes.size(), 0);
  for (std::size_t k = axes.size(); k-- > 1;) fill_below[k - 1] = fill_below[k] || axes[k].any_filled;
  const auto walk = [&](auto&& recurse, std::size_t level, std::ptrdiff_t offset, bool filling, std::int64_t code,
                        int owner) -> void {
    const AxisPlan& ax = axes[level];
    const std::int64_t r = named ? radix[ax.axis] : 0;
    const int gs = grid_stride[ax.axis];
    const bool last = level + 1 == axes.size();
    for (global_index_t p = 0; p < ax.extent; ++p) {
      const bool kept = ax.kept(p);
      if (!filling && kept && (last || !fill_below[level])) {
        // jump over a kept run in one step
        if (ax.keep_flags.empty() && p == ax.keep.begin && ax.keep.end > ax.keep.begin) p = ax.keep.end - 1;
        continue;
      }
      pos[level] = p;
      const std::int64_t next_code = named ? code + ax.digit_at(p) * r : 0;
      const int next_owner = owner + ax.owner_at(p) * gs;
      if (last) emit(next_code, next_owner, offset + p * ax.stride);
      else recurse(recurse, level + 1, offset + p * ax.stride, filling || !kept, next_code, next_owner);
    }
  };
  walk(walk, 0, 0, false, 0, 0);
  return g;
}

// Beside a scattered 'u' axis the owner cannot know who holds copies of its
// elements: each owner learns which of its elements to send (one sparse
// exchange of requests: the holders' own neighbours) and decodes each
// request into an offset here.
void answer_requests(const DistributedLayout& layout, const std::vector<AxisPlan>& axes,
                     const std::vector<global_index_t>& radix, const detail::Outbox& wanted, detail::RunsByPeer& sends) {
  const int scattered = detail::LayoutAccess::scattered_axis(layout);
  if (layout.nprocs() == 1) return;
  const detail::Inbox given = detail::exchange_words(wanted, layout.comm());
  const auto offset_of = [&](std::int64_t code) {
    std::ptrdiff_t offset = 0;
    for (const AxisPlan& ax : axes) {
      const global_index_t r = radix[ax.axis];
      const global_index_t p = ax.axis == scattered ? code / r : (code / r) % ax.extent;
      offset += p * ax.stride;
    }
    return offset;
  };
  for (std::size_t k = 0; k < given.count(); ++k) {
    RunList& to = sends[given.sources[k]];
    for (std::size_t i = 0; i < given.size(k); ++i) to.add(offset_of(given.of(k)[i]));
  }
}

}  // namespace

struct HaloPlanBuilder {
  static std::shared_ptr<const HaloPlan> create(std::shared_ptr<const DistributedLayout> layout);
};

std::shared_ptr<const HaloPlan> HaloPlanBuilder::create(std::shared_ptr<const DistributedLayout> layout_ptr) {
  adapter::agree_on_layouts({layout_ptr.get()}, "HaloPlan::create");
  std::shared_ptr<HaloPlan> self(new HaloPlan());
  self->layout_ = layout_ptr;
  const DistributedLayout& layout = *layout_ptr;
  detail::HaloParts& parts = *self->parts_;
  parts.tag = detail::LayoutAccess::next_tag(layout);
  std::vector<AxisPlan> axes;
  for (int a : layout.memory_order()) axes.push_back(plan_axis(layout, a, layout.dim_data()[a], true));
  // With gathered records each process works out what it sends alone
  // (sends_in_closed_form): no messages. Beside a scattered axis the ghosts
  // are named to their owners, who answer (answer_requests).
  const bool closed_form = detail::LayoutAccess::gathered(layout) != nullptr;
  const std::vector<global_index_t> radix = closed_form ? std::vector<global_index_t>{} : request_radix(layout, axes);
  Ghosts ghosts = walk_ghosts(layout, axes, radix);
  detail::RunsByPeer sends(static_cast<std::ptrdiff_t>(layout.itemsize()));
  if (!closed_form) answer_requests(layout, axes, radix, ghosts.wanted, sends);
  else if (!holds_nothing(axes)) sends_in_closed_form(layout, sends);
  parts.local_copies = std::move(ghosts.local_copies);
  // The peers: those this process sends to or fills from, in rank order.
  std::map<int, detail::PlanPeer> peers;
  for (auto& [p, runs] : sends.peers()) {
    detail::PlanPeer& peer = peers[p];
    peer.send = std::move(runs.runs);
    peer.send_count = runs.count;
  }
  for (auto& [p, runs] : ghosts.fill.peers()) {
    detail::PlanPeer& peer = peers[p];
    peer.recv = std::move(runs.runs);
    peer.recv_count = runs.count;
  }
  std::size_t largest = 0;  // elements in one message
  for (auto& [p, peer] : peers) {
    if (peer.send_count == 0 && peer.recv_count == 0) continue;
    peer.rank = p;
    parts.num_sent += peer.send_count;
    parts.num_received += peer.recv_count;
    largest = std::max({largest, peer.send_count, peer.recv_count});
    parts.peers.push_back(std::move(peer));
  }
  parts.messages_fit = detail::fits_one_message(largest, layout.itemsize());
  return self;
}

std::shared_ptr<const HaloPlan> HaloPlan::create(std::shared_ptr<const DistributedLayout> layout) {
  return HaloPlanBuilder::create(std::move(layout));
}

HaloPlan::HaloPlan() : parts_(std::make_unique<detail::HaloParts>()) {}
HaloPlan::~HaloPlan() = default;
std::size_t HaloPlan::num_ghosts() const { return parts_->num_received + parts_->local_copies.size(); }
std::size_t HaloPlan::num_sent() const { return parts_->num_sent; }
std::size_t HaloPlan::num_received() const { return parts_->num_received; }
std::size_t HaloPlan::num_neighbours() const { return parts_->peers.size(); }

}  // namespace dapetra::mpi
