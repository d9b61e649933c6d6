/// \file
/// dapetra/global_layout.hpp: every process's dim_data of one array, in one place.
///
/// A LayoutRecords is what a layout file holds (`{"__version__": ..., "ranks": [...]}`,
/// see json.hpp) and what the collective checks and the inspection tool work
/// on. `ranks[r]` is MPI rank r. A GlobalLayout is what a validated LayoutRecords
/// describes, kept as one AxisPartition per axis: records of the same grid rank
/// along an axis are identical (section 1.6.4) and rank r sits at the C-order
/// grid coordinates of r, so the grid ranks' records along each axis say
/// everything, in O(sum of the grid's extents) memory rather than O(P), and
/// in O(1) per axis whose records follow from a formula (an even 'b' split,
/// a 'c' axis: AxisPartition::regular).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dapetra/axis.hpp"
#include "dapetra/dim.hpp"
#include "dapetra/process_grid.hpp"

namespace dapetra {

/// The DAP version this library writes.
inline constexpr const char* dap_version = "0.10.0";

/// One process's entry of a layout: its dim_data, and its buffer's shape when known.
struct RankEntry {
  /// The process's records, one per axis.
  std::vector<Dim> dim_data;
  /// The buffer's shape, when known; checked against dim_data.
  std::optional<std::vector<global_index_t>> local_shape;
};

/// Every process's records of one array (a layout file's content).
struct LayoutRecords {
  /// The protocol version.
  std::string version = dap_version;
  /// Each process's entry, in rank order.
  std::vector<RankEntry> ranks;
};

/// Buffer shape implied by one process's dim_data.
/// @param dim_data a process's records.
std::vector<global_index_t> local_shape_of(const std::vector<Dim>& dim_data);

/// Global shape (the sizes) of one process's dim_data.
/// @param dim_data a process's records.
/// @return the array's global shape.
std::vector<global_index_t> global_shape_of(const std::vector<Dim>& dim_data);

/// Tag for building a GlobalLayout from records already checked with check_layout.
struct assume_valid_t {};
/// Tag: the layout was checked already (the mpi layer's gathered records).
inline constexpr assume_valid_t assume_valid{};

/// Every process's records of one array, analysed: global shape, process grid, the owner of any element.
class GlobalLayout {
 public:
  /// Validates `layout` (local and collective rules) and throws ValidationError
  /// listing every problem if it is not valid.
  /// @param layout every process's records.
  /// @param rule the owner of a shared 'u' index.
  explicit GlobalLayout(const LayoutRecords& layout, SharedIndexOwner rule = lowest_holder);
  /// Skips the checks (the caller ran check_layout and found nothing).
  /// @param layout every process's records, already checked.
  /// @param rule the owner of a shared 'u' index.
  GlobalLayout(assume_valid_t, const LayoutRecords& layout, SharedIndexOwner rule = lowest_holder);
  /// From the axes alone (each built from the records of its grid ranks, the
  /// collective rules already checked), as an MPI layout that gathered only
  /// the records of its own grid lines builds it.
  /// @param axes one per dimension.
  explicit GlobalLayout(std::vector<AxisPartition> axes);

  /// @return processes in the layout.
  int nprocs() const { return grid_.size(); }
  /// @return axes of the array.
  int ndim() const { return static_cast<int>(axes_.size()); }
  /// @return the process grid.
  const ProcessGrid& grid() const { return grid_; }
  /// @return the array's global shape.
  const std::vector<global_index_t>& global_shape() const { return global_shape_; }
  /// Axis d across all grid ranks.
  /// @param d a dimension.
  const AxisPartition& axis(int d) const { return axes_[d]; }
  /// Rank r's record along axis d (a copy, see AxisPartition::dim).
  /// @param rank a process.
  /// @param d a dimension.
  Dim record(int rank, int d) const { return axes_[d].dim(grid_.coord_of(rank, d)); }
  /// The records of one process.
  /// @param rank a process.
  std::vector<Dim> dim_data(int rank) const;

  /// Rank owning the element at global multi-index `g`, or -1 if none holds it.
  /// @param g a global multi-index.
  /// @return the process owning it.
  int owner(const std::vector<global_index_t>& g) const;
  /// Number of elements rank r owns (product over axes); sums to the global size.
  /// @param rank a process.
  /// @return the elements it owns.
  global_index_t num_owned(int rank) const;

 private:
  ProcessGrid grid_;
  std::vector<global_index_t> global_shape_;
  std::vector<AxisPartition> axes_;
};

}  // namespace dapetra
