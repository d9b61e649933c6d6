#include "dapetra/tpetra/layout.hpp"

#include <Teuchos_OrdinalTraits.hpp>
#include <Tpetra_Map.hpp>
#include <algorithm>
#include <cstring>
#include <limits>

#include "collectives.hpp"
#include "dapetra/pack.hpp"
#include "dapetra/validate.hpp"

namespace dapetra::tpetra {
namespace {

// extra words each process shares beside its records
enum Extra { extra_column_axis, extra_itemsize, extra_format, extra_count };

std::int64_t encode_format(const std::string& f) {
  std::int64_t v = 0;
  std::memcpy(&v, f.data(), std::min<std::size_t>(f.size(), 7));
  return v;
}

std::string axis_list(const std::vector<int>& axes) {
  std::string s;
  for (int a : axes) s += (s.empty() ? "" : ",") + std::to_string(a);
  return "(" + s + ")";
}

// Local problems with the column axis option that the records alone do not show.
void check_column_axis(const std::vector<Dim>& dims, int axis, int rank, std::vector<Problem>& out) {
  if (axis < 0) return;
  const auto add = [&](std::string key, std::string value, std::string rule, std::string msg) {
    out.push_back(Problem{rank, axis < static_cast<int>(dims.size()) ? axis : -1, std::move(key), std::move(value),
                          std::move(rule), std::move(msg)});
  };
  if (axis >= static_cast<int>(dims.size())) {
    add("column_axis", std::to_string(axis), "the column axis is an axis of the array",
        "the array has " + std::to_string(dims.size()) + " axes");
    return;
  }
  const Dim& d = dims[axis];
  if (d.proc_grid_size != 1 || d.dist_type != DistType::block || d.padding[0] != 0 || d.padding[1] != 0)
    add("column_axis", describe(d), "the column axis is undistributed ('b' over one process) and unpadded",
        "this axis cannot become MultiVector columns");
}

}  // namespace

std::shared_ptr<const TpetraLayout> TpetraLayout::create(const std::vector<Dim>& dim_data,
                                                         Teuchos::RCP<const Comm> comm, const LayoutOptions& options) {
  // A stand-in buffer: the implied shape, C order, no memory (never dereferenced:
  // the layout only records shape and strides).
  DistArray a;
  a.dim_data = dim_data;
  a.buffer.format = "d";
  a.buffer.itemsize = sizeof(double);
  a.buffer.shape = local_shape_of(dim_data);
  for (auto& s : a.buffer.shape) s = std::max<global_index_t>(s, 0);
  a.buffer.strides = c_strides(a.buffer.shape, sizeof(double));
  static double placeholder;
  a.buffer.data = &placeholder;
  return create(a, std::move(comm), options);
}

std::shared_ptr<const TpetraLayout> TpetraLayout::create(const DistArray& local, Teuchos::RCP<const Comm> comm,
                                                         const LayoutOptions& options) {
  std::shared_ptr<TpetraLayout> self(new TpetraLayout());
  self->comm_ = comm;
  self->rank_ = comm->getRank();
  const int nprocs = comm->getSize();
  const int rank = self->rank_;

  // 1. What this process can tell on its own.
  PackedRank mine;
  mine.entry.dim_data = local.dim_data;
  mine.entry.local_shape = local.buffer.shape;
  mine.memory_order = dapetra::memory_order(local.buffer);
  mine.problems = check_version(local.version);
  for (Problem& p : mine.problems) p.rank = rank;
  auto buf = check_buffer(local.buffer, rank);
  mine.problems.insert(mine.problems.end(), buf.begin(), buf.end());
  check_column_axis(local.dim_data, options.column_axis, rank, mine.problems);
  mine.extra = {options.column_axis, static_cast<std::int64_t>(local.buffer.itemsize), encode_format(local.buffer.format)};

  // 2. Everyone sees everything, then judges the same data the same way.
  const auto gathered = detail::allgather_words(pack_rank(mine), *comm);
  std::vector<Problem> problems;
  Layout layout;
  std::vector<PackedRank> all(nprocs);
  for (int r = 0; r < nprocs; ++r) {
    try {
      all[r] = unpack_rank(gathered[r].data(), gathered[r].size());
    } catch (const ValidationError& e) {
      for (Problem p : e.problems()) {
        p.rank = r;
        problems.push_back(p);
      }
    }
    problems.insert(problems.end(), all[r].problems.begin(), all[r].problems.end());
    layout.ranks.push_back(all[r].entry);
    if (all[r].extra.size() != extra_count) all[r].extra.assign(extra_count, -2);
  }
  for (int r = 1; r < nprocs; ++r) {
    if (all[r].extra[extra_column_axis] != all[0].extra[extra_column_axis])
      problems.push_back({r, -1, "column_axis", std::to_string(all[r].extra[extra_column_axis]),
                          "every process names the same column axis",
                          "rank 0 names " + std::to_string(all[0].extra[extra_column_axis])});
    if (all[r].extra[extra_format] != all[0].extra[extra_format] ||
        all[r].extra[extra_itemsize] != all[0].extra[extra_itemsize])
      problems.push_back({r, -1, "format", "", "every process's buffer has the same element type",
                          "rank " + std::to_string(r) + " and rank 0 differ in format or itemsize"});
  }
  auto collective = check_layout(layout);
  problems.insert(problems.end(), collective.begin(), collective.end());
  throw_if_any(problems);  // on every process alike

  self->global_ = std::make_unique<GlobalLayout>(assume_valid, std::move(layout), options.shared_owner);
  for (const PackedRank& p : all) self->memory_orders_.push_back(p.memory_order);
  self->memory_order_ = self->memory_orders_[rank];
  self->local_strides_ = local.buffer.strides;
  self->itemsize_ = local.buffer.itemsize;
  self->column_axis_ = options.column_axis;
  self->index_base_ = options.index_base;
  self->build_maps();
  return self;
}

void TpetraLayout::build_maps() {
  const std::vector<Dim>& dims = dim_data();
  const int ndim = static_cast<int>(dims.size());
  const std::vector<global_index_t> shape = local_shape_of(dims);

  // Rows: every axis but the column axis, in memory order (slowest first).
  std::vector<int> row_axes;
  for (int a : memory_order_)
    if (a != column_axis_) row_axes.push_back(a);
  num_vectors_ = column_axis_ >= 0 ? static_cast<std::size_t>(shape[column_axis_]) : 1;
  local_rows_ = 1;
  for (int a : row_axes) local_rows_ *= static_cast<std::size_t>(shape[a]);

  // Viewable when the rows are compact in memory (fastest axis stride =
  // itemsize, each slower one the product of the faster extents) and the
  // column axis, if any, is slower than all of them.
  const auto isz = static_cast<global_index_t>(itemsize_);
  global_index_t expect = isz;
  for (auto it = row_axes.rbegin(); it != row_axes.rend(); ++it) {
    if (shape[*it] > 1 && local_strides_[*it] != expect) {
      why_not_viewable_ = "buffer axes " + axis_list(row_axes) + " are not contiguous in memory (axis " +
                          std::to_string(*it) + " has stride " + std::to_string(local_strides_[*it]) +
                          " bytes, a view needs " + std::to_string(expect) + ")";
      break;
    }
    expect *= std::max<global_index_t>(shape[*it], 1);
  }
  leading_dimension_ = local_rows_;
  if (column_axis_ >= 0 && num_vectors_ > 1) {
    const global_index_t cs = local_strides_[column_axis_];
    if (cs < expect || cs % isz != 0) {
      if (why_not_viewable_.empty())
        why_not_viewable_ = "the column axis " + std::to_string(column_axis_) + " (stride " + std::to_string(cs) +
                            " bytes) is not the slowest axis in memory; columns would not be contiguous";
    } else {
      leading_dimension_ = static_cast<std::size_t>(cs / isz);
    }
  }
  if (column_axis_ >= 0 && !why_not_viewable_.empty())
    throw ValidationError({Problem{rank_, column_axis_, "column_axis", std::to_string(column_axis_),
                                   "a column axis needs each column contiguous in memory", why_not_viewable_}});

  // The linearised global array: C order over the non-column axes.
  const bool one_d_unstructured = ndim == 1 && dims[0].dist_type == DistType::unstructured;
  map_shape_.clear();
  std::vector<int> map_axes;
  for (int a = 0; a < ndim; ++a)
    if (a != column_axis_) {
      map_shape_.push_back(dims[a].size);
      map_axes.push_back(a);
    }
  map_strides_.assign(map_shape_.size(), 1);
  global_index_t num_global = 1;
  for (int i = static_cast<int>(map_shape_.size()) - 1; i >= 0; --i) {
    map_strides_[i] = num_global;
    if (map_shape_[i] != 0 && num_global > std::numeric_limits<global_index_t>::max() / map_shape_[i])
      throw ValidationError({Problem{-1, -1, "size", "", "the global element count fits 64 bits", "the array is too large"}});
    num_global *= map_shape_[i];
  }
  std::vector<global_index_t> flat_stride(ndim, 0);
  for (std::size_t i = 0; i < map_axes.size(); ++i) flat_stride[map_axes[i]] = map_strides_[i];

  // Along each axis: the owned positions of this process as a run, when they form one.
  const std::vector<int> coords = global_->grid().coords_of(rank_);
  const auto owned_at = [&](int a, global_index_t i) { return global_->axis(a).is_owned(coords[a], i); };
  struct Run {
    global_index_t first = 0, count = 0;
    bool is_run = true;  // positions first .. first+count-1, nothing else
  };
  const auto owned_run = [&](int a) {
    const Dim& d = dims[a];
    Run run;
    if (d.dist_type == DistType::block) {
      const LocalRange r = owned_local_range(d);
      return Run{r.begin, r.size(), true};
    }
    if (d.dist_type == DistType::cyclic) return Run{0, local_extent(d), true};
    global_index_t last = -1;
    for (global_index_t i = 0; i < local_extent(d); ++i)
      if (owned_at(a, i)) {
        if (run.count == 0) run.first = i;
        else if (last != i - 1) run.is_run = false;
        last = i;
        ++run.count;
      }
    return run;
  };
  const auto rows_of = [&](int r, bool owned_only) {
    const std::vector<int> c = global_->grid().coords_of(r);
    const auto& dd = global_->dim_data(r);
    global_index_t n = 1;
    for (int a = 0; a < ndim; ++a)
      if (a != column_axis_) n *= owned_only ? global_->axis(a).num_owned(c[a]) : local_extent(dd[a]);
    return n;
  };

  // Owned rows contiguous in memory? From the fastest row axis: fully owned
  // axes widen the block; the first partly owned one must own a single run,
  // and each slower axis exactly one position.
  std::vector<Run> runs(ndim);
  bool any_empty = false;
  for (int a : row_axes) {
    runs[a] = owned_run(a);
    any_empty = any_empty || runs[a].count == 0;
  }
  if (buffer_viewable()) {
    if (any_empty) {
      owned_rows_ = LocalRange{0, 0};
    } else {
      std::size_t block = 1, offset = 0, stride_rows = 1;
      bool contiguous = true, partial_seen = false;
      for (auto it = row_axes.rbegin(); it != row_axes.rend(); ++it) {
        const Run& run = runs[*it];
        const global_index_t n = shape[*it];
        if (!run.is_run || (partial_seen && run.count != 1)) contiguous = false;
        if (!partial_seen) block *= static_cast<std::size_t>(run.count);
        partial_seen = partial_seen || run.count != n;
        offset += static_cast<std::size_t>(run.first) * stride_rows;
        stride_rows *= static_cast<std::size_t>(n);
      }
      if (contiguous)
        owned_rows_ = LocalRange{static_cast<local_index_t>(offset), static_cast<local_index_t>(offset + block)};
    }
  }

  // Visits every row in memory order with its global flat index and whether
  // this process owns it. The fastest axis is computed inline, so a 1-D
  // buffer allocates nothing.
  const auto for_each_row = [&](auto&& visit) {
    if (row_axes.empty()) return visit(global_index_t{0}, true);
    for (int a : row_axes)
      if (shape[a] == 0) return;
    const auto flat_part = [&](int a, global_index_t i) {
      return one_d_unstructured ? global_index(dims[a], i) : global_index(dims[a], i) * flat_stride[a];
    };
    const std::size_t outer = row_axes.size() - 1;
    const int fast = row_axes.back();
    std::vector<std::vector<global_index_t>> part(outer);
    std::vector<std::vector<char>> own(outer);
    for (std::size_t j = 0; j < outer; ++j) {
      const int a = row_axes[j];
      for (global_index_t i = 0; i < shape[a]; ++i) {
        part[j].push_back(flat_part(a, i));
        own[j].push_back(owned_at(a, i));
      }
    }
    std::vector<std::size_t> pos(outer, 0);
    while (true) {
      global_index_t base = 0;
      bool base_owned = true;
      for (std::size_t j = 0; j < outer; ++j) {
        base += part[j][pos[j]];
        base_owned = base_owned && own[j][pos[j]];
      }
      for (global_index_t i = 0; i < shape[fast]; ++i) visit(base + flat_part(fast, i), base_owned && owned_at(fast, i));
      std::size_t j = outer;
      while (j > 0 && ++pos[j - 1] == part[j - 1].size()) pos[--j] = 0;
      if (j == 0) return;
    }
  };

  // Is this process's owned part the run [first, first + n) of flat indices,
  // in memory order? Decided from the structure (O(1) for 'b' and 'c'), so a
  // 10^8-element block never lists its indices.
  const global_index_t n_owned = rows_of(rank_, true);

  global_index_t first_gid = 0;
  bool consecutive = true;
  global_index_t expect_stride = 1;
  for (auto it = row_axes.rbegin(); it != row_axes.rend() && n_owned > 0; ++it) {
    const int a = *it;
    const Dim& d = dims[a];
    const Run& run = runs[a];
    const global_index_t stride = one_d_unstructured ? 1 : flat_stride[a];
    // Consecutive global indices along this axis, in position order?
    bool steps_by_one = true;
    if (d.dist_type == DistType::cyclic) steps_by_one = d.proc_grid_size == 1 || run.count <= d.block_size;
    if (d.dist_type == DistType::unstructured) {
      global_index_t prev = 0, seen = 0;
      for (global_index_t i = 0; i < local_extent(d) && steps_by_one; ++i)
        if (owned_at(a, i)) {
          if (seen++ > 0 && d.indices[i] != prev + 1) steps_by_one = false;
          prev = d.indices[i];
        }
    }
    first_gid += global_index(d, run.first) * stride;
    if (run.count > 1) {
      if (!steps_by_one || !run.is_run || stride != expect_stride) consecutive = false;
      expect_stride *= run.count;
    }
  }
  if (n_owned == 0) first_gid = 0;
  const long long before = detail::exclusive_sum(n_owned, *comm_);
  const bool contiguous_map = detail::all_true(consecutive && (n_owned == 0 || first_gid == before), *comm_);

  // A 1-D 'u' array may hold negative indices; Tpetra wants the index base
  // at or below every GID.
  GO map_base = index_base_;
  if (one_d_unstructured)
    for (int r = 0; r < global_->nprocs(); ++r)
      for (global_index_t g : global_->dim_data(r)[0].indices) map_base = std::min<GO>(map_base, g + index_base_);

  if (contiguous_map) {
    owned_map_ = Teuchos::rcp(new Map(static_cast<Tpetra::global_size_t>(num_global), static_cast<std::size_t>(n_owned),
                                      index_base_, comm_));
  } else {
    std::vector<GO> gids;
    gids.reserve(static_cast<std::size_t>(n_owned));
    for_each_row([&](global_index_t g, bool own) {
      if (own) gids.push_back(static_cast<GO>(g) + index_base_);
    });
    owned_map_ = Teuchos::rcp(new Map(static_cast<Tpetra::global_size_t>(num_global),
                                      Teuchos::ArrayView<const GO>(gids.data(), gids.size()), map_base, comm_));
  }

  // The buffer map is the owned map when no process holds anything it does
  // not own (no communication padding, no shared copies): the same indices in
  // the same (memory) order. All processes decide alike, from the gathered records.
  bool all_owned = true;
  global_index_t total_rows = 0;
  for (int r = 0; r < global_->nprocs(); ++r) {
    total_rows += rows_of(r, false);
    all_owned = all_owned && rows_of(r, true) == rows_of(r, false);
  }
  if (all_owned) {
    buffer_map_ = owned_map_;
  } else {
    std::vector<GO> gids;
    gids.reserve(local_rows_);
    for_each_row([&](global_index_t g, bool) { gids.push_back(static_cast<GO>(g) + index_base_); });
    buffer_map_ = Teuchos::rcp(new Map(static_cast<Tpetra::global_size_t>(total_rows),
                                       Teuchos::ArrayView<const GO>(gids.data(), gids.size()), map_base, comm_));
  }
}

}  // namespace dapetra::tpetra
