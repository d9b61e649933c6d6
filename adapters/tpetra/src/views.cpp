#include "dapetra/tpetra/views.hpp"

#include <Kokkos_Core.hpp>
#include <Teuchos_RCP.hpp>
#include <Tpetra_MultiVector.hpp>
#include <cstring>

#include "checked.hpp"
#include "tpetra_layout_access.hpp"

namespace dapetra::tpetra {
namespace {

using detail::checked_data;
using detail::mismatch;
using detail::TpetraLayoutAccess;

// A MultiVector over `map` whose column j is rows [0, rows) at data + j * lda.
template <class Scalar>
Teuchos::RCP<MultiVector<Scalar>> wrap(const Teuchos::RCP<const Map>& map, Scalar* data, std::size_t rows,
                                       std::size_t lda, std::size_t ncols, const std::shared_ptr<const void>& keep_alive) {
  using MV = MultiVector<Scalar>;
  using dual_view_type = typename MV::dual_view_type;
  using Unmanaged = Kokkos::View<typename MV::impl_scalar_type**, Kokkos::LayoutLeft, Kokkos::HostSpace,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static_assert(std::is_same_v<typename dual_view_type::t_dev::memory_space, Kokkos::HostSpace>,
                "zero-copy views need Tpetra's device memory to be host memory (a Serial or OpenMP build)");
  // Columns lda apart, of which the first `rows` entries are the vector.
  Unmanaged whole(reinterpret_cast<typename MV::impl_scalar_type*>(data), Kokkos::LayoutLeft(std::max(lda, rows), ncols));
  typename dual_view_type::t_dev dev = Kokkos::subview(whole, std::make_pair(std::size_t{0}, rows), Kokkos::ALL());
  dual_view_type dv(dev, dev);
  Teuchos::RCP<MV> mv = Teuchos::rcp(new MV(map, dv));
  if (keep_alive) Teuchos::set_extra_data(keep_alive, "dapetra::keep_alive", Teuchos::inOutArg(mv));
  return mv;
}

// Byte offset of each row (memory order of the row axes) and of each column.
std::vector<std::ptrdiff_t> row_offsets(const TpetraLayout& layout) {
  const auto shape = local_shape_of(layout.distribution()->dim_data());
  std::vector<int> axes;
  for (int a : layout.distribution()->memory_order())
    if (a != layout.column_axis()) axes.push_back(a);
  std::vector<std::ptrdiff_t> out{0};
  for (int a : axes) {
    std::vector<std::ptrdiff_t> next;
    next.reserve(out.size() * static_cast<std::size_t>(shape[a]));
    for (std::ptrdiff_t base : out)
      for (global_index_t i = 0; i < shape[a]; ++i) next.push_back(base + i * layout.distribution()->local_strides()[a]);
    out.swap(next);
  }
  return out;
}

// A vector handed to the owned-rows functions lives on the layout's map
// (local check: these functions do not communicate).
template <class Scalar>
void require_on_map(const MultiVector<Scalar>& v, const Map& map, const TpetraLayout& layout, const char* which) {
  if (!v.getMap()->locallySameAs(map) || v.getNumVectors() != layout.num_vectors())
    throw mismatch(layout.distribution()->rank(), "map", std::string("the vector lives on the layout's ") + which +
                                             " map with its number of columns",
                   "the vector's map or column count differs");
}

// The buffer row of the owned map's k-th row: one run from owned_rows(), or
// listed (TpetraLayoutAccess::owned_row_list), or every row when the maps coincide.
class OwnedRows {
 public:
  explicit OwnedRows(const TpetraLayout& layout)
      : list_(layout.owned_rows() || layout.buffer_map_is_owned_map() ? nullptr : TpetraLayoutAccess::owned_row_list(layout).data()),
        first_(layout.owned_rows() ? static_cast<std::size_t>(layout.owned_rows()->begin) : 0) {}
  std::size_t operator()(std::size_t k) const { return list_ ? static_cast<std::size_t>(list_[k]) : first_ + k; }

 private:
  const local_index_t* list_;
  std::size_t first_;
};

}  // namespace

template <class Scalar>
if_supported_scalar_t<Scalar, Teuchos::RCP<MultiVector<Scalar>>> owned_rows_view(const TpetraLayout& layout,
                                                                                 MultiVector<Scalar>& on_buffer_map) {
  require_on_map(on_buffer_map, *layout.buffer_map(), layout, "buffer");
  if (layout.buffer_map_is_owned_map()) return on_buffer_map.offsetViewNonConst(layout.owned_map(), 0);
  if (!layout.owned_rows())
    throw mismatch(layout.distribution()->rank(), "dim_data", "an owned view needs the owned elements contiguous in the buffer",
                   "the owned elements are scattered through the buffer; use copy_owned_rows_to_new_vector");
  return on_buffer_map.offsetViewNonConst(layout.owned_map(), static_cast<std::size_t>(layout.owned_rows()->begin));
}

template <class Scalar>
if_supported_scalar_t<Scalar, Teuchos::RCP<MultiVector<Scalar>>> copy_owned_rows_to_new_vector(
    const TpetraLayout& layout, const MultiVector<Scalar>& on_buffer_map) {
  require_on_map(on_buffer_map, *layout.buffer_map(), layout, "buffer");
  auto owned = Teuchos::rcp(new MultiVector<Scalar>(layout.owned_map(), layout.num_vectors(), false));
  auto to = owned->getLocalViewHost(Tpetra::Access::OverwriteAll);
  auto from = on_buffer_map.getLocalViewHost(Tpetra::Access::ReadOnly);
  const OwnedRows row(layout);
  for (std::size_t j = 0; j < layout.num_vectors(); ++j)
    for (std::size_t k = 0; k < owned->getLocalLength(); ++k) to(k, j) = from(row(k), j);
  return owned;
}

template <class Scalar>
if_supported_scalar_t<Scalar, void> copy_owned_vector_to_rows(const MultiVector<Scalar>& on_owned_map,
                                                              const TpetraLayout& layout,
                                                              MultiVector<Scalar>& on_buffer_map) {
  require_on_map(on_owned_map, *layout.owned_map(), layout, "owned");
  require_on_map(on_buffer_map, *layout.buffer_map(), layout, "buffer");
  auto from = on_owned_map.getLocalViewHost(Tpetra::Access::ReadOnly);
  auto to = on_buffer_map.getLocalViewHost(Tpetra::Access::ReadWrite);
  const OwnedRows row(layout);
  for (std::size_t j = 0; j < layout.num_vectors(); ++j)
    for (std::size_t k = 0; k < on_owned_map.getLocalLength(); ++k) to(row(k), j) = from(k, j);
}

template <class Scalar>
if_supported_scalar_t<Scalar, Teuchos::RCP<MultiVector<Scalar>>> buffer_view(const TpetraLayout& layout,
                                                                             const DistArray& array) {
  Scalar* data = checked_data<Scalar>(layout, array);
  if (!layout.buffer_viewable())
    throw mismatch(layout.distribution()->rank(), "strides", "a view needs each column contiguous in memory",
                   layout.why_not_viewable() + "; use copy_buffer_to_new_vector");
  return wrap<Scalar>(layout.buffer_map(), data, TpetraLayoutAccess::local_rows(layout), TpetraLayoutAccess::leading_dimension(layout), layout.num_vectors(),
                      array.buffer.keep_alive);
}

template <class Scalar>
if_supported_scalar_t<Scalar, Teuchos::RCP<MultiVector<Scalar>>> owned_view(const TpetraLayout& layout,
                                                                            const DistArray& array) {
  Scalar* data = checked_data<Scalar>(layout, array);
  if (!layout.owned_rows())
    throw mismatch(layout.distribution()->rank(), "dim_data", "an owned view needs the owned elements contiguous in the buffer",
                   layout.buffer_viewable() ? "the owned elements are scattered through the buffer; use a halo plan"
                                            : layout.why_not_viewable());
  const LocalRange rows = *layout.owned_rows();
  return wrap<Scalar>(layout.owned_map(), data + rows.begin, static_cast<std::size_t>(rows.size()),
                      TpetraLayoutAccess::leading_dimension(layout), layout.num_vectors(), array.buffer.keep_alive);
}

template <class Scalar>
if_supported_scalar_t<Scalar, Teuchos::RCP<MultiVector<Scalar>>> copy_buffer_to_new_vector(const TpetraLayout& layout,
                                                                                           const DistArray& array) {
  const auto* base = reinterpret_cast<const char*>(checked_data<Scalar>(layout, array));
  auto mv = Teuchos::rcp(new MultiVector<Scalar>(layout.buffer_map(), layout.num_vectors(), false));
  const auto rows = row_offsets(layout);
  const std::ptrdiff_t col_stride = layout.column_axis() >= 0 ? layout.distribution()->local_strides()[layout.column_axis()] : 0;
  auto host = mv->getLocalViewHost(Tpetra::Access::OverwriteAll);
  for (std::size_t j = 0; j < layout.num_vectors(); ++j)
    for (std::size_t i = 0; i < rows.size(); ++i)
      std::memcpy(&host(i, j), base + rows[i] + static_cast<std::ptrdiff_t>(j) * col_stride, sizeof(Scalar));
  return mv;
}

template <class Scalar>
if_supported_scalar_t<Scalar, void> copy_vector_to_buffer(const MultiVector<Scalar>& vector, const TpetraLayout& layout,
                                                          const DistArray& array) {
  auto* base = reinterpret_cast<char*>(checked_data<Scalar>(layout, array));
  if (!vector.getMap()->locallySameAs(*layout.buffer_map()) || vector.getNumVectors() != layout.num_vectors())
    throw mismatch(layout.distribution()->rank(), "map", "the vector lives on the layout's buffer map with its number of columns",
                   "the vector's map or column count differs");
  const auto rows = row_offsets(layout);
  const std::ptrdiff_t col_stride = layout.column_axis() >= 0 ? layout.distribution()->local_strides()[layout.column_axis()] : 0;
  auto host = vector.getLocalViewHost(Tpetra::Access::ReadOnly);
  for (std::size_t j = 0; j < layout.num_vectors(); ++j)
    for (std::size_t i = 0; i < rows.size(); ++i)
      std::memcpy(base + rows[i] + static_cast<std::ptrdiff_t>(j) * col_stride, &host(i, j), sizeof(Scalar));
}

#define DAPETRA_INSTANTIATE_VIEWS(S)                                                                                  \
  template Teuchos::RCP<MultiVector<S>> buffer_view<S>(const TpetraLayout&, const DistArray&);                        \
  template Teuchos::RCP<MultiVector<S>> owned_view<S>(const TpetraLayout&, const DistArray&);                         \
  template Teuchos::RCP<MultiVector<S>> copy_buffer_to_new_vector<S>(const TpetraLayout&, const DistArray&);          \
  template Teuchos::RCP<MultiVector<S>> owned_rows_view<S>(const TpetraLayout&, MultiVector<S>&);                     \
  template Teuchos::RCP<MultiVector<S>> copy_owned_rows_to_new_vector<S>(const TpetraLayout&, const MultiVector<S>&); \
  template void copy_owned_vector_to_rows<S>(const MultiVector<S>&, const TpetraLayout&, MultiVector<S>&);            \
  template void copy_vector_to_buffer<S>(const MultiVector<S>&, const TpetraLayout&, const DistArray&);

DAPETRA_FOR_EACH_TPETRA_SCALAR(DAPETRA_INSTANTIATE_VIEWS)

}  // namespace dapetra::tpetra
