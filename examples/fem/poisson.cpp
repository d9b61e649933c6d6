#include "poisson.hpp"

#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_MultiVector.hpp>
#include <Tpetra_Operator.hpp>
#include <algorithm>
#include <chrono>
#include <memory>


#include "dapetra/eigen/eigen.hpp"
#include "dapetra/tpetra/solver.hpp"
#include "dapetra/tpetra/tpetra.hpp"
#include "element.hpp"
#include "pipeline.hpp"
#if FEM_WITH_PETSC
#include "petsc_solve.hpp"
#endif

namespace fem {

namespace {

using namespace dapetra;
using dapetra::tpetra::GO;
using dapetra::tpetra::LO;
using dapetra::tpetra::Node;
using Matrix = Tpetra::CrsMatrix<double, LO, GO, Node>;
using MV = Tpetra::MultiVector<double, LO, GO, Node>;
using pipeline::cell_corners;
using pipeline::Clock;
using pipeline::report;
using pipeline::seconds_since;

// A DAP nodal array over `nodes`, owning its memory through keep_alive.
DistArray nodal_array(const Dim& dim) {
  auto storage = std::make_shared<std::vector<double>>(dim.indices.size(), 0.0);
  DistArray a;
  a.dim_data = {dim};
  a.buffer = view_buffer(storage->data(), {static_cast<global_index_t>(storage->size())}, storage);
  return a;
}

// The owned rows of `a`, (column, value) sorted, in the order of `nodes`.
std::vector<std::vector<std::pair<std::int64_t, double>>> owned_rows_of(const Matrix& a,
                                                                       const std::vector<std::int64_t>& nodes,
                                                                       std::size_t num_owned) {
  std::vector<std::vector<std::pair<std::int64_t, double>>> rows;
  rows.reserve(num_owned);
  for (std::size_t i = 0; i < num_owned; ++i) {
    const GO row = nodes[i];
    const std::size_t len = a.getNumEntriesInGlobalRow(row);
    Matrix::nonconst_global_inds_host_view_type cols("cols", len);
    Matrix::nonconst_values_host_view_type vals("vals", len);
    std::size_t got = 0;
    a.getGlobalRowCopy(row, cols, vals, got);
    std::vector<std::pair<std::int64_t, double>> entries;
    for (std::size_t k = 0; k < got; ++k) entries.emplace_back(cols[k], vals[k]);
    std::sort(entries.begin(), entries.end());
    rows.push_back(std::move(entries));
  }
  return rows;
}

// The values of A and f: element kernels with Eigen, straight into
// Dapetra's FE matrix (by local indices; shared rows summed on their owners
// by FEMatrix::end_assembly) and the DAP right-hand side (shared nodes
// summed by HaloPlan::assemble). Dirichlet values g are eliminated
// symmetrically, so the matrix stays SPD for CG. Collective.
void assemble_values(const Mesh& mesh, const std::vector<double>& g, const mpi::HaloPlan& plan, tpetra::FEMatrix& a,
                     DistArray& f) {
  const int corners = mesh.corners();
  auto fv = dapetra::eigen::vector_view<double>(f);  // f's buffer, as an Eigen vector
  fv.setZero();
  a.begin_assembly();
  for (std::size_t c = 0; c < mesh.num_cells(); ++c) {
    const Element e(mesh, c);
    const RowMajorCornerMatrix k = e.stiffness();
    const tpetra::ElementMatrix ke{k.data(), corners, corners};
    const CornerVector b = load(e);
    for (int i = 0; i < corners; ++i) fv(static_cast<Eigen::Index>(mesh.cells[c][i])) += b(i);
    a.add_element(c, ke);
    a.lift_element(c, ke, g.data(), fv.data());
  }
  a.end_assembly();          // collective: shared rows summed on their owners
  plan.assemble<double>(f);  // contributions of shared nodes summed on their owners
  a.set_constrained_values(g.data(), fv.data());
}

// PETSc KSP (CG + GAMG) on the same rows and right-hand side, beside Belos'
// solution `u`: its run and the largest difference. Collective.
void solve_with_petsc_beside(const tpetra::TpetraLayout& layout, const Dim& dim, const DistArray& u, const DistArray& f,
                             const Teuchos::Comm<int>& comm, const SolveOptions& options, Result& res) {
#if FEM_WITH_PETSC
  const DistArray u_petsc = nodal_array(dim);
  const PetscRun run = solve_with_petsc(res.owned_rows, *layout.distribution(), u_petsc, f, options.tolerance,
                                        options.max_iterations);
  res.petsc = SolverRun{run.iterations, run.relative_residual, run.seconds};
  // Over the owned entries, one reduction (every node has one owner).
  const double *p = data_as<const double>(u_petsc), *b = data_as<const double>(u);
  double mine = 0;
  for (std::size_t i = 0; i < res.num_owned; ++i) mine = std::max(mine, std::abs(p[i] - b[i]));
  Teuchos::reduceAll<int, double>(comm, Teuchos::REDUCE_MAX, 1, &mine, &res.petsc_difference);
  report(options, "solve: %-26s %4d iterations, relative residual %.2e, %.3f s (same DAP arrays; max |u_petsc - u_belos| %.1e)",
         "PETSc KSP CG + GAMG,", res.petsc->iterations, res.petsc->relative_residual, res.petsc->seconds,
         res.petsc_difference);
#else
  (void)layout, (void)dim, (void)u, (void)f, (void)comm, (void)options, (void)res;
  throw std::runtime_error("solve_poisson: this build has no PETSc (Dapetra's PETSc adapter was not built)");
#endif
}

// The L2 and H1 errors against the exact solution, over every process's
// cells. Collective.
void compute_errors(const Mesh& mesh, const Teuchos::Comm<int>& comm, Result& res) {
  pipeline::set_errors(
      mesh.num_cells(),
      [&](std::size_t c) {
        CornerVector ue(mesh.corners());
        for (int k = 0; k < mesh.corners(); ++k) ue(k) = res.u[static_cast<std::size_t>(mesh.cells[c][k])];
        return errors(Element(mesh, c), ue);
      },
      comm, res);
}

}  // namespace

bool petsc_available() { return FEM_WITH_PETSC != 0; }

Result solve_poisson(const MeshPart& part, const Teuchos::RCP<const Teuchos::Comm<int>>& comm, const SolveOptions& options) {
  const int rank = comm->getRank(), nprocs = comm->getSize();
  const Mesh& mesh = part.local;  // local node numbers; part.nodes are the global ones
  Result res;
  pipeline::count_part(part, *comm, res);

  // Owned nodes come first in the part, so the owned values are one run of
  // the buffer and the solver works on them in place.
  const Dim dim = Dim::unstructured(part.num_nodes, nprocs, rank, std::vector<global_index_t>(part.nodes.begin(), part.nodes.end()),
                                    false);
  DistArray u = nodal_array(dim), f = nodal_array(dim);
  const auto layout = tpetra::TpetraLayout::create(u, comm);       // collective
  const auto plan = mpi::HaloPlan::create(layout->distribution());  // collective

  // Set-up, as DOLFINx's boundary facets and interpolation: the Dirichlet
  // values g = exact at every held node.
  const auto t_setup = Clock::now();
  std::vector<double> g(mesh.num_nodes());
  for (std::size_t v = 0; v < g.size(); ++v) g[v] = exact_value(mesh.x[v], mesh.dim);
  res.setup_seconds = seconds_since(t_setup);

  // Assembly: the structure once (Dapetra's FEGraph and FEMatrix), then the values.
  const auto t_assembly = Clock::now();
  const auto graph = tpetra::FEGraph::create(layout, cell_corners(mesh), mesh.corners());  // collective
  tpetra::FEMatrix a(graph, mesh.boundary);                                              // collective
  res.structure_seconds = seconds_since(t_assembly);
  pipeline::assemble_and_reassemble([&] { assemble_values(mesh, g, *plan, a, f); }, a, *layout, f, t_assembly, options, res);
  const Teuchos::RCP<Matrix> a_mat = a.matrix();
  if (options.keep_rows || options.petsc) res.owned_rows = owned_rows_of(*a_mat, res.nodes, res.num_owned);

  // Solve in place: the right-hand side and the solution are views of the
  // owned parts of the DAP arrays (owned nodes first, so no copy).
  res.belos = pipeline::solve_with_belos(a_mat, tpetra::owned_view<double>(*layout, u),
                                         tpetra::owned_view<double>(*layout, f), options, mesh.dim);
  report(options, "solve: %-26s %4d iterations, relative residual %.2e, %.3f s", (pipeline::solver_name(options) + ",").c_str(),
         res.belos.iterations, res.belos.relative_residual, res.belos.seconds);
  if (options.petsc) solve_with_petsc_beside(*layout, dim, u, f, *comm, options, res);

  // One ghost update: every shared node now holds its owner's value.
  plan->update<double>(u);
  const double* uv = data_as<const double>(u);
  res.u.assign(uv, uv + res.nodes.size());
  compute_errors(mesh, *comm, res);
  return res;
}

Result evaluate_poisson(const MeshPart& part, const Teuchos::Comm<int>& comm, std::vector<double> u) {
  Result res;
  pipeline::count_part(part, comm, res);
  res.u = std::move(u);
  compute_errors(part.local, comm, res);
  return res;
}

}  // namespace fem
