/// \file
/// dapetra/tpetra/views.hpp: a DAP buffer as a Tpetra MultiVector, without copying.
///
/// buffer_view() and owned_view() return MultiVectors whose values *are* the
/// buffer's memory (an unmanaged Kokkos view inside the MultiVector): a write
/// through Tpetra is seen in the buffer and the reverse. The buffer's
/// keep_alive handle, if any, is attached to the returned RCP, so the memory
/// lives as long as the vector; without one, the buffer must outlive it.
/// Functions that copy say so in their names. None of these is collective.
/// Each is declared for, and instantiated in the library for, the element
/// types of dapetra/tpetra/types.hpp (if_supported_scalar_t).
#pragma once

#include <Teuchos_RCP.hpp>

#include "dapetra/distarray.hpp"
#include "dapetra/tpetra/tpetra_layout.hpp"
#include "dapetra/tpetra/types.hpp"

namespace dapetra::tpetra {

/// The whole buffer (padding and shared copies included) on layout.buffer_map().
/// Throws ValidationError if `array` does not match the layout (records, shape,
/// strides), its format is not Scalar's, or its strides do not allow a view.
/// @param layout the array's layout.
/// @param array the array (its buffer must be viewable).
/// @return a MultiVector on the buffer map over the array's memory.
template <class Scalar>
if_supported_scalar_t<Scalar, Teuchos::RCP<MultiVector<Scalar>>> buffer_view(const TpetraLayout& layout,
                                                                             const DistArray& array);

/// The owned elements on layout.owned_map(), when they are contiguous in the
/// buffer (layout.owned_rows()); throws otherwise (a halo or assembly plan
/// connects owned and buffer vectors in the general case).
/// @param layout the array's layout.
/// @param array the array.
/// @return a MultiVector on the owned map over the array's owned memory.
template <class Scalar>
if_supported_scalar_t<Scalar, Teuchos::RCP<MultiVector<Scalar>>> owned_view(const TpetraLayout& layout,
                                                                            const DistArray& array);

/// The owned rows of a vector on layout.buffer_map() (a buffer_view(), or a
/// vector in Tpetra's memory), as a vector on layout.owned_map() sharing its
/// memory, when they are one run (layout.owned_rows()). Norms, dots and
/// solvers count each global element once on it, where the buffer vector
/// counts every held copy. Throws ValidationError when the owned rows are
/// scattered (then copy_owned_rows_to_new_vector()).
/// @param layout the layout.
/// @param on_buffer_map a MultiVector on its buffer map.
/// @return a view of its owned rows on the owned map.
template <class Scalar>
if_supported_scalar_t<Scalar, Teuchos::RCP<MultiVector<Scalar>>> owned_rows_view(const TpetraLayout& layout,
                                                                                 MultiVector<Scalar>& on_buffer_map);
/// The owned rows of a vector on layout.buffer_map(), copied into a new
/// vector on layout.owned_map(), whatever their places in the buffer.
/// @param layout the layout.
/// @param on_buffer_map a MultiVector on its buffer map.
/// @return a new MultiVector on the owned map with a copy of the owned rows.
template <class Scalar>
if_supported_scalar_t<Scalar, Teuchos::RCP<MultiVector<Scalar>>> copy_owned_rows_to_new_vector(
    const TpetraLayout& layout, const MultiVector<Scalar>& on_buffer_map);
/// The reverse: a vector on layout.owned_map() (a solution, say) copied into
/// the owned rows of a vector on the buffer map; its other rows (copies held
/// for other owners, padding) are left as they are, for a halo update to fill.
/// @param on_owned_map the values, on the owned map.
/// @param layout the layout.
/// @param on_buffer_map receives them in its owned rows.
template <class Scalar>
if_supported_scalar_t<Scalar, void> copy_owned_vector_to_rows(const MultiVector<Scalar>& on_owned_map,
                                                              const TpetraLayout& layout,
                                                              MultiVector<Scalar>& on_buffer_map);

/// For buffers whose strides do not allow a view: a new MultiVector on the
/// buffer map holding a copy of the buffer, and the copy back.
/// @param layout the array's layout.
/// @param array the array.
/// @return a new MultiVector on the buffer map with a copy of the buffer.
template <class Scalar>
if_supported_scalar_t<Scalar, Teuchos::RCP<MultiVector<Scalar>>> copy_buffer_to_new_vector(const TpetraLayout& layout,
                                                                                           const DistArray& array);
/// The copy back: `vector` (on the buffer map) into the array's buffer, whatever its strides.
/// @param vector a MultiVector on the buffer map.
/// @param layout the array's layout.
/// @param array receives the values.
template <class Scalar>
if_supported_scalar_t<Scalar, void> copy_vector_to_buffer(const MultiVector<Scalar>& vector, const TpetraLayout& layout,
                                                          const DistArray& array);

}  // namespace dapetra::tpetra
