#include "mesh.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace fem {
namespace {

// A deterministic pseudo-random number in [-1, 1] from two integers.
double jitter(std::int64_t i, std::int64_t j, int salt) {
  std::uint64_t h = static_cast<std::uint64_t>(i) * 0x9E3779B97F4A7C15ULL ^ static_cast<std::uint64_t>(j) * 0xC2B2AE3D27D4EB4FULL ^
                    static_cast<std::uint64_t>(salt) * 0x165667B19E3779F9ULL;
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 27;
  return static_cast<double>(h % 2000001) / 1000000.0 - 1.0;
}

// The n x n grid of squares, rows j < cut full, rows j >= cut only their
// first `top` squares (the unit square: cut = n; the L-shape: cut = top = n/2).
// Nodes are numbered row by row over the nodes some kept square touches,
// squares likewise, two triangles per square: every number in closed form,
// so any process makes any block of the mesh alone.
struct Grid2D {
  std::int64_t n, cut, top;
  double perturb;
  bool alike_diagonals;

  bool keep(std::int64_t i, std::int64_t j) const { return i >= 0 && j >= 0 && i < n && j < n && (j < cut || i < top); }
  std::int64_t row_nodes(std::int64_t j) const { return j <= cut ? n + 1 : top + 1; }
  std::int64_t node_id(std::int64_t i, std::int64_t j) const {
    return j <= cut ? j * (n + 1) + i : (cut + 1) * (n + 1) + (j - cut - 1) * (top + 1) + i;
  }
  std::array<std::int64_t, 2> node_at(std::int64_t id) const {
    const std::int64_t full = (cut + 1) * (n + 1);
    if (id < full) return {id % (n + 1), id / (n + 1)};
    return {(id - full) % (top + 1), cut + 1 + (id - full) / (top + 1)};
  }
  std::int64_t num_nodes() const { return (cut + 1) * (n + 1) + (n - cut) * (top + 1); }
  std::int64_t num_squares() const { return cut * n + (n - cut) * top; }
  std::int64_t num_cells() const { return 2 * num_squares(); }
  std::array<std::int64_t, 2> square_at(std::int64_t s) const {
    if (s < cut * n) return {s % n, s / n};
    return {(s - cut * n) % top, cut + (s - cut * n) / top};
  }

  Point point(std::int64_t id, bool& on_boundary) const {
    const auto [i, j] = node_at(id);
    on_boundary = !(keep(i - 1, j - 1) && keep(i, j - 1) && keep(i - 1, j) && keep(i, j));  // some adjacent square missing
    const double h = 1.0 / static_cast<double>(n);
    Point p{static_cast<double>(i) * h, static_cast<double>(j) * h, 0};
    if (!on_boundary) {
      p[0] += perturb * h * jitter(i, j, 1);
      p[1] += perturb * h * jitter(i, j, 2);
    }
    return p;
  }
  std::array<std::int64_t, 4> cell(std::int64_t id) const {
    const auto [i, j] = square_at(id / 2);
    const auto a = node_id(i, j), b = node_id(i + 1, j), c = node_id(i + 1, j + 1), d = node_id(i, j + 1);
    const bool second = id % 2 == 1;
    if (alike_diagonals || (i + j) % 2 == 0) return second ? std::array<std::int64_t, 4>{a, c, d, 0} : std::array<std::int64_t, 4>{a, b, c, 0};
    return second ? std::array<std::int64_t, 4>{b, c, d, 0} : std::array<std::int64_t, 4>{a, b, d, 0};
  }
};

// The unit cube's n^3 cubes, six tetrahedra each, numbered in closed form.
struct Grid3D {
  std::int64_t n;
  double perturb;

  std::int64_t num_nodes() const { return (n + 1) * (n + 1) * (n + 1); }
  std::int64_t num_cells() const { return 6 * n * n * n; }
  std::int64_t node_id(std::int64_t i, std::int64_t j, std::int64_t k) const { return (k * (n + 1) + j) * (n + 1) + i; }
  Point point(std::int64_t id, bool& on_boundary) const {
    const std::int64_t i = id % (n + 1), j = id / (n + 1) % (n + 1), k = id / ((n + 1) * (n + 1));
    on_boundary = i == 0 || j == 0 || k == 0 || i == n || j == n || k == n;
    const double h = 1.0 / static_cast<double>(n);
    Point p{static_cast<double>(i) * h, static_cast<double>(j) * h, static_cast<double>(k) * h};
    if (!on_boundary)
      for (int d = 0; d < 3; ++d) p[d] += perturb * h * jitter(i + (n + 1) * j, k, d + 1);
    return p;
  }
  // A cube's six tetrahedra: (0,0,0) to (1,1,1) along the axes in every order
  // (the same split in every cube, so faces match).
  std::array<std::int64_t, 4> cell(std::int64_t id) const {
    static const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    const std::int64_t cube = id / 6;
    std::array<std::int64_t, 3> at{cube % n, cube / n % n, cube / (n * n)};
    std::array<std::int64_t, 4> out{node_id(at[0], at[1], at[2]), 0, 0, 0};
    for (int s = 0; s < 3; ++s) {
      ++at[static_cast<std::size_t>(orders[id % 6][s])];
      out[static_cast<std::size_t>(s + 1)] = node_id(at[0], at[1], at[2]);
    }
    return out;
  }
};

// Block `rank` of P of n items: the first n % P blocks one longer.
std::array<std::int64_t, 2> even_range(std::int64_t n, int rank, int nprocs) {
  const std::int64_t q = n / nprocs, r = n % nprocs;
  const std::int64_t first = rank * q + std::min<std::int64_t>(rank, r);
  return {first, first + q + (rank < r ? 1 : 0)};
}

template <class Grid>
MeshBlock block_of_grid(const Grid& grid, int dim, int rank, int nprocs) {
  MeshBlock b;
  b.dim = dim;
  b.num_nodes = grid.num_nodes();
  b.num_cells = grid.num_cells();
  const auto [n0, n1] = even_range(b.num_nodes, rank, nprocs);
  const auto [c0, c1] = even_range(b.num_cells, rank, nprocs);
  b.first_node = n0;
  b.first_cell = c0;
  b.x.reserve(static_cast<std::size_t>(n1 - n0));
  b.boundary.reserve(static_cast<std::size_t>(n1 - n0));
  for (std::int64_t v = n0; v < n1; ++v) {
    bool on_boundary = false;
    b.x.push_back(grid.point(v, on_boundary));
    b.boundary.push_back(on_boundary);
  }
  b.cells.reserve(static_cast<std::size_t>(c1 - c0));
  b.centroid.reserve(static_cast<std::size_t>(c1 - c0));
  for (std::int64_t c = c0; c < c1; ++c) {
    b.cells.push_back(grid.cell(c));
    Point mid{0, 0, 0};
    for (int k = 0; k <= dim; ++k) {  // corners' positions in closed form: no node needs to be here
      bool on_boundary = false;
      const Point p = grid.point(b.cells.back()[static_cast<std::size_t>(k)], on_boundary);
      for (int d = 0; d < dim; ++d) mid[d] += p[d] / (dim + 1);
    }
    b.centroid.push_back(mid);
  }
  return b;
}

}  // namespace

MeshBlock generate_block(const MeshSpec& spec, int rank, int nprocs) {
  const std::int64_t n = spec.n;
  switch (spec.shape) {
    case MeshSpec::square: return block_of_grid(Grid2D{n, n, n, spec.perturb, spec.alike_diagonals}, 2, rank, nprocs);
    case MeshSpec::l_shape: return block_of_grid(Grid2D{n, n / 2, n / 2, spec.perturb, spec.alike_diagonals}, 2, rank, nprocs);
    case MeshSpec::cube: return block_of_grid(Grid3D{n, spec.perturb}, 3, rank, nprocs);
  }
  throw std::invalid_argument("generate_block: unknown shape");
}

MeshBlock block_of(const Mesh& mesh) {
  MeshBlock b;
  b.dim = mesh.dim;
  b.num_nodes = static_cast<std::int64_t>(mesh.num_nodes());
  b.num_cells = static_cast<std::int64_t>(mesh.num_cells());
  b.x = mesh.x;
  b.boundary = mesh.boundary;
  b.cells = mesh.cells;
  b.centroid.assign(mesh.num_cells(), Point{0, 0, 0});
  for (std::size_t c = 0; c < mesh.num_cells(); ++c)
    for (auto v : mesh.nodes(c))
      for (int d = 0; d < mesh.dim; ++d) b.centroid[c][d] += mesh.x[static_cast<std::size_t>(v)][d] / mesh.corners();
  return b;
}

MeshBlock empty_block_like(const MeshBlock& whole) {
  MeshBlock b;
  b.dim = whole.dim;
  b.num_nodes = whole.num_nodes;
  b.num_cells = whole.num_cells;
  b.first_node = whole.num_nodes;
  b.first_cell = whole.num_cells;
  return b;
}

Mesh mesh_of(const MeshBlock& block) {
  if (block.first_node != 0 || block.first_cell != 0 || static_cast<std::int64_t>(block.x.size()) != block.num_nodes ||
      static_cast<std::int64_t>(block.cells.size()) != block.num_cells)
    throw std::invalid_argument("mesh_of: the block is not the whole mesh");
  Mesh m;
  m.dim = block.dim;
  m.x = block.x;
  m.boundary = block.boundary;
  m.cells = block.cells;
  return m;
}

Mesh unit_square(int n, double perturb) { return mesh_of(generate_block({MeshSpec::square, n, perturb}, 0, 1)); }

Mesh l_shape(int n, double perturb) { return mesh_of(generate_block({MeshSpec::l_shape, n, perturb}, 0, 1)); }

Mesh unit_cube(int n, double perturb) { return mesh_of(generate_block({MeshSpec::cube, n, perturb}, 0, 1)); }

MeshError::MeshError(const std::string& file, long line, const std::string& what)
    : std::runtime_error(file + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + what) {}

Mesh read_mesh(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw MeshError(path, 0, "cannot open the mesh file");
  Mesh m;
  std::string word;
  std::size_t n = 0;
  long line = 1;
  if (!(in >> word >> n) || word != "nodes") throw MeshError(path, line, "expected 'nodes N'");
  for (std::size_t i = 0; i < n; ++i) {
    ++line;
    double x, y;
    int b;
    if (!(in >> x >> y >> b)) throw MeshError(path, line, "expected node " + std::to_string(i) + " as 'x y on_boundary'");
    m.x.push_back({x, y, 0});
    m.boundary.push_back(b != 0);
  }
  ++line;
  if (!(in >> word >> n) || word != "triangles") throw MeshError(path, line, "expected 'triangles M'");
  for (std::size_t i = 0; i < n; ++i) {
    ++line;
    std::array<std::int64_t, 4> c{};
    if (!(in >> c[0] >> c[1] >> c[2])) throw MeshError(path, line, "expected triangle " + std::to_string(i) + " as 'a b c'");
    for (int k = 0; k < 3; ++k)
      if (c[k] < 0 || static_cast<std::size_t>(c[k]) >= m.x.size())
        throw MeshError(path, line, "triangle " + std::to_string(i) + " names node " + std::to_string(c[k]) + ", not in 0.." +
                                        std::to_string(m.x.size() - 1));
    m.cells.push_back(c);
  }
  if (m.cells.empty()) throw MeshError(path, line, "the mesh has no triangles");
  return m;
}

Mesh read_mesh_file(const std::string& path) {
  const bool gmsh = path.size() >= 4 && path.compare(path.size() - 4, 4, ".msh") == 0;
  return gmsh ? read_gmsh(path) : read_mesh(path);
}

double mesh_size(const Mesh& mesh) {
  double h = 0;
  for (std::size_t c = 0; c < mesh.num_cells(); ++c)
    for (int a = 0; a < mesh.corners(); ++a)
      for (int b = a + 1; b < mesh.corners(); ++b) {
        const Point& p = mesh.x[static_cast<std::size_t>(mesh.cells[c][a])];
        const Point& q = mesh.x[static_cast<std::size_t>(mesh.cells[c][b])];
        h = std::max(h, std::sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2])));
      }
  return h;
}

}  // namespace fem
