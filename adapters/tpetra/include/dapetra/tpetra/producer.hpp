/// \file
/// dapetra/tpetra/producer.hpp: any Tpetra MultiVector as a DAP array, without copying.
///
/// The protocol object's buffer is the vector's own memory (its keep_alive
/// holds the vector). Its dim_data use the most specific dist_type the map
/// allows: 'b' when every process holds a contiguous run in rank order, 'c'
/// (with block_size) when the indices follow a cyclic or block-cyclic pattern,
/// else 'u' with one_to_one taken from the map. A multi-column vector gets a
/// second, undistributed axis for its columns (buffer strides: rows 1, columns
/// the vector's stride, in elements).
#pragma once

#include <vector>

#include "dapetra/distarray.hpp"
#include "dapetra/tpetra/tpetra_layout.hpp"
#include "dapetra/tpetra/types.hpp"

namespace dapetra::tpetra {

/// The dimension record of a map's distribution, 0-based (GID - index base).
/// Collective over the map's communicator.
/// @param map a Tpetra Map.
/// @return its distribution as one record ('b' when contiguous in rank order, 'u' otherwise).
Dim dim_of_map(const Map& map);

namespace detail {
template <class Scalar>
DistArray to_distarray(const Teuchos::RCP<MultiVector<Scalar>>& vector);
template <class Scalar>
DistArray to_distarray(const Teuchos::RCP<MultiVector<Scalar>>& vector, const TpetraLayout& layout);
}  // namespace detail

/// Collective (calls dim_of_map). The vector must have constant stride.
/// @param vector any MultiVector.
/// @return the protocol object over its memory (it keeps the vector alive).
template <class Scalar>
DistArray to_distarray(const Teuchos::RCP<MultiVector<Scalar>>& vector) {
  require_supported_scalar<Scalar>();
  return detail::to_distarray<Scalar>(vector);
}

/// Exact: the records `layout` was built from, for a vector on its buffer map
/// (the same Map object, or one locallySameAs it). Not collective.
/// @param vector a MultiVector on layout's buffer map.
/// @param layout the layout.
/// @return the protocol object over the vector's memory with the layout's records (it keeps the vector alive).
template <class Scalar>
DistArray to_distarray(const Teuchos::RCP<MultiVector<Scalar>>& vector, const TpetraLayout& layout) {
  require_supported_scalar<Scalar>();
  return detail::to_distarray<Scalar>(vector, layout);
}

}  // namespace dapetra::tpetra
