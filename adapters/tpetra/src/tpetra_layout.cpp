#include "dapetra/tpetra/tpetra_layout.hpp"

#include <Teuchos_CommHelpers.hpp>
#include <Teuchos_DefaultMpiComm.hpp>
#include <Teuchos_OrdinalTraits.hpp>
#include <Tpetra_Map.hpp>

#include <algorithm>
#include <limits>
#include <memory>

#include "dapetra/mpi/adapter_access.hpp"
#include "dapetra/validate.hpp"
#include "teuchos_collectives.hpp"

namespace dapetra::tpetra {
namespace {

using detail::all_true;
using detail::raw_comm;

std::string axis_list(const std::vector<int>& axes) {
  std::string s;
  for (int a : axes) s += (s.empty() ? "" : ",") + std::to_string(a);
  return "(" + s + ")";
}

Teuchos::RCP<const Map> list_map(Tpetra::global_size_t num_global, const GO* gids, std::size_t count, GO base,
                                 const Teuchos::RCP<const Comm>& comm) {
  return Teuchos::rcp(new Map(num_global, Teuchos::ArrayView<const GO>(gids, count), base, comm));
}

// An index list to hand to Tpetra (which copies it): left uninitialised, as
// every entry is written once.
struct GidList {
  std::unique_ptr<GO[]> data;
  std::size_t size = 0;
};

// Whether every process's owned GIDs, listed in buffer order, are one run
// and the runs follow each other in rank order from `base`: then Tpetra's
// contiguous constructor describes them (and Amesos2's solvers, MueLu's
// coarse solve among them, need such a Map in Trilinos 13.2). For the
// layouts that gather no records. Collective: one scan, one reduction.
bool runs_in_rank_order(const GidList& gids, GO base, const Comm& comm) {
  bool run = true;
  for (std::size_t i = 1; i < gids.size && run; ++i) run = gids.data[i] == gids.data[i - 1] + 1;
  const auto n = static_cast<long long>(gids.size);
  long long through = 0;
  Teuchos::scan<int, long long>(comm, Teuchos::REDUCE_SUM, 1, &n, &through);
  return all_true(run && (n == 0 || gids.data[0] - base == through - n), comm);
}

// The owned positions along one axis of one process, as a run when they form one.
struct Run {
  global_index_t first = 0, count = 0;
  bool is_run = true;
};

}  // namespace

// Builds a TpetraLayout's geometry and maps from its DistributedLayout, in
// named steps.
struct MapBuilder {
  TpetraLayout& self;
  const mpi::DistributedLayout& dl;
  const std::vector<Dim>& dims;
  const int ndim;
  const std::vector<global_index_t> shape;
  const std::vector<int> coords;
  std::vector<int> row_axes;               // every axis but the column axis, slowest first in memory
  std::vector<global_index_t> flat_stride; // per axis, in the linearised array
  global_index_t num_global = 1;
  std::vector<Run> runs;                   // this process's owned run per row axis
  global_index_t n_owned = 0;
  bool one_d_unstructured = false;

  MapBuilder(TpetraLayout& s, const mpi::DistributedLayout& d)
      : self(s), dl(d), dims(d.dim_data()), ndim(static_cast<int>(d.dim_data().size())),
        shape(local_shape_of(d.dim_data())), coords(grid_coords(d.dim_data())) {}

  void check_column_axis(int axis);
  void rows_and_viewability();
  void linearise();
  bool owned_at_coords(const std::vector<int>& c, int a, global_index_t i) const;
  Run owned_run(const std::vector<int>& c, const Dim& d, int a) const;
  void find_owned_rows();
  void list_owned_row_positions();
  GidList list_rows(bool owned_only, std::size_t count) const;
  std::pair<bool, bool> contiguous_and_uniform() const;
  void build_maps();
};

// Every process names the same column axis (one reduction of the axes
// named), undistributed and unpadded (mpi::agree, only when one is named),
// so all throw alike.
void MapBuilder::check_column_axis(int axis) {
  self.column_axis_ = axis;
  int mine[2] = {axis, -axis}, all[2] = {0, 0};  // minimums: the lowest axis named, minus the highest
  Teuchos::reduceAll<int, int>(*self.comm_, Teuchos::REDUCE_MIN, 2, mine, all);
  if (all[0] != -all[1])
    throw ValidationError({Problem::of(
        -1, "column_axis", "", "every process names the same column axis",
        "the processes name column axes from " + std::to_string(all[0]) + " to " + std::to_string(-all[1]))});
  if (axis < 0) return;
  std::vector<Problem> problems;
  if (axis >= ndim || dims[axis].proc_grid_size != 1 || dims[axis].dist_type != DistType::block ||
      dims[axis].padding[0] != 0 || dims[axis].padding[1] != 0)
    problems.push_back(
        Problem::of(dl.rank(), "column_axis", std::to_string(axis),
                    "the column axis is an axis of the array, undistributed ('b' over one process) and unpadded",
                    "this axis cannot become MultiVector columns", axis));
  mpi::agree(problems, raw_comm(*self.comm_));
}

// Rows: every axis but the column axis. Viewable when the rows are compact
// in memory (fastest stride = itemsize, each slower one the product of the
// faster extents) and the column axis, if any, lies beyond all of them.
void MapBuilder::rows_and_viewability() {
  const int col = self.column_axis_;
  for (int a : dl.memory_order())
    if (a != col) row_axes.push_back(a);
  self.num_vectors_ = col >= 0 ? static_cast<std::size_t>(shape[col]) : 1;
  self.local_rows_ = 1;
  for (int a : row_axes) self.local_rows_ *= static_cast<std::size_t>(shape[a]);
  const auto isz = static_cast<global_index_t>(dl.itemsize());
  const auto& strides = dl.local_strides();
  global_index_t expect = isz;
  for (auto it = row_axes.rbegin(); it != row_axes.rend(); ++it) {
    if (shape[*it] > 1 && strides[*it] != expect) {
      self.why_not_viewable_ = "buffer axes " + axis_list(row_axes) + " are not contiguous in memory (axis " +
                               std::to_string(*it) + " has stride " + std::to_string(strides[*it]) +
                               " bytes, a view needs " + std::to_string(expect) + ")";
      break;
    }
    expect *= std::max<global_index_t>(shape[*it], 1);
  }
  self.leading_dimension_ = self.local_rows_;
  if (col >= 0 && self.num_vectors_ > 1) {
    const global_index_t cs = strides[col];
    if (cs < expect || cs % isz != 0) {
      if (self.why_not_viewable_.empty())
        self.why_not_viewable_ = "the column axis " + std::to_string(col) + " (stride " + std::to_string(cs) +
                                 " bytes) is not the slowest axis in memory; columns would not be contiguous";
    } else {
      self.leading_dimension_ = static_cast<std::size_t>(cs / isz);
    }
  }
  // Whether a named column axis works depends on each process's strides:
  // agree on it before any process goes on to build maps.
  if (col < 0) return;
  std::vector<Problem> problems;
  if (!self.why_not_viewable_.empty())
    problems.push_back(Problem::of(dl.rank(), "column_axis", std::to_string(col),
                                   "a column axis needs each column contiguous in memory", self.why_not_viewable_,
                                   col));
  mpi::agree(problems, raw_comm(*self.comm_));
}

// The linearised global array: C order over the non-column axes.
void MapBuilder::linearise() {
  one_d_unstructured = ndim == 1 && dims[0].dist_type == DistType::unstructured;
  flat_stride.assign(static_cast<std::size_t>(ndim), 0);
  for (int a = 0; a < ndim; ++a)
    if (a != self.column_axis_) self.map_shape_.push_back(dims[a].size);
  self.map_strides_.assign(self.map_shape_.size(), 1);
  for (int i = static_cast<int>(self.map_shape_.size()) - 1; i >= 0; --i) {
    self.map_strides_[i] = num_global;
    if (self.map_shape_[i] != 0 && num_global > std::numeric_limits<global_index_t>::max() / self.map_shape_[i])
      throw ValidationError(
          {Problem::of(-1, "size", "", "the global element count fits 64 bits", "the array is too large")});
    num_global *= self.map_shape_[i];
  }
  // Tpetra's global ordinal is the one its build instantiated: 64-bit in
  // Debian's 13.2 and 16.1, int in Debian's 17.0. The shape is the same on
  // every process, so every process refuses alike.
  const auto go_max = static_cast<global_index_t>(std::numeric_limits<GO>::max());
  if (num_global > 0 && num_global - 1 > go_max - static_cast<global_index_t>(self.index_base_))
    throw ValidationError({Problem::of(-1, "size", std::to_string(num_global),
                                       "the global element count fits Tpetra's global ordinal (" +
                                           std::to_string(8 * sizeof(GO)) + "-bit in this Trilinos build)",
                                       "the array is too large for this Trilinos")});
  // A 1-D 'u' array's negative indices are its GIDs too (the lowest, at
  // most 0, is the same on every process): base + lowest >= GO's least,
  // written so that nothing overflows.
  const global_index_t lowest = one_d_unstructured ? mpi::adapter::lowest_index(dl) : 0;
  if (static_cast<global_index_t>(self.index_base_) < static_cast<global_index_t>(std::numeric_limits<GO>::min()) - lowest)
    throw ValidationError({Problem::of(
        -1, "indices", std::to_string(lowest),
        "every index fits Tpetra's global ordinal (" + std::to_string(8 * sizeof(GO)) + "-bit in this Trilinos build)",
        "an index is too far below zero for this Trilinos", 0)});
  for (int a = 0, i = 0; a < ndim; ++a)
    if (a != self.column_axis_) flat_stride[a] = one_d_unstructured ? 1 : self.map_strides_[i++];
}

// Position i along axis a of the process at grid coordinates c: owned?
// (Along the scattered axis, or beside it, only this process's own.)
bool MapBuilder::owned_at_coords(const std::vector<int>& c, int a, global_index_t i) const {
  const GlobalLayout* every = mpi::adapter::gathered_records(dl);
  if (a == mpi::adapter::scattered_axis(dl) || !every) return dl.is_owned(a, i);
  return every->axis(a).is_owned(c[a], i);
}

Run MapBuilder::owned_run(const std::vector<int>& c, const Dim& d, int a) const {
  const bool scattered = a == mpi::adapter::scattered_axis(dl);
  if (scattered && dl.every_element_owned()) return Run{0, local_extent(d), true};
  if (!scattered && d.dist_type == DistType::block) {
    const LocalRange lr = owned_local_range(d);
    return Run{lr.begin, lr.size(), true};
  }
  if (!scattered && (d.dist_type == DistType::cyclic || d.proc_grid_size == 1)) return Run{0, local_extent(d), true};
  Run run;
  global_index_t last = -1;
  for (global_index_t i = 0; i < local_extent(d); ++i)
    if (owned_at_coords(c, a, i)) {
      if (run.count == 0) run.first = i;
      else if (last != i - 1) run.is_run = false;
      last = i;
      ++run.count;
    }
  return run;
}

// Owned rows contiguous in memory? From the fastest row axis: fully owned
// axes widen the block; the first partly owned one must own a single run,
// and each slower axis exactly one position.
void MapBuilder::find_owned_rows() {
  runs.assign(static_cast<std::size_t>(ndim), Run{});
  bool any_empty = false;
  for (int a : row_axes) {
    runs[a] = owned_run(coords, dims[a], a);
    any_empty = any_empty || runs[a].count == 0;
  }
  n_owned = any_empty ? 0 : 1;
  for (int a : row_axes) n_owned *= runs[a].count;
  if (!self.buffer_viewable()) return;
  if (any_empty) {
    self.owned_rows_ = LocalRange{0, 0};
    return;
  }
  std::size_t block = 1, offset = 0, stride_rows = 1;
  bool contiguous = true, partial_seen = false;
  for (auto it = row_axes.rbegin(); it != row_axes.rend(); ++it) {
    const Run& run = runs[*it];
    if (!run.is_run || (partial_seen && run.count != 1)) contiguous = false;
    if (!partial_seen) block *= static_cast<std::size_t>(run.count);
    partial_seen = partial_seen || run.count != shape[*it];
    offset += static_cast<std::size_t>(run.first) * stride_rows;
    stride_rows *= static_cast<std::size_t>(shape[*it]);
  }
  if (contiguous)
    self.owned_rows_ = LocalRange{static_cast<local_index_t>(offset), static_cast<local_index_t>(offset + block)};
}

// Where the owned rows are not one run: each one's buffer row, walking the
// rows in memory order (as list_rows does, so the k-th listed is the owned
// map's k-th row). A row is owned when its position along every row axis is.
void MapBuilder::list_owned_row_positions() {
  if (self.owned_rows_ || n_owned == 0) return;
  auto& out = self.owned_row_list_;
  out.reserve(static_cast<std::size_t>(n_owned));
  if (row_axes.empty()) {  // a scalar: its single element
    out.push_back(0);
    return;
  }
  std::vector<std::vector<char>> own(row_axes.size());
  for (std::size_t j = 0; j < row_axes.size(); ++j) {
    const int a = row_axes[j];
    for (global_index_t i = 0; i < shape[a]; ++i) own[j].push_back(owned_at_coords(coords, a, i));
  }
  std::vector<std::size_t> pos(row_axes.size(), 0);
  for (local_index_t row = 0; row < static_cast<local_index_t>(self.local_rows_); ++row) {
    bool owned = true;
    for (std::size_t j = 0; j < row_axes.size() && owned; ++j) owned = own[j][pos[j]] != 0;
    if (owned) out.push_back(row);
    std::size_t j = row_axes.size();
    while (j > 0 && ++pos[j - 1] == own[j - 1].size()) pos[--j] = 0;
  }
  if (out.size() != static_cast<std::size_t>(n_owned))
    throw std::logic_error("dapetra::tpetra: listed " + std::to_string(out.size()) + " owned rows, expected " +
                           std::to_string(n_owned));
}

// The flat indices (plus the index base) of this process's rows, owned
// ones only or all, in memory order, written without a pass per element
// beyond the one that stores it: every axis's global indices come in bulk
// (global_indices), the fastest axis's already scaled and shifted, and a
// row is its base plus those. A 1-D axis held whole is written in place.
GidList MapBuilder::list_rows(bool owned_only, std::size_t count) const {
  GidList gids{std::unique_ptr<GO[]>(new GO[std::max<std::size_t>(count, 1)]), count};
  if (row_axes.empty()) {  // a scalar: its single element
    gids.data[0] = static_cast<GO>(self.index_base_);
    gids.size = 1;
    return gids;
  }
  for (int a : row_axes)
    if (shape[a] == 0) return gids;
  const int fast = row_axes.back();
  const auto fast_extent = static_cast<std::size_t>(shape[fast]);
  const bool check_each = owned_only && !runs[fast].is_run;
  const std::size_t lo = owned_only && runs[fast].is_run ? static_cast<std::size_t>(runs[fast].first) : 0;
  const std::size_t hi = owned_only && runs[fast].is_run ? static_cast<std::size_t>(runs[fast].first + runs[fast].count)
                                                         : fast_extent;
  GO* out = gids.data.get();
  if (row_axes.size() == 1 && !check_each && lo == 0 && hi == fast_extent) {
    global_indices<GO>(dims[fast], out, static_cast<GO>(flat_stride[fast]), static_cast<GO>(self.index_base_));
    out += fast_extent;
  } else {
    std::vector<GO> fast_part(fast_extent);
    global_indices<GO>(dims[fast], fast_part.data(), static_cast<GO>(flat_stride[fast]), static_cast<GO>(self.index_base_));
    // The slower axes: each position's flat part and ownership.
    const std::size_t outer = row_axes.size() - 1;
    std::vector<std::vector<GO>> part(outer);
    std::vector<std::vector<char>> own(outer);
    for (std::size_t j = 0; j < outer; ++j) {
      const int a = row_axes[j];
      part[j].resize(static_cast<std::size_t>(shape[a]));
      global_indices<GO>(dims[a], part[j].data(), static_cast<GO>(flat_stride[a]));
      if (owned_only)
        for (global_index_t i = 0; i < shape[a]; ++i) own[j].push_back(owned_at_coords(coords, a, i));
    }
    std::vector<std::size_t> pos(outer, 0);
    while (true) {
      GO base = 0;
      bool base_owned = true;
      for (std::size_t j = 0; j < outer; ++j) {
        base += part[j][pos[j]];
        base_owned = base_owned && (!owned_only || own[j][pos[j]]);
      }
      if (base_owned)
        for (std::size_t i = lo; i < hi; ++i)
          if (!check_each || owned_at_coords(coords, fast, static_cast<global_index_t>(i))) *out++ = base + fast_part[i];
      std::size_t j = outer;
      while (j > 0 && ++pos[j - 1] == part[j - 1].size()) pos[--j] = 0;
      if (j == 0) break;
    }
  }
  if (static_cast<std::size_t>(out - gids.data.get()) != count)
    throw std::logic_error("dapetra::tpetra: listed " + std::to_string(out - gids.data.get()) + " rows, expected " +
                           std::to_string(count));
  return gids;
}

// The contiguous constructor fits when, on every process, the owned flat
// indices in memory order are the run [offset, offset + n) with offsets in
// rank order. With gathered records every process decides that for every
// process from the structure (O(1) per 'b' or 'c' axis), with no
// communication and without listing a 10^8-element block's indices.
std::pair<bool, bool> MapBuilder::contiguous_and_uniform() const {
bool contiguous_map = false, uniform_split = false;
if (const GlobalLayout* every = mpi::adapter::gathered_records(dl)) {
  contiguous_map = true;
  // Tpetra's uniform split: the first (num_global mod P) processes own one
  // more than the others (Dim::even_block's split too).
  const GlobalLayout& g = *every;
  const int P = g.nprocs();
  uniform_split = num_global >= P;  // below that, Tpetra's flags for empty processes differ
  global_index_t offset = 0;
  std::vector<int> c(static_cast<std::size_t>(ndim)), axes;  // reused for every process
  axes.reserve(static_cast<std::size_t>(ndim));
  for (int r = 0; r < P && contiguous_map; ++r) {
    for (int a = 0; a < ndim; ++a) c[a] = g.grid().coord_of(r, a);
    axes.clear();
    for (int a : dl.memory_order_of(r))
      if (a != self.column_axis_) axes.push_back(a);
    global_index_t n = 1, first = 0, expect_stride = 1;
    for (auto it = axes.rbegin(); it != axes.rend(); ++it) {
      const int a = *it;
      const Dim& d = g.record(r, a);
      const Run run = owned_run(c, d, a);
      n *= run.count;
      if (run.count == 0) break;
      bool steps_by_one = true;
      if (d.dist_type == DistType::cyclic) steps_by_one = d.proc_grid_size == 1 || run.count <= d.block_size;
      if (d.dist_type == DistType::unstructured) {
        global_index_t prev = 0, seen = 0;
        for (global_index_t i = 0; i < local_extent(d) && steps_by_one; ++i)
          if (owned_at_coords(c, a, i)) {
            if (seen++ > 0 && d.indices[i] != prev + 1) steps_by_one = false;
            prev = d.indices[i];
          }
      }
      first += global_index(d, run.first) * flat_stride[a];
      if (run.count > 1) {
        if (!steps_by_one || !run.is_run || flat_stride[a] != expect_stride) contiguous_map = false;
        expect_stride *= run.count;
      }
    }
    if (n > 0 && first != offset) contiguous_map = false;
    if (n != num_global / P + (r < num_global % P)) uniform_split = false;
    offset += n;
  }
}

return {contiguous_map, uniform_split};
}

// Both maps; when they coincide (no process holds an element it does not
// own), the one map serves as both.
void MapBuilder::build_maps() {
  const Teuchos::RCP<const Comm>& comm = self.comm_;
  const GO base = self.index_base_;
  // A 1-D 'u' array may hold negative indices; Tpetra wants the map's index
  // base at or below every GID.
  const GO lowest = static_cast<GO>(mpi::adapter::lowest_index(dl));  // fits: linearise() checked
  const GO map_base = one_d_unstructured ? std::min<GO>(base, base + lowest) : base;
  const auto global_count = static_cast<Tpetra::global_size_t>(num_global);
  const bool gathered = mpi::adapter::gathered_records(dl) != nullptr;
  if (one_d_unstructured && !gathered) {  // the indices as they are: the buffer map
    const Dim& u = dims[0];
    GidList gids{std::unique_ptr<GO[]>(new GO[std::max<std::size_t>(u.indices.size(), 1)]), u.indices.size()};
    global_indices<GO>(u, gids.data.get(), 1, base);
    const auto count = dl.every_element_owned() ? global_count : Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid();
    self.buffer_map_ = list_map(count, gids.data.get(), gids.size, map_base, comm);
    if (dl.every_element_owned()) {
      self.owned_map_ = self.buffer_map_;
      return;
    }
  }
  const auto [contiguous_map, uniform_split] = contiguous_and_uniform();
  if (contiguous_map && uniform_split) {
    // Every process computes its own range from num_global: no communication
    // (the nonuniform constructor below needs a scan and a reduction).
    self.owned_map_ = Teuchos::rcp(new Map(global_count, base, comm, Tpetra::GloballyDistributed));
  } else if (contiguous_map) {
    self.owned_map_ = Teuchos::rcp(new Map(global_count, static_cast<std::size_t>(n_owned), base, comm));
  } else {
    const GidList gids = list_rows(true, static_cast<std::size_t>(n_owned));
    if (!gathered && runs_in_rank_order(gids, base, *comm))
      self.owned_map_ = Teuchos::rcp(new Map(global_count, gids.size, base, comm));
    else
      self.owned_map_ = list_map(global_count, gids.data.get(), gids.size, map_base, comm);
  }
  if (self.buffer_map_) return;
  if (dl.every_element_owned()) {
    self.buffer_map_ = self.owned_map_;
    return;
  }
  const GidList gids = list_rows(false, self.local_rows_);
  self.buffer_map_ = list_map(Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid(), gids.data.get(), gids.size,
                              map_base, comm);
}

std::shared_ptr<const TpetraLayout> TpetraLayout::create(std::shared_ptr<const mpi::DistributedLayout> layout,
                                                         Teuchos::RCP<const Comm> comm, const MapOptions& options) {
  std::shared_ptr<TpetraLayout> self(new TpetraLayout());
  self->layout_ = std::move(layout);
  self->comm_ = std::move(comm);
  self->index_base_ = options.index_base;
  MapBuilder b(*self, *self->layout_);
  b.check_column_axis(options.column_axis);
  b.rows_and_viewability();
  b.linearise();
  b.find_owned_rows();
  b.list_owned_row_positions();
  b.build_maps();
  return self;
}

std::shared_ptr<const TpetraLayout> TpetraLayout::create(const DistArray& local, Teuchos::RCP<const Comm> comm,
                                                         const TpetraLayoutOptions& options) {
  auto layout = mpi::DistributedLayout::create(local, raw_comm(*comm), options.distribution);
  return create(std::move(layout), std::move(comm), options);
}

std::shared_ptr<const TpetraLayout> TpetraLayout::create(const std::vector<Dim>& dim_data,
                                                         Teuchos::RCP<const Comm> comm, const TpetraLayoutOptions& options) {
  auto layout = mpi::DistributedLayout::create(dim_data, raw_comm(*comm), options.distribution);
  return create(std::move(layout), std::move(comm), options);
}

namespace {

// owned_map()'s shortcut covers row-block layouts: axis 0 is 'b' and every
// other axis is undistributed and unpadded, so each process owns one run of
// whole rows and the owned map is contiguous in rank order.
bool is_row_block(const std::vector<Dim>& dims) {
  if (dims.empty() || dims[0].dist_type != DistType::block) return false;
  for (std::size_t a = 1; a < dims.size(); ++a) {
    const Dim& d = dims[a];
    if (d.dist_type != DistType::block || d.proc_grid_size != 1 || d.start != 0 || d.stop != d.size ||
        d.padding[0] != 0 || d.padding[1] != 0)
      return false;
  }
  return true;
}

// The words owned_map() gathers: a tag, then axis 0's record, the index
// base and the other axes' sizes; a lone 0 from a process whose layout is
// not a locally valid row block. Its own short list rather than the
// layouts' record format (wire/pack.hpp): packing and unpacking whole
// records cost this shortcut a third of its time (0.79 to 1.05 us per call
// at 2 processes, benchmarks' owned_map block rows), which is all it is for.
constexpr std::int64_t row_block_tag = 0x524f57;  // "ROW"
enum RowBlockWord { rb_tag, rb_ndim, rb_size, rb_grid_size, rb_grid_rank, rb_start, rb_stop, rb_pad_low, rb_pad_high,
                    rb_periodic, rb_index_base, rb_other_sizes };

Dim axis0_of(const std::int64_t* w) {
  return Dim::block(w[rb_size], static_cast<int>(w[rb_grid_size]), static_cast<int>(w[rb_grid_rank]), w[rb_start],
                    w[rb_stop], {w[rb_pad_low], w[rb_pad_high]}, w[rb_periodic] != 0);
}

}  // namespace

Teuchos::RCP<const Map> owned_map(const std::vector<Dim>& dim_data, Teuchos::RCP<const Comm> comm, GO index_base) {
  const int rank = comm->getRank(), nprocs = comm->getSize();
  std::vector<std::int64_t> mine{0};
  if (is_row_block(dim_data) && check_rank(dim_data, rank).empty()) {
    const Dim& d = dim_data[0];
    mine = {row_block_tag, static_cast<std::int64_t>(dim_data.size()), d.size, d.proc_grid_size, d.proc_grid_rank,
            d.start, d.stop, d.padding[0], d.padding[1], d.periodic, index_base};
    for (std::size_t a = 1; a < dim_data.size(); ++a) mine.push_back(dim_data[a].size);
  }
  const auto gathered = detail::gather_words(mine, *comm, rb_other_sizes + 6);  // one slot fits 1 to 5 axes

  // Every process judges the same words, so all take the same branch. The
  // shortcut needs every process's row block, agreeing on the shape, the
  // grid (axis 0 over all processes, in rank order) and the index base, and
  // axis 0 passing the core's block-axis rules; anything else (including any
  // mistake, to be reported in full) goes through a whole TpetraLayout.
  const std::int64_t* first = gathered.of(0);
  bool shortcut = true;
  for (int r = 0; r < nprocs && shortcut; ++r) {
    const std::int64_t* w = gathered.of(r);
    shortcut = gathered.size(r) == gathered.size(0) && w[rb_tag] == row_block_tag && w[rb_grid_size] == nprocs &&
               w[rb_grid_rank] == r && w[rb_index_base] == first[rb_index_base] &&
               std::equal(w + rb_ndim, w + rb_grid_size, first + rb_ndim) &&
               std::equal(w + rb_other_sizes, w + gathered.size(r), first + rb_other_sizes);
  }
  global_index_t num_global = 0, rest = 1;
  std::vector<Dim> along;
  if (shortcut) {
    along.reserve(static_cast<std::size_t>(nprocs));
    std::vector<const Dim*> by_grid_rank(static_cast<std::size_t>(nprocs));
    std::vector<int> mpi_rank(static_cast<std::size_t>(nprocs));
    for (int r = 0; r < nprocs; ++r) {
      along.push_back(axis0_of(gathered.of(r)));
      by_grid_rank[r] = &along.back();
      mpi_rank[r] = r;
    }
    for (std::size_t i = rb_other_sizes; i < gathered.size(0) && shortcut; ++i)
      shortcut = !__builtin_mul_overflow(rest, first[i], &rest);
    shortcut = shortcut && !__builtin_mul_overflow(first[rb_size], rest, &num_global) &&
               check_block_axis(0, by_grid_rank, mpi_rank).empty();
  }
  if (!shortcut) {
    TpetraLayoutOptions options;
    options.index_base = index_base;
    return TpetraLayout::create(dim_data, std::move(comm), options)->owned_map();
  }
  // As TpetraLayout builds it: Tpetra's uniform split needs no communication.
  const auto owned_rows = [&](int r) { return owned_global_range(along[static_cast<std::size_t>(r)]).size() * rest; };
  bool uniform = num_global >= nprocs;
  for (int r = 0; r < nprocs && uniform; ++r) uniform = owned_rows(r) == num_global / nprocs + (r < num_global % nprocs);
  const auto global_count = static_cast<Tpetra::global_size_t>(num_global);
  if (uniform) return Teuchos::rcp(new Map(global_count, index_base, comm, Tpetra::GloballyDistributed));
  return Teuchos::rcp(new Map(global_count, static_cast<std::size_t>(owned_rows(rank)), index_base, comm));
}


}  // namespace dapetra::tpetra
