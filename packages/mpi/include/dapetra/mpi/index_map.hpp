/// \file
/// dapetra/mpi/index_map.hpp: what a finite-element code asks of a distribution.
///
/// An IndexMap answers, for one DistributedLayout, the questions DOLFINx's
/// common::IndexMap answers: the owner of every element this process holds
/// and its global index, where a global index sits in this process's buffer,
/// the owned range when the owned elements form one, and the neighbours: the
/// processes owning this process's ghosts (src) and those holding copies of
/// its owned elements (dest), with the holders of each owned element's copies.
/// It works alike for every layout, padded blocks, block-cyclic grids and
/// scattered 'u' layouts with shared indices included.
///
/// Elements are numbered locally as the buffer holds them: the local index
/// of an element is its position in C order over the buffer's axes (whatever
/// the buffer's strides). Globally an element is its C-order flat index over
/// the global shape; a 1-D 'u' array keeps its own indices. A ghost is an
/// element held here and owned elsewhere (communication padding, a copy of a
/// shared 'u' index); edge padding is owned, on periodic axes too, so the
/// periodic fills a HaloPlan makes are not ghost relations here.
///
/// Built once, collectively: the ghosts' global indices go to their owners in
/// one sparse exchange (none when no process holds a ghost). Memory: about 24
/// bytes per held element plus 4 per copy of an owned one. Immutable.
#pragma once

#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "dapetra/mpi/distributed_layout.hpp"

namespace dapetra::mpi {

/// Ownership, global indices and neighbours of one layout's elements (see the file's description).
class IndexMap {
 public:
  /// Collective over layout->comm().
  /// @param layout a 1-D layout.
  static std::shared_ptr<const IndexMap> create(std::shared_ptr<const DistributedLayout> layout);

  /// @return the distribution described.
  const DistributedLayout& layout() const { return *layout_; }

  /// @return elements held here (owned and ghosts).
  local_index_t local_size() const { return static_cast<local_index_t>(global_.size()); }
  /// @return elements owned here.
  local_index_t num_owned() const { return num_owned_; }
  /// @return elements held here and owned elsewhere.
  local_index_t num_ghosts() const { return local_size() - num_owned_; }
  /// @return elements of the global array, each counted once.
  global_index_t global_size() const { return global_size_; }

  /// @return the global index of every local element.
  const std::vector<global_index_t>& global_indices() const { return global_; }
  /// @return the owning rank of every local element (this rank for owned ones).
  const std::vector<int>& owners() const { return owner_; }
  /// Whether local element i is owned here.
  /// @param i a local element.
  /// @return whether this process owns it.
  bool is_owned(local_index_t i) const { return owner_[static_cast<std::size_t>(i)] == layout_->rank(); }
  /// The local index of global index g, or -1 when g is not held here. O(log n).
  /// @param g a global index.
  /// @return its local position here, or -1 when this process does not hold it.
  local_index_t local_index(global_index_t g) const;
  /// [first, last) when the owned elements' global indices are exactly that
  /// range (in any order in the buffer); none otherwise. Empty owned sets give [0, 0).
  /// @return the range, or nothing.
  const std::optional<std::pair<global_index_t, global_index_t>>& owned_range() const { return owned_range_; }

  /// @return ranks owning this process's ghosts, ascending (whom a halo update receives from).
  const std::vector<int>& src() const { return src_; }
  /// @return ranks holding copies of this process's owned elements, ascending (whom it sends to).
  const std::vector<int>& dest() const { return dest_; }
  /// The ranks holding copies of local element i, ascending; empty for a
  /// ghost or an element nobody else holds. A view into the map.
  /// @param i a local element.
  /// @return the ranks, as a [begin, end) pair of pointers.
  std::pair<const int*, const int*> sharers(local_index_t i) const {
    const auto k = static_cast<std::size_t>(i);
    return {sharer_ranks_.data() + sharer_begin_[k], sharer_ranks_.data() + sharer_begin_[k + 1]};
  }

 private:
  IndexMap() = default;
  friend struct IndexMapBuilder;

  std::shared_ptr<const DistributedLayout> layout_;
  global_index_t global_size_ = 0;
  local_index_t num_owned_ = 0;
  std::vector<global_index_t> global_;
  std::vector<int> owner_;
  std::vector<std::pair<global_index_t, local_index_t>> by_global_;  ///< sorted, for local_index()
  std::optional<std::pair<global_index_t, global_index_t>> owned_range_;
  std::vector<int> src_, dest_;
  std::vector<std::size_t> sharer_begin_;  ///< local_size() + 1 offsets into sharer_ranks_
  std::vector<int> sharer_ranks_;
};

/// A sub-map and where its elements came from (what create_sub_index_map returns).
struct SubIndexMap {
  /// The kept elements' map, over a 1-D 'u' layout of their new global indices.
  std::shared_ptr<const IndexMap> map;
  /// For each of its local elements, the local index it had in the parent.
  std::vector<local_index_t> parent_local;
};

/// Collective over parent.layout().comm(): the elements each process keeps
/// (`keep`: local indices of the parent, ascending, owned or ghosts) as a
/// new map. Ownership is carried over: an owner that keeps an element owns
/// it still; a ghost whose owner dropped it goes to the lowest rank keeping
/// it. Kept elements are numbered anew, consecutively by owner in rank order
/// (each owner's in its local order), so each process's owned elements are
/// one range and the owners follow from the ranges. Modelled on DOLFINx's
/// create_sub_index_map with owner changes allowed. A `keep` that is out of
/// range or not ascending on any process throws the same ValidationError on
/// every process. Cost: four sparse exchanges of the kept ghosts' indices, a scan,
/// a sum, and the new layout's creation (its owners named by their holders).
/// @param parent the index map.
/// @param keep the local elements to keep, each process its own.
/// @return the new index map and where each of its elements sits in the parent.
SubIndexMap create_sub_index_map(const IndexMap& parent, const std::vector<local_index_t>& keep);

}  // namespace dapetra::mpi
