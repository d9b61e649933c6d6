// P1 triangle kernels with Eigen: the element stiffness matrix, load vector
// and error contributions. Shared by the distributed and the serial solver.
#pragma once

#include <Eigen/Dense>
#include <array>
#include <cmath>

#include "mesh.hpp"

namespace fem {

inline constexpr double pi = 3.14159265358979323846;

inline double exact_value(double x, double y) { return std::sin(pi * x) * std::sin(pi * y); }
inline double source_value(double x, double y) { return 2.0 * pi * pi * exact_value(x, y); }

struct Element {
  Eigen::Matrix<double, 3, 2> corners;
  Eigen::Matrix<double, 3, 2> grads;  // gradients of the three hat functions
  double area = 0;

  Element(const Mesh& m, std::size_t c) {
    for (int k = 0; k < 3; ++k) corners.row(k) << m.x[m.cells[c][k]][0], m.x[m.cells[c][k]][1];
    Eigen::Matrix2d jac;
    jac.col(0) = (corners.row(1) - corners.row(0)).transpose();
    jac.col(1) = (corners.row(2) - corners.row(0)).transpose();
    area = 0.5 * std::abs(jac.determinant());
    const Eigen::Matrix2d inv_t = jac.inverse().transpose();
    Eigen::Matrix<double, 3, 2> ref;
    ref << -1, -1, 1, 0, 0, 1;
    grads = (inv_t * ref.transpose()).transpose();
  }
  Eigen::Matrix3d stiffness() const { return area * grads * grads.transpose(); }
  Eigen::Vector2d point(double l1, double l2) const {
    return ((1 - l1 - l2) * corners.row(0) + l1 * corners.row(1) + l2 * corners.row(2)).transpose();
  }
};

// Dunavant's 6-point rule, exact for degree 4: (l1, l2, weight) on the reference triangle (weights sum to 1).
inline const std::array<std::array<double, 3>, 6>& quadrature() {
  static const std::array<std::array<double, 3>, 6> q{{{0.445948490915965, 0.445948490915965, 0.223381589678011},
                                                       {0.108103018168070, 0.445948490915965, 0.223381589678011},
                                                       {0.445948490915965, 0.108103018168070, 0.223381589678011},
                                                       {0.091576213509771, 0.091576213509771, 0.109951743655322},
                                                       {0.816847572980459, 0.091576213509771, 0.109951743655322},
                                                       {0.091576213509771, 0.816847572980459, 0.109951743655322}}};
  return q;
}

inline Eigen::Vector3d load(const Element& e) {
  Eigen::Vector3d f = Eigen::Vector3d::Zero();
  for (const auto& [l1, l2, w] : quadrature()) {
    const Eigen::Vector2d p = e.point(l1, l2);
    f += w * e.area * source_value(p.x(), p.y()) * Eigen::Vector3d(1 - l1 - l2, l1, l2);
  }
  return f;
}

// Squared L2 and H1-seminorm errors of the P1 function with nodal values `u` on e.
inline std::array<double, 2> errors(const Element& e, const Eigen::Vector3d& u) {
  const Eigen::Vector2d grad_h = e.grads.transpose() * u;
  double l2 = 0, h1 = 0;
  for (const auto& [l1, l2w, w] : quadrature()) {
    const Eigen::Vector2d p = e.point(l1, l2w);
    const double uh = (1 - l1 - l2w) * u(0) + l1 * u(1) + l2w * u(2);
    const double d = uh - exact_value(p.x(), p.y());
    const Eigen::Vector2d g(pi * std::cos(pi * p.x()) * std::sin(pi * p.y()), pi * std::sin(pi * p.x()) * std::cos(pi * p.y()));
    l2 += w * e.area * d * d;
    h1 += w * e.area * (grad_h - g).squaredNorm();
  }
  return {l2, h1};
}

}  // namespace fem
