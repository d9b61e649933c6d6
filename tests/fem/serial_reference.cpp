#include "serial_reference.hpp"

#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>
#include <map>

#include "element.hpp"

namespace fem {

std::vector<std::vector<std::pair<std::int64_t, double>>> serial_matrix_rows(const Mesh& mesh) {
  std::vector<std::map<std::int64_t, double>> rows(mesh.num_nodes());
  for (std::size_t c = 0; c < mesh.num_cells(); ++c) {
    const Element e(mesh, c);
    const CornerMatrix k = e.stiffness();
    const auto& cell = mesh.cells[c];
    for (int a = 0; a < mesh.corners(); ++a)
      for (int b = 0; b < mesh.corners(); ++b)  // every pair of a cell is an entry, zero where a node is constrained
        rows[cell[a]][cell[b]] += mesh.boundary[cell[a]] || mesh.boundary[cell[b]] ? 0.0 : k(a, b);
  }
  for (std::size_t v = 0; v < mesh.num_nodes(); ++v)
    if (mesh.boundary[v]) rows[v][static_cast<std::int64_t>(v)] = 1.0;
  std::vector<std::vector<std::pair<std::int64_t, double>>> out(mesh.num_nodes());
  for (std::size_t v = 0; v < mesh.num_nodes(); ++v) out[v].assign(rows[v].begin(), rows[v].end());
  return out;
}

std::vector<double> solve_serial(const Mesh& mesh) {
  const auto n = static_cast<Eigen::Index>(mesh.num_nodes());
  std::vector<Eigen::Triplet<double>> triplets;
  const auto rows = serial_matrix_rows(mesh);
  for (std::size_t v = 0; v < rows.size(); ++v)
    for (const auto& [col, val] : rows[v])
      triplets.emplace_back(static_cast<Eigen::Index>(v), static_cast<Eigen::Index>(col), val);
  Eigen::SparseMatrix<double> a(n, n);
  a.setFromTriplets(triplets.begin(), triplets.end());
  Eigen::VectorXd b = Eigen::VectorXd::Zero(n);
  const auto g = [&](std::int64_t v) { return exact_value(mesh.x[static_cast<std::size_t>(v)], mesh.dim); };
  for (std::size_t c = 0; c < mesh.num_cells(); ++c) {
    const Element e(mesh, c);
    const CornerMatrix k = e.stiffness();
    const CornerVector f = load(e);
    const auto& cell = mesh.cells[c];
    for (int i = 0; i < mesh.corners(); ++i) {
      if (mesh.boundary[cell[i]]) continue;
      b(cell[i]) += f(i);
      for (int j = 0; j < mesh.corners(); ++j)
        if (mesh.boundary[cell[j]]) b(cell[i]) -= k(i, j) * g(cell[j]);
    }
  }
  for (std::size_t v = 0; v < mesh.num_nodes(); ++v)
    if (mesh.boundary[v]) b(static_cast<Eigen::Index>(v)) = g(static_cast<std::int64_t>(v));
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(a);
  const Eigen::VectorXd x = ldlt.solve(b);
  return std::vector<double>(x.data(), x.data() + x.size());
}

}  // namespace fem
