// Internal: the check every view or copy of a caller's buffer starts with.
#pragma once

#include "dapetra/distarray.hpp"
#include "dapetra/tpetra/tpetra_layout.hpp"

namespace dapetra::tpetra::detail {

inline ValidationError mismatch(int rank, const std::string& key, const std::string& rule, const std::string& message) {
  return ValidationError({Problem::of(rank, key, "", rule, message)});
}

// The array must have the records, shape, strides and element type the
// layout was built from, and Scalar's format (never reinterpreted).
template <class Scalar>
Scalar* checked_data(const TpetraLayout& layout, const DistArray& array) {
  layout.distribution()->check_fits(array);
  return data_as<Scalar>(array);
}

}  // namespace dapetra::tpetra::detail
