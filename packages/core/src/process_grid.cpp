#include "dapetra/process_grid.hpp"

#include <stdexcept>

namespace dapetra {

ProcessGrid::ProcessGrid(std::vector<int> shape) : shape_(std::move(shape)) {
  for (int n : shape_)
    if (n < 1) throw std::invalid_argument("ProcessGrid: every extent must be >= 1");
}

ProcessGrid ProcessGrid::of(const std::vector<Dim>& dim_data) {
  std::vector<int> shape;
  shape.reserve(dim_data.size());
  for (const Dim& d : dim_data) shape.push_back(d.proc_grid_size);
  return ProcessGrid(std::move(shape));
}

int ProcessGrid::size() const {
  long long n = 1;
  for (int s : shape_) n *= s;
  return static_cast<int>(n);
}

int ProcessGrid::rank_of(const std::vector<int>& coords) const {
  if (coords.size() != shape_.size()) throw std::invalid_argument("ProcessGrid::rank_of: wrong number of coordinates");
  int rank = 0;
  for (std::size_t d = 0; d < shape_.size(); ++d) {
    if (coords[d] < 0 || coords[d] >= shape_[d]) throw std::out_of_range("ProcessGrid::rank_of: coordinate outside the grid");
    rank = rank * shape_[d] + coords[d];  // C order: last coordinate fastest
  }
  return rank;
}

std::vector<int> ProcessGrid::coords_of(int rank) const {
  if (rank < 0 || rank >= size()) throw std::out_of_range("ProcessGrid::coords_of: rank outside the grid");
  std::vector<int> coords(shape_.size());
  for (std::size_t d = shape_.size(); d-- > 0;) {
    coords[d] = rank % shape_[d];
    rank /= shape_[d];
  }
  return coords;
}

int ProcessGrid::coord_of(int rank, int axis) const {
  if (rank < 0 || rank >= size()) throw std::out_of_range("ProcessGrid::coord_of: rank outside the grid");
  if (axis < 0 || axis >= ndim()) throw std::out_of_range("ProcessGrid::coord_of: no such axis");
  for (int d = ndim() - 1; d > axis; --d) rank /= shape_[d];
  return rank % shape_[axis];
}

int ProcessGrid::rank_at(int axis, int coord) const {
  if (axis < 0 || axis >= ndim()) throw std::out_of_range("ProcessGrid::rank_at: no such axis");
  if (coord < 0 || coord >= shape_[axis]) throw std::out_of_range("ProcessGrid::rank_at: coordinate outside the grid");
  int stride = 1;
  for (int d = ndim() - 1; d > axis; --d) stride *= shape_[d];
  return coord * stride;
}

std::vector<int> grid_coords(const std::vector<Dim>& dim_data) {
  std::vector<int> coords;
  coords.reserve(dim_data.size());
  for (const Dim& d : dim_data) coords.push_back(d.proc_grid_rank);
  return coords;
}

}  // namespace dapetra
