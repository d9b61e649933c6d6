// The finite-element example's mesh: P1 triangles in 2-D, generated or read
// from a simple text file, and partitioned by recursive coordinate bisection.
// Plain C++; every process holds the whole (small) mesh and computes the same
// partition, then keeps its own elements.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fem {

struct Mesh {
  std::vector<std::array<double, 2>> x;            // node coordinates
  std::vector<std::array<std::int64_t, 3>> cells;  // node numbers, counter-clockwise
  std::vector<char> boundary;                      // per node: on the Dirichlet boundary
  std::size_t num_nodes() const { return x.size(); }
  std::size_t num_cells() const { return cells.size(); }
};

// The unit square cut into n x n squares, each split into two triangles
// along alternating diagonals; interior nodes moved by up to `perturb` * h
// (deterministic), so the mesh is unstructured in all but its connectivity.
Mesh unit_square(int n, double perturb = 0.2);

// The L-shaped domain [0,1]^2 minus (1/2,1]x(1/2,1], same construction (n even).
Mesh l_shape(int n, double perturb = 0.2);

// A mesh file: "nodes N" then N lines "x y b" (b = 1 on the boundary),
// "triangles M" then M lines "a b c" (0-based node numbers). Throws on errors.
Mesh read_mesh(const std::string& path);

// Recursive coordinate bisection of the cells' centroids into `parts` parts
// (sizes as equal as the count allows); returns the part of every cell.
std::vector<int> rcb_partition(const Mesh& mesh, int parts);

// The same mesh with its nodes renumbered so that each part's owned nodes
// (a node belongs to the lowest part holding a cell around it) are
// consecutive, in part order, keeping their relative order. Cells keep their
// order, so `cell_part` stays valid. PETSc needs this numbering: its
// ownership ranges are consecutive runs of global indices.
Mesh number_by_owner(const Mesh& mesh, const std::vector<int>& cell_part);

// Longest edge over all cells.
double mesh_size(const Mesh& mesh);

}  // namespace fem
