// P1 simplex kernels with Eigen (triangles in 2-D, tetrahedra in 3-D): the
// element stiffness matrix, load vector and error contributions, and the
// manufactured solution. Shared by the distributed and the serial solver.
#pragma once

#include <Eigen/Dense>
#include <array>
#include <cmath>
#include <vector>

#include "mesh.hpp"

namespace fem {

inline constexpr double pi = 3.14159265358979323846;

// The manufactured solution u = prod_d sin(pi x_d) over the mesh's `dim`
// coordinates (zero on the unit square's and cube's boundary), its gradient,
// and f = -laplace(u) = dim pi^2 u.
inline double exact_value(const Point& p, int dim) {
  double u = 1;
  for (int d = 0; d < dim; ++d) u *= std::sin(pi * p[d]);
  return u;
}
inline Eigen::Vector3d exact_gradient(const Point& p, int dim) {
  Eigen::Vector3d g = Eigen::Vector3d::Zero();
  for (int d = 0; d < dim; ++d) {
    g(d) = pi * std::cos(pi * p[d]);
    for (int e = 0; e < dim; ++e)
      if (e != d) g(d) *= std::sin(pi * p[e]);
  }
  return g;
}
inline double source_value(const Point& p, int dim) { return dim * pi * pi * exact_value(p, dim); }

// Per-corner values and matrices (3 or 4 corners), sized at run time.
using CornerVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 4, 1>;
using CornerMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 4, 4>;
// The same, row after row in memory, as dapetra::tpetra::ElementMatrix reads it.
using RowMajorCornerMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor, 4, 4>;

struct Element {
  int dim = 2, corners_n = 3;
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 4, 3> corners;  // one row per corner
  Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 4, 3> grads;    // gradients of the hat functions
  double volume = 0;

  Element(const Mesh& m, std::size_t c) : dim(m.dim), corners_n(m.dim + 1) {
    corners.resize(corners_n, dim);
    for (int k = 0; k < corners_n; ++k)
      for (int d = 0; d < dim; ++d) corners(k, d) = m.x[static_cast<std::size_t>(m.cells[c][k])][d];
    grads.resize(corners_n, dim);
    if (dim == 2) set_geometry<2>();
    else set_geometry<3>();
  }
  CornerMatrix stiffness() const { return volume * grads * grads.transpose(); }
  // The point with barycentric coordinates (1 - sum l, l[0], ..., l[dim-1]).
  Point point(const std::array<double, 3>& l) const {
    Point p{0, 0, 0};
    for (int d = 0; d < dim; ++d) {
      double s = corners(0, d);
      for (int k = 0; k < dim; ++k) s += l[k] * (corners(k + 1, d) - corners(0, d));
      p[d] = s;
    }
    return p;
  }
  // The hat functions' values at barycentric l.
  CornerVector shape(const std::array<double, 3>& l) const {
    CornerVector phi(corners_n);
    phi(0) = 1;
    for (int k = 0; k < dim; ++k) {
      phi(k + 1) = l[k];
      phi(0) -= l[k];
    }
    return phi;
  }

 private:
  // Volume and gradients from the Jacobian, at the fixed size D: Eigen
  // inverts 2x2 and 3x3 matrices in closed form, where the run-time sized
  // path takes an LU factorisation per cell.
  template <int D>
  void set_geometry() {
    Eigen::Matrix<double, D, D> jac;
    for (int j = 0; j < D; ++j) jac.col(j) = (corners.row(j + 1) - corners.row(0)).transpose();
    volume = std::abs(jac.determinant()) / (D == 2 ? 2.0 : 6.0);
    const Eigen::Matrix<double, D, D> inv = jac.inverse();
    // The reference gradients are -1 (corner 0) and the unit vectors, so
    // corner d+1's gradient is row d of the inverse and corner 0's minus their sum.
    grads.row(0) = -inv.colwise().sum();
    grads.bottomRows(D) = inv;
  }
};

// A quadrature point on the reference simplex: barycentric l[0..dim-1] and a
// weight (the weights sum to 1: multiply by the element's volume).
struct QuadraturePoint {
  std::array<double, 3> l;
  double w;
};

// Quadrature for the load vector, of the degree the DOLFINx yardstick is
// told to use (benchmarks/fem_dolfinx.py passes load_quadrature_degree as
// form metadata), with the points DOLFINx's Basix 0.5 picks for it, so both
// sides integrate f with the same work. 2-D: Dunavant's 6-point rule,
// degree 4. 3-D: Keast's 5-point rule, degree 3 (its centroid weight is
// negative, which is harmless for integrating f).
inline int load_quadrature_degree(int dim) { return dim == 2 ? 4 : 3; }
inline const std::vector<QuadraturePoint>& load_quadrature(int dim) {
  static const std::vector<QuadraturePoint> tri{{{0.445948490915965, 0.445948490915965, 0}, 0.223381589678011},
                                                {{0.108103018168070, 0.445948490915965, 0}, 0.223381589678011},
                                                {{0.445948490915965, 0.108103018168070, 0}, 0.223381589678011},
                                                {{0.091576213509771, 0.091576213509771, 0}, 0.109951743655322},
                                                {{0.816847572980459, 0.091576213509771, 0}, 0.109951743655322},
                                                {{0.091576213509771, 0.816847572980459, 0}, 0.109951743655322}};
  static const std::vector<QuadraturePoint> tet{{{0.25, 0.25, 0.25}, -0.8},
                                                {{0.5, 1.0 / 6, 1.0 / 6}, 0.45},
                                                {{1.0 / 6, 0.5, 1.0 / 6}, 0.45},
                                                {{1.0 / 6, 1.0 / 6, 0.5}, 0.45},
                                                {{1.0 / 6, 1.0 / 6, 1.0 / 6}, 0.45}};
  return dim == 2 ? tri : tet;
}

// Quadrature for the reported errors, where the integrand (a square) must
// stay non-negative point by point: positive weights only. 2-D: the load
// rule. 3-D: the collapsed (Duffy) product of 3-point Gauss-Legendre rules,
// 27 points, exact for degree 3 on the tetrahedron.
inline const std::vector<QuadraturePoint>& error_quadrature(int dim) {
  static const std::vector<QuadraturePoint> tet = [] {
    const double s = std::sqrt(0.6);
    const std::array<double, 3> t{0.5 * (1 - s), 0.5, 0.5 * (1 + s)}, w{5.0 / 18, 8.0 / 18, 5.0 / 18};
    std::vector<QuadraturePoint> q;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) {
          const double u = t[i], v = t[j], z = t[k];
          // (u, v, z) in the unit cube -> the reference tetrahedron; Jacobian (1-u)^2 (1-v), volume 1/6.
          q.push_back({{u, (1 - u) * v, (1 - u) * (1 - v) * z}, 6 * w[i] * w[j] * w[k] * (1 - u) * (1 - u) * (1 - v)});
        }
    return q;
  }();
  return dim == 2 ? load_quadrature(2) : tet;
}

inline CornerVector load(const Element& e) {
  CornerVector f = CornerVector::Zero(e.corners_n);
  for (const auto& q : load_quadrature(e.dim)) f += q.w * e.volume * source_value(e.point(q.l), e.dim) * e.shape(q.l);
  return f;
}

// Squared L2 and H1-seminorm errors of the P1 function with nodal values `u` on e.
inline std::array<double, 2> errors(const Element& e, const CornerVector& u) {
  Eigen::Vector3d grad_h = Eigen::Vector3d::Zero();
  grad_h.head(e.dim) = e.grads.transpose() * u;
  double l2 = 0, h1 = 0;
  for (const auto& q : error_quadrature(e.dim)) {
    const Point p = e.point(q.l);
    const double d = e.shape(q.l).dot(u) - exact_value(p, e.dim);
    l2 += q.w * e.volume * d * d;
    h1 += q.w * e.volume * (grad_h - exact_gradient(p, e.dim)).squaredNorm();
  }
  return {l2, h1};
}

}  // namespace fem
