// The vector-valued pipeline (examples/fem/elasticity.hpp) under mpirun:
// the distributed displacement equals an independent serial solve (Eigen's
// sparse Cholesky of the same discretisation) node by node and component by
// component, on generated and Gmsh meshes; the errors converge at the P1 rates; the rigid-body modes lie
// in the kernel of the unconstrained stiffness matrix; and MueLu's
// iterations, given them, stay nearly flat under refinement.
#include <gtest/gtest.h>

#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_Core.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "distribute.hpp"
#include "elasticity.hpp"
#include "mesh.hpp"

namespace {

Teuchos::RCP<const Teuchos::Comm<int>> world() { return Tpetra::getDefaultComm(); }

fem::MeshPart generated(const fem::MeshSpec& spec) {
  const auto comm = world();
  const fem::MeshBlock block = fem::generate_block(spec, comm->getRank(), comm->getSize());
  return fem::distribute_mesh(block, fem::partition_cells(block, MPI_COMM_WORLD), MPI_COMM_WORLD);
}

// Every owned node's displacement in one array on every process, by input
// node number (the serial mesh's), d components per node.
std::vector<double> by_input_number(const fem::MeshPart& part, const fem::Result& r) {
  const auto d = static_cast<std::size_t>(r.components);
  std::vector<double> mine(static_cast<std::size_t>(part.num_nodes) * d, 0.0), all(mine.size(), 0.0);
  for (std::size_t v = 0; v < part.num_owned; ++v)
    for (std::size_t i = 0; i < d; ++i) mine[static_cast<std::size_t>(part.input_nodes[v]) * d + i] = r.u[v * d + i];
  Teuchos::reduceAll<int, double>(*world(), Teuchos::REDUCE_SUM, static_cast<int>(mine.size()), mine.data(), all.data());
  return all;
}

const fem::MeshSpec square{fem::MeshSpec::square, 10};
const fem::MeshSpec lshape{fem::MeshSpec::l_shape, 10};
const fem::MeshSpec cube{fem::MeshSpec::cube, 4};


// The part's displacement against the serial solve of `whole` (the input
// mesh), at every node and component, on the owner and on every copy
// (after the solver's ghost update).
void expect_serial_displacement(const fem::MeshPart& part, const fem::Mesh& whole) {
  fem::SolveOptions options;
  options.tolerance = 1e-12;
  const fem::Result r = fem::solve_elasticity(part, world(), options);
  ASSERT_EQ(r.components, part.local.dim);
  const std::vector<double> got = by_input_number(part, r);
  const std::vector<double> want = fem::solve_elasticity_serial(whole);
  ASSERT_EQ(got.size(), want.size());
  double worst = 0, largest = 0;
  for (std::size_t i = 0; i < want.size(); ++i) worst = std::max(worst, std::abs(got[i] - want[i])), largest = std::max(largest, std::abs(want[i]));
  EXPECT_LT(worst, 1e-9 * largest) << "largest displacement " << largest;
  const auto d = static_cast<std::size_t>(r.components);
  for (std::size_t v = 0; v < part.nodes.size(); ++v)
    for (std::size_t i = 0; i < d; ++i)
      EXPECT_DOUBLE_EQ(r.u[v * d + i], got[static_cast<std::size_t>(part.input_nodes[v]) * d + i]) << "node " << v;
}

}  // namespace

// Generated meshes, made in blocks: the square, the L-shape, the cube.
TEST(Elasticity, EqualsTheSerialSolve) {
  for (const fem::MeshSpec& spec : {square, lshape, cube}) {
    SCOPED_TRACE("mesh shape " + std::to_string(static_cast<int>(spec.shape)));
    expect_serial_displacement(generated(spec), fem::mesh_of(fem::generate_block(spec, 0, 1)));
  }
}

// The Gmsh meshes (read on rank 0; the boundary every node on a facet one
// cell has), clamped there: a plate with a hole (2-D), a box with a cavity (3-D).
TEST(Elasticity, EqualsTheSerialSolveOnGmshMeshes) {
  for (const char* name : {"plate_with_hole.msh", "box_with_hole.msh"}) {
    SCOPED_TRACE(name);
    const std::string path = std::string(DAPETRA_FEM_MESHES) + "/" + name;
    const fem::MeshBlock block = fem::read_mesh_block(path, MPI_COMM_WORLD);
    const fem::MeshPart part = fem::distribute_mesh(block, fem::partition_cells(block, MPI_COMM_WORLD), MPI_COMM_WORLD);
    expect_serial_displacement(part, fem::read_mesh_file(path));
  }
}

// L2 error O(h^2) and H1 error O(h) for P1 elements, in 2-D and 3-D,
// between the two finest meshes (h = 1/n, the grid's spacing), with the
// scalar problem's tolerances (test_fem.cpp).
TEST(Elasticity, ConvergesAtTheP1Rates) {
  struct Study {
    fem::MeshSpec::Shape shape;
    std::vector<int> sizes;
    double l2_slack, h1_slack;
  };
  for (const Study& study : {Study{fem::MeshSpec::square, {8, 16, 32, 64}, 0.2, 0.1}, Study{fem::MeshSpec::cube, {8, 16}, 0.25, 0.15}}) {
    std::vector<double> l2, h1;
    for (int n : study.sizes) {
      const fem::Result r = fem::solve_elasticity(generated({study.shape, n}), world());
      l2.push_back(r.l2_error);
      h1.push_back(r.h1_error);
    }
    const std::size_t k = study.sizes.size() - 1;
    const double refine = std::log(static_cast<double>(study.sizes[k]) / study.sizes[k - 1]);
    EXPECT_NEAR(std::log(l2[k - 1] / l2[k]) / refine, 2.0, study.l2_slack) << "n = " << study.sizes[k];
    EXPECT_NEAR(std::log(h1[k - 1] / h1[k]) / refine, 1.0, study.h1_slack) << "n = " << study.sizes[k];
  }
}

// ||K z|| / (||K|| ||z||) at rounding level for every rigid-body mode z (3
// in 2-D, 6 in 3-D) on perturbed meshes: the modes MueLu gets are the
// stiffness matrix's kernel, on every process's owned nodes.
TEST(Elasticity, RigidBodyModesLieInTheKernelOfTheStiffnessMatrix) {
  for (const fem::MeshSpec& spec : {square, lshape, cube}) EXPECT_LT(fem::rigid_body_residual(generated(spec), world()), 1e-14);
}

// With the rigid-body modes, refining the mesh twice (16 times the
// unknowns) leaves MueLu's iterations nearly flat.
TEST(Elasticity, MueLuIterationsStayFlatWithRigidBodyModes) {
  std::vector<int> iterations;
  for (int n : {16, 32, 64}) iterations.push_back(fem::solve_elasticity(generated({fem::MeshSpec::square, n}), world()).belos.iterations);
  EXPECT_LE(iterations.back(), 1.5 * iterations.front()) << iterations[0] << " " << iterations[1] << " " << iterations[2];
}
