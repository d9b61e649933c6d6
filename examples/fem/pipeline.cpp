#include "pipeline.hpp"

#include <Teuchos_CommHelpers.hpp>
#include <Teuchos_ParameterList.hpp>
#include <Teuchos_XMLParameterListHelpers.hpp>
#include <algorithm>
#include <cmath>
#include <array>
#include <cstdlib>

#include "dapetra/tpetra/solver.hpp"
#include "dapetra/tpetra/tpetra.hpp"

namespace fem::pipeline {

void count_part(const MeshPart& part, const Teuchos::Comm<int>& comm, Result& res) {
  const Mesh& mesh = part.local;
  res.num_nodes = static_cast<std::size_t>(part.num_nodes);
  res.num_cells = static_cast<std::size_t>(part.num_cells);
  res.nodes = part.nodes;
  res.num_owned = part.num_owned;
  double constrained = 0;  // owned boundary nodes
  for (std::size_t v = 0; v < part.num_owned; ++v) constrained += mesh.boundary[v] ? 1 : 0;
  const double counts[3] = {static_cast<double>(mesh.num_cells()), static_cast<double>(part.nodes.size() - part.num_owned),
                            constrained};
  double most = 0, sums[3] = {0, 0, 0};
  Teuchos::reduceAll<int, double>(comm, Teuchos::REDUCE_MAX, 1, counts, &most);
  Teuchos::reduceAll<int, double>(comm, Teuchos::REDUCE_SUM, 3, counts, sums);
  res.max_cells_per_rank = most;
  res.mean_cells_per_rank = sums[0] / comm.getSize();
  res.ghost_copies = static_cast<std::size_t>(sums[1]);
  res.dirichlet_nodes = static_cast<std::size_t>(sums[2]);
}

std::vector<dapetra::local_index_t> cell_corners(const Mesh& mesh) {
  const auto corners = static_cast<std::size_t>(mesh.corners());
  std::vector<dapetra::local_index_t> cells(mesh.num_cells() * corners);
  for (std::size_t c = 0; c < mesh.num_cells(); ++c)
    for (std::size_t k = 0; k < corners; ++k) cells[c * corners + k] = static_cast<dapetra::local_index_t>(mesh.cells[c][k]);
  return cells;
}

namespace {

// ||A||_F and f's owned 2-norm. Collective.
std::array<double, 2> norms_of(dapetra::tpetra::FEMatrix& a, const dapetra::tpetra::TpetraLayout& layout, const dapetra::DistArray& f) {
  return {static_cast<double>(a.matrix()->getFrobeniusNorm()),
          static_cast<double>(dapetra::tpetra::owned_view<double>(layout, f)->getVector(0)->norm2())};
}

}  // namespace

void assemble_and_reassemble(const std::function<void()>& assemble, dapetra::tpetra::FEMatrix& a,
                             const dapetra::tpetra::TpetraLayout& layout, const dapetra::DistArray& f, Clock::time_point t_assembly,
                             const SolveOptions& options, Result& res) {
  assemble();
  res.assembly_seconds = seconds_since(t_assembly);
  res.assembled_norms = res.reassembled_norms = norms_of(a, layout, f);
  res.matrix_entries = static_cast<std::size_t>(a.matrix()->getGlobalNumEntries());
  for (int k = 0; k < options.reassemblies; ++k) {
    const auto t_again = Clock::now();
    assemble();
    const double seconds = seconds_since(t_again);
    res.reassembly_seconds = k == 0 ? seconds : std::min(res.reassembly_seconds, seconds);
  }
  if (options.reassemblies > 0) res.reassembled_norms = norms_of(a, layout, f);
  report(options, "assembly: %.3f s (structure %.3f s: Dapetra FEGraph, %d unknown(s) per node; values: Eigen element kernels, "
         "Dapetra FEMatrix for A, HaloPlan::assemble for f)", res.assembly_seconds, res.structure_seconds, a.graph().block_size());
  if (options.reassemblies > 0)
    report(options, "re-assembly into the same matrix: %.3f s (fastest of %d)", res.reassembly_seconds, options.reassemblies);
}

void set_errors(std::size_t cells, const std::function<std::array<double, 2>(std::size_t)>& cell_errors,
                const Teuchos::Comm<int>& comm, Result& res) {
  double sums[2] = {0, 0}, total[2] = {0, 0};
  for (std::size_t c = 0; c < cells; ++c) {
    const std::array<double, 2> e = cell_errors(c);
    sums[0] += e[0];
    sums[1] += e[1];
  }
  Teuchos::reduceAll<int, double>(comm, Teuchos::REDUCE_SUM, 2, sums, total);
  res.l2_error = std::sqrt(total[0]);
  res.h1_error = std::sqrt(total[1]);
}

std::string solver_name(const SolveOptions& options) {
  return "Belos CG + " + (options.preconditioner == "MueLu" ? std::string("MueLu SA") : "Ifpack2 " + options.preconditioner);
}

SolverRun solve_with_belos(const Teuchos::RCP<dapetra::tpetra::CrsMatrix>& a,
                           const Teuchos::RCP<dapetra::tpetra::MultiVector<double>>& x,
                           const Teuchos::RCP<dapetra::tpetra::MultiVector<double>>& b, const SolveOptions& options,
                           int dim, int equations_per_node,
                           const Teuchos::RCP<dapetra::tpetra::MultiVector<double>>& near_nullspace) {
  namespace tpetra = dapetra::tpetra;
  const auto t0 = Clock::now();
  tpetra::SolverOptions how;
  how.preconditioner = options.preconditioner;
  how.tolerance = options.tolerance;
  how.max_iterations = options.max_iterations;
  how.equations_per_node = equations_per_node;
  how.near_nullspace = near_nullspace;
  // P1 tetrahedra: MueLu keeps every coupling. The library's default drops
  // those under 5 %, which second-order elements need; in 3-D it removes
  // the weak corner couplings and the set-up gets dearer. 2 processes,
  // 2026-11-27, CG to 1e-10: Laplace 3-D (10^6 nodes) 1.18 s against 1.93
  // s, elasticity 3-D (9.9e5 unknowns) 6.6 s against 8.6 s (9.8e4: 0.65 s
  // against 0.62 s). In 2-D dropping stays: without it the iterations grow
  // under refinement (11 to 18 from 16 to 128 cells a side) for 8 % less
  // time at 10^6 nodes. docs/multifield.md, "Defaults that serve".
  if (how.preconditioner == "MueLu" && dim == 3) how.parameters.set("aggregation: drop tol", 0.0);
  if (const char* xml = std::getenv("FEM_MUELU_XML"); xml && how.preconditioner == "MueLu")
    Teuchos::updateParametersFromXmlFile(xml, Teuchos::inoutArg(how.parameters));
  const tpetra::SolveResult done = tpetra::solve(a, x, b, how);
  SolverRun run;
  run.iterations = done.iterations;
  run.seconds = seconds_since(t0);
  run.relative_residual = done.relative_residual;
  if (!done.converged && a->getComm()->getRank() == 0)
    std::fprintf(stderr, "warning: CG stopped after %d iterations without converging\n", run.iterations);
  return run;
}

}  // namespace fem::pipeline
