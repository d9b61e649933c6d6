#include "dapetra/axis.hpp"

#include <algorithm>

#include "dapetra/error.hpp"
#include "holdings.hpp"

namespace dapetra {

int lowest_holder(global_index_t, const std::vector<int>& holders) { return holders.front(); }

static ValidationError axis_error(const std::string& message) {
  return ValidationError({Problem::of(-1, "", "", "records of one axis are consistent", message)});
}

AxisPartition::AxisPartition(std::vector<Dim> dims, SharedIndexOwner rule)
    : grid_size_(static_cast<int>(dims.size())), dims_(std::move(dims)) {
  if (dims_.empty()) throw axis_error("AxisPartition needs the record of at least one grid rank");
  const int P = grid_size();
  for (int k = 0; k < P; ++k)
    if (dims_[k].dist_type != dims_[0].dist_type || dims_[k].size != dims_[0].size ||
        dims_[k].proc_grid_size != P || dims_[k].proc_grid_rank != k)
      throw axis_error("grid rank " + std::to_string(k) + " record " + describe(dims_[k]) +
                       " does not fit the axis of " + describe(dims_[0]));

  switch (dist_type()) {
    case DistType::block: {
      block_bounds_.resize(P + 1);
      for (int k = 0; k < P; ++k) {
        const GlobalRange r = owned_global_range(dims_[k]);
        block_bounds_[k] = r.begin;
        if (r.begin != (k == 0 ? 0 : owned_global_range(dims_[k - 1]).end))
          throw axis_error("owned block ranges are not adjacent at grid rank " + std::to_string(k));
      }
      block_bounds_[P] = size();
      if (owned_global_range(dims_[P - 1]).end != size())
        throw axis_error("owned block ranges do not end at size");
      break;
    }
    case DistType::cyclic: break;
    case DistType::unstructured: {
      std::vector<const Dim*> ptrs;
      for (const Dim& d : dims_) ptrs.push_back(&d);
      const auto held = detail::sorted_holdings(ptrs);
      u_owned_.resize(P);
      u_num_owned_.assign(P, 0);
      for (int k = 0; k < P; ++k) u_owned_[k].assign(dims_[k].indices.size(), false);
      std::vector<int> holders;
      for (std::size_t a = 0; a < held.size();) {
        std::size_t b = a + 1;
        while (b < held.size() && held[b].index == held[a].index) ++b;
        int owner = held[a].grid_rank;
        if (b - a > 1) {
          holders.clear();
          for (std::size_t j = a; j < b; ++j) {
            if (held[j].grid_rank == held[a].grid_rank && j > a)
              throw axis_error("index " + std::to_string(held[a].index) + " appears twice on grid rank " +
                               std::to_string(held[a].grid_rank));
            holders.push_back(held[j].grid_rank);
          }
          owner = rule(held[a].index, holders);
          if (!std::binary_search(holders.begin(), holders.end(), owner))
            throw axis_error("the shared-index owner rule chose grid rank " + std::to_string(owner) +
                             " for index " + std::to_string(held[a].index) + ", which does not hold it");
        }
        for (std::size_t j = a; j < b; ++j)
          if (held[j].grid_rank == owner) u_owned_[owner][held[j].position] = true;
        ++u_num_owned_[owner];
        u_index_.push_back(held[a].index);
        u_owner_.push_back(owner);
        a = b;
      }
      break;
    }
  }
}

namespace {

// Where grid rank r's owned range begins in Dim::even_block's split of `size` over P.
global_index_t even_begin(global_index_t size, int P, global_index_t r) {
  const global_index_t base = size / P, extra = size % P;
  return r * base + std::min(r, extra);
}

// The grid rank owning g in that split (0 <= g < size).
int even_owner(global_index_t size, int P, global_index_t g) {
  const global_index_t base = size / P, extra = size % P, wide = extra * (base + 1);
  return static_cast<int>(g < wide ? g / (base + 1) : extra + (g - wide) / base);
}

// The record Dim::even_block or Dim::cyclic gives grid rank c of `record`'s axis.
Dim formula_record(const Dim& record, int c) {
  if (record.dist_type == DistType::cyclic)
    return Dim::cyclic(record.size, record.proc_grid_size, c, record.block_size);
  return Dim::even_block(record.size, record.proc_grid_size, c, record.padding[1], record.periodic);
}

// Grid rank c's record of a 'b' axis split at `begins` with `d`'s halo on every inner side.
Dim split_record(const Dim& d, const std::vector<global_index_t>& begins, int c) {
  const int P = d.proc_grid_size;
  const global_index_t h = d.padding[1], lo = begins[static_cast<std::size_t>(c)], hi = begins[static_cast<std::size_t>(c) + 1];
  return Dim::block(d.size, P, c, c > 0 ? lo - h : lo, c < P - 1 ? hi + h : hi, {h, h}, d.periodic);
}

}  // namespace

AxisPartition::AxisPartition(Form form, Dim record, int grid_size) : form_(form), grid_size_(grid_size) {
  dims_.push_back(std::move(record));
}

// (The compact forms keep the caller's own record: the questions asked most,
// position by position, are about the caller's own grid rank, answered from it.)
AxisPartition AxisPartition::regular(const Dim& record) {
  const int P = record.proc_grid_size, c = record.proc_grid_rank;
  if (record.dist_type == DistType::unstructured || P < 1 || c < 0 || c >= P || record.size < 0 ||
      (record.dist_type == DistType::cyclic && record.block_size < 1) || formula_record(record, c) != record)
    throw axis_error("record " + describe(record) + " is not an even 'b' split's or a 'c' axis's");
  return AxisPartition(Form::formula, record, P);
}

AxisPartition AxisPartition::block_split(const Dim& record, std::vector<global_index_t> owned_begins) {
  const int P = record.proc_grid_size;
  bool rising = record.dist_type == DistType::block && P >= 1 &&
                owned_begins.size() == static_cast<std::size_t>(P) + 1 && owned_begins.front() == 0 &&
                owned_begins.back() == record.size;
  for (std::size_t k = 1; rising && k < owned_begins.size(); ++k) rising = owned_begins[k - 1] <= owned_begins[k];
  if (!rising)
    throw axis_error("a 'b' axis of size " + std::to_string(record.size) + " over " + std::to_string(P) +
                     " grid ranks is split at grid_size + 1 rising boundaries from 0 to size");
  const int c = record.proc_grid_rank;
  if (c < 0 || c >= P || split_record(record, owned_begins, c) != record)
    throw axis_error("record " + describe(record) + " is not its grid rank's of the split given");
  AxisPartition axis(Form::split, record, P);
  axis.block_bounds_ = std::move(owned_begins);
  return axis;
}

const Dim& AxisPartition::record_of(int c, Dim& scratch) const {
  if (form_ == Form::every_record) return dims_[static_cast<std::size_t>(c)];
  if (c == dims_.front().proc_grid_rank) return dims_.front();  // the one kept
  scratch = form_ == Form::formula ? formula_record(dims_.front(), c) : split_record(dims_.front(), block_bounds_, c);
  return scratch;
}

Dim AxisPartition::dim(int grid_rank) const {
  Dim scratch;
  return record_of(grid_rank, scratch);
}

global_index_t AxisPartition::extent(int grid_rank) const {
  if (form_ == Form::every_record) return local_extent(dims_[static_cast<std::size_t>(grid_rank)]);
  if (grid_rank == dims_.front().proc_grid_rank) return local_extent(dims_.front());
  const Dim& d = dims_.front();
  if (d.dist_type == DistType::cyclic) {  // the indices g < size with (g / b) % P == grid_rank
    const global_index_t cycle = d.block_size * grid_size_;
    return d.size / cycle * d.block_size + std::clamp<global_index_t>(d.size % cycle - grid_rank * d.block_size, 0, d.block_size);
  }
  // 'b': the owned range, and the halo on each inner side (as record_of lays it out).
  const global_index_t h = d.padding[1];
  return owned_begin(grid_rank + 1) - owned_begin(grid_rank) + (grid_rank > 0 ? h : 0) + (grid_rank < grid_size_ - 1 ? h : 0);
}

global_index_t AxisPartition::owned_begin(int grid_rank) const {
  return form_ == Form::formula ? even_begin(size(), grid_size_, grid_rank) : block_bounds_[grid_rank];
}

int AxisPartition::owner(global_index_t g) const {
  switch (dist_type()) {
    case DistType::block: {
      if (g < 0 || g >= size()) return -1;
      if (form_ == Form::formula) return even_owner(size(), grid_size_, g);
      const auto it = std::upper_bound(block_bounds_.begin(), block_bounds_.end(), g);
      return static_cast<int>(it - block_bounds_.begin()) - 1;
    }
    case DistType::cyclic:
      if (g < 0 || g >= size()) return -1;
      return cyclic_owner(g, dims_[0].block_size, grid_size());
    case DistType::unstructured: {
      const auto it = std::lower_bound(u_index_.begin(), u_index_.end(), g);
      if (it == u_index_.end() || *it != g) return -1;
      return u_owner_[static_cast<std::size_t>(it - u_index_.begin())];
    }
  }
  return -1;
}

global_index_t AxisPartition::num_owned(int k) const {
  switch (dist_type()) {
    case DistType::block: return owned_begin(k + 1) - owned_begin(k);
    case DistType::cyclic: return extent(k);
    case DistType::unstructured: return u_num_owned_[k];
  }
  return 0;
}

bool AxisPartition::is_owned(int k, global_index_t i) const {
  switch (dist_type()) {
    case DistType::block: {
      if (form_ == Form::every_record || k == dims_.front().proc_grid_rank)
        return owned_local_range(form_ == Form::every_record ? dims_[static_cast<std::size_t>(k)] : dims_.front())
            .contains(static_cast<local_index_t>(i));
      // Position i holds global index first + i, the record's start (record_of); owned when in k's range.
      const global_index_t lo = owned_begin(k), first = k > 0 ? lo - dims_.front().padding[1] : lo;
      return i >= 0 && first + i >= lo && first + i < owned_begin(k + 1);
    }
    case DistType::cyclic: return i >= 0 && i < extent(k);
    case DistType::unstructured: return u_owned_[k][static_cast<std::size_t>(i)];
  }
  return false;
}

IndexLookup::IndexLookup(const Dim& d) : dim_(d) {
  if (dim_.dist_type != DistType::unstructured) return;
  sorted_.reserve(dim_.indices.size());
  for (std::size_t i = 0; i < dim_.indices.size(); ++i)
    sorted_.emplace_back(dim_.indices[i], static_cast<global_index_t>(i));
  std::sort(sorted_.begin(), sorted_.end());
  dim_.indices.clear();
  dim_.indices.shrink_to_fit();
}

global_index_t IndexLookup::position(global_index_t g) const {
  if (dim_.dist_type != DistType::unstructured) return local_position(dim_, g);
  const auto it = std::lower_bound(sorted_.begin(), sorted_.end(), std::make_pair(g, global_index_t{-1}));
  return (it != sorted_.end() && it->first == g) ? it->second : -1;
}

}  // namespace dapetra
