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
  explicit ProcessGrid(std::vector<int> shape);  ///< every extent >= 1

  /// The grid described by one process's dim_data (proc_grid_size per axis).
  static ProcessGrid of(const std::vector<Dim>& dim_data);

  /// Extent per axis.
  const std::vector<int>& shape() const { return shape_; }
  /// Axes of the grid.
  int ndim() const { return static_cast<int>(shape_.size()); }
  int size() const;  ///< number of processes (1 for a zero-dimensional grid)

  /// The rank at these coordinates.
  int rank_of(const std::vector<int>& coords) const;
  /// The coordinates of a rank.
  std::vector<int> coords_of(int rank) const;
  /// One coordinate of coords_of(rank), without building the others.
  int coord_of(int rank, int axis) const;
  /// The rank at coordinate `coord` along `axis` and 0 along every other axis.
  int rank_at(int axis, int coord) const;

 private:
  std::vector<int> shape_;
};

/// The grid coordinates a process claims in its dim_data (proc_grid_rank per axis).
std::vector<int> grid_coords(const std::vector<Dim>& dim_data);

}  // namespace dapetra
