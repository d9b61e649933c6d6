// The finite-element pipeline under mpirun: the distributed matrix equals a
// serial assembly of the same mesh entry by entry, the distributed solution
// equals an independent serial solve (Eigen's sparse Cholesky) to solver
// tolerance on every process count, the errors converge at the P1 rates,
// MueLu's iteration counts stay flat under refinement, and PETSc KSP on the
// same arrays finds the same solution.
#include <gtest/gtest.h>

#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>

#include "dapetra/error.hpp"

#include "element.hpp"
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

// This process's assembled rows against the serial assembly's, entry by entry.
void expect_rows_equal(const fem::Result& r, const std::vector<std::vector<std::pair<std::int64_t, double>>>& serial) {
  ASSERT_EQ(r.owned_rows.size(), r.num_owned);
  for (std::size_t i = 0; i < r.num_owned; ++i) {
    const auto& want = serial[static_cast<std::size_t>(r.nodes[i])];
    const auto& got = r.owned_rows[i];
    ASSERT_EQ(got.size(), want.size()) << "row " << r.nodes[i];
    for (std::size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(got[k].first, want[k].first) << "row " << r.nodes[i];
      EXPECT_NEAR(got[k].second, want[k].second, 1e-13 * (1 + std::abs(want[k].second))) << "row " << r.nodes[i];
    }
  }
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
  fem::SolveOptions opt;
  opt.keep_rows = true;
  const fem::Result r = fem::solve_poisson(mesh, fem::rcb_partition(mesh, comm->getSize()), comm, opt);
  expect_rows_equal(r, fem::serial_matrix_rows(mesh));
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

// ---- 3-D: P1 tetrahedra on the unit cube -------------------------------

TEST(Fem3D, SolutionAndMatrixMatchTheSerialOnes) {
  const auto comm = world();
  const auto p = partitioned(fem::unit_cube(5), comm->getSize());
  fem::SolveOptions opt;
  opt.tolerance = 1e-12;
  opt.keep_rows = true;
  const fem::Result r = fem::solve_poisson(p.mesh, p.part, comm, opt);
  EXPECT_LT(max_difference(r.u_global, fem::solve_serial(p.mesh)), 1e-9);
  expect_rows_equal(r, fem::serial_matrix_rows(p.mesh));
}

TEST(Fem3D, ConvergesAtTheP1Rates) {
  const auto comm = world();
  std::vector<double> h, l2, h1;
  for (int n : {8, 16}) {
    const auto p = partitioned(fem::unit_cube(n), comm->getSize());
    const fem::Result r = fem::solve_poisson(p.mesh, p.part, comm);
    h.push_back(1.0 / n);  // the grid's spacing (the perturbation is a fixed fraction of it)
    l2.push_back(r.l2_error);
    h1.push_back(r.h1_error);
  }
  EXPECT_NEAR(std::log(l2[0] / l2[1]) / std::log(h[0] / h[1]), 2.0, 0.25);
  EXPECT_NEAR(std::log(h1[0] / h1[1]) / std::log(h[0] / h[1]), 1.0, 0.15);
}

// ---- Gmsh meshes -----------------------------------------------------------

std::string mesh_path(const std::string& name) { return std::string(DAPETRA_FEM_MESHES) + "/" + name; }

double distance(const fem::Point& p, const fem::Point& q) {
  return std::sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) + (p[2] - q[2]) * (p[2] - q[2]));
}

// The boundary the reader finds from the topology (facets of one cell) is
// the geometry's: the outer square or cube, and the hole (its nodes lie on
// the circle or sphere Gmsh meshed).
TEST(Gmsh, ReadsTheExampleMeshesAndFindsTheirBoundaryFromTopology) {
  struct Case {
    const char* file;
    int dim;
    std::size_t nodes;
    fem::Point centre;
    double radius;
  };
  for (const Case& c : {Case{"plate_with_hole.msh", 2, 761, {0.6, 0.45, 0}, 0.18},
                        Case{"box_with_hole.msh", 3, 883, {0.5, 0.5, 0.5}, 0.25}}) {
    const fem::Mesh m = fem::read_gmsh(mesh_path(c.file));
    EXPECT_EQ(m.dim, c.dim) << c.file;
    EXPECT_EQ(m.num_nodes(), c.nodes) << c.file;  // every node of the file is a corner of some cell
    std::size_t on_boundary = 0;
    for (std::size_t v = 0; v < m.num_nodes(); ++v) {
      const fem::Point& p = m.x[v];
      bool outer = false;
      for (int d = 0; d < c.dim; ++d) outer = outer || std::abs(p[d]) < 1e-9 || std::abs(p[d] - 1) < 1e-9;
      const bool hole = std::abs(distance(p, c.centre) - c.radius) < 1e-6;
      EXPECT_EQ(static_cast<bool>(m.boundary[v]), outer || hole) << c.file << " node " << v;
      on_boundary += m.boundary[v];
    }
    EXPECT_GT(on_boundary, 0u);
    for (std::size_t k = 0; k < m.num_cells(); ++k) EXPECT_GT(fem::Element(m, k).volume, 0) << c.file << " cell " << k;
  }
}

TEST(Gmsh, SolutionsOnTheExampleMeshesMatchTheSerialSolve) {
  const auto comm = world();
  for (const char* file : {"plate_with_hole.msh", "box_with_hole.msh"}) {
    const auto p = partitioned(fem::read_mesh_file(mesh_path(file)), comm->getSize());
    fem::SolveOptions opt;
    opt.tolerance = 1e-12;
    const fem::Result r = fem::solve_poisson(p.mesh, p.part, comm, opt);
    EXPECT_LT(max_difference(r.u_global, fem::solve_serial(p.mesh)), 1e-9) << file;
    EXPECT_LT(r.l2_error, p.mesh.dim == 2 ? 2e-3 : 2e-2) << file;  // the discretisation error, for the record
  }
}

// Faulty files, each made from the good 2-D mesh by one change: every one is
// a MeshError naming the file and the line (or the section) at fault.
TEST(Gmsh, FaultyFilesNameTheFileTheLineAndTheFault) {
  std::ifstream in(mesh_path("plate_with_hole.msh"));
  std::vector<std::string> good;
  for (std::string line; std::getline(in, line);) good.push_back(line);
  const auto line_of = [&](const std::string& text) {
    return static_cast<long>(std::find(good.begin(), good.end(), text) - good.begin()) + 1;
  };
  const long elements = line_of("$Elements");
  const long first_triangle_block = [&] {
    for (std::size_t i = static_cast<std::size_t>(elements); i < good.size(); ++i)
      if (good[i].rfind("2 1 2 ", 0) == 0) return static_cast<long>(i) + 1;
    return 0L;
  }();
  ASSERT_GT(first_triangle_block, 0);
  const long nodes = line_of("$Nodes");
  struct Fault {
    const char* name;
    std::function<void(std::vector<std::string>&)> change;
    long line;          // expected line in the message (0: any)
    const char* words;  // expected in the message
  };
  const std::vector<Fault> faults{
      {"truncated", [&](auto& f) { f.resize(static_cast<std::size_t>(first_triangle_block) + 10); }, 0, "truncated"},
      {"quadrangles", [&](auto& f) { f[static_cast<std::size_t>(first_triangle_block - 1)] = "2 1 3 1"; },
       first_triangle_block + 1, "4-node quadrangle"},
      {"second-order triangles", [&](auto& f) { f[static_cast<std::size_t>(first_triangle_block - 1)] = "2 1 9 1"; },
       first_triangle_block + 1, "lists 3 nodes, not 6"},
      {"binary", [&](auto& f) { f[1] = "4.1 1 8"; }, 2, "binary"},
      {"version 2.2", [&](auto& f) { f[1] = "2.2 0 8"; }, 2, "not 4.1"},
      {"bad coordinate", [&](auto& f) { f[static_cast<std::size_t>(nodes + 3)] = "0.78 zero 0"; }, nodes + 4, "coordinates"},
      {"unknown node", [&](auto& f) { f[static_cast<std::size_t>(first_triangle_block)] = "1000 1 2 99999"; },
       first_triangle_block + 1, "names node 99999"},
      {"repeated node", [&](auto& f) { f[static_cast<std::size_t>(first_triangle_block)] = "1000 7 7 8"; },
       first_triangle_block + 1, "twice"},
      {"no elements", [&](auto& f) { f.resize(static_cast<std::size_t>(elements - 1)); }, 0, "no $Elements"},
      {"not gmsh", [&](auto& f) { f = {"nodes 3", "0 0 1"}; }, 0, "not a Gmsh MSH file"},
  };
  const std::string path = ::testing::TempDir() + "fault_r" + std::to_string(world()->getRank()) + ".msh";
  for (const Fault& fault : faults) {
    std::vector<std::string> text = good;
    fault.change(text);
    {
      std::ofstream out(path);
      for (const auto& line : text) out << line << "\n";
    }
    try {
      fem::read_gmsh(path);
      ADD_FAILURE() << fault.name << ": accepted";
    } catch (const fem::MeshError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(path, 0), 0u) << fault.name << ": " << what;
      if (fault.line > 0) EXPECT_NE(what.find(":" + std::to_string(fault.line) + ":"), std::string::npos) << fault.name << ": " << what;
      EXPECT_NE(what.find(fault.words), std::string::npos) << fault.name << ": " << what;
    }
  }
  std::remove(path.c_str());
}

TEST(Gmsh, MoreProcessesThanCellsIsRefusedBeforeAnyoneWaits) {
  fem::Mesh m = fem::unit_square(1);  // two triangles
  EXPECT_THROW(fem::rcb_partition(m, 3), fem::MeshError);
  EXPECT_NO_THROW(fem::rcb_partition(m, 2));
}
