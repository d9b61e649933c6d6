// The finite-element example's mesh: P1 triangles in 2-D or tetrahedra in
// 3-D, generated, or read from a Gmsh MSH 4.1 file or a simple text file,
// and partitioned by recursive coordinate bisection. Plain C++; every process
// holds the whole mesh and computes the same partition, then keeps its own
// elements.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace fem {

using Point = std::array<double, 3>;  // z = 0 in 2-D

// The node numbers of one cell, as a range.
struct CellNodes {
  const std::int64_t* first;
  int count;
  const std::int64_t* begin() const { return first; }
  const std::int64_t* end() const { return first + count; }
};

struct Mesh {
  int dim = 2;                                     // 2: triangles, 3: tetrahedra
  std::vector<Point> x;                            // node coordinates
  std::vector<std::array<std::int64_t, 4>> cells;  // node numbers: the first dim + 1 are used
  std::vector<char> boundary;                      // per node: on the Dirichlet boundary
  std::size_t num_nodes() const { return x.size(); }
  std::size_t num_cells() const { return cells.size(); }
  int corners() const { return dim + 1; }
  CellNodes nodes(std::size_t c) const { return {cells[c].data(), dim + 1}; }
};

// The unit square cut into n x n squares, each split into two triangles
// along alternating diagonals; interior nodes moved by up to `perturb` * h
// (deterministic), so the mesh is unstructured in all but its connectivity.
Mesh unit_square(int n, double perturb = 0.2);

// The L-shaped domain [0,1]^2 minus (1/2,1]x(1/2,1], same construction (n even).
Mesh l_shape(int n, double perturb = 0.2);

// The unit cube cut into n^3 cubes, each split into six tetrahedra around
// its main diagonal (the same split in every cube, so faces match);
// interior nodes moved as in unit_square.
Mesh unit_cube(int n, double perturb = 0.2);

// A Gmsh MSH 4.1 file (ASCII): its triangles (a 2-D mesh) or, when it has
// any, its tetrahedra (a 3-D mesh); lower-dimensional elements (points,
// lines, boundary triangles of a 3-D mesh) are skipped. The Dirichlet
// boundary is every node on a facet that only one cell has. Throws
// MeshError naming the file, the line and what is wrong.
Mesh read_gmsh(const std::string& path);

// A mesh file by its name: *.msh is Gmsh's format, anything else read_mesh's.
Mesh read_mesh_file(const std::string& path);

// A fault in a mesh file: the message names the file, the line (0 when the
// fault is not on one line) and what is wrong.
struct MeshError : std::runtime_error {
  MeshError(const std::string& file, long line, const std::string& what);
};

// A mesh file: "nodes N" then N lines "x y b" (b = 1 on the boundary),
// "triangles M" then M lines "a b c" (0-based node numbers). Throws on errors.
Mesh read_mesh(const std::string& path);

// Recursive coordinate bisection of the cells' centroids into `parts` parts
// (sizes as equal as the count allows); returns the part of every cell.
// Throws MeshError when a part would be empty (fewer cells than parts).
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
