#include "dapetra/tpetra/halo.hpp"

#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_Map.hpp>
#include <mpi.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <complex>
#include <cstring>
#include <functional>
#include <optional>

#include "checked.hpp"
#include "collectives.hpp"
#include "runs.hpp"

namespace dapetra::tpetra {
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
  std::vector<global_index_t> source_of;  // per position: source() ...
  std::vector<int> owner_of;              // ... and the grid coordinate owning it
  std::vector<global_index_t> owner_digit;  // requests by position: the position on the owner

  bool kept(global_index_t p) const {
    return keep_flags.empty() ? keep.contains(static_cast<local_index_t>(p)) : keep_flags[p] != 0;
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

AxisPlan plan_axis_ranges(const TpetraLayout& layout, int a, const Dim& d, bool mine);

// The axis plan with every position's source and its owner looked up once,
// so the walk below does no searching per ghost. `d` is this process's record
// along axis a (mine) or another process's (gathered records only).
AxisPlan plan_axis(const TpetraLayout& layout, int a, const Dim& d, bool mine) {
  AxisPlan ax = plan_axis_ranges(layout, a, d, mine);
  // Kept positions hold their own index and belong to the process's own
  // coordinate (written in bulk); only filled ones need a wrap and a look-up.
  ax.source_of.resize(static_cast<std::size_t>(ax.extent));
  global_indices(d, ax.source_of.data());
  ax.owner_of.assign(static_cast<std::size_t>(ax.extent), d.proc_grid_rank);
  ax.for_each_filled([&](global_index_t p) {
    ax.any_filled = true;
    const auto q = static_cast<std::size_t>(p);
    ax.source_of[q] = ax.source(p);
    ax.owner_of[q] = mine && a == layout.scattered_axis() ? layout.scattered_owner(p)
                     : d.proc_grid_size == 1               ? 0
                                                           : layout.owner_along(a, ax.source_of[q]);
  });
  return ax;
}

AxisPlan plan_axis_ranges(const TpetraLayout& layout, int a, const Dim& d, bool mine) {
  AxisPlan ax;
  ax.axis = a;
  ax.dim = &d;
  ax.extent = local_extent(d);
  ax.stride = mine ? static_cast<std::ptrdiff_t>(layout.local_strides()[a]) : 0;
  ax.keep = {0, static_cast<local_index_t>(ax.extent)};
  if (d.dist_type == DistType::unstructured) {
    ax.keep_flags.resize(static_cast<std::size_t>(ax.extent));
    for (global_index_t i = 0; i < ax.extent; ++i)
      ax.keep_flags[i] = mine ? layout.is_owned_position(a, i) : layout.global().axis(a).is_owned(d.proc_grid_rank, i);
    return ax;
  }
  if (d.dist_type != DistType::block) return ax;
  // Communication padding is filled; boundary padding is kept, unless the
  // axis is periodic, where it is filled from the opposite end of the interior.
  ax.keep = owned_local_range(d);
  if (d.periodic) {
    const std::array<global_index_t, 2> edge = boundary_padding(d);
    const bool alone = d.proc_grid_size == 1;
    const global_index_t first_edge = alone ? d.padding[0] : layout.global().axis(a).dim(0).padding[0];
    const global_index_t last_edge = alone ? d.padding[1] : layout.global().axis(a).dim(d.proc_grid_size - 1).padding[1];
    ax.period = d.size - first_edge - last_edge;
    ax.first_edge = first_edge;
    ax.last_edge = last_edge;
    ax.keep = {static_cast<local_index_t>(std::max<global_index_t>(ax.keep.begin, edge[0])),
               static_cast<local_index_t>(std::min<global_index_t>(ax.keep.end, ax.extent - edge[1]))};
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

std::vector<RunList> sends_in_closed_form(const TpetraLayout& layout, int col) {
  const GlobalLayout& global = layout.global();
  const ProcessGrid& grid = layout.grid();
  const int ndim = static_cast<int>(layout.dim_data().size()), nprocs = global.nprocs(), me = layout.rank();
  const std::vector<int> my_coords = grid.coords_of(me);
  std::vector<RunList> sends(static_cast<std::size_t>(nprocs), RunList{{}, 0, static_cast<std::ptrdiff_t>(layout.itemsize())});

  // Per axis and grid coordinate c along it: the positions of a process at c
  // whose value this process owns, as offsets into this buffer (empty if none).
  std::vector<std::vector<AxisSends>> along(static_cast<std::size_t>(ndim));
  std::vector<std::vector<int>> candidates(static_cast<std::size_t>(ndim));  // coordinates with any
  std::vector<std::optional<IndexLookup>> lookups(static_cast<std::size_t>(ndim));  // 'u' only; formulas otherwise
  const auto list_sends = [&](int a, int c) {
    const AxisPartition& axis = global.axis(a);
    const Dim& my_dim = layout.dim_data()[a];
    const auto my_stride = static_cast<std::ptrdiff_t>(layout.local_strides()[a]);
    const AxisPlan ax = plan_axis(layout, a, axis.dim(c), false);
    if (my_dim.dist_type == DistType::unstructured && !lookups[a]) lookups[a].emplace(my_dim);
    std::vector<std::ptrdiff_t>& out = along[a][static_cast<std::size_t>(c)].my_offset;
    const bool same_record = c == my_coords[a];  // then a kept position is the same position here
    out.reserve(static_cast<std::size_t>(same_record ? ax.extent : 0));
    for (global_index_t p = 0; p < ax.extent; ++p) {
      if (ax.owner_of[static_cast<std::size_t>(p)] != my_coords[a]) continue;
      if (same_record && ax.kept(p)) {
        out.push_back(p * my_stride);
        continue;
      }
      const global_index_t g = ax.source_of[static_cast<std::size_t>(p)];
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
    if (a == col) continue;
    const AxisPartition& axis = global.axis(a);
    along[a].resize(static_cast<std::size_t>(axis.grid_size()));
    for (int c = 0; c < axis.grid_size(); ++c) {
      const Dim& d = axis.dim(c);
      if (c == my_coords[a] || d.dist_type == DistType::cyclic) continue;
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
    if (a == col) continue;
    bool needed = false;
    for (int b2 = 0; b2 < ndim; ++b2) needed = needed || (b2 != a && foreign[b2]);
    if (needed) list_sends(a, my_coords[a]);
    std::sort(candidates[a].begin(), candidates[a].end());
  }

  // Every process whose coordinate on each axis is a candidate, but this one.
  std::vector<std::size_t> pick(static_cast<std::size_t>(ndim), 0);
  for (int a = 0; a < ndim; ++a)
    if (a != col && candidates[a].empty()) return sends;
  while (true) {
    std::vector<int> c(static_cast<std::size_t>(ndim), 0);
    for (int a = 0; a < ndim; ++a)
      if (a != col) c[a] = candidates[a][pick[a]];
      else c[a] = my_coords[a];
    const int q = grid.rank_of(c);
    if (q != me) {
      // q's walk order: its row axes from slowest to fastest in memory.
      std::vector<const AxisSends*> levels;
      for (int a : layout.memory_order_of(q))
        if (a != col) levels.push_back(&along[a][static_cast<std::size_t>(c[a])]);
      RunList& out = sends[static_cast<std::size_t>(q)];
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
      if (a == col) continue;
      if (++pick[a] < candidates[a].size()) break;
      pick[a] = 0;
    }
    if (a < 0) return sends;
  }
}

template <class Scalar>
Scalar& at(char* base, std::ptrdiff_t offset) {
  return *reinterpret_cast<Scalar*>(base + offset);
}

// Tpetra's ABSMAX: the larger magnitude (for complex values, as a real number).
template <class Scalar>
Scalar larger_magnitude(Scalar a, Scalar b) {
  using std::abs;
  return Scalar(std::max(abs(a), abs(b)));
}

template <class Scalar>
void combine(Scalar& into, Scalar value, CombineMode mode) {
  switch (mode) {
    case CombineMode::add: into += value; break;
    case CombineMode::insert: into = value; break;
    case CombineMode::absmax: into = larger_magnitude(into, value); break;
  }
}



}  // namespace

struct HaloPlan::Exchange {
  MPI_Comm comm = MPI_COMM_SELF;
  std::vector<char> send, recv;
  std::vector<MPI_Request> requests;
  bool in_flight = false;
};

HaloPlan::~HaloPlan() = default;

std::shared_ptr<const HaloPlan> HaloPlan::create(std::shared_ptr<const TpetraLayout> layout_ptr) {
  std::shared_ptr<HaloPlan> self(new HaloPlan());
  self->layout_ = layout_ptr;
  self->exchange_ = std::make_unique<Exchange>();
  self->tag_ = detail::next_plan_tag();
  const TpetraLayout& layout = *layout_ptr;
  const Comm& comm = *layout.comm();
  const MPI_Comm raw = comm.getSize() > 1 ? detail::raw_comm(comm) : MPI_COMM_SELF;
  self->exchange_->comm = raw;
  const std::vector<Dim>& dims = layout.dim_data();
  const int ndim = static_cast<int>(dims.size());
  const int me = layout.rank(), nprocs = comm.getSize();
  const int col = layout.column_axis();
  if (col >= 0) self->column_stride_ = static_cast<std::ptrdiff_t>(layout.local_strides()[col]);

  std::vector<AxisPlan> axes;
  for (int a : layout.memory_order())
    if (a != col) axes.push_back(plan_axis(layout, a, dims[a], true));
  const bool empty = std::any_of(axes.begin(), axes.end(), [](const AxisPlan& ax) { return ax.extent == 0; });
  std::vector<global_index_t> flat_stride(ndim, 0);
  for (int a = 0, i = 0; a < ndim; ++a)
    if (a != col) flat_stride[a] = layout.map_strides()[i++];

  // How a ghost is named to its owner (without gathered records). By global
  // flat index, which the owner must look up in its buffer; or, when the
  // layout knows where each owner keeps each scattered index, by the owner's
  // own position: the owner's position along the scattered axis times the
  // size of the other row axes (undistributed, so the same everywhere), plus
  // the C-order position along those. The owner then decodes it with
  // divisions, no look-up.
  const bool closed_form = layout.has_global_layout();  // senders work out their part alone
  const int scattered = layout.scattered_axis();
  const bool by_position = !closed_form && scattered >= 0 && layout.has_scattered_owner_positions();
  std::vector<global_index_t> request_stride = flat_stride;
  if (by_position) {
    global_index_t radix = 1;
    for (int a = ndim - 1; a >= 0; --a)
      if (a != col && a != scattered) {
        request_stride[a] = radix;
        radix *= local_extent(dims[a]);
      }
    request_stride[scattered] = radix;
    // Digits are positions: the owner's along the scattered axis, the same
    // as here along the others (one record each, as they are undistributed;
    // an undistributed 'u' axis may list its indices in any order).
    for (AxisPlan& ax : axes) {
      ax.owner_digit.resize(static_cast<std::size_t>(ax.extent));
      for (global_index_t p = 0; p < ax.extent; ++p)
        ax.owner_digit[p] = ax.axis == scattered ? layout.scattered_owner_position(p) : p;
    }
  }

  // Every element update() writes: some row axis at a filled position. Slower
  // axes at kept positions recurse; the fastest then visits only its filled
  // positions, so the walk costs the halo plus the outer extents.
  // Ghosts whose owner is this process (periodic wraps) become local copies;
  // the others are grouped by owner: the indices wanted and where they go.
  std::vector<std::vector<std::int64_t>> wanted(nprocs);
  const auto item = static_cast<std::ptrdiff_t>(layout.itemsize());
  std::vector<RunList> fill(static_cast<std::size_t>(nprocs), RunList{{}, 0, item});
  std::vector<global_index_t> pos(axes.size());
  std::vector<int> grid_stride(ndim, 1);  // C order, as ranks are numbered
  for (int a = ndim - 2; a >= 0; --a) grid_stride[a] = grid_stride[a + 1] * layout.grid().shape()[a + 1];
  // Partial sums travel down the levels (flat index, owner rank, offset), so
  // the fastest axis's loop does a few additions per ghost.
  const auto emit = [&](GO flat, int owner, std::ptrdiff_t offset) {
    if (owner == me) {  // a periodic wrap onto this process: a local copy
      std::ptrdiff_t from = 0;
      for (std::size_t k = 0; k < axes.size(); ++k)
        from += local_position(*axes[k].dim, axes[k].source_of[static_cast<std::size_t>(pos[k])]) * axes[k].stride;
      self->local_copies_.emplace_back(from, offset);
    } else {
      if (!closed_form) wanted[owner].push_back(by_position ? flat : flat + layout.index_base());  // to ask the owner
      fill[owner].add(offset);
    }
  };
  // Below a kept position, a subtree whose deeper axes fill nothing holds
  // only kept elements: it is skipped whole.
  std::vector<char> fill_below(axes.size(), 0);
  for (std::size_t k = axes.size(); k-- > 1;) fill_below[k - 1] = fill_below[k] || axes[k].any_filled;
  const auto walk = [&](auto&& recurse, std::size_t level, std::ptrdiff_t offset, bool filling, GO flat, int owner) -> void {
    const AxisPlan& ax = axes[level];
    const GO fs = request_stride[ax.axis];
    const int gs = grid_stride[ax.axis];
    const std::vector<global_index_t>& digit = ax.owner_digit.empty() ? ax.source_of : ax.owner_digit;
    if (level + 1 == axes.size()) {
      for (global_index_t p = 0; p < ax.extent; ++p) {
        if (!filling && ax.kept(p)) {  // jump over the kept run in one step
          if (ax.keep_flags.empty() && p == ax.keep.begin && ax.keep.end > ax.keep.begin) p = ax.keep.end - 1;
          continue;
        }
        pos[level] = p;
        const auto q = static_cast<std::size_t>(p);
        emit(flat + digit[q] * fs, owner + ax.owner_of[q] * gs, offset + p * ax.stride);
      }
      return;
    }
    for (global_index_t p = 0; p < ax.extent; ++p) {
      const bool kept = ax.kept(p);
      if (!filling && kept && !fill_below[level]) continue;
      pos[level] = p;
      const auto q = static_cast<std::size_t>(p);
      recurse(recurse, level + 1, offset + p * ax.stride, filling || !kept, flat + digit[q] * fs,
           owner + ax.owner_of[q] * gs);
    }
  };
  if (!empty && !axes.empty()) walk(walk, 0, 0, false, 0, 0);  // a scalar has no padding

  // What to send. With gathered records each process works it out alone
  // (sends_in_closed_form): no messages. Beside a scattered 'u' axis the
  // owner cannot know who holds copies of its indices: each owner learns
  // which of its elements to send (one all-to-all of counts, one of indices).
  std::vector<RunList> sends(static_cast<std::size_t>(nprocs), RunList{{}, 0, item});
  if (closed_form && !empty && !axes.empty()) sends = sends_in_closed_form(layout, col);
  detail::Exchanged given;  // the requests each process sent here
  given.counts.assign(static_cast<std::size_t>(nprocs), 0);
  given.displs.assign(static_cast<std::size_t>(nprocs), 0);
  if (nprocs > 1 && !closed_form) given = detail::alltoallv_words(wanted, comm);

  // Where each requested element lives in this process's buffer.
  std::vector<IndexLookup> lookups;  // built only if this process sends anything named by index
  if (!given.words.empty() && !by_position)
    for (const AxisPlan& ax : axes) lookups.emplace_back(*ax.dim);
  const bool one_d_unstructured = ndim == 1 && dims[0].dist_type == DistType::unstructured;
  // Requests come in rows of consecutive indices; along a block axis with
  // flat stride 1 the next index is the next position, so a row is decoded
  // (two divisions per axis) once, not once per element.
  int unit_axis = -1;  // the block axis whose flat stride is 1, if any
  for (std::size_t k = 0; k < axes.size(); ++k)
    if (!one_d_unstructured && flat_stride[axes[k].axis] == 1 && dims[axes[k].axis].dist_type == DistType::block)
      unit_axis = static_cast<int>(k);
  bool have_last = false;
  GO last_gid = 0;
  std::ptrdiff_t last_offset = 0;
  global_index_t last_g = 0;  // index along the unit axis of last_gid
  const auto offset_of = [&](GO gid) {
    if (have_last && unit_axis >= 0 && gid == last_gid + 1 && last_g + 1 < dims[axes[unit_axis].axis].stop) {
      ++last_gid;
      ++last_g;
      return last_offset += axes[unit_axis].stride;
    }
    const global_index_t flat = gid - layout.index_base();
    std::ptrdiff_t offset = 0;
    for (std::size_t k = 0; k < axes.size(); ++k) {
      const int a = axes[k].axis;
      const global_index_t g = one_d_unstructured ? flat : (flat / flat_stride[a]) % dims[a].size;
      if (static_cast<int>(k) == unit_axis) last_g = g;
      offset += lookups[k].position(g) * axes[k].stride;
    }
    have_last = true;
    last_gid = gid;
    return last_offset = offset;
  };
  const auto offset_of_position = [&](GO code) {
    std::ptrdiff_t offset = 0;
    for (const AxisPlan& ax : axes) {
      const global_index_t r = request_stride[ax.axis];
      const global_index_t p = ax.axis == scattered ? code / r : (code / r) % ax.extent;
      offset += p * ax.stride;
    }
    return offset;
  };
  for (int p = 0; p < nprocs; ++p)
    for (int i = 0; i < given.counts[p]; ++i) {
      const GO request = given.words[static_cast<std::size_t>(given.displs[p] + i)];
      sends[p].add(by_position ? offset_of_position(request) : offset_of(request));
    }
  for (int p = 0; p < nprocs; ++p) {
    if (sends[p].count == 0 && fill[p].count == 0) continue;
    Peer peer;
    peer.rank = p;
    peer.send = std::move(sends[p].runs);
    peer.recv = std::move(fill[p].runs);
    peer.send_count = sends[p].count;
    peer.recv_count = fill[p].count;
    self->num_sent_ += peer.send_count;
    self->num_received_ += peer.recv_count;
    self->peers_.push_back(std::move(peer));
  }
  return self;
}

namespace {

// to[i] += from[i]; the two never overlap (from is the scratch buffer). Four
// independent additions per step and __restrict let the compiler use vector
// instructions at -O2 (whose vectoriser leaves the plain loop scalar).
template <class Scalar>
void add_into(Scalar* __restrict to, const Scalar* __restrict from, std::size_t n) {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    to[i] += from[i];
    to[i + 1] += from[i + 1];
    to[i + 2] += from[i + 2];
    to[i + 3] += from[i + 3];
  }
  for (; i < n; ++i) to[i] += from[i];
}

template <class Scalar>
const char* unpack_combine(const std::vector<StridedRun>& runs, char* base, std::size_t ncols,
                           std::ptrdiff_t column_stride, const char* in, CombineMode mode) {
  detail::for_each_run(runs, ncols, column_stride, [&](std::ptrdiff_t offset, std::ptrdiff_t step, std::size_t count) {
    char* first = base + offset;
    const auto* from = reinterpret_cast<const Scalar*>(in);  // the scratch buffer is suitably aligned
    if (step == static_cast<std::ptrdiff_t>(sizeof(Scalar)) || count == 1) {
      auto* to = reinterpret_cast<Scalar*>(first);
      switch (mode) {
        case CombineMode::add: add_into(to, from, count); break;
        case CombineMode::insert: std::memcpy(to, from, count * sizeof(Scalar)); break;
        case CombineMode::absmax:
          for (std::size_t i = 0; i < count; ++i) to[i] = larger_magnitude(to[i], from[i]);
          break;
      }
    } else {
      for (std::size_t i = 0; i < count; ++i) combine(at<Scalar>(first, static_cast<std::ptrdiff_t>(i) * step), from[i], mode);
    }
    in += count * sizeof(Scalar);
  });
  return in;
}

}  // namespace

template <class Scalar>
void HaloPlan::post(char* base, bool forward) const {
  // Forward (update): owners send owned elements, ghosts receive. Backward
  // (assemble): the same messages reversed, ghosts to owners.
  Exchange& x = *exchange_;
  const std::size_t ncols = layout_->num_vectors(), item = sizeof(Scalar) * ncols;
  x.send.resize((forward ? num_sent_ : num_received_) * item);
  x.recv.resize((forward ? num_received_ : num_sent_) * item);
  x.requests.clear();
  const int tag = forward ? tag_ : tag_ + 1;
  char* in = x.recv.data();
  for (const Peer& peer : peers_) {
    const std::size_t count = forward ? peer.recv_count : peer.send_count;
    if (count == 0) continue;
    x.requests.emplace_back();
    MPI_Irecv(in, static_cast<int>(count * item), MPI_BYTE, peer.rank, tag, x.comm, &x.requests.back());
    in += count * item;
  }
  char* out = x.send.data();
  for (const Peer& peer : peers_) {
    if ((forward ? peer.send_count : peer.recv_count) == 0) continue;
    char* next = detail::pack_runs<Scalar>(forward ? peer.send : peer.recv, base, ncols, column_stride_, out);
    x.requests.emplace_back();
    MPI_Isend(out, static_cast<int>(next - out), MPI_BYTE, peer.rank, tag, x.comm, &x.requests.back());
    out = next;
  }
}

template <class Scalar>
void HaloPlan::begin_update_impl(const DistArray& array) const {
  char* base = reinterpret_cast<char*>(detail::checked_data<Scalar>(*layout_, array));
  if (exchange_->in_flight) throw std::logic_error("dapetra::tpetra::HaloPlan: a split-phase update is already in flight");
  post<Scalar>(base, true);
  exchange_->in_flight = true;
}

template <class Scalar>
void HaloPlan::finish_update(char* base) const {
  Exchange& x = *exchange_;
  MPI_Waitall(static_cast<int>(x.requests.size()), x.requests.data(), MPI_STATUSES_IGNORE);
  x.in_flight = false;
  const std::size_t ncols = layout_->num_vectors();
  const char* in = x.recv.data();
  for (const Peer& peer : peers_)
    if (peer.recv_count > 0) in = detail::unpack_runs<Scalar>(peer.recv, base, ncols, column_stride_, in);
  for (const auto& [from, to] : local_copies_)
    for (std::size_t j = 0; j < ncols; ++j) {
      const std::ptrdiff_t shift = static_cast<std::ptrdiff_t>(j) * column_stride_;
      at<Scalar>(base, to + shift) = at<Scalar>(base, from + shift);
    }
}

template <class Scalar>
void HaloPlan::end_update_impl(const DistArray& array) const {
  char* base = reinterpret_cast<char*>(detail::checked_data<Scalar>(*layout_, array));
  if (!exchange_->in_flight) throw std::logic_error("dapetra::tpetra::HaloPlan: end_update without begin_update");
  finish_update<Scalar>(base);
}

// One check of the array for both phases (this runs thousands of times).
template <class Scalar>
void HaloPlan::update_impl(const DistArray& array) const {
  char* base = reinterpret_cast<char*>(detail::checked_data<Scalar>(*layout_, array));
  if (exchange_->in_flight) throw std::logic_error("dapetra::tpetra::HaloPlan: update during a split-phase update");
  post<Scalar>(base, true);
  finish_update<Scalar>(base);
}

template <class Scalar>
void HaloPlan::assemble_impl(const DistArray& array, CombineMode mode, bool then_update) const {
  char* base = reinterpret_cast<char*>(detail::checked_data<Scalar>(*layout_, array));
  Exchange& x = *exchange_;
  if (x.in_flight) throw std::logic_error("dapetra::tpetra::HaloPlan: assemble during a split-phase update");
  post<Scalar>(base, false);
  MPI_Waitall(static_cast<int>(x.requests.size()), x.requests.data(), MPI_STATUSES_IGNORE);
  const std::size_t ncols = layout_->num_vectors();
  const char* received = x.recv.data();
  for (const Peer& peer : peers_)
    if (peer.send_count > 0) received = unpack_combine<Scalar>(peer.send, base, ncols, column_stride_, received, mode);
  for (const auto& [from, to] : local_copies_)
    for (std::size_t j = 0; j < ncols; ++j) {
      const std::ptrdiff_t shift = static_cast<std::ptrdiff_t>(j) * column_stride_;
      combine(at<Scalar>(base, from + shift), at<Scalar>(base, to + shift), mode);
    }
  if (then_update) update_impl<Scalar>(array);
}

#define DAPETRA_INSTANTIATE_HALO(S)                                \
  template void HaloPlan::update_impl<S>(const DistArray&) const;       \
  template void HaloPlan::begin_update_impl<S>(const DistArray&) const; \
  template void HaloPlan::end_update_impl<S>(const DistArray&) const;   \
  template void HaloPlan::assemble_impl<S>(const DistArray&, CombineMode, bool) const;

DAPETRA_FOR_EACH_PLAN_SCALAR(DAPETRA_INSTANTIATE_HALO)

}  // namespace dapetra::tpetra
