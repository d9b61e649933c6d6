// Internal: the check every operation on a caller's buffer starts with.
#pragma once

#include "dapetra/distarray.hpp"
#include "dapetra/tpetra/layout.hpp"

namespace dapetra::tpetra::detail {

inline ValidationError mismatch(int rank, const std::string& key, const std::string& rule, const std::string& message) {
  return ValidationError({Problem{rank, -1, key, "", rule, message}});
}

// The array must have the records, shape and strides the layout was built
// from, and the element type Scalar (never reinterpreted).
template <class Scalar>
Scalar* checked_data(const TpetraLayout& layout, const DistArray& array) {
  const int rank = layout.rank();
  if (array.dim_data != layout.dim_data())
    throw mismatch(rank, "dim_data", "the array's records are those the layout was built from",
                   "this array is distributed differently from the layout");
  if (array.buffer.shape != local_shape_of(layout.dim_data()))
    throw mismatch(rank, "shape", "the buffer shape is the one the layout was built for", "buffer shape differs");
  if (array.buffer.strides != layout.local_strides())
    throw mismatch(rank, "strides", "the buffer strides are the ones the layout was built for",
                   "buffer strides differ (a layout fixes the memory order of its maps)");
  return data_as<Scalar>(array);
}

}  // namespace dapetra::tpetra::detail
