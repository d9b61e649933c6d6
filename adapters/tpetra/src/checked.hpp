// Internal: the check every operation on a caller's buffer starts with.
// It runs on every halo update, so it costs O(ndim), not O(elements).
#pragma once

#include "dapetra/distarray.hpp"
#include "dapetra/tpetra/layout.hpp"

namespace dapetra::tpetra::detail {

inline ValidationError mismatch(int rank, const std::string& key, const std::string& rule, const std::string& message) {
  return ValidationError({Problem{rank, -1, key, "", rule, message}});
}

// The comparisons below are written out element by element: they run on
// every halo update, and std::array / std::vector equality calls memcmp,
// which cost more than the rest of a small update in profiles.
inline bool same_values(const std::vector<global_index_t>& x, const std::vector<global_index_t>& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x[i] != y[i]) return false;
  return true;
}

// The same distribution as far as O(1) per axis can tell: every key, and the
// number (not the values) of 'u' indices.
inline bool same_records(const std::vector<Dim>& x, const std::vector<Dim>& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t a = 0; a < x.size(); ++a) {
    const Dim &p = x[a], &q = y[a];
    if (p.dist_type != q.dist_type || p.size != q.size || p.proc_grid_size != q.proc_grid_size ||
        p.proc_grid_rank != q.proc_grid_rank || p.start != q.start || p.stop != q.stop ||
        p.padding[0] != q.padding[0] || p.padding[1] != q.padding[1] || p.periodic != q.periodic ||
        p.block_size != q.block_size || p.one_to_one != q.one_to_one || p.indices.size() != q.indices.size())
      return false;
  }
  return true;
}

// The array must have the records, shape and strides the layout was built
// from, and the element type Scalar (never reinterpreted).
template <class Scalar>
Scalar* checked_data(const TpetraLayout& layout, const DistArray& array) {
  const int rank = layout.rank();
  if (!same_records(array.dim_data, layout.dim_data()))
    throw mismatch(rank, "dim_data", "the array's records are those the layout was built from",
                   "this array is distributed differently from the layout");
  if (!same_values(array.buffer.shape, layout.local_shape()))
    throw mismatch(rank, "shape", "the buffer shape is the one the layout was built for", "buffer shape differs");
  if (!same_values(array.buffer.strides, layout.local_strides()))
    throw mismatch(rank, "strides", "the buffer strides are the ones the layout was built for",
                   "buffer strides differ (a layout fixes the memory order of its maps)");
  return data_as<Scalar>(array);
}

}  // namespace dapetra::tpetra::detail
