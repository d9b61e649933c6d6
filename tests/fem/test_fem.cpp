// The finite-element pipeline under mpirun, on meshes made in blocks or read
// on one process, partitioned by Zoltan2 and moved by Dapetra: the parts are
// the input mesh (every cell once, same corners, owners the lowest holders,
// owned nodes numbered consecutively by rank); the distributed matrix equals
// a serial assembly of the same mesh entry by entry; the distributed solution
// equals an independent serial solve (Eigen's sparse Cholesky) to solver
// tolerance on every process count; the errors converge at the P1 rates;
// MueLu's iteration counts stay flat under refinement; PETSc KSP on the same
// arrays finds the same solution; faults reach every process.
#include <gtest/gtest.h>

#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_Core.hpp>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <numeric>
#include <string>

#include "dapetra/error.hpp"

#include "element.hpp"
#include "distribute.hpp"
#include "mesh.hpp"
#include "poisson.hpp"
#include "serial_reference.hpp"

namespace {

Teuchos::RCP<const Teuchos::Comm<int>> world() { return Tpetra::getDefaultComm(); }
int rank() { return world()->getRank(); }
int nprocs() { return world()->getSize(); }

// A part as dapetra-fem makes it: Zoltan2's partition of the blocks, moved by Dapetra.
fem::MeshPart partitioned(const fem::MeshBlock& block) {
  return fem::distribute_mesh(block, fem::partition_cells(block, MPI_COMM_WORLD), MPI_COMM_WORLD);
}
fem::MeshPart generated(fem::MeshSpec::Shape shape, int n, double perturb = 0.2) {
  return partitioned(fem::generate_block({shape, n, perturb}, rank(), nprocs()));
}
// A whole mesh held by rank 0 only, as a file is read.
fem::MeshPart from_rank_0(const fem::Mesh& mesh) {
  const fem::MeshBlock whole = fem::block_of(mesh);
  return partitioned(rank() == 0 ? whole : fem::empty_block_like(whole));
}

// Every owned node's `value` in one array on every process, at position
// key[i] for the owner's node i (its input number, or its global number).
template <class T>
std::vector<T> gathered(const fem::MeshPart& part, const std::vector<T>& value, const std::vector<std::int64_t>& key) {
  std::vector<T> mine(static_cast<std::size_t>(part.num_nodes), T(0)), all(mine.size(), T(0));
  for (std::size_t i = 0; i < part.num_owned; ++i) mine[static_cast<std::size_t>(key[i])] = value[i];
  Teuchos::reduceAll<int, T>(*world(), Teuchos::REDUCE_SUM, static_cast<int>(mine.size()), mine.data(), all.data());
  return all;
}
// Each global node number's input number.
std::vector<long long> input_of_global(const fem::MeshPart& part) {
  return gathered(part, std::vector<long long>(part.input_nodes.begin(), part.input_nodes.end()), part.nodes);
}

// This process's assembled rows against the serial assembly's (input
// numbering), entry by entry.
void expect_rows_equal(const fem::MeshPart& part, const fem::Result& r,
                       const std::vector<std::vector<std::pair<std::int64_t, double>>>& serial) {
  const auto input = input_of_global(part);
  ASSERT_EQ(r.owned_rows.size(), r.num_owned);
  for (std::size_t i = 0; i < r.num_owned; ++i) {
    const std::int64_t row = part.input_nodes[i];
    const auto& want = serial[static_cast<std::size_t>(row)];
    auto got = r.owned_rows[i];
    for (auto& entry : got) entry.first = input[static_cast<std::size_t>(entry.first)];
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got.size(), want.size()) << "row " << row;
    for (std::size_t k = 0; k < got.size(); ++k) {
      EXPECT_EQ(got[k].first, want[k].first) << "row " << row;
      EXPECT_NEAR(got[k].second, want[k].second, 1e-13 * (1 + std::abs(want[k].second))) << "row " << row;
    }
  }
}

double max_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

// The solution against the serial solve of `whole`, and every copy against its owner's value.
void expect_serial_solution(const fem::MeshPart& part, const fem::Result& r, const fem::Mesh& whole, const std::string& what) {
  const std::vector<double> u = gathered(part, r.u, part.input_nodes);  // by input number
  EXPECT_LT(max_difference(u, fem::solve_serial(whole)), 1e-9) << what;
  for (std::size_t i = 0; i < r.u.size(); ++i) EXPECT_DOUBLE_EQ(r.u[i], u[static_cast<std::size_t>(part.input_nodes[i])]) << what;
}

}  // namespace

// Blocks made alone, in closed form, put together in rank order, are the whole mesh.
TEST(MeshBlocks, AGeneratedMeshsBlocksMakeTheWholeMesh) {
  for (const fem::MeshSpec spec : {fem::MeshSpec{fem::MeshSpec::square, 7}, fem::MeshSpec{fem::MeshSpec::l_shape, 8},
                                   fem::MeshSpec{fem::MeshSpec::cube, 3}})
    for (int parts : {1, 2, 3, 5}) {
      const fem::Mesh whole = fem::mesh_of(fem::generate_block(spec, 0, 1));
      fem::Mesh joined;
      for (int p = 0; p < parts; ++p) {
        const fem::MeshBlock b = fem::generate_block(spec, p, parts);
        ASSERT_EQ(b.first_node, static_cast<std::int64_t>(joined.x.size()));
        ASSERT_EQ(b.first_cell, static_cast<std::int64_t>(joined.cells.size()));
        joined.x.insert(joined.x.end(), b.x.begin(), b.x.end());
        joined.boundary.insert(joined.boundary.end(), b.boundary.begin(), b.boundary.end());
        joined.cells.insert(joined.cells.end(), b.cells.begin(), b.cells.end());
        for (std::size_t c = 0; c < b.cells.size(); ++c)  // the centroid is the corners' mean
          for (int d = 0; d < b.dim; ++d) {
            double mean = 0;
            for (int k = 0; k <= b.dim; ++k) mean += whole.x[static_cast<std::size_t>(b.cells[c][k])][d] / (b.dim + 1);
            EXPECT_NEAR(b.centroid[c][d], mean, 1e-15);
          }
      }
      EXPECT_EQ(joined.x, whole.x);
      EXPECT_EQ(joined.boundary, whole.boundary);
      EXPECT_EQ(joined.cells, whole.cells);
    }
  // The L-shape's numbering: 8 x 8 squares less a quarter, 2 triangles each;
  // (n+1)^2 grid nodes less the 4 x 4 of the missing quarter's interior and far sides.
  const fem::Mesh l = fem::l_shape(8);
  EXPECT_EQ(l.num_cells(), 2u * (64 - 16));
  EXPECT_EQ(l.num_nodes(), 81u - 16u);
  for (std::size_t v = 0; v < l.num_nodes(); ++v)
    EXPECT_FALSE(l.x[v][0] > 0.5 + 1e-9 && l.x[v][1] > 0.5 + 1e-9) << "node " << v << " in the missing quarter";
}

// The parts are the input mesh, distributed: every cell on exactly one
// process with its corners' coordinates and boundary flags; each node owned
// by the lowest rank holding it; owned nodes numbered consecutively in rank
// order; for two or more processes, nobody holds the whole mesh.
TEST(MeshParts, ArePartitionsOfTheInputMesh) {
  const fem::Mesh whole = fem::l_shape(12);
  for (bool from_file : {false, true}) {
    const fem::MeshPart part = from_file ? from_rank_0(whole) : generated(fem::MeshSpec::l_shape, 12);
    const std::string what = from_file ? "read on rank 0" : "made in blocks";
    ASSERT_EQ(part.num_cells, static_cast<std::int64_t>(whole.num_cells()));
    std::vector<int> holders_of_cell(whole.num_cells(), 0), all(whole.num_cells(), 0);
    std::vector<int> lowest_holder(whole.num_nodes(), nprocs()), lowest(whole.num_nodes(), 0);
    for (std::size_t c = 0; c < part.local.num_cells(); ++c) {
      const auto input = static_cast<std::size_t>(part.input_cells[c]);
      ++holders_of_cell[input];
      for (int k = 0; k < 3; ++k) {
        const auto v = static_cast<std::size_t>(part.local.cells[c][k]);
        const auto w = static_cast<std::size_t>(whole.cells[input][k]);
        EXPECT_EQ(part.input_nodes[v], whole.cells[input][k]) << what << ", cell " << input;
        EXPECT_EQ(part.local.x[v], whole.x[w]) << what << ", cell " << input;
        EXPECT_EQ(part.local.boundary[v], whole.boundary[w]) << what << ", cell " << input;
        lowest_holder[w] = rank();
      }
    }
    Teuchos::reduceAll<int, int>(*world(), Teuchos::REDUCE_SUM, static_cast<int>(all.size()), holders_of_cell.data(), all.data());
    for (std::size_t c = 0; c < all.size(); ++c) EXPECT_EQ(all[c], 1) << what << ", cell " << c;
    Teuchos::reduceAll<int, int>(*world(), Teuchos::REDUCE_MIN, static_cast<int>(lowest.size()), lowest_holder.data(), lowest.data());
    for (std::size_t i = 0; i < part.nodes.size(); ++i) {
      EXPECT_EQ(part.owner[i], lowest[static_cast<std::size_t>(part.input_nodes[i])]) << what << ", node " << part.input_nodes[i];
      EXPECT_EQ(i < part.num_owned, part.owner[i] == rank()) << what;
    }
    long long owned = static_cast<long long>(part.num_owned), before = 0;
    Teuchos::scan<int, long long>(*world(), Teuchos::REDUCE_SUM, 1, &owned, &before);
    for (std::size_t i = 0; i < part.num_owned; ++i)
      EXPECT_EQ(part.nodes[i], before - owned + static_cast<long long>(i)) << what;
    if (nprocs() > 1) {
      EXPECT_LT(part.local.num_cells(), whole.num_cells()) << what;
      EXPECT_LT(part.local.num_nodes(), whole.num_nodes()) << what;
    }
  }
}

TEST(MeshParts, AnyPartitionIsDistributedNotOnlyZoltansOne) {
  // Cells dealt round-robin from their blocks: every part scattered over the mesh.
  const fem::MeshBlock block = fem::generate_block({fem::MeshSpec::square, 10}, rank(), nprocs());
  std::vector<int> part_of(block.cells.size());
  for (std::size_t c = 0; c < part_of.size(); ++c) part_of[c] = static_cast<int>((block.first_cell + static_cast<std::int64_t>(c)) % nprocs());
  const fem::MeshPart part = fem::distribute_mesh(block, part_of, MPI_COMM_WORLD);
  for (std::size_t c = 0; c < part.input_cells.size(); ++c) EXPECT_EQ(part.input_cells[c] % nprocs(), rank());
  fem::SolveOptions opt;
  opt.tolerance = 1e-12;
  opt.keep_rows = true;
  const fem::Result r = fem::solve_poisson(part, world(), opt);
  const fem::Mesh whole = fem::unit_square(10);
  expect_rows_equal(part, r, fem::serial_matrix_rows(whole));
  expect_serial_solution(part, r, whole, "round-robin");
}

// A fault on one process (a part number that is not a rank, a part left
// empty, a file rank 0 cannot read) is the same MeshError on every process.
TEST(MeshParts, FaultsAreRaisedOnEveryProcess) {
  const fem::MeshBlock block = fem::generate_block({fem::MeshSpec::square, 6}, rank(), nprocs());
  std::vector<int> part_of(block.cells.size(), 0);
  const auto message_of = [](const std::function<void()>& step) -> std::string {
    try {
      step();
    } catch (const fem::MeshError& e) {
      return e.what();
    }
    return "";
  };
  std::string what;
  int checked = 0;
  // Each process in turn gives its last cell a part that is no rank: every process names that cell.
  for (int bad = 0; bad < nprocs(); ++bad) {
    std::vector<int> parts = part_of;
    long long mine = -1, cell = -1;
    if (rank() == bad && !parts.empty()) {
      parts.back() = nprocs();
      mine = static_cast<long long>(block.first_cell) + static_cast<long long>(parts.size()) - 1;
    }
    MPI_Allreduce(&mine, &cell, 1, MPI_LONG_LONG, MPI_MAX, MPI_COMM_WORLD);
    if (cell < 0) continue;  // that process holds no cell of the generated block
    ++checked;
    what = message_of([&] { fem::distribute_mesh(block, parts, MPI_COMM_WORLD); });
    EXPECT_NE(what.find("cell " + std::to_string(cell) + " has part " + std::to_string(nprocs()) + ", not a rank"),
              std::string::npos)
        << "bad rank " << bad << ": " << what;
  }
  EXPECT_EQ(checked, nprocs()) << "every process of a 6 x 6 square holds cells";
  if (nprocs() > 1) {  // every cell to rank 0: the others' parts are empty
    std::fill(part_of.begin(), part_of.end(), 0);
    what = message_of([&] { fem::distribute_mesh(block, part_of, MPI_COMM_WORLD); });
    EXPECT_NE(what.find("left part 1 empty"), std::string::npos) << what;
    const fem::MeshBlock two = fem::generate_block({fem::MeshSpec::square, 1}, rank(), nprocs());  // two triangles
    if (nprocs() > 2) {
      what = message_of([&] { partitioned(two); });
      EXPECT_NE(what.find("empty (use fewer processes)"), std::string::npos) << what;
    }
  }
  what = message_of([&] { fem::read_mesh_block("/nonexistent/mesh.msh", MPI_COMM_WORLD); });
  EXPECT_NE(what.find("/nonexistent/mesh.msh"), std::string::npos) << what;
  // After the faults every process goes on together.
  EXPECT_NO_THROW(partitioned(block));
}

TEST(Fem, SolutionMatchesTheSerialSolveOnEveryProcessCount) {
  for (bool lshape : {false, true})
    for (const std::string prec : {"MueLu", "RELAXATION"})
      for (bool from_file : {false, true}) {
        const fem::Mesh whole = lshape ? fem::l_shape(16) : fem::unit_square(20);
        const fem::MeshPart part = from_file ? from_rank_0(whole)
                                             : generated(lshape ? fem::MeshSpec::l_shape : fem::MeshSpec::square, lshape ? 16 : 20);
        fem::SolveOptions opt;
        opt.tolerance = 1e-12;
        opt.preconditioner = prec;
        const fem::Result r = fem::solve_poisson(part, world(), opt);
        const std::string what = std::string(lshape ? "L-shape" : "square") + ", " + prec +
                                 (from_file ? ", read on rank 0" : ", made in blocks");
        expect_serial_solution(part, r, whole, what);
        EXPECT_LE(r.belos.relative_residual, 1e-11) << what;
      }
}

TEST(Fem, ConvergesAtTheP1Rates) {
  std::vector<double> h, l2, h1;
  for (int n : {8, 16, 32, 64}) {
    const fem::Result r = fem::solve_poisson(generated(fem::MeshSpec::square, n), world());
    h.push_back(1.0 / n);  // the grid's spacing (the perturbation is a fixed fraction of it)
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
  fem::SolveOptions opt;
  opt.keep_rows = true;
  const fem::MeshPart part = generated(fem::MeshSpec::square, 12, 0.25);
  const fem::Result r = fem::solve_poisson(part, world(), opt);
  expect_rows_equal(part, r, fem::serial_matrix_rows(fem::unit_square(12, 0.25)));
}

// Re-assembly into the same FEMatrix and right-hand side starts from zero:
// the rows and the solution are the first assembly's, not twice them.
TEST(Fem, ReassemblyGivesTheSameMatrixAndSolution) {
  fem::SolveOptions opt;
  opt.keep_rows = true;
  opt.reassemblies = 2;
  opt.tolerance = 1e-12;
  const fem::MeshPart part = generated(fem::MeshSpec::square, 12, 0.25);
  const fem::Mesh whole = fem::unit_square(12, 0.25);
  const fem::Result r = fem::solve_poisson(part, world(), opt);
  EXPECT_GT(r.reassembly_seconds, 0.0);
  expect_rows_equal(part, r, fem::serial_matrix_rows(whole));
  expect_serial_solution(part, r, whole, "after two re-assemblies");
}

TEST(Fem, MueLuIterationsStayFlatUnderRefinement) {
  std::vector<int> iterations;
  for (int n : {16, 32, 64, 128}) iterations.push_back(fem::solve_poisson(generated(fem::MeshSpec::square, n), world()).belos.iterations);
  // Over an 8-fold refinement: Gauss-Seidel CG's count grows about 8-fold
  // here (h^-1); MueLu's by a few iterations (19 -> 26 at 3 processes).
  EXPECT_LE(2 * iterations.back(), 3 * iterations.front()) << iterations.front() << " -> " << iterations.back();
  EXPECT_LE(iterations.back(), 40);
}

TEST(Fem, PetscAndBelosSolveTheSameSystemOnTheSameArrays) {
  if (!fem::petsc_available()) GTEST_SKIP() << "built without Dapetra's PETSc adapter";
  for (bool lshape : {false, true}) {
    const fem::Mesh whole = lshape ? fem::l_shape(24) : fem::unit_square(30);
    const fem::MeshPart part = generated(lshape ? fem::MeshSpec::l_shape : fem::MeshSpec::square, lshape ? 24 : 30);
    fem::SolveOptions opt;
    opt.tolerance = 1e-12;
    opt.petsc = true;
    const fem::Result r = fem::solve_poisson(part, world(), opt);
    ASSERT_TRUE(r.petsc.has_value());
    EXPECT_LE(r.petsc->relative_residual, 1e-11);
    EXPECT_GT(r.petsc->iterations, 0);
    EXPECT_LT(r.petsc->iterations, 40);  // GAMG: about 15 here
    EXPECT_LT(r.petsc_difference, 1e-9);
    expect_serial_solution(part, r, whole, lshape ? "L-shape" : "square");
  }
}

TEST(Fem, PetscRefusesAMeshWhoseOwnedNodesAreNotConsecutive) {
  if (!fem::petsc_available()) GTEST_SKIP() << "built without Dapetra's PETSc adapter";
  if (nprocs() < 2) GTEST_SKIP() << "one process owns every node, consecutive in any numbering";
  fem::MeshPart part = generated(fem::MeshSpec::square, 12);
  // Renumber every node g -> 7 g mod N (a bijection while 7 is prime to N):
  // each rank's owned numbers are no longer one run.
  ASSERT_EQ(std::gcd(part.num_nodes, std::int64_t{7}), 1);
  for (auto& g : part.nodes) g = 7 * g % part.num_nodes;
  fem::SolveOptions opt;
  opt.petsc = true;
  try {
    fem::solve_poisson(part, world(), opt);
    ADD_FAILURE() << "PETSc accepted owned nodes that are not consecutive";
  } catch (const dapetra::ValidationError& e) {
    EXPECT_NE(std::string(e.what()).find("copy_to_new_vec"), std::string::npos) << e.what();
  }
}

// ---- 3-D: P1 tetrahedra on the unit cube -------------------------------

TEST(Fem3D, SolutionAndMatrixMatchTheSerialOnes) {
  const fem::MeshPart part = generated(fem::MeshSpec::cube, 5);
  fem::SolveOptions opt;
  opt.tolerance = 1e-12;
  opt.keep_rows = true;
  const fem::Result r = fem::solve_poisson(part, world(), opt);
  const fem::Mesh whole = fem::unit_cube(5);
  expect_serial_solution(part, r, whole, "unit cube");
  expect_rows_equal(part, r, fem::serial_matrix_rows(whole));
}

TEST(Fem3D, ConvergesAtTheP1Rates) {
  std::vector<double> h, l2, h1;
  for (int n : {8, 16}) {
    const fem::Result r = fem::solve_poisson(generated(fem::MeshSpec::cube, n), world());
    h.push_back(1.0 / n);
    l2.push_back(r.l2_error);
    h1.push_back(r.h1_error);
  }
  EXPECT_NEAR(std::log(l2[0] / l2[1]) / std::log(h[0] / h[1]), 2.0, 0.25);
  EXPECT_NEAR(std::log(h1[0] / h1[1]) / std::log(h[0] / h[1]), 1.0, 0.15);
}

// ---- Quadrature -------------------------------------------------------------

// The integral of x^a y^b z^c over the reference simplex of dimension
// `dim`, a! b! c! / (a + b + c + dim)!, divided by its volume 1 / dim!
// (the rules' weights sum to 1).
double factorial(int n) { return n <= 1 ? 1.0 : n * factorial(n - 1); }
double reference_mean(int dim, const std::array<int, 3>& power) {
  double numerator = factorial(dim);
  int total = 0;
  for (int d = 0; d < dim; ++d) {
    numerator *= factorial(power[static_cast<std::size_t>(d)]);
    total += power[static_cast<std::size_t>(d)];
  }
  return numerator / factorial(total + dim);
}

double rule_mean(const std::vector<fem::QuadraturePoint>& rule, int dim, const std::array<int, 3>& power) {
  double sum = 0;
  for (const auto& q : rule) {
    double term = q.w;
    for (int d = 0; d < dim; ++d) term *= std::pow(q.l[static_cast<std::size_t>(d)], power[static_cast<std::size_t>(d)]);
    sum += term;
  }
  return sum;
}

// The largest degree up to which `rule` integrates every monomial exactly.
int exact_degree(const std::vector<fem::QuadraturePoint>& rule, int dim) {
  for (int degree = 0; degree <= 8; ++degree)
    for (int a = 0; a <= degree; ++a)
      for (int b = 0; a + b <= degree; ++b) {
        const int c = degree - a - b;
        if (dim == 2 && c != 0) continue;
        const std::array<int, 3> power{a, b, c};
        if (std::abs(rule_mean(rule, dim, power) - reference_mean(dim, power)) > 1e-13) return degree - 1;
      }
  return 8;
}

// The load rules have exactly the degree the DOLFINx yardstick is told to
// use, and the error rules at least that.
TEST(Quadrature, RulesHaveTheirStatedDegree) {
  for (int dim : {2, 3}) {
    EXPECT_EQ(exact_degree(fem::load_quadrature(dim), dim), fem::load_quadrature_degree(dim)) << dim << "-D load rule";
    EXPECT_GE(exact_degree(fem::error_quadrature(dim), dim), fem::load_quadrature_degree(dim)) << dim << "-D error rule";
    for (const auto& q : fem::error_quadrature(dim)) EXPECT_GT(q.w, 0) << dim << "-D error rule";
  }
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
  for (const char* file : {"plate_with_hole.msh", "box_with_hole.msh"}) {
    const fem::MeshPart part = partitioned(fem::read_mesh_block(mesh_path(file), MPI_COMM_WORLD));
    fem::SolveOptions opt;
    opt.tolerance = 1e-12;
    opt.keep_rows = true;
    const fem::Result r = fem::solve_poisson(part, world(), opt);
    const fem::Mesh whole = fem::read_gmsh(mesh_path(file));
    expect_serial_solution(part, r, whole, file);
    expect_rows_equal(part, r, fem::serial_matrix_rows(whole));
    EXPECT_LT(r.l2_error, whole.dim == 2 ? 2e-3 : 2e-2) << file;  // the discretisation error, for the record
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
      if (fault.line > 0) {
        EXPECT_NE(what.find(":" + std::to_string(fault.line) + ":"), std::string::npos) << fault.name << ": " << what;
      }
      EXPECT_NE(what.find(fault.words), std::string::npos) << fault.name << ": " << what;
    }
  }
  std::remove(path.c_str());
}
