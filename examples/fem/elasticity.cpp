#include "elasticity.hpp"

#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_MultiVector.hpp>
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>

#include <Eigen/Sparse>
#include <Eigen/SparseCholesky>

#include "dapetra/eigen/eigen.hpp"
#include "dapetra/tpetra/solver.hpp"
#include "dapetra/tpetra/tpetra.hpp"
#include "elastic_element.hpp"
#include "pipeline.hpp"

namespace fem {

namespace {

using namespace dapetra;
using pipeline::Clock;
using pipeline::report;
using pipeline::seconds_since;
using MV = tpetra::MultiVector<double>;

// The displacement's distribution: nodes ('u', owned first) x components
// (undistributed), so a node's components are consecutive in the buffer.
std::vector<Dim> displacement_dims(const MeshPart& part, const Teuchos::Comm<int>& comm) {
  return {Dim::unstructured(part.num_nodes, comm.getSize(), comm.getRank(),
                            std::vector<global_index_t>(part.nodes.begin(), part.nodes.end()), false),
          Dim::undistributed(part.local.dim)};
}

// A DAP array of `dims`, owning its (zeroed) memory through keep_alive.
DistArray displacement_array(const std::vector<Dim>& dims) {
  const auto nodes = static_cast<global_index_t>(dims[0].indices.size());
  auto storage = std::make_shared<std::vector<double>>(static_cast<std::size_t>(nodes * dims[1].size), 0.0);
  DistArray a;
  a.dim_data = dims;
  a.buffer = view_buffer(storage->data(), {nodes, dims[1].size}, storage);
  return a;
}

// The clamped boundary: every component of a boundary node, per held unknown.
std::vector<char> clamped_unknowns(const Mesh& mesh) {
  std::vector<char> flags;
  flags.reserve(mesh.num_nodes() * static_cast<std::size_t>(mesh.dim));
  for (char on_boundary : mesh.boundary) flags.insert(flags.end(), static_cast<std::size_t>(mesh.dim), on_boundary);
  return flags;
}

// The exact displacement at every held node, per held unknown (the boundary's prescribed values among them).
std::vector<double> exact_unknowns(const Mesh& mesh) {
  std::vector<double> g;
  g.reserve(mesh.num_nodes() * static_cast<std::size_t>(mesh.dim));
  for (const Point& p : mesh.x) {
    const Eigen::Vector3d u = exact_displacement(p, mesh.dim);
    g.insert(g.end(), u.data(), u.data() + mesh.dim);
  }
  return g;
}

// The values of K and f: element kernels with Eigen into FEMatrix (block
// size dim) and the DAP right-hand side; the clamped values eliminated
// symmetrically. Collective.
void assemble_values(const Mesh& mesh, const std::vector<double>& g, const mpi::HaloPlan& plan, tpetra::FEMatrix& a,
                     DistArray& f) {
  const Material& m = example_material();
  const int d = mesh.dim, width = mesh.corners() * d;
  double* fv = data_as<double>(f);
  std::fill(fv, fv + g.size(), 0.0);
  a.begin_assembly();
  for (std::size_t c = 0; c < mesh.num_cells(); ++c) {
    const Element e(mesh, c);
    const RowMajorDofMatrix k = elastic_stiffness(e, m);
    const tpetra::ElementMatrix ke{k.data(), width, width};
    const DofVector b = elastic_load(e, m);
    for (int i = 0; i < width; ++i) fv[mesh.cells[c][i / d] * d + i % d] += b(i);
    a.add_element(c, ke);
    a.lift_element(c, ke, g.data(), fv);
  }
  a.end_assembly();          // collective: shared rows summed on their owners
  plan.assemble<double>(f);  // collective: shared nodes' loads summed on their owners
  a.set_constrained_values(g.data(), fv);
}

// The rigid-body modes of the owned nodes, on the matrix's rows. The owned
// nodes come first in the part and the layout's owned rows are that run of
// the buffer, so the row map lists them in the part's order.
Teuchos::RCP<MV> owned_rigid_body_modes(const tpetra::TpetraLayout& layout, const MeshPart& part) {
  const auto& run = layout.owned_rows();
  const auto d = static_cast<std::size_t>(part.local.dim);
  if (!run || run->begin != 0 || static_cast<std::size_t>(run->end) != part.num_owned * d)
    throw std::logic_error("solve_elasticity: the owned nodes are not the first of the part");
  std::vector<double> xyz;
  xyz.reserve(part.num_owned * d);
  for (std::size_t v = 0; v < part.num_owned; ++v) xyz.insert(xyz.end(), part.local.x[v].begin(), part.local.x[v].begin() + static_cast<std::ptrdiff_t>(d));
  return tpetra::rigid_body_modes(layout.owned_map(), xyz.data(), part.local.dim);
}

// The displacement's L2 and H1 errors over every process's cells. Collective.
void compute_errors(const Mesh& mesh, const Teuchos::Comm<int>& comm, Result& res) {
  const int d = mesh.dim, width = mesh.corners() * d;
  pipeline::set_errors(
      mesh.num_cells(),
      [&](std::size_t c) {
        DofVector ue(width);
        for (int i = 0; i < width; ++i) ue(i) = res.u[static_cast<std::size_t>(mesh.cells[c][i / d] * d + i % d)];
        return elastic_errors(Element(mesh, c), ue);
      },
      comm, res);
}

}  // namespace

Result solve_elasticity(const MeshPart& part, const Teuchos::RCP<const Teuchos::Comm<int>>& comm, const SolveOptions& options) {
  if (options.petsc) throw std::invalid_argument("solve_elasticity: the PETSc solve beside Belos is scalar only");
  const Mesh& mesh = part.local;
  Result res;
  res.components = mesh.dim;
  pipeline::count_part(part, *comm, res);

  const std::vector<Dim> dims = displacement_dims(part, *comm);
  DistArray u = displacement_array(dims), f = displacement_array(dims);
  const auto layout = tpetra::TpetraLayout::create(u, comm);       // collective
  const auto plan = mpi::HaloPlan::create(layout->distribution());  // collective

  const auto t_setup = Clock::now();
  const std::vector<double> g = exact_unknowns(mesh);
  res.setup_seconds = seconds_since(t_setup);

  const auto t_assembly = Clock::now();
  const auto graph = tpetra::FEGraph::create(layout, pipeline::cell_corners(mesh), mesh.corners());  // collective
  tpetra::FEMatrix a(graph, clamped_unknowns(mesh));                                                  // collective
  res.structure_seconds = seconds_since(t_assembly);
  pipeline::assemble_and_reassemble([&] { assemble_values(mesh, g, *plan, a, f); }, a, *layout, f, t_assembly, options, res);

  // Solve in place on views of the owned nodes' unknowns (no copy). The
  // modes are built inside the solve's time, as the DOLFINx yardstick
  // builds its near-nullspace inside its own.
  const auto t_modes = Clock::now();
  const auto modes = owned_rigid_body_modes(*layout, part);
  const double modes_seconds = seconds_since(t_modes);
  res.belos = pipeline::solve_with_belos(a.matrix(), tpetra::owned_view<double>(*layout, u),
                                         tpetra::owned_view<double>(*layout, f), options, mesh.dim, mesh.dim, modes);
  res.belos.seconds += modes_seconds;
  report(options, "solve: %s (%d equations per node, %d rigid-body modes for MueLu), %4d iterations, relative residual %.2e, %.3f s",
         pipeline::solver_name(options).c_str(), mesh.dim, mesh.dim == 2 ? 3 : 6, res.belos.iterations, res.belos.relative_residual,
         res.belos.seconds);

  plan->update<double>(u);  // every shared node's copy now holds its owner's displacement
  const double* uv = data_as<const double>(u);
  res.u.assign(uv, uv + g.size());
  compute_errors(mesh, *comm, res);
  return res;
}

Result evaluate_elasticity(const MeshPart& part, const Teuchos::Comm<int>& comm, std::vector<double> u) {
  Result res;
  res.components = part.local.dim;
  pipeline::count_part(part, comm, res);
  res.u = std::move(u);
  compute_errors(part.local, comm, res);
  return res;
}

std::vector<double> solve_elasticity_serial(const Mesh& mesh) {
  const Material& m = example_material();
  const int d = mesh.dim, width = mesh.corners() * d;
  const auto n = static_cast<Eigen::Index>(mesh.num_nodes()) * d;
  const std::vector<char> fixed = clamped_unknowns(mesh);
  const std::vector<double> g = exact_unknowns(mesh);
  std::vector<Eigen::Triplet<double>> triplets;
  Eigen::VectorXd b = Eigen::VectorXd::Zero(n);
  for (std::size_t c = 0; c < mesh.num_cells(); ++c) {
    const Element e(mesh, c);
    const RowMajorDofMatrix k = elastic_stiffness(e, m);
    const DofVector f = elastic_load(e, m);
    const auto unknown = [&](int i) { return static_cast<Eigen::Index>(mesh.cells[c][i / d] * d + i % d); };
    for (int i = 0; i < width; ++i) {
      if (fixed[static_cast<std::size_t>(unknown(i))]) continue;
      b(unknown(i)) += f(i);
      for (int j = 0; j < width; ++j) {
        if (fixed[static_cast<std::size_t>(unknown(j))]) b(unknown(i)) -= k(i, j) * g[static_cast<std::size_t>(unknown(j))];
        else triplets.emplace_back(unknown(i), unknown(j), k(i, j));
      }
    }
  }
  for (Eigen::Index i = 0; i < n; ++i)
    if (fixed[static_cast<std::size_t>(i)]) {
      triplets.emplace_back(i, i, 1.0);
      b(i) = g[static_cast<std::size_t>(i)];
    }
  Eigen::SparseMatrix<double> a(n, n);
  a.setFromTriplets(triplets.begin(), triplets.end());
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(a);
  const Eigen::VectorXd x = ldlt.solve(b);
  return std::vector<double>(x.data(), x.data() + x.size());
}

double rigid_body_residual(const MeshPart& part, const Teuchos::RCP<const Teuchos::Comm<int>>& comm) {
  const Mesh& mesh = part.local;
  const std::vector<Dim> dims = displacement_dims(part, *comm);
  const auto layout = tpetra::TpetraLayout::create(dims, comm);  // collective
  const auto graph = tpetra::FEGraph::create(layout, pipeline::cell_corners(mesh), mesh.corners());
  tpetra::FEMatrix a(graph);  // no constraint: the free body
  const int width = mesh.corners() * mesh.dim;
  a.begin_assembly();
  for (std::size_t c = 0; c < mesh.num_cells(); ++c) {
    const RowMajorDofMatrix k = elastic_stiffness(Element(mesh, c), example_material());
    a.add_element(c, tpetra::ElementMatrix{k.data(), width, width});
  }
  a.end_assembly();
  const auto z = owned_rigid_body_modes(*layout, part);
  MV kz(a.matrix()->getRangeMap(), z->getNumVectors());
  a.matrix()->apply(*z, kz);
  std::vector<double> kz_norms(z->getNumVectors()), z_norms(z->getNumVectors());
  kz.norm2(Teuchos::ArrayView<double>(kz_norms));
  z->norm2(Teuchos::ArrayView<double>(z_norms));
  const double k_norm = static_cast<double>(a.matrix()->getFrobeniusNorm());
  double worst = 0;
  for (std::size_t j = 0; j < kz_norms.size(); ++j) worst = std::max(worst, kz_norms[j] / (k_norm * z_norms[j]));
  return worst;
}

}  // namespace fem
