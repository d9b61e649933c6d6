/// \file
/// dapetra/process_grid.hpp: the DAP process grid (section 1.4).
///
/// Ranks map to grid coordinates in C order (last coordinate fastest), which is
/// also what MPI_Cart_create does with reorder = false.
#pragma once

#include <vector>

#include "dapetra/dim.hpp"

namespace dapetra {

/// A Cartesian process grid in C order (last coordinate fastest), as the spec and MPI_Cart_create define it.
class ProcessGrid {
 public:
  ProcessGrid() = default;
  /// @param shape processes per axis.
  explicit ProcessGrid(std::vector<int> shape);  ///< every extent >= 1

  /// The grid described by one process's dim_data (proc_grid_size per axis).
  /// @param dim_data a process's records.
  /// @return the grid they describe.
  static ProcessGrid of(const std::vector<Dim>& dim_data);

  /// @return extent per axis.
  const std::vector<int>& shape() const { return shape_; }
  /// @return axes of the grid.
  int ndim() const { return static_cast<int>(shape_.size()); }
  /// @return the number of processes (1 for a zero-dimensional grid).
  int size() const;  ///< number of processes (1 for a zero-dimensional grid)

  /// The rank at these coordinates.
  /// @param coords grid coordinates.
  int rank_of(const std::vector<int>& coords) const;
  /// The coordinates of a rank.
  /// @param rank a rank.
  std::vector<int> coords_of(int rank) const;
  /// One coordinate of coords_of(rank), without building the others.
  /// @param rank a rank.
  /// @param axis an axis.
  /// @return its coordinate along the axis.
  int coord_of(int rank, int axis) const;
  /// The rank at coordinate `coord` along `axis` and 0 along every other axis.
  /// @param axis an axis.
  /// @param coord a coordinate along it.
  /// @return the rank there, the other coordinates zero.
  int rank_at(int axis, int coord) const;

 private:
  std::vector<int> shape_;
};

/// The grid coordinates a process claims in its dim_data (proc_grid_rank per axis).
/// @param dim_data a process's records.
/// @return its grid coordinates (each record's proc_grid_rank).
std::vector<int> grid_coords(const std::vector<Dim>& dim_data);

}  // namespace dapetra
