// The finite-element pipeline under mpirun: the distributed matrix equals a
// serial assembly of the same mesh entry by entry, the distributed solution
// equals an independent serial solve (Eigen's sparse Cholesky) to solver
// tolerance on every process count, the errors converge at the P1 rates,
// MueLu's iteration counts stay flat under refinement, and PETSc KSP on the
// same arrays finds the same solution.
#include <gtest/gtest.h>

#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_Core.hpp>
#include <cmath>
#include <string>

#include "dapetra/error.hpp"

#include "mesh.hpp"
#include "poisson.hpp"

namespace {

Teuchos::RCP<const Teuchos::Comm<int>> world() { return Tpetra::getDefaultComm(); }

// A mesh numbered as dapetra-fem numbers it: each rank's owned nodes consecutive.
struct Partitioned {
  fem::Mesh mesh;
  std::vector<int> part;
};
Partitioned partitioned(const fem::Mesh& mesh, int parts) {
  const auto part = fem::rcb_partition(mesh, parts);
  return {fem::number_by_owner(mesh, part), part};
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

}  // namespace

TEST(Fem, SolutionMatchesTheSerialSolveOnEveryProcessCount) {
  const auto comm = world();
  for (bool lshape : {false, true})
    for (const std::string prec : {"MueLu", "RELAXATION"})
      for (bool renumbered : {false, true}) {
        const fem::Mesh given = lshape ? fem::l_shape(16) : fem::unit_square(20);
        const fem::Mesh mesh = renumbered ? partitioned(given, comm->getSize()).mesh : given;
        const auto part = fem::rcb_partition(mesh, comm->getSize());
        fem::SolveOptions opt;
        opt.tolerance = 1e-12;
        opt.preconditioner = prec;
        const fem::Result r = fem::solve_poisson(mesh, part, comm, opt);
        const std::string what = std::string(lshape ? "L-shape" : "square") + ", " + prec +
                                 (renumbered ? ", numbered by owner" : ", mesh numbering");
        EXPECT_LT(max_difference(r.u_global, fem::solve_serial(mesh)), 1e-9) << what;
        // Every copy (owned or shared) holds the same value after the ghost update.
        for (std::size_t i = 0; i < r.nodes.size(); ++i) EXPECT_DOUBLE_EQ(r.u[i], r.u_global[r.nodes[i]]) << what;
        EXPECT_LE(r.belos.relative_residual, 1e-11) << what;
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

TEST(Fem, NumberingByOwnerMakesOwnedNodesConsecutiveInRankOrder) {
  const auto comm = world();
  const auto p = partitioned(fem::l_shape(12), comm->getSize());
  const fem::Result r = fem::solve_poisson(p.mesh, p.part, comm);
  // Owners never decrease along the new numbering, and the mesh is the same
  // one: same cells (as coordinate triples), same boundary.
  for (std::size_t v = 1; v < r.node_owner.size(); ++v) EXPECT_LE(r.node_owner[v - 1], r.node_owner[v]) << v;
  const fem::Mesh given = fem::l_shape(12);
  ASSERT_EQ(given.num_cells(), p.mesh.num_cells());
  for (std::size_t c = 0; c < given.num_cells(); ++c)
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(given.x[given.cells[c][k]], p.mesh.x[p.mesh.cells[c][k]]) << "cell " << c;
      EXPECT_EQ(given.boundary[given.cells[c][k]], p.mesh.boundary[p.mesh.cells[c][k]]) << "cell " << c;
    }
}

TEST(Fem, MueLuIterationsStayFlatUnderRefinement) {
  const auto comm = world();
  std::vector<int> iterations;
  for (int n : {16, 32, 64, 128}) {
    const auto p = partitioned(fem::unit_square(n), comm->getSize());
    iterations.push_back(fem::solve_poisson(p.mesh, p.part, comm).belos.iterations);
  }
  // Over an 8-fold refinement: Gauss-Seidel CG's count grows about 8-fold
  // here (h^-1); MueLu's by a few iterations (19 -> 26 at 3 processes).
  EXPECT_LE(2 * iterations.back(), 3 * iterations.front()) << iterations.front() << " -> " << iterations.back();
  EXPECT_LE(iterations.back(), 40);
}

TEST(Fem, PetscAndBelosSolveTheSameSystemOnTheSameArrays) {
  if (!fem::petsc_available()) GTEST_SKIP() << "built without Dapetra's PETSc adapter";
  const auto comm = world();
  for (bool lshape : {false, true}) {
    const auto p = partitioned(lshape ? fem::l_shape(24) : fem::unit_square(30), comm->getSize());
    fem::SolveOptions opt;
    opt.tolerance = 1e-12;
    opt.petsc = true;
    const fem::Result r = fem::solve_poisson(p.mesh, p.part, comm, opt);
    ASSERT_TRUE(r.petsc.has_value());
    EXPECT_LE(r.petsc->relative_residual, 1e-11);
    EXPECT_GT(r.petsc->iterations, 0);
    EXPECT_LT(r.petsc->iterations, 40);  // GAMG: about 15 here
    EXPECT_LT(r.petsc_difference, 1e-9);
    EXPECT_LT(max_difference(r.u_global, fem::solve_serial(p.mesh)), 1e-9);
  }
}

TEST(Fem, PetscRefusesAMeshWhoseOwnedNodesAreNotConsecutive) {
  if (!fem::petsc_available()) GTEST_SKIP() << "built without Dapetra's PETSc adapter";
  const auto comm = world();
  if (comm->getSize() < 2) GTEST_SKIP() << "one process owns every node, consecutive in any numbering";
  const fem::Mesh mesh = fem::unit_square(12);
  std::vector<int> part(mesh.num_cells());  // cells dealt round-robin: every rank's nodes interleave
  for (std::size_t c = 0; c < part.size(); ++c) part[c] = static_cast<int>(c % static_cast<std::size_t>(comm->getSize()));
  fem::SolveOptions opt;
  opt.petsc = true;
  try {
    fem::solve_poisson(mesh, part, comm, opt);
    ADD_FAILURE() << "PETSc accepted owned nodes that are not consecutive";
  } catch (const dapetra::ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find("copy_to_new_vec"), std::string::npos) << e.what();
  }
}
