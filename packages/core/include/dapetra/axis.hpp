/// \file
/// dapetra/axis.hpp: one axis of a distributed array, seen from every process.
///
/// An AxisPartition knows the records of all grid ranks along one axis and
/// answers the questions one record cannot: which grid rank owns a global index
/// and which of a process's positions it owns. Owners come from closed forms
/// for 'c' and an even 'b' split, from a binary search over block boundaries
/// for any other 'b' split, and from a table built once for 'u'. An axis whose
/// records follow from one (an even 'b' split, a 'c' axis) keeps that one
/// record, and a 'b' axis split at given boundaries keeps those boundaries:
/// their memory does not grow with the number of processes. Build it once and
/// query it many times; it is immutable and cheap to share.
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

  /// An even 'b' split (Dim::even_block) or a 'c' axis (Dim::cyclic), from
  /// any one grid rank's record, kept in O(1) memory. Throws ValidationError when `record` is not
  /// what those factories give for its grid rank. The caller checks the
  /// axis's collective rules (check_axis) when it must.
  /// @param record one grid rank's record along the axis.
  static AxisPartition regular(const Dim& record);
  /// A 'b' axis split at `owned_begins` with the same halo on every inner
  /// side: grid rank r owns [owned_begins[r], owned_begins[r+1]) and holds
  /// record's halo beyond it (boundary padding at the grid's ends, as
  /// Dim::even_block lays it out). Keeps the grid_size()+1 boundaries.
  /// @param record one grid rank's record along the axis (its size, grid size, halo and periodic are used).
  /// @param owned_begins grid_size()+1 non-decreasing boundaries, from 0 to size.
  static AxisPartition block_split(const Dim& record, std::vector<global_index_t> owned_begins);

  /// @return the axis' dist_type.
  DistType dist_type() const { return dims_.front().dist_type; }
  /// @return the axis' global length.
  global_index_t size() const { return dims_.front().size; }
  /// @return grid ranks along the axis.
  int grid_size() const { return grid_size_; }
  /// The record of one grid rank, a copy (built from the formula where the
  /// axis keeps one record; O(indices) for 'u').
  /// @param grid_rank a grid rank along the axis.
  Dim dim(int grid_rank) const;
  /// Length of one grid rank's buffer along the axis (its record's local_extent), without a copy.
  /// @param grid_rank a grid rank along the axis.
  global_index_t extent(int grid_rank) const;

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
  global_index_t owned_begin(int grid_rank) const;

 private:
  /// How the records are known: each one kept, one and a formula, or one and the 'b' boundaries.
  enum class Form { every_record, formula, split };
  AxisPartition(Form form, Dim record, int grid_size);
  /// Grid rank c's record: the kept one, or built into `scratch`.
  const Dim& record_of(int c, Dim& scratch) const;
  Form form_ = Form::every_record;
  int grid_size_ = 0;
  std::vector<Dim> dims_;                     ///< every grid rank's record, or only the caller's own (formula, split)
  std::vector<global_index_t> block_bounds_;  ///< 'b' (every record, split): grid_size()+1 owned boundaries
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
