/// \file
/// dapetra/distarray.hpp: the protocol object, and how to produce and consume one.
///
/// A DistArray is the C++ form of the dictionary `__distarray__()` returns
/// (section 1.5): a version, a view of the local buffer (PEP-3118 style:
/// format, itemsize, shape, strides in bytes) and the dim_data. It never owns
/// or copies the array's elements. The producer may attach a reference-counted
/// `keep_alive` handle; otherwise the producer's object must outlive every view.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "dapetra/dim.hpp"
#include "dapetra/error.hpp"
#include "dapetra/global_layout.hpp"

namespace dapetra {

/// PEP-3118 format of a C++ element type; "" for types without one.
/// @return the PEP-3118 format of T ("" for types the protocol does not name).
template <class T>
constexpr const char* format_of() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, double>) return "d";
  else if constexpr (std::is_same_v<U, float>) return "f";
  else if constexpr (std::is_same_v<U, std::int32_t>) return "i";
  else if constexpr (std::is_same_v<U, std::int64_t>) return "q";
  else if constexpr (std::is_same_v<U, long long>) return "q";
  else if constexpr (std::is_same_v<U, std::complex<double>>) return "Zd";
  else if constexpr (std::is_same_v<U, std::complex<float>>) return "Zf";
  else return "";
}

/// One process's buffer as the protocol hands it over: memory, element type, shape and strides (a view,
/// never a copy).
struct BufferView {
  /// The first element's address.
  void* data = nullptr;
  std::string format;                  ///< PEP-3118 format, e.g. "d"
  std::size_t itemsize = 0;            ///< bytes per element
  std::vector<global_index_t> shape;   ///< elements per axis
  std::vector<global_index_t> strides; ///< bytes between neighbours per axis
  /// Whether the consumer may only read.
  bool readonly = false;
  std::shared_ptr<const void> keep_alive;  ///< optional owner of the memory

  /// @return elements in the buffer (product of the shape).
  global_index_t num_elements() const;
  /// @return whether the strides are C order without gaps.
  bool is_c_contiguous() const;
  /// @return whether the strides are Fortran order without gaps.
  bool is_f_contiguous() const;
};

/// C-order (row-major) strides in bytes for `shape`.
/// @param shape elements per axis.
/// @param itemsize bytes per element.
std::vector<global_index_t> c_strides(const std::vector<global_index_t>& shape,
                                      std::size_t itemsize);
/// Fortran-order (column-major) strides in bytes for `shape`.
/// @param shape elements per axis.
/// @param itemsize bytes per element.
std::vector<global_index_t> f_strides(const std::vector<global_index_t>& shape,
                                      std::size_t itemsize);

/// A view of `data` in C order with the given shape; no copy.
/// @param data the first element.
/// @param shape elements per axis.
/// @param keep_alive an owner of the memory, if any.
template <class T>
BufferView view_buffer(T* data, std::vector<global_index_t> shape,
                       std::shared_ptr<const void> keep_alive = nullptr) {
  BufferView b;
  b.data = const_cast<std::remove_const_t<T>*>(data);
  b.format = format_of<T>();
  b.itemsize = sizeof(T);
  b.strides = c_strides(shape, sizeof(T));
  b.shape = std::move(shape);
  b.readonly = std::is_const_v<T>;
  b.keep_alive = std::move(keep_alive);
  return b;
}

/// One process's piece of a distributed array: the protocol's version, buffer and dim_data.
struct DistArray {
  /// The protocol version ("0.10.0").
  std::string version = dap_version;
  /// This process's memory.
  BufferView buffer;
  /// One record per axis.
  std::vector<Dim> dim_data;
};

/// The buffer on its own: a known format, itemsize matching it, one stride per
/// axis, strides keeping every element in distinct memory, memory when non-empty.
/// @param b the buffer.
/// @param rank the rank to name in problems.
/// @return the problems found (empty: none).
std::vector<Problem> check_buffer(const BufferView& b, int rank = -1);

/// Rules a consumer checks on receipt, on this process alone: version,
/// records, and the buffer against them (check_buffer plus ndim and shape).
/// @param a this process's piece.
/// @param rank the rank to name in problems.
/// @return the problems found (empty: none).
std::vector<Problem> check_local(const DistArray& a, int rank = -1);

/// Buffer axes from slowest to fastest in memory (by decreasing |stride|;
/// ties keep axis order, so C order for a C-contiguous buffer).
/// @param b the buffer.
/// @return its axes from slowest to fastest in memory.
std::vector<int> memory_order(const BufferView& b);

namespace detail {
/// format == want, inline and without strlen: data_as runs on every halo
/// update, where a library string compare showed in profiles.
/// @param format a PEP-3118 format.
/// @param want the format wanted.
/// @return whether they name the same type.
inline bool format_is(const std::string& format, const char* want) {
  std::size_t i = 0;
  for (; want[i] != '\0'; ++i)
    if (i >= format.size() || format[i] != want[i]) return false;
  return i == format.size();
}
}  // namespace detail

/// Typed pointer to the buffer, refusing a format that is not T's (never a
/// reinterpretation) and a read-only buffer when T is not const.
/// @param a the array.
template <class T>
T* data_as(const DistArray& a) {
  const char* want = format_of<T>();
  if (want[0] == '\0' || !detail::format_is(a.buffer.format, want) || a.buffer.itemsize != sizeof(T))
    throw ValidationError({Problem::of(-1, "format", a.buffer.format, "buffer format matches the requested element type",
                                       "buffer has format '" + a.buffer.format + "' (itemsize " +
                                           std::to_string(a.buffer.itemsize) + "), requested '" + want + "'")});
  if (a.buffer.readonly && !std::is_const_v<T>)
    throw ValidationError({Problem::of(-1, "readonly", "true", "a writable view needs a writable buffer",
                                       "buffer is read-only; request a const element type")});
  return static_cast<T*>(a.buffer.data);
}

/// The producer side. Any class becomes a producer by a const member
/// `DistArray distarray() const` (the analogue of Python's __distarray__), or
/// by deriving from Producer when a runtime interface is wanted.
class Producer {
 public:
  virtual ~Producer() = default;
  /// @return this process's piece, as the protocol hands it over (a view).
  virtual DistArray distarray() const = 0;
};

template <class T, class = void>
struct is_producer : std::false_type {};
template <class T>
struct is_producer<T, std::void_t<decltype(std::declval<const T&>().distarray())>>
    : std::is_same<decltype(std::declval<const T&>().distarray()), DistArray> {};
/// Whether T is a producer (has `DistArray distarray() const`).
template <class T>
inline constexpr bool is_producer_v = is_producer<T>::value;

/// The consumer side: obtains a producer's protocol object and checks it
/// locally; throws ValidationError listing every problem.
/// @param producer an object with distarray().
/// @param rank the rank to name in problems.
/// @return the checked array (a view).
template <class P>
DistArray consume(const P& producer, int rank = -1) {
  static_assert(is_producer_v<P>, "P must provide `DistArray distarray() const`");
  DistArray a = producer.distarray();
  throw_if_any(check_local(a, rank));
  return a;
}

}  // namespace dapetra
