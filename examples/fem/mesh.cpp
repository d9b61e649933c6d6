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
      m.x.push_back({x, y});
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
         const std::vector<std::array<double, 2>>& centroid, std::vector<int>& out) {
  if (parts == 1) {
    for (std::size_t k = lo; k < hi; ++k) out[cells[k]] = first_part;
    return;
  }
  double min[2] = {1e300, 1e300}, max[2] = {-1e300, -1e300};
  for (std::size_t k = lo; k < hi; ++k)
    for (int d = 0; d < 2; ++d) {
      min[d] = std::min(min[d], centroid[cells[k]][d]);
      max[d] = std::max(max[d], centroid[cells[k]][d]);
    }
  const int axis = max[0] - min[0] >= max[1] - min[1] ? 0 : 1;
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

Mesh read_mesh(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open mesh file " + path);
  Mesh m;
  std::string word;
  std::size_t n = 0;
  if (!(in >> word >> n) || word != "nodes") throw std::runtime_error(path + ": expected 'nodes N'");
  for (std::size_t i = 0; i < n; ++i) {
    double x, y;
    int b;
    if (!(in >> x >> y >> b)) throw std::runtime_error(path + ": bad node line " + std::to_string(i));
    m.x.push_back({x, y});
    m.boundary.push_back(b != 0);
  }
  if (!(in >> word >> n) || word != "triangles") throw std::runtime_error(path + ": expected 'triangles M'");
  for (std::size_t i = 0; i < n; ++i) {
    std::array<std::int64_t, 3> c{};
    if (!(in >> c[0] >> c[1] >> c[2])) throw std::runtime_error(path + ": bad triangle line " + std::to_string(i));
    for (auto v : c)
      if (v < 0 || static_cast<std::size_t>(v) >= m.x.size()) throw std::runtime_error(path + ": node number out of range");
    m.cells.push_back(c);
  }
  return m;
}

std::vector<int> rcb_partition(const Mesh& mesh, int parts) {
  std::vector<std::array<double, 2>> centroid(mesh.num_cells());
  for (std::size_t c = 0; c < mesh.num_cells(); ++c)
    for (int d = 0; d < 2; ++d)
      centroid[c][d] = (mesh.x[mesh.cells[c][0]][d] + mesh.x[mesh.cells[c][1]][d] + mesh.x[mesh.cells[c][2]][d]) / 3.0;
  std::vector<std::size_t> cells(mesh.num_cells());
  std::iota(cells.begin(), cells.end(), 0);
  std::vector<int> out(mesh.num_cells(), 0);
  rcb(mesh, cells, 0, cells.size(), 0, parts, centroid, out);
  return out;
}

Mesh number_by_owner(const Mesh& mesh, const std::vector<int>& cell_part) {
  std::vector<int> owner(mesh.num_nodes(), std::numeric_limits<int>::max());
  for (std::size_t c = 0; c < mesh.num_cells(); ++c)
    for (auto v : mesh.cells[c]) owner[v] = std::min(owner[v], cell_part[c]);
  std::vector<std::int64_t> old_of(mesh.num_nodes());
  std::iota(old_of.begin(), old_of.end(), 0);
  std::stable_sort(old_of.begin(), old_of.end(), [&](std::int64_t a, std::int64_t b) { return owner[a] < owner[b]; });
  std::vector<std::int64_t> new_of(mesh.num_nodes());
  Mesh out;
  out.x.reserve(mesh.num_nodes());
  out.boundary.reserve(mesh.num_nodes());
  for (std::size_t i = 0; i < old_of.size(); ++i) {
    new_of[old_of[i]] = static_cast<std::int64_t>(i);
    out.x.push_back(mesh.x[old_of[i]]);
    out.boundary.push_back(mesh.boundary[old_of[i]]);
  }
  out.cells = mesh.cells;
  for (auto& c : out.cells)
    for (auto& v : c) v = new_of[v];
  return out;
}

double mesh_size(const Mesh& mesh) {
  double h = 0;
  for (const auto& c : mesh.cells)
    for (int e = 0; e < 3; ++e) {
      const auto& p = mesh.x[c[e]];
      const auto& q = mesh.x[c[(e + 1) % 3]];
      h = std::max(h, std::hypot(p[0] - q[0], p[1] - q[1]));
    }
  return h;
}

}  // namespace fem
