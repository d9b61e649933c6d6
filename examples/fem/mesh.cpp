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

// Squares (i, j) of an n x n grid for which keep(i, j) holds.
template <class Keep>
Mesh grid_mesh(int n, double perturb, Keep keep) {
  Mesh m;
  const double h = 1.0 / n;
  std::vector<std::int64_t> id(static_cast<std::size_t>((n + 1) * (n + 1)), -1);
  const auto node_used = [&](int i, int j) {  // a grid node touching a kept square
    for (int di = -1; di <= 0; ++di)
      for (int dj = -1; dj <= 0; ++dj)
        if (i + di >= 0 && i + di < n && j + dj >= 0 && j + dj < n && keep(i + di, j + dj)) return true;
    return false;
  };
  const auto node_on_boundary = [&](int i, int j) {  // some adjacent square is missing
    for (int di = -1; di <= 0; ++di)
      for (int dj = -1; dj <= 0; ++dj) {
        const int a = i + di, b = j + dj;
        if (a < 0 || a >= n || b < 0 || b >= n || !keep(a, b)) return true;
      }
    return false;
  };
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) {
      if (!node_used(i, j)) continue;
      const bool b = node_on_boundary(i, j);
      double x = i * h, y = j * h;
      if (!b) {
        x += perturb * h * jitter(i, j, 1);
        y += perturb * h * jitter(i, j, 2);
      }
      id[static_cast<std::size_t>(j * (n + 1) + i)] = static_cast<std::int64_t>(m.x.size());
      m.x.push_back({x, y, 0});
      m.boundary.push_back(b);
    }
  const auto at = [&](int i, int j) { return id[static_cast<std::size_t>(j * (n + 1) + i)]; };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      if (!keep(i, j)) continue;
      const auto a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
      if ((i + j) % 2 == 0) {
        m.cells.push_back({a, b, c});
        m.cells.push_back({a, c, d});
      } else {
        m.cells.push_back({a, b, d});
        m.cells.push_back({b, c, d});
      }
    }
  return m;
}

void rcb(const Mesh& mesh, std::vector<std::size_t>& cells, std::size_t lo, std::size_t hi, int first_part, int parts,
         const std::vector<Point>& centroid, std::vector<int>& out) {
  if (parts == 1) {
    for (std::size_t k = lo; k < hi; ++k) out[cells[k]] = first_part;
    return;
  }
  double min[3] = {1e300, 1e300, 1e300}, max[3] = {-1e300, -1e300, -1e300};
  for (std::size_t k = lo; k < hi; ++k)
    for (int d = 0; d < mesh.dim; ++d) {
      min[d] = std::min(min[d], centroid[cells[k]][d]);
      max[d] = std::max(max[d], centroid[cells[k]][d]);
    }
  int axis = 0;  // the longest extent
  for (int d = 1; d < mesh.dim; ++d)
    if (max[d] - min[d] > max[axis] - min[axis]) axis = d;
  const int left_parts = parts / 2;
  const std::size_t split = lo + (hi - lo) * static_cast<std::size_t>(left_parts) / static_cast<std::size_t>(parts);
  std::nth_element(cells.begin() + static_cast<std::ptrdiff_t>(lo), cells.begin() + static_cast<std::ptrdiff_t>(split),
                   cells.begin() + static_cast<std::ptrdiff_t>(hi), [&](std::size_t a, std::size_t b) {
                     return centroid[a][axis] != centroid[b][axis] ? centroid[a][axis] < centroid[b][axis] : a < b;
                   });
  rcb(mesh, cells, lo, split, first_part, left_parts, centroid, out);
  rcb(mesh, cells, split, hi, first_part + left_parts, parts - left_parts, centroid, out);
}

}  // namespace

Mesh unit_square(int n, double perturb) {
  return grid_mesh(n, perturb, [](int, int) { return true; });
}

Mesh l_shape(int n, double perturb) {
  return grid_mesh(n, perturb, [n](int i, int j) { return !(2 * i >= n && 2 * j >= n); });
}

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

Mesh unit_cube(int n, double perturb) {
  Mesh m;
  m.dim = 3;
  const double h = 1.0 / n;
  const auto id = [n](int i, int j, int k) { return static_cast<std::int64_t>((k * (n + 1) + j) * (n + 1) + i); };
  for (int k = 0; k <= n; ++k)
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i) {
        const bool b = i == 0 || j == 0 || k == 0 || i == n || j == n || k == n;
        Point p{i * h, j * h, k * h};
        if (!b)
          for (int d = 0; d < 3; ++d) p[d] += perturb * h * jitter(i + (n + 1) * j, k, d + 1);
        m.x.push_back(p);
        m.boundary.push_back(b);
      }
  // Each cube's six tetrahedra: (0,0,0) to (1,1,1) along the axes in every order.
  static const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        for (const auto& order : orders) {
          std::array<int, 3> at{i, j, k};
          std::array<std::int64_t, 4> cell{id(i, j, k), 0, 0, 0};
          for (int s = 0; s < 3; ++s) {
            ++at[static_cast<std::size_t>(order[s])];
            cell[static_cast<std::size_t>(s + 1)] = id(at[0], at[1], at[2]);
          }
          m.cells.push_back(cell);
        }
  return m;
}

std::vector<int> rcb_partition(const Mesh& mesh, int parts) {
  if (mesh.num_cells() < static_cast<std::size_t>(parts))
    throw MeshError("the mesh", 0, std::to_string(mesh.num_cells()) + " cells cannot fill " + std::to_string(parts) +
                                       " parts: some process would have no cells (use fewer processes)");
  std::vector<Point> centroid(mesh.num_cells(), Point{0, 0, 0});
  for (std::size_t c = 0; c < mesh.num_cells(); ++c)
    for (auto v : mesh.nodes(c))
      for (int d = 0; d < mesh.dim; ++d) centroid[c][d] += mesh.x[static_cast<std::size_t>(v)][d] / mesh.corners();
  std::vector<std::size_t> cells(mesh.num_cells());
  std::iota(cells.begin(), cells.end(), 0);
  std::vector<int> out(mesh.num_cells(), 0);
  rcb(mesh, cells, 0, cells.size(), 0, parts, centroid, out);
  return out;
}

Mesh number_by_owner(const Mesh& mesh, const std::vector<int>& cell_part) {
  std::vector<int> owner(mesh.num_nodes(), std::numeric_limits<int>::max());
  for (std::size_t c = 0; c < mesh.num_cells(); ++c)
    for (auto v : mesh.nodes(c)) owner[v] = std::min(owner[v], cell_part[c]);
  std::vector<std::int64_t> old_of(mesh.num_nodes());
  std::iota(old_of.begin(), old_of.end(), 0);
  std::stable_sort(old_of.begin(), old_of.end(), [&](std::int64_t a, std::int64_t b) { return owner[a] < owner[b]; });
  std::vector<std::int64_t> new_of(mesh.num_nodes());
  Mesh out;
  out.dim = mesh.dim;
  out.x.reserve(mesh.num_nodes());
  out.boundary.reserve(mesh.num_nodes());
  for (std::size_t i = 0; i < old_of.size(); ++i) {
    new_of[old_of[i]] = static_cast<std::int64_t>(i);
    out.x.push_back(mesh.x[old_of[i]]);
    out.boundary.push_back(mesh.boundary[old_of[i]]);
  }
  out.cells = mesh.cells;
  for (auto& c : out.cells)
    for (int k = 0; k < mesh.corners(); ++k) c[k] = new_of[c[k]];
  return out;
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
