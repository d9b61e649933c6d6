// Linear elasticity on P1 simplices with Eigen: the element stiffness
// matrix and body-force load over the displacement's interleaved unknowns
// (corner * dim + component, as dapetra::tpetra::FEMatrix and DOLFINx's
// vector spaces number them), the manufactured displacement, and the error
// contributions. Shared by the distributed and the serial solver.
#pragma once

#include <Eigen/Dense>
#include <array>
#include <cmath>

#include "element.hpp"

namespace fem {

// An isotropic material's Lame parameters from Young's modulus and
// Poisson's ratio (E = 1, nu = 0.3: the example's, scale-free).
struct Material {
  double lambda, mu;
  static Material of(double young, double poisson) {
    return {young * poisson / ((1 + poisson) * (1 - 2 * poisson)), young / (2 * (1 + poisson))};
  }
};
inline const Material& example_material() {
  static const Material m = Material::of(1.0, 0.3);
  return m;
}

// The manufactured displacement u = s(x) a, s = prod_d sin(pi x_d), with a
// different amplitude per component (a misplaced component shows), zero on
// the unit square's and cube's boundary (clamped there); its gradient
// (grad u)_{ij} = a_i ds/dx_j; and the body force f = -div sigma(u) =
// -mu lap(u) - (lambda + mu) grad(div u) = mu dim pi^2 s a - (lambda + mu) H(s) a,
// H(s) the Hessian of s.
inline double displacement_amplitude(int component) {
  static constexpr std::array<double, 3> a{1.0, -0.5, 0.75};
  return a[static_cast<std::size_t>(component)];
}
inline Eigen::Vector3d exact_displacement(const Point& p, int dim) {
  Eigen::Vector3d u = Eigen::Vector3d::Zero();
  const double s = exact_value(p, dim);
  for (int i = 0; i < dim; ++i) u(i) = displacement_amplitude(i) * s;
  return u;
}
inline Eigen::Matrix3d exact_displacement_gradient(const Point& p, int dim) {
  Eigen::Matrix3d g = Eigen::Matrix3d::Zero();
  const Eigen::Vector3d ds = exact_gradient(p, dim);
  for (int i = 0; i < dim; ++i) g.row(i) = displacement_amplitude(i) * ds.transpose();
  return g;
}
inline Eigen::Vector3d body_force(const Point& p, int dim, const Material& m) {
  Eigen::Matrix3d hessian = Eigen::Matrix3d::Zero();
  const double s = exact_value(p, dim);
  for (int i = 0; i < dim; ++i)
    for (int j = 0; j < dim; ++j) {
      if (i == j) {
        hessian(i, j) = -pi * pi * s;
        continue;
      }
      double h = pi * pi * std::cos(pi * p[i]) * std::cos(pi * p[j]);
      for (int k = 0; k < dim; ++k)
        if (k != i && k != j) h *= std::sin(pi * p[k]);
      hessian(i, j) = h;
    }
  Eigen::Vector3d a = Eigen::Vector3d::Zero();
  for (int i = 0; i < dim; ++i) a(i) = displacement_amplitude(i);
  return m.mu * dim * pi * pi * s * a - (m.lambda + m.mu) * hessian * a;
}

// Element matrices over corners x components: at most 4 corners x 3 = 12.
using DofVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 12, 1>;
using RowMajorDofMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor, 12, 12>;

// K[(a, i), (b, j)] = |e| (lambda g_a(i) g_b(j) + mu g_a(j) g_b(i) + mu delta_ij g_a . g_b),
// g_a the gradient of corner a's hat function (constant on a P1 cell).
inline RowMajorDofMatrix elastic_stiffness(const Element& e, const Material& m) {
  const int n = e.corners_n, d = e.dim;
  RowMajorDofMatrix k(n * d, n * d);
  const CornerMatrix dots = e.grads * e.grads.transpose();
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b)
      for (int i = 0; i < d; ++i)
        for (int j = 0; j < d; ++j)
          k(a * d + i, b * d + j) = e.volume * (m.lambda * e.grads(a, i) * e.grads(b, j) + m.mu * e.grads(a, j) * e.grads(b, i) +
                                                (i == j ? m.mu * dots(a, b) : 0.0));
  return k;
}

// The body force's load, with the scalar problem's quadrature (element.hpp).
inline DofVector elastic_load(const Element& e, const Material& m) {
  const int n = e.corners_n, d = e.dim;
  DofVector f = DofVector::Zero(n * d);
  for (const auto& q : load_quadrature(d)) {
    const Eigen::Vector3d force = body_force(e.point(q.l), d, m);
    const CornerVector phi = e.shape(q.l);
    for (int a = 0; a < n; ++a)
      for (int i = 0; i < d; ++i) f(a * d + i) += q.w * e.volume * force(i) * phi(a);
  }
  return f;
}

// Squared L2 and H1-seminorm errors of the P1 displacement with interleaved
// nodal values `u` on e.
inline std::array<double, 2> elastic_errors(const Element& e, const DofVector& u) {
  const int n = e.corners_n, d = e.dim;
  Eigen::Matrix3d grad_h = Eigen::Matrix3d::Zero();  // (grad u_h)_{ij} = sum_a u(a, i) g_a(j)
  for (int a = 0; a < n; ++a)
    for (int i = 0; i < d; ++i)
      for (int j = 0; j < d; ++j) grad_h(i, j) += u(a * d + i) * e.grads(a, j);
  double l2 = 0, h1 = 0;
  for (const auto& q : error_quadrature(d)) {
    const Point p = e.point(q.l);
    const CornerVector phi = e.shape(q.l);
    Eigen::Vector3d uh = Eigen::Vector3d::Zero();
    for (int a = 0; a < n; ++a)
      for (int i = 0; i < d; ++i) uh(i) += u(a * d + i) * phi(a);
    l2 += q.w * e.volume * (uh - exact_displacement(p, d)).squaredNorm();
    h1 += q.w * e.volume * (grad_h - exact_displacement_gradient(p, d)).squaredNorm();
  }
  return {l2, h1};
}

}  // namespace fem
