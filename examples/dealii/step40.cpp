// deal.II's tutorial step-40 through Dapetra: the Laplace problem on a p4est
// mesh refined adaptively, assembled by deal.II's own loop
// (AffineConstraints::distribute_local_to_global) straight into a Tpetra
// matrix (dapetra::dealii::TpetraSparseMatrix), and solved by Belos CG +
// MueLu in place on deal.II's own right-hand side and solution vectors (no
// copy); then deal.II's error estimator and output work on the result as in
// the tutorial. With --compare each cycle is also solved the tutorial's two
// ways, deal.II's Trilinos path (Epetra + ML) and its PETSc path (BoomerAMG),
// on the same mesh: iterations, times and how far the solutions are apart.
// --dim 3, --degree P and --uniform (every cell refined each cycle) pose the
// plain Laplace problems on which docs/multifield.md measures Dapetra's MueLu
// defaults against ML (Q1, 2-D and 3-D).
//
//   mpirun -n 2 dapetra-step40 [--initial 5] [--cycles 4] [--dim 2] [--degree 2] [--uniform] [--compare] [--tol 1e-10] [--out DIR] [--report FILE.json]
//
// Exit status 1 when, with --compare, a solution differs from deal.II's own
// by more than 1e-6 of its size, or a solve does not converge.
#include <deal.II/base/mpi.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "laplace.hpp"

namespace {

struct Options {
  step40::Shape shape;
  int dim = 2;
  unsigned cycles = 4;
  bool compare = false;
  double tolerance = 1e-10;
  std::string out, report;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool value = i + 1 < argc;
    if (a == "--initial" && value) o.shape.initial = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (a == "--degree" && value) o.shape.degree = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (a == "--uniform") o.shape.uniform = true;
    else if (a == "--dim" && value && (argv[i + 1] == std::string("2") || argv[i + 1] == std::string("3"))) o.dim = std::stoi(argv[++i]);
    else if (a == "--cycles" && value) o.cycles = static_cast<unsigned>(std::stoul(argv[++i]));
    else if (a == "--tol" && value) o.tolerance = std::stod(argv[++i]);
    else if (a == "--out" && value) o.out = argv[++i];
    else if (a == "--report" && value) o.report = argv[++i];
    else if (a == "--compare") o.compare = true;
    else throw std::invalid_argument("usage: dapetra-step40 [--initial N] [--cycles K] [--dim 2|3] [--degree P] [--uniform] [--compare] [--tol T] [--out DIR] [--report FILE.json]");
  }
  return o;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// deal.II's own path `name` on the same mesh: its structure, assembly and
// solve, timed, and how far its solution lies from ours.
template <int dim, class System>
void compare(const step40::Laplace<dim>& problem, System& system, const char* name, const step40::Vector& ours, double tolerance,
             bool root, nlohmann::json& row, bool& agree) {
  auto t0 = std::chrono::steady_clock::now();
  problem.structure(system);
  const double structure = seconds_since(t0);
  t0 = std::chrono::steady_clock::now();
  problem.assemble(system.matrix, system.rhs);
  const double assembly = seconds_since(t0);
  step40::Vector theirs = problem.relevant_vector();
  const step40::Solved solved = problem.solve(system, theirs, tolerance);
  const double difference = step40::relative_difference(ours, theirs);
  agree = agree && difference <= 1e-6 && solved.iterations > 0;
  row[name] = {{"structure_s", structure}, {"assembly_s", assembly}, {"solve_s", solved.seconds},
               {"iterations", solved.iterations}, {"difference", difference}};
  if (root)
    std::printf("  deal.II's %s path: structure %.3f s, assembly %.3f s, %d iterations in %.3f s; max |u - u_%s| / max |u_%s| = %.2e\n",
                name, structure, assembly, solved.iterations, solved.seconds, name, name, difference);
}

// One cycle: Dapetra's path, and with `compare` deal.II's two; returns whether they agree.
template <int dim>
bool run_cycle(step40::Laplace<dim>& problem, const Options& o, unsigned cycle, bool root, nlohmann::json& report) {
  problem.setup();
  auto t0 = std::chrono::steady_clock::now();
  dapetra::dealii::TpetraSparseMatrix matrix(problem.owned(), problem.pattern(), MPI_COMM_WORLD);
  const double structure = seconds_since(t0);
  step40::Vector rhs = problem.relevant_vector(), solution = problem.relevant_vector();
  t0 = std::chrono::steady_clock::now();
  problem.assemble(matrix, rhs);
  const double assembly = seconds_since(t0);
  const step40::Solved ours = problem.solve_with_tpetra(matrix, rhs, solution, o.tolerance);
  nlohmann::json row = {{"cycle", cycle}, {"dofs", problem.n_dofs()}, {"structure_s", structure}, {"assembly_s", assembly},
                        {"solve_s", ours.seconds}, {"iterations", ours.iterations}};
  if (root)
    std::printf("cycle %u: %u dofs; Tpetra: structure %.3f s, assembly %.3f s, Belos CG + MueLu %d iterations in %.3f s\n",
                cycle, static_cast<unsigned>(problem.n_dofs()), structure, assembly, ours.iterations, ours.seconds);
  bool agree = ours.iterations > 0;
  if (o.compare) {
    // The tutorial's two paths, each its own structure, assembly and solve.
    step40::TrilinosSystem trilinos;
    step40::PetscSystem petsc;
    compare(problem, trilinos, "trilinos", solution, o.tolerance, root, row, agree);
    compare(problem, petsc, "petsc", solution, o.tolerance, root, row, agree);
  }
  report.push_back(row);
  if (!o.out.empty()) problem.write(solution, o.out, cycle);
  // Kelly's estimator on the Tpetra solution (ghosts updated), or every cell with --uniform.
  if (cycle + 1 < o.cycles) problem.refine(solution);
  return agree;
}

// Every cycle in `dim` dimensions; returns whether every cycle agreed.
template <int dim>
bool run(const Options& o, bool root) {
  step40::Laplace<dim> problem(o.shape);
  nlohmann::json report = nlohmann::json::array();
  bool agree = true;
  for (unsigned cycle = 0; cycle < o.cycles; ++cycle) agree = run_cycle(problem, o, cycle, root, report) && agree;
  if (root && !o.report.empty()) std::ofstream(o.report) << report.dump(1) << "\n";
  return agree;
}

}  // namespace

int main(int argc, char** argv) {
  const dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  const bool root = dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD) == 0;
  try {
    const Options o = parse(argc, argv);
    const bool agree = o.dim == 3 ? run<3>(o, root) : run<2>(o, root);
    if (root && !agree) std::printf("FAILED: a solution differs from deal.II's own, or a solve did not converge\n");
    return agree ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dapetra-step40: %s\n", e.what());
    return 2;
  }
}
