// The finite-element pipeline under mpirun: the distributed matrix equals a
// serial assembly of the same mesh entry by entry, the distributed solution
// equals an independent serial solve (Eigen's sparse Cholesky) to solver
// tolerance on every process count, and the errors converge at the P1 rates.
#include <gtest/gtest.h>

#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_Core.hpp>
#include <cmath>

#include "mesh.hpp"
#include "poisson.hpp"

namespace {

Teuchos::RCP<const Teuchos::Comm<int>> world() { return Tpetra::getDefaultComm(); }

}  // namespace

TEST(Fem, SolutionMatchesTheSerialSolveOnEveryProcessCount) {
  const auto comm = world();
  for (bool lshape : {false, true}) {
    const fem::Mesh mesh = lshape ? fem::l_shape(16) : fem::unit_square(20);
    const auto part = fem::rcb_partition(mesh, comm->getSize());
    fem::SolveOptions opt;
    opt.tolerance = 1e-12;
    const fem::Result r = fem::solve_poisson(mesh, part, comm, opt);
    const std::vector<double> serial = fem::solve_serial(mesh);
    double worst = 0;
    for (std::size_t v = 0; v < mesh.num_nodes(); ++v) worst = std::max(worst, std::abs(r.u_global[v] - serial[v]));
    EXPECT_LT(worst, 1e-9) << (lshape ? "L-shape" : "square");
    // Every copy (owned or shared) holds the same value after the ghost update.
    for (std::size_t i = 0; i < r.nodes.size(); ++i) EXPECT_DOUBLE_EQ(r.u[i], r.u_global[r.nodes[i]]);
    EXPECT_LE(r.relative_residual, 1e-11);
  }
}

TEST(Fem, ConvergesAtTheP1Rates) {
  const auto comm = world();
  std::vector<double> h, l2, h1;
  for (int n : {8, 16, 32, 64}) {
    const fem::Mesh mesh = fem::unit_square(n);
    const fem::Result r = fem::solve_poisson(mesh, fem::rcb_partition(mesh, comm->getSize()), comm);
    h.push_back(fem::mesh_size(mesh));
    l2.push_back(r.l2_error);
    h1.push_back(r.h1_error);
  }
  const std::size_t k = h.size() - 1;
  const double l2_order = std::log(l2[k - 1] / l2[k]) / std::log(h[k - 1] / h[k]);
  const double h1_order = std::log(h1[k - 1] / h1[k]) / std::log(h[k - 1] / h[k]);
  EXPECT_NEAR(l2_order, 2.0, 0.2);
  EXPECT_NEAR(h1_order, 1.0, 0.1);
}

TEST(Fem, AssembledMatrixEqualsTheSerialAssembly) {
  const auto comm = world();
  const fem::Mesh mesh = fem::unit_square(12, 0.25);
  const fem::Result r = fem::solve_poisson(mesh, fem::rcb_partition(mesh, comm->getSize()), comm);
  const auto serial = fem::serial_matrix_rows(mesh);
  ASSERT_EQ(r.owned_rows.size(), r.num_owned);
  for (std::size_t i = 0; i < r.num_owned; ++i) {
    const auto& want = serial[r.nodes[i]];
    const auto& got = r.owned_rows[i];
    ASSERT_EQ(got.size(), want.size()) << "row " << r.nodes[i];
    for (std::size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(got[k].first, want[k].first) << "row " << r.nodes[i];
      EXPECT_NEAR(got[k].second, want[k].second, 1e-13 * (1 + std::abs(want[k].second))) << "row " << r.nodes[i];
    }
  }
}
