// deal.II through Dapetra against deal.II's own calls, on deal.II's step-40
// problem (Q2 on a p4est mesh, hanging nodes after one adaptive cycle),
// each row checked for the same result after timing:
//   - a halo update on a deal.II vector's memory (mpi::HaloPlan::update)
//     against its update_ghost_values(), and reverse assembly
//     (HaloPlan::assemble) against compress(VectorOperation::add);
//   - step-40's assembly loop into TpetraSparseMatrix against the same loop
//     into deal.II's TrilinosWrappers::SparseMatrix (deal.II's own vector
//     for our right-hand side, its Trilinos vector for theirs), into an
//     existing structure as in every later time or Newton step;
//   - the solve, set-up included: Belos CG + MueLu on views of deal.II's
//     vectors against step-40's AztecOO CG + ML (PreconditionAMG), to the
//     same relative tolerance, with both iteration counts in the row.
//
//   mpirun -n 2 dapetra-bench-dealii --out build/bench/results.json [--quick] [--check]
#include <deal.II/base/mpi.h>

#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_Vector.hpp>
#include <cmath>
#include <string>

#include "bench_util.hpp"
#include "dapetra/dealii/vector.hpp"
#include "dapetra/mpi/distributed_layout.hpp"
#include "dapetra/mpi/halo.hpp"
#include "laplace.hpp"

namespace dl = ::dealii;
using namespace dapetra;
using bench::Report;
using bench::Row;

namespace {

// Owned entries `value` + their global index, ghosts `ghost`.
void fill(step40::Vector& v, double value, double ghost) {
  const auto& p = *v.get_partitioner();
  for (unsigned i = 0; i < p.locally_owned_size(); ++i) v.local_element(i) = value + p.local_to_global(i);
  for (unsigned k = 0; k < p.n_ghost_indices(); ++k) v.local_element(p.locally_owned_size() + k) = ghost + k;
}

bool same_owned(const step40::Vector& a, const step40::Vector& b, bool with_ghosts, MPI_Comm comm) {
  const auto& p = *a.get_partitioner();
  const unsigned n = p.locally_owned_size() + (with_ghosts ? p.n_ghost_indices() : 0);
  bool same = true;
  for (unsigned i = 0; i < n && same; ++i) same = a.local_element(i) == b.local_element(i);
  return bench::all_ranks(same, comm);
}

void halo_rows(Report& report, const step40::Laplace& problem, const std::string& size, MPI_Comm comm, int reps) {
  step40::Vector ours = problem.relevant_vector(), theirs = problem.relevant_vector();
  const DistArray a = dapetra::dealii::vector_as_distarray(ours);
  const auto plan = mpi::HaloPlan::create(mpi::DistributedLayout::create(a, comm, dapetra::dealii::owners_of(ours)));
  int step = 0;
  // New owned values before every update, as between two steps of an application (untimed).
  const auto rewrite = [&](step40::Vector& v) { return [&, p = &v] { fill(*p, ++step % 7, -1.0); }; };
  auto t = bench::paired_median_seconds(comm, reps, [&] { plan->update<double>(a); }, [&] { theirs.update_ghost_values(); },
                                        rewrite(ours), [&] { theirs.zero_out_ghost_values(); fill(theirs, ++step % 7, -1.0); });
  Row update{"dealii ghost update step-40 Q2 " + size, t.ours, "deal.II's Vector::update_ghost_values()", t.baseline, 1.0};
  update.extra["ghosts_per_rank"] = static_cast<double>(ours.get_partitioner()->n_ghost_indices());
  fill(ours, 0.5, -1.0);
  fill(theirs, 0.5, -1.0);
  plan->update<double>(a);
  theirs.update_ghost_values();
  update.same_result = same_owned(ours, theirs, true, comm);
  report.add(update);

  // Contributions in the ghosts before every assembly (untimed); deal.II's
  // compress also zeroes the ghosts afterwards, which the plan leaves to the caller.
  t = bench::paired_median_seconds(comm, reps, [&] { plan->assemble<double>(a); },
                                   [&] { theirs.compress(dl::VectorOperation::add); }, [&] { fill(ours, 1.0, 0.25); },
                                   [&] { fill(theirs, 1.0, 0.25); });
  Row assemble{"dealii compress(add) step-40 Q2 " + size, t.ours, "deal.II's Vector::compress(VectorOperation::add)", t.baseline, 1.0};
  fill(ours, 1.0, 0.25);
  fill(theirs, 1.0, 0.25);
  plan->assemble<double>(a);
  theirs.compress(dl::VectorOperation::add);
  assemble.same_result = same_owned(ours, theirs, false, comm);
  report.add(assemble);
}

// y = A x for x(g) = cos(g) on both matrices, agreeing to rounding; and both right-hand sides.
bool same_system(const step40::Laplace& problem, const dapetra::dealii::TpetraSparseMatrix& ours, const step40::Vector& rhs,
                 const step40::TrilinosSystem& theirs, MPI_Comm comm) {
  dl::TrilinosWrappers::MPI::Vector x(problem.owned(), comm), y(problem.owned(), comm);
  for (const auto g : problem.owned()) x(g) = std::cos(static_cast<double>(g));
  theirs.matrix.vmult(y, x);
  const auto m = ours.tpetra_matrix();
  Tpetra::Vector<double, tpetra::LO, tpetra::GO, tpetra::Node> xt(m->getDomainMap()), yt(m->getRangeMap());
  {
    auto v = xt.getLocalViewHost(Tpetra::Access::OverwriteAll);
    std::size_t i = 0;
    for (const auto g : problem.owned()) v(i++, 0) = x(g);
  }
  m->apply(xt, yt);
  const auto v = yt.getLocalViewHost(Tpetra::Access::ReadOnly);
  const double scale = theirs.matrix.linfty_norm();
  bool same = true;
  std::size_t i = 0;
  for (const auto g : problem.owned()) {
    same = same && std::abs(v(i++, 0) - y(g)) <= 1e-12 * scale;
    same = same && std::abs(rhs(g) - theirs.rhs(g)) <= 1e-12 * std::abs(theirs.rhs(g)) + 1e-300;
  }
  return bench::all_ranks(same, comm);
}

void system_rows(Report& report, const step40::Laplace& problem, const std::string& size, MPI_Comm comm, int reps) {
  dapetra::dealii::TpetraSparseMatrix ours(problem.owned(), problem.pattern(), comm);
  step40::Vector rhs = problem.relevant_vector(), solution = problem.relevant_vector();
  step40::TrilinosSystem theirs;
  problem.structure(theirs);
  // Into the existing structure, zeroed (untimed), as every later assembly is.
  auto t = bench::paired_median_seconds(comm, reps, [&] { problem.assemble(ours, rhs); }, [&] { problem.assemble(theirs.matrix, theirs.rhs); },
                                        [&] { ours = 0; rhs = 0; }, [&] { theirs.matrix = 0; theirs.rhs = 0; });
  Row assembly{"dealii step-40 assembly Q2 " + size, t.ours, "the same loop into deal.II's TrilinosWrappers::SparseMatrix (Epetra)",
               t.baseline, 1.0};
  assembly.same_result = same_system(problem, ours, rhs, theirs, comm);
  report.add(assembly);

  // The solve, preconditioner set-up included, to |r| <= 1e-10 |b| on both sides.
  step40::Solved mine, ml;
  step40::Vector ml_solution = problem.relevant_vector();
  t = bench::paired_median_seconds(comm, reps, [&] { mine = problem.solve_with_tpetra(ours, rhs, solution, 1e-10); },
                                   [&] { ml = problem.solve(theirs, ml_solution, 1e-10); });
  Row solve{"dealii step-40 solve MueLu vs ML Q2 " + size, t.ours,
            "step-40's AztecOO CG + ML (TrilinosWrappers::PreconditionAMG, deal.II's defaults)", t.baseline, 1.0};
  solve.extra["iterations"] = mine.iterations;
  solve.extra["baseline_iterations"] = ml.iterations;
  const double difference = step40::relative_difference(solution, ml_solution);
  solve.extra["solution_difference"] = difference;
  solve.same_result = difference <= 1e-6;
  report.add(solve);
}

}  // namespace

int main(int argc, char** argv) {
  const dl::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  bool quick = false, check = false;
  std::string out = "build/bench/results.json";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") quick = true;
    else if (a == "--check") check = true;
    else if (a == "--out" && i + 1 < argc) out = argv[++i];
  }
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  Report report(rank);
  report.header();
  // step-40's mesh after one adaptive cycle: 2^8 (quick 2^6) cells a side, then Kelly's refinement of a first solution.
  step40::Laplace problem(quick ? 6 : 8);
  problem.setup();
  {
    dapetra::dealii::TpetraSparseMatrix first(problem.owned(), problem.pattern(), comm);
    step40::Vector rhs = problem.relevant_vector(), solution = problem.relevant_vector();
    problem.assemble(first, rhs);
    problem.solve_with_tpetra(first, rhs, solution, 1e-10);
    problem.refine(solution);
  }
  problem.setup();
  const double dofs = static_cast<double>(problem.n_dofs());
  const std::string label = "N=" + std::to_string(static_cast<long>(std::round(dofs / 1e3))) + "e3 np=" + std::to_string(size);
  halo_rows(report, problem, label, comm, quick ? 5 : 15);
  system_rows(report, problem, label, comm, quick ? 3 : 5);
  nlohmann::ordered_json context;
  context["np"] = size;
  context["mode"] = quick ? "quick" : "full";
  context["dofs"] = dofs;
  report.write(out, context, true);
  if (check && !report.all_same()) {
    if (rank == 0) std::printf("check FAILED: a row marked WRONG produced a result different from its baseline's\n");
    return 1;
  }
  return 0;
}
