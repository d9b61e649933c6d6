/// \file
/// dapetra/dim.hpp: the dimension dictionary of the Distributed Array Protocol
/// (DAP 0.10.0, section 1.6) as a plain C++ value.
///
/// One `Dim` describes how one axis of a distributed array is split over the
/// process grid, seen from one process. It is pure metadata: no MPI, no buffer.
/// Global indices are 64-bit, local positions 32-bit, everywhere in Dapetra.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace dapetra {

using global_index_t = std::int64_t;  ///< an index into the undistributed array
using local_index_t = std::int32_t;   ///< a position in one process's buffer

/// The protocol's dist_type: 'b' block, 'c' (block-)cyclic, 'u' unstructured.
enum class DistType : char { block = 'b', cyclic = 'c', unstructured = 'u' };

/// The protocol's letter of a dist_type.
/// @param t a dist_type.
/// @return its letter ('b', 'c' or 'u').
inline char to_char(DistType t) { return static_cast<char>(t); }

/// One dimension dictionary. Only the fields of `dist_type` are meaningful; the
/// others keep their defaults so that two equal records compare equal.
struct Dim {
  /// How the axis is split.
  DistType dist_type = DistType::block;
  /// The axis' global length.
  global_index_t size = 0;
  /// Processes along the axis.
  int proc_grid_size = 1;
  /// This process's coordinate along the axis.
  int proc_grid_rank = 0;

  /// 'b' and 'c': first global index held here (for 'b' this includes padding).
  global_index_t start = 0;
  /// 'b': one past the last global index held here, padding included.
  global_index_t stop = 0;
  /// 'b': widths at the low and high end; boundary padding on the edge ranks of
  /// the grid axis, communication padding elsewhere.
  std::array<global_index_t, 2> padding{0, 0};
  /// 'b': whether the axis wraps around (its edge padding filled from the opposite end).
  bool periodic = false;

  /// 'c': length of the contiguous runs dealt out round-robin (1 = pure cyclic).
  global_index_t block_size = 1;

  /// 'u': the global indices held here, in buffer order.
  std::vector<global_index_t> indices;
  /// 'u': whether no index is held by more than one process.
  bool one_to_one = false;

  /// An axis that is not distributed: the spec's empty-dictionary alias
  /// (section 1.6.3) for a buffer extent `n`.
  /// @param n the axis's length.
  static Dim undistributed(global_index_t n);

  /// A 'b' record. `start`/`stop` include the padding, as the spec defines them.
  /// @param size the axis's global length.
  /// @param grid_size processes along the axis.
  /// @param grid_rank this process's place along it.
  /// @param start first index held (padding included).
  /// @param stop one past the last index held.
  /// @param padding elements at each end that this process holds but does not own, or boundary padding.
  /// @param periodic whether the axis wraps around.
  static Dim block(global_index_t size, int grid_size, int grid_rank, global_index_t start,
                   global_index_t stop, std::array<global_index_t, 2> padding = {0, 0},
                   bool periodic = false);

  /// The even 'b' split that most codes use: every grid rank owns size/P
  /// indices, the first size%P ranks one more, plus `halo` padding on each
  /// side (boundary padding, inside the owned range, at the grid edges).
  /// @param size the axis's global length.
  /// @param grid_size processes along the axis.
  /// @param grid_rank this process's place along it.
  /// @param halo ghost cells on each inner side (boundary padding at the ends).
  /// @param periodic whether the axis wraps around.
  static Dim even_block(global_index_t size, int grid_size, int grid_rank, global_index_t halo = 0,
                        bool periodic = false);

  /// A 'c' record; `start` follows from the rank and block size.
  /// @param size the axis's global length.
  /// @param grid_size processes along the axis.
  /// @param grid_rank this process's place along it.
  /// @param block_size indices per block.
  static Dim cyclic(global_index_t size, int grid_size, int grid_rank, global_index_t block_size = 1);

  /// A 'u' record: the global indices held here, in buffer order; `one_to_one` when no other process
  /// holds any of them.
  /// @param size the axis's global length.
  /// @param grid_size processes along the axis.
  /// @param grid_rank this process's place along it.
  /// @param indices the global indices this process holds, in buffer order.
  /// @param one_to_one whether no index is held by two processes.
  static Dim unstructured(global_index_t size, int grid_size, int grid_rank,
                          std::vector<global_index_t> indices, bool one_to_one = false);

  /// Records equal in every key.
  /// @param a one record.
  /// @param b another.
  /// @return whether they are equal in every key the dist_type uses.
  friend bool operator==(const Dim& a, const Dim& b);
  /// Records that differ in some key.
  /// @param a one record.
  /// @param b another.
  friend bool operator!=(const Dim& a, const Dim& b) { return !(a == b); }
};

/// Every key of a record but `indices`, written once: equality, packing and
/// the checks walk this list, so a new key is one edit here that the compiler
/// carries to all of them. Calls f(key, the field of each record given).
/// @param f called as f(name, member of each record...).
/// @param d one or more records.
template <class F, class... D>
void for_each_scalar_key(F&& f, D&... d) {
  f("dist_type", d.dist_type...);
  f("size", d.size...);
  f("proc_grid_size", d.proc_grid_size...);
  f("proc_grid_rank", d.proc_grid_rank...);
  f("start", d.start...);
  f("stop", d.stop...);
  f("padding", d.padding...);
  f("periodic", d.periodic...);
  f("block_size", d.block_size...);
  f("one_to_one", d.one_to_one...);
}

/// Whether two records agree on every key but `indices`. (Padding is
/// compared element by element: std::array's == calls memcmp, which shows on
/// every halo update that checks its array.)
/// @param x one pair.
/// @param y another.
/// @return whether they are equal.
inline bool same_key(const std::array<global_index_t, 2>& x, const std::array<global_index_t, 2>& y) {
  return x[0] == y[0] && x[1] == y[1];
}
/// Equality of one key's values (for the key list below).
/// @param x one value.
/// @param y another.
/// @return whether they are equal.
template <class T>
bool same_key(const T& x, const T& y) {
  return x == y;
}
/// Whether two records agree on every key but `indices`.
/// @param a one record.
/// @param b another.
/// @return whether every scalar key is equal.
inline bool same_scalar_keys(const Dim& a, const Dim& b) {
  bool same = true;
  for_each_scalar_key([&](const char*, const auto& x, const auto& y) { same = same && same_key(x, y); }, a, b);
  return same;
}

/// A one-line description for messages, e.g. "{'b' size=18 grid 0/2 [0,10) pad (1,1)}".
/// @param d a record.
/// @return it in one line.
std::string describe(const Dim& d);

}  // namespace dapetra
