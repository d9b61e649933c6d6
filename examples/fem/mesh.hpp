// The finite-element example's mesh: P1 triangles in 2-D or tetrahedra in
// 3-D, generated or read from a Gmsh MSH 4.1 file or a simple text file.
// Plain C++, no MPI. A MeshBlock is one process's share of a mesh before
// partitioning: a run of consecutive node numbers and one of cell numbers
// (generated meshes: every process makes its own block in closed form;
// files: one process reads, the others hold empty blocks). distribute.hpp
// takes blocks to partitioned parts; a whole Mesh is what one process sees
// (the serial reference, the file readers).
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

// A generated mesh, as scripts/demo makes them: the unit square cut into
// n x n squares, each split into two triangles along alternating diagonals
// (with `alike_diagonals`, all from lower left to upper right, as DOLFINx's
// create_unit_square cuts them, so the two meshes are the same);
// the L-shape [0,1]^2 minus (1/2,1]x(1/2,1] (n even), the same way; the unit
// cube cut into n^3 cubes, each split into six tetrahedra around its main
// diagonal (faces match). Interior nodes are moved by up to `perturb` * h
// (deterministic), so the mesh is unstructured in all but its connectivity.
// Nodes and cells are numbered row by row (layer by layer).
struct MeshSpec {
  enum Shape { square, l_shape, cube } shape = square;
  int n = 32;
  double perturb = 0.2;
  bool alike_diagonals = false;
};

// One process's share of a mesh before partitioning: nodes first_node ..
// first_node + x.size() - 1 with their coordinates and boundary flags, and
// cells first_cell .. with their corners (global node numbers) and centroids.
struct MeshBlock {
  int dim = 2;
  std::int64_t num_nodes = 0, num_cells = 0;  // the whole mesh's
  std::int64_t first_node = 0, first_cell = 0;
  std::vector<Point> x;
  std::vector<char> boundary;
  std::vector<std::array<std::int64_t, 4>> cells;
  std::vector<Point> centroid;
};

// Block `rank` of `nprocs` of a generated mesh (even split of node and of cell
// numbers), made without the rest of the mesh.
MeshBlock generate_block(const MeshSpec& spec, int rank, int nprocs);
// A whole mesh as one block, and an empty block of the same mesh (the other
// processes' share when one process read the file).
MeshBlock block_of(const Mesh& mesh);
MeshBlock empty_block_like(const MeshBlock& whole);
// The whole mesh from a block that holds all of it (throws otherwise).
Mesh mesh_of(const MeshBlock& block);

// Whole generated meshes (generate_block on one process).
Mesh unit_square(int n, double perturb = 0.2);
Mesh l_shape(int n, double perturb = 0.2);
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
  explicit MeshError(const std::string& message) : std::runtime_error(message) {}
};

// A mesh file: "nodes N" then N lines "x y b" (b = 1 on the boundary),
// "triangles M" then M lines "a b c" (0-based node numbers). Throws on errors.
Mesh read_mesh(const std::string& path);

// Longest edge over all cells.
double mesh_size(const Mesh& mesh);

}  // namespace fem
