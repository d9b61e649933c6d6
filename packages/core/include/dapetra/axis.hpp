/// \file
/// dapetra/axis.hpp: one axis of a distributed array, seen from every process.
///
/// An AxisPartition gathers the records of all grid ranks along one axis and
/// answers the questions one record cannot: which grid rank owns a global index
/// and which of a process's positions it owns. Owners come from closed forms
/// for 'c', from a binary search over block boundaries for 'b', and from a
/// table built once for 'u'. Build it once and query it many times; it is
/// immutable and cheap to share.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "dapetra/dim.hpp"
#include "dapetra/dim_math.hpp"

namespace dapetra {

/// Chooses the owner of a 'u' index held by several grid ranks (one_to_one
/// false). Receives the index and the grid ranks holding it, in increasing
/// order; returns one of them.
using SharedIndexOwner = std::function<int(global_index_t index, const std::vector<int>& holders)>;

/// The default rule: the lowest grid rank holding the index owns it.
/// @param index the index (unused: the rule looks at the holders only).
/// @param holders the grid ranks holding it, ascending.
/// @return the first of them.
int lowest_holder(global_index_t index, const std::vector<int>& holders);

/// One axis of a whole layout: every grid rank's record along it, and who owns each global index.
class AxisPartition {
 public:
  /// `dims[r]` is the record of grid rank r along this axis. The records must
  /// already satisfy the collective rules (see validate.hpp); the constructor
  /// throws ValidationError if they are inconsistent in a way it depends on.
  /// @param dims every grid rank's record along the axis, by grid rank.
  /// @param rule the owner of a 'u' index held by several grid ranks.
  explicit AxisPartition(std::vector<Dim> dims, SharedIndexOwner rule = lowest_holder);

  /// @return the axis' dist_type.
  DistType dist_type() const { return dims_.front().dist_type; }
  /// @return the axis' global length.
  global_index_t size() const { return dims_.front().size; }
  /// @return grid ranks along the axis.
  int grid_size() const { return static_cast<int>(dims_.size()); }
  /// The record of one grid rank.
  /// @param grid_rank a grid rank along the axis.
  /// @return its record.
  const Dim& dim(int grid_rank) const { return dims_[grid_rank]; }

  /// Grid rank owning global index g, or -1 if no process holds g.
  /// @param g a global index along the axis.
  /// @return the grid rank owning it.
  int owner(global_index_t g) const;

  /// Number of indices grid rank r owns; these sum to size().
  /// @param grid_rank a grid rank along the axis.
  /// @return how many indices it owns.
  global_index_t num_owned(int grid_rank) const;

  /// Whether position i of grid rank r's buffer is owned by r.
  /// @param grid_rank a grid rank along the axis.
  /// @param i a position of its buffer along the axis.
  /// @return whether it owns the index held there.
  bool is_owned(int grid_rank, global_index_t i) const;

  /// The 'b' boundaries: grid rank r owns [owned_begin(r), owned_begin(r+1)).
  /// @param grid_rank a grid rank along a 'b' axis.
  /// @return the first index it owns.
  global_index_t owned_begin(int grid_rank) const { return block_bounds_[grid_rank]; }

 private:
  std::vector<Dim> dims_;
  std::vector<global_index_t> block_bounds_;  ///< 'b': grid_size()+1 owned boundaries
  /// 'u': sorted distinct indices and the owner of each.
  std::vector<global_index_t> u_index_;
  std::vector<int> u_owner_;
  /// 'u': per grid rank, whether each held position is owned.
  std::vector<std::vector<bool>> u_owned_;
  std::vector<global_index_t> u_num_owned_;
};

/// Local position of a global index on one process, for repeated look-ups.
/// O(1) for 'b' and 'c', O(log n) for 'u' (a sorted copy of the indices).
class IndexLookup {
 public:
  /// Indexes the record's 'u' indices.
  /// @param d a 'u' record.
  explicit IndexLookup(const Dim& d);
  /// Position of g in the buffer, or -1 when g is not held here.
  /// @param g a global index.
  /// @return its position in the record's indices, or -1.
  global_index_t position(global_index_t g) const;

 private:
  Dim dim_;  ///< for 'u' the indices are moved to the sorted table instead
  std::vector<std::pair<global_index_t, global_index_t>> sorted_;  ///< (index, position)
};

}  // namespace dapetra
