#include "dapetra/tpetra/halo.hpp"

#include <Teuchos_ArrayRCP.hpp>
#include <Tpetra_Distributor.hpp>
#include <Tpetra_Import.hpp>
#include <Tpetra_Map.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

#include "checked.hpp"

namespace dapetra::tpetra {
namespace {

// One row axis of this process's buffer: which positions the plan fills
// (communication padding, periodic edge padding, copies held for others)
// and where each position's value comes from along the axis.
struct AxisPlan {
  int axis = 0;
  global_index_t extent = 0;
  std::ptrdiff_t stride = 0;         // bytes
  LocalRange keep;                   // positions kept as they are, when a range ...
  std::vector<char> keep_flags;      // ... or per position ('u' axes)
  global_index_t period = 0;         // periodic 'b': interior period M
  global_index_t left_edge = 0, right_edge = 0;  // periodic 'b': positions wrapped (this process)
  const Dim* dim = nullptr;

  bool kept(global_index_t p) const { return keep_flags.empty() ? keep.contains(static_cast<local_index_t>(p)) : keep_flags[p] != 0; }
  // Global index along the axis whose value position p holds after an update.
  global_index_t source(global_index_t p) const {
    const global_index_t g = global_index(*dim, p);
    if (p < left_edge) return g + period;
    if (p >= extent - right_edge) return g - period;
    return g;
  }
};

AxisPlan plan_axis(const TpetraLayout& layout, int a) {
  const Dim& d = layout.dim_data()[a];
  AxisPlan ax;
  ax.axis = a;
  ax.dim = &d;
  ax.extent = local_extent(d);
  ax.stride = static_cast<std::ptrdiff_t>(layout.local_strides()[a]);
  ax.keep = {0, static_cast<local_index_t>(ax.extent)};
  if (d.dist_type == DistType::unstructured) {
    ax.keep_flags.resize(static_cast<std::size_t>(ax.extent));
    for (global_index_t i = 0; i < ax.extent; ++i) ax.keep_flags[i] = layout.is_owned_position(a, i);
    return ax;
  }
  if (d.dist_type != DistType::block) return ax;
  // Communication padding is filled; boundary padding is kept, unless the
  // axis is periodic, where it is filled from the opposite end of the interior.
  ax.keep = owned_local_range(d);
  if (d.periodic) {
    const std::array<global_index_t, 2> edge = boundary_padding(d);
    const global_index_t first_edge = d.proc_grid_size == 1 ? d.padding[0] : layout.global().axis(a).dim(0).padding[0];
    const global_index_t last_edge =
        d.proc_grid_size == 1 ? d.padding[1] : layout.global().axis(a).dim(d.proc_grid_size - 1).padding[1];
    ax.period = d.size - first_edge - last_edge;
    ax.left_edge = edge[0];
    ax.right_edge = edge[1];
    ax.keep = {static_cast<local_index_t>(std::max<global_index_t>(ax.keep.begin, edge[0])),
               static_cast<local_index_t>(std::min<global_index_t>(ax.keep.end, ax.extent - edge[1]))};
  }
  return ax;
}

struct Ghost {
  GO gid;
  int owner;
  std::ptrdiff_t offset;             // where it goes
  std::vector<global_index_t> src;   // source index per row axis (for local copies)
};

template <class Scalar>
Scalar& at(char* base, std::ptrdiff_t offset) {
  return *reinterpret_cast<Scalar*>(base + offset);
}

template <class Scalar>
void combine(Scalar& into, Scalar value, CombineMode mode) {
  switch (mode) {
    case CombineMode::add: into += value; break;
    case CombineMode::insert: into = value; break;
    case CombineMode::absmax: into = std::max<Scalar>(std::abs(into), std::abs(value)); break;
  }
}

struct InFlight {
  std::shared_ptr<void> exports, imports;
};

}  // namespace

std::shared_ptr<const HaloPlan> HaloPlan::create(std::shared_ptr<const TpetraLayout> layout_ptr) {
  std::shared_ptr<HaloPlan> self(new HaloPlan());
  self->layout_ = layout_ptr;
  const TpetraLayout& layout = *layout_ptr;
  const std::vector<Dim>& dims = layout.dim_data();
  const int ndim = static_cast<int>(dims.size());
  const int me = layout.rank();
  const int col = layout.column_axis();
  if (col >= 0) self->column_stride_ = static_cast<std::ptrdiff_t>(layout.local_strides()[col]);

  std::vector<int> row_axes;
  for (int a : layout.memory_order())
    if (a != col) row_axes.push_back(a);
  std::vector<AxisPlan> axes;
  for (int a : row_axes) axes.push_back(plan_axis(layout, a));
  const bool empty = std::any_of(axes.begin(), axes.end(), [](const AxisPlan& ax) { return ax.extent == 0; });

  // Flat index stride of each axis in the owned map (1-D 'u' keeps its indices).
  std::vector<global_index_t> flat_stride(ndim, 0);
  for (int a = 0, i = 0; a < ndim; ++a)
    if (a != col) flat_stride[a] = layout.map_strides()[i++];

  // Every element that update() writes: any row axis at a filled position.
  // Slower axes at kept positions recurse; the fastest visits only its filled
  // positions then, so the walk costs the halo plus the outer extents.
  std::vector<Ghost> ghosts;
  std::vector<global_index_t> pos(axes.size());
  std::function<void(std::size_t, std::ptrdiff_t, bool)> walk = [&](std::size_t level, std::ptrdiff_t offset, bool filling) {
    if (level == axes.size()) {
      if (!filling) return;
      Ghost g{0, -1, offset, {}};
      GO flat = 0;
      std::vector<int> coords(ndim, 0);
      for (std::size_t k = 0; k < axes.size(); ++k) {
        const global_index_t s = axes[k].source(pos[k]);
        g.src.push_back(s);
        flat += s * flat_stride[axes[k].axis];
        if (layout.has_global_layout()) coords[axes[k].axis] = layout.owner_along(axes[k].axis, s);
      }
      g.gid = flat + layout.index_base();
      if (layout.has_global_layout()) g.owner = layout.grid().rank_of(coords);
      ghosts.push_back(std::move(g));
      return;
    }
    const AxisPlan& ax = axes[level];
    const bool last = level + 1 == axes.size();
    for (global_index_t p = 0; p < ax.extent; ++p) {
      const bool fill_here = !ax.kept(p);
      if (last && !filling && !fill_here) {  // skip the kept run of the fastest axis in one step
        if (ax.keep_flags.empty() && p == ax.keep.begin && ax.keep.end > ax.keep.begin) p = ax.keep.end - 1;
        continue;
      }
      pos[level] = p;
      walk(level + 1, offset + p * ax.stride, filling || fill_here);
    }
  };
  if (!empty) walk(0, 0, false);

  // Owners through the directory where the records were not gathered (the
  // scattered 'u' axis); collective, so every process calls it.
  if (!layout.has_global_layout()) {
    std::vector<GO> gids(ghosts.size());
    std::vector<int> owners(ghosts.size());
    for (std::size_t i = 0; i < ghosts.size(); ++i) gids[i] = ghosts[i].gid;
    layout.owned_map()->getRemoteIndexList(Teuchos::ArrayView<const GO>(gids.data(), gids.size()),
                                           Teuchos::ArrayView<int>(owners.data(), owners.size()));
    for (std::size_t i = 0; i < ghosts.size(); ++i) ghosts[i].owner = owners[i];
  }

  // Local copies (the owner is this process: periodic wraps) and remote
  // ghosts, each distinct remote index once in the Import's target map.
  std::vector<Ghost> remote;
  for (Ghost& g : ghosts) {
    if (g.owner != me) {
      remote.push_back(std::move(g));
      continue;
    }
    std::ptrdiff_t from = 0;
    for (std::size_t k = 0; k < axes.size(); ++k) from += local_position(*axes[k].dim, g.src[k]) * axes[k].stride;
    self->local_copies_.emplace_back(from, g.offset);
  }
  std::sort(remote.begin(), remote.end(), [](const Ghost& x, const Ghost& y) { return x.gid < y.gid; });
  std::vector<GO> target_gids;
  std::vector<int> target_pids;
  self->remote_ptr_.push_back(0);
  for (std::size_t i = 0; i < remote.size(); ++i) {
    if (i == 0 || remote[i].gid != remote[i - 1].gid) {
      if (i > 0) self->remote_ptr_.push_back(self->remote_offsets_.size());
      target_gids.push_back(remote[i].gid);
      target_pids.push_back(remote[i].owner);
    }
    self->remote_offsets_.push_back(remote[i].offset);
  }
  if (!remote.empty()) self->remote_ptr_.push_back(self->remote_offsets_.size());

  using import_type = Tpetra::Import<LO, GO, Node>;
  self->import_ = Teuchos::rcp(new import_type(layout.owned_map(), target_gids.data(), target_pids.data(),
                                               static_cast<LO>(target_gids.size()), false));
  // The Import's target map puts this process's owned indices first and the
  // ghosts after them; receives arrive in getRemoteLIDs() order. Translate
  // each to its place in target_gids (sorted) through its global index.
  const Map& target = *self->import_->getTargetMap();
  for (LO lid : self->import_->getRemoteLIDs()) {
    const GO gid = target.getGlobalElement(lid);
    self->remote_lids_.push_back(
        static_cast<int>(std::lower_bound(target_gids.begin(), target_gids.end(), gid) - target_gids.begin()));
  }

  // Where each element this process sends lives in its buffer.
  const Map& owned = *layout.owned_map();
  std::vector<IndexLookup> lookups;
  for (const AxisPlan& ax : axes) lookups.emplace_back(*ax.dim);
  const bool one_d_unstructured = ndim == 1 && dims[0].dist_type == DistType::unstructured;
  for (LO lid : self->import_->getExportLIDs()) {
    global_index_t flat = owned.getGlobalElement(lid) - layout.index_base();
    std::ptrdiff_t offset = 0;
    for (std::size_t k = 0; k < axes.size(); ++k) {
      const int a = axes[k].axis;
      const global_index_t g = one_d_unstructured ? flat : (flat / flat_stride[a]) % dims[a].size;
      offset += lookups[k].position(g) * axes[k].stride;
    }
    self->export_offsets_.push_back(offset);
  }
  return self;
}

template <class Scalar>
Scalar* HaloPlan::checked(const DistArray& array) const {
  return detail::checked_data<Scalar>(*layout_, array);
}

template <class Scalar>
void HaloPlan::begin_update(const DistArray& array) const {
  char* base = reinterpret_cast<char*>(checked<Scalar>(array));
  if (in_flight_) throw std::logic_error("dapetra::tpetra::HaloPlan: a split-phase update is already in flight");
  const std::size_t ncols = layout_->num_vectors();
  Teuchos::ArrayRCP<Scalar> exports(export_offsets_.size() * ncols), imports(remote_lids_.size() * ncols);
  for (std::size_t e = 0; e < export_offsets_.size(); ++e)
    for (std::size_t j = 0; j < ncols; ++j)
      exports[e * ncols + j] = at<Scalar>(base, export_offsets_[e] + static_cast<std::ptrdiff_t>(j) * column_stride_);
  import_->getDistributor().doPosts(Teuchos::ArrayRCP<const Scalar>(exports), ncols, imports);
  auto flight = std::make_shared<InFlight>();
  flight->exports = std::make_shared<Teuchos::ArrayRCP<Scalar>>(exports);
  flight->imports = std::make_shared<Teuchos::ArrayRCP<Scalar>>(imports);
  in_flight_ = flight;
}

template <class Scalar>
void HaloPlan::end_update(const DistArray& array) const {
  char* base = reinterpret_cast<char*>(checked<Scalar>(array));
  if (!in_flight_) throw std::logic_error("dapetra::tpetra::HaloPlan: end_update without begin_update");
  import_->getDistributor().doWaits();
  const auto flight = std::static_pointer_cast<InFlight>(in_flight_);
  in_flight_.reset();
  const Teuchos::ArrayRCP<Scalar>& imports = *std::static_pointer_cast<Teuchos::ArrayRCP<Scalar>>(flight->imports);
  const std::size_t ncols = layout_->num_vectors();
  for (std::size_t k = 0; k < remote_lids_.size(); ++k) {
    const auto lid = static_cast<std::size_t>(remote_lids_[k]);
    for (std::size_t t = remote_ptr_[lid]; t < remote_ptr_[lid + 1]; ++t)
      for (std::size_t j = 0; j < ncols; ++j)
        at<Scalar>(base, remote_offsets_[t] + static_cast<std::ptrdiff_t>(j) * column_stride_) = imports[k * ncols + j];
  }
  for (const auto& [from, to] : local_copies_)
    for (std::size_t j = 0; j < ncols; ++j) {
      const std::ptrdiff_t shift = static_cast<std::ptrdiff_t>(j) * column_stride_;
      at<Scalar>(base, to + shift) = at<Scalar>(base, from + shift);
    }
}

template <class Scalar>
void HaloPlan::update(const DistArray& array) const {
  begin_update<Scalar>(array);
  end_update<Scalar>(array);
}

template <class Scalar>
void HaloPlan::assemble(const DistArray& array, CombineMode mode, bool then_update) const {
  char* base = reinterpret_cast<char*>(checked<Scalar>(array));
  const std::size_t ncols = layout_->num_vectors();
  // Ghost contributions travel the Import backwards: receive order becomes send order.
  std::vector<Scalar> exports(remote_lids_.size() * ncols), imports(export_offsets_.size() * ncols);
  for (std::size_t k = 0; k < remote_lids_.size(); ++k) {
    const auto lid = static_cast<std::size_t>(remote_lids_[k]);
    for (std::size_t j = 0; j < ncols; ++j) {
      const std::ptrdiff_t shift = static_cast<std::ptrdiff_t>(j) * column_stride_;
      Scalar value = at<Scalar>(base, remote_offsets_[remote_ptr_[lid]] + shift);
      for (std::size_t t = remote_ptr_[lid] + 1; t < remote_ptr_[lid + 1]; ++t)
        combine(value, at<Scalar>(base, remote_offsets_[t] + shift), mode);
      exports[k * ncols + j] = value;
    }
  }
  import_->getDistributor().doReversePostsAndWaits(Teuchos::ArrayView<const Scalar>(exports), ncols,
                                                   Teuchos::ArrayView<Scalar>(imports));
  for (std::size_t e = 0; e < export_offsets_.size(); ++e)
    for (std::size_t j = 0; j < ncols; ++j)
      combine(at<Scalar>(base, export_offsets_[e] + static_cast<std::ptrdiff_t>(j) * column_stride_),
              imports[e * ncols + j], mode);
  for (const auto& [from, to] : local_copies_)
    for (std::size_t j = 0; j < ncols; ++j) {
      const std::ptrdiff_t shift = static_cast<std::ptrdiff_t>(j) * column_stride_;
      combine(at<Scalar>(base, from + shift), at<Scalar>(base, to + shift), mode);
    }
  if (then_update) update<Scalar>(array);
}

#define DAPETRA_INSTANTIATE_HALO(S)                                                    \
  template void HaloPlan::update<S>(const DistArray&) const;                           \
  template void HaloPlan::begin_update<S>(const DistArray&) const;                     \
  template void HaloPlan::end_update<S>(const DistArray&) const;                       \
  template void HaloPlan::assemble<S>(const DistArray&, CombineMode, bool) const;

DAPETRA_INSTANTIATE_HALO(double)
DAPETRA_INSTANTIATE_HALO(int)
DAPETRA_INSTANTIATE_HALO(long long)

}  // namespace dapetra::tpetra
