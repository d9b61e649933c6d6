/// \file
/// dapetra/eigen/eigen.hpp: a DAP local buffer as Eigen objects, without copying.
///
/// vector_view() sees a 1-D buffer as a column vector, matrix_view() a 2-D
/// buffer as a matrix with its real strides (row- or column-major, padded or
/// not), so element kernels can work on the protocol's memory directly. A
/// k-values-per-node array (shape n x k) is an n x k matrix; .transpose() gives
/// k x n. Wrong rank, element type or strides are refused with a
/// ValidationError. EigenArray is the other direction: a small distributed
/// array that keeps its local data in Eigen storage and exposes it through the
/// protocol. Header-only; depends on the core and Eigen.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "dapetra/distarray.hpp"

namespace dapetra::eigen {

/// An Eigen vector over strided memory (a view).
template <class T>
using VectorMap = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, 1>, Eigen::Unaligned, Eigen::InnerStride<Eigen::Dynamic>>;
/// An Eigen column-major matrix over strided memory (a view).
template <class T>
using MatrixMap = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>, Eigen::Unaligned,
                             Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;

namespace detail {

inline ValidationError refuse(const std::string& key, const std::string& value, const std::string& rule,
                              const std::string& message) {
  return ValidationError({Problem::of(-1, key, value, rule, message)});
}

/// Element stride of axis a, refusing strides that are not whole elements.
/// @param b the buffer.
/// @param a the axis.
/// @return the stride along axis `a`, in elements.
template <class T>
Eigen::Index element_stride(const BufferView& b, std::size_t a) {
  const global_index_t s = b.strides[a];
  if (s % static_cast<global_index_t>(sizeof(T)) != 0)
    throw refuse("strides", std::to_string(s), "strides are whole elements for an Eigen view",
                 "axis " + std::to_string(a) + " has a stride of " + std::to_string(s) + " bytes");
  return static_cast<Eigen::Index>(s / static_cast<global_index_t>(sizeof(T)));
}

template <class T>
T* typed(const DistArray& a, std::size_t ndim) {
  if (a.buffer.shape.size() != ndim || a.buffer.strides.size() != ndim)
    throw refuse("shape", std::to_string(a.buffer.shape.size()) + " axes",
                 "an Eigen " + std::string(ndim == 1 ? "vector" : "matrix") + " view needs a " + std::to_string(ndim) +
                     "-D buffer",
                 "wrong number of axes");
  return data_as<T>(a);
}

}  // namespace detail

/// A 1-D buffer as a column vector (any positive or negative element stride).
/// @param a a 1-D array of T.
/// @return an Eigen vector over a's whole buffer (no copy).
template <class T>
VectorMap<T> vector_view(const DistArray& a) {
  T* data = detail::typed<T>(a, 1);
  const Eigen::Index inner = detail::element_stride<T>(a.buffer, 0);
  return VectorMap<T>(data, static_cast<Eigen::Index>(a.buffer.shape[0]), Eigen::InnerStride<Eigen::Dynamic>(inner));
}

/// A 2-D buffer as a matrix: rows along axis 0, columns along axis 1, with the
/// buffer's strides (a C-ordered buffer is a row-major matrix, a Fortran-ordered
/// one column-major; Eigen sees both through the same strided map).
/// @param a a 2-D array of T.
/// @return an Eigen matrix over a's whole buffer, its strides a's (no copy).
template <class T>
MatrixMap<T> matrix_view(const DistArray& a) {
  T* data = detail::typed<T>(a, 2);
  const Eigen::Index row_step = detail::element_stride<T>(a.buffer, 0);
  const Eigen::Index col_step = detail::element_stride<T>(a.buffer, 1);
  /// Column-major map: inner stride = step between rows, outer = between columns.
  return MatrixMap<T>(data, static_cast<Eigen::Index>(a.buffer.shape[0]), static_cast<Eigen::Index>(a.buffer.shape[1]),
                      Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(col_step, row_step));
}

/// A distributed array whose local part is an Eigen matrix (rows x cols,
/// column-major), exposed through the protocol without copying: any DAP
/// consumer (the Tpetra adapter, dapetra-inspect's checks) reads this memory.
template <class T>
class EigenArray {
 public:
  /// The local block's Eigen storage.
  using Storage = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;

  /// `dim_data` describes the local block; its local shape must be 1-D (a
  /// vector: cols == 1) or 2-D (rows x cols).
  /// @param dim_data this process's records (1-D or 2-D); the buffer is allocated to their shape.
  explicit EigenArray(std::vector<Dim> dim_data) : dims_(std::move(dim_data)) {
    const auto shape = local_shape_of(dims_);
    if (shape.size() != 1 && shape.size() != 2)
      throw detail::refuse("dim_data", std::to_string(shape.size()) + " axes", "an EigenArray is 1-D or 2-D",
                           "wrong number of axes");
    data_ = std::make_shared<Storage>(static_cast<Eigen::Index>(shape[0]),
                                      static_cast<Eigen::Index>(shape.size() == 2 ? shape[1] : 1));
    data_->setZero();
  }

  /// @return this process's block.
  Storage& local() { return *data_; }
  /// @return this process's block, read-only.
  const Storage& local() const { return *data_; }
  /// @return the array's records on this process.
  const std::vector<Dim>& dim_data() const { return dims_; }

  /// @return the protocol object: this array's memory, kept alive by the object.
  DistArray distarray() const {
    DistArray a;
    a.dim_data = dims_;
    std::vector<global_index_t> shape = local_shape_of(dims_);
    a.buffer = view_buffer(data_->data(), shape, std::shared_ptr<const void>(data_, data_->data()));
    a.buffer.strides = f_strides(shape, sizeof(T));  ///< Eigen's default storage is column-major
    return a;
  }

 private:
  std::vector<Dim> dims_;
  std::shared_ptr<Storage> data_;
};

}  // namespace dapetra::eigen
