// What the scalar (poisson.cpp) and the vector-valued (elasticity.cpp)
// pipelines share: the clock, progress lines, the part's balance, the cells
// as FEGraph takes them, and the Belos solve on views of DAP arrays.
#pragma once

#include <Teuchos_Comm.hpp>
#include <Teuchos_RCP.hpp>
#include <array>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "dapetra/dim.hpp"
#include "dapetra/distarray.hpp"
#include "dapetra/tpetra/fe_matrix.hpp"
#include "dapetra/tpetra/types.hpp"
#include "distribute.hpp"
#include "poisson.hpp"

namespace fem::pipeline {

using Clock = std::chrono::steady_clock;
inline double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// One progress line, when the caller asked for them.
template <class... Args>
void report(const SolveOptions& options, const char* format, Args... args) {
  if (!options.progress) return;
  char line[256];
  std::snprintf(line, sizeof line, format, args...);
  options.progress(line);
}

// The part's balance and its Dirichlet nodes, over every process. Collective.
void count_part(const MeshPart& part, const Teuchos::Comm<int>& comm, Result& res);

// Every cell's corners as positions in the nodal arrays, cell after cell.
std::vector<dapetra::local_index_t> cell_corners(const Mesh& mesh);

// `assemble` (the values of A and f) once, then options.reassemblies more
// times into the same matrix and vector (a time step, a Newton iteration):
// the times (from `t_assembly`, the structure's start), ||A||_F and f's
// owned 2-norm after the first and the last, and A's entries, into `res`;
// each printed as a progress line. Collective.
void assemble_and_reassemble(const std::function<void()>& assemble, dapetra::tpetra::FEMatrix& a,
                             const dapetra::tpetra::TpetraLayout& layout, const dapetra::DistArray& f, Clock::time_point t_assembly,
                             const SolveOptions& options, Result& res);

// Result's L2 and H1 errors: the square roots of `cell_errors(c)`'s squared
// errors summed over this process's `cells` and then every process's. Collective.
void set_errors(std::size_t cells, const std::function<std::array<double, 2>(std::size_t)>& cell_errors,
                const Teuchos::Comm<int>& comm, Result& res);

// "Belos CG + MueLu SA" or "Belos CG + Ifpack2 NAME", as options say.
std::string solver_name(const SolveOptions& options);

// Belos CG in place on x (views of DAP arrays' owned parts), preconditioned
// as options say (dapetra/tpetra/solver.hpp), with MueLu told the unknowns
// per node and given the near-nullspace when there is one; on a 3-D mesh
// (`dim`) MueLu keeps every coupling; FEM_MUELU_XML may override MueLu's
// parameters. Collective.
SolverRun solve_with_belos(const Teuchos::RCP<dapetra::tpetra::CrsMatrix>& a,
                           const Teuchos::RCP<dapetra::tpetra::MultiVector<double>>& x,
                           const Teuchos::RCP<dapetra::tpetra::MultiVector<double>>& b, const SolveOptions& options,
                           int dim, int equations_per_node = 1,
                           const Teuchos::RCP<dapetra::tpetra::MultiVector<double>>& near_nullspace = Teuchos::null);

}  // namespace fem::pipeline
