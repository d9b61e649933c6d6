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
//   - the other route to a Tpetra matrix the issue asked to measure:
//     deal.II's own Epetra assembly, then a bulk copy of the Epetra matrix
//     into Tpetra (with Dapetra's LocalCsrRows), against assembling into
//     Tpetra directly;
//   - the solve, set-up included: Belos CG + MueLu on views of deal.II's
//     vectors against step-40's AztecOO CG + ML (PreconditionAMG), to the
//     same relative tolerance, with both iteration counts in the row.
//
//   mpirun -n 2 dapetra-bench-dealii --out build/bench/results.json [--quick] [--check]
#include <deal.II/base/mpi.h>

#include <Epetra_CrsMatrix.h>
#include <Epetra_Map.h>
#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_Vector.hpp>
#include <cmath>
#include <string>

#include "bench_util.hpp"
#include "dapetra/dealii/vector.hpp"
#include "dapetra/mpi/distributed_layout.hpp"
#include "dapetra/mpi/halo.hpp"
#include "dapetra/tpetra/tpetra.hpp"
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

void halo_rows(Report& report, const step40::Laplace<2>& problem, const std::string& size, MPI_Comm comm, int reps) {
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
bool same_system(const step40::Laplace<2>& problem, const dapetra::dealii::TpetraSparseMatrix& ours, const step40::Vector& rhs,
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

// The bulk route: an assembled Epetra matrix (deal.II's TrilinosWrappers)
// copied into Tpetra, as a user would write it with Dapetra: its rows with
// local columns, Epetra's column numbering mapped to owned-first order.
Teuchos::RCP<tpetra::CrsMatrix> epetra_to_tpetra_copy(const Epetra_CrsMatrix& a, const tpetra::TpetraLayout& rows) {
  const Epetra_Map& columns = a.ColMap();
  const long long first = a.RowMap().MinMyGID64();
  const int owned = a.NumMyRows();
  LocalCsrRows out;
  out.owned_columns = static_cast<std::size_t>(owned);
  out.first_row = first;
  std::vector<local_index_t> place(static_cast<std::size_t>(columns.NumMyElements()));
  for (int c = 0; c < columns.NumMyElements(); ++c) {
    const long long g = columns.GID64(c);
    if (g >= first && g < first + owned) {
      place[static_cast<std::size_t>(c)] = static_cast<local_index_t>(g - first);
    } else {
      place[static_cast<std::size_t>(c)] = static_cast<local_index_t>(owned + static_cast<int>(out.ghost_columns.size()));
      out.ghost_columns.push_back(g);
    }
  }
  out.row_offsets.reserve(static_cast<std::size_t>(owned) + 1);
  out.columns.reserve(static_cast<std::size_t>(a.NumMyNonzeros()));
  out.values.reserve(static_cast<std::size_t>(a.NumMyNonzeros()));
  for (int r = 0; r < owned; ++r) {
    int n = 0;
    double* values = nullptr;
    int* indices = nullptr;
    a.ExtractMyRowView(r, n, values, indices);
    for (int k = 0; k < n; ++k) out.columns.push_back(place[static_cast<std::size_t>(indices[k])]);
    out.values.insert(out.values.end(), values, values + n);
    out.row_offsets.push_back(static_cast<global_index_t>(out.columns.size()));
  }
  return tpetra::crs_matrix_copy(rows, out.view());
}

// Both matrices times x(g) = cos(g), at every owned row, to rounding.
bool same_products(const tpetra::CrsMatrix& a, const tpetra::CrsMatrix& b, MPI_Comm comm) {
  Tpetra::Vector<double, tpetra::LO, tpetra::GO, tpetra::Node> x(a.getDomainMap()), ya(a.getRangeMap()), yb(b.getRangeMap());
  {
    auto v = x.getLocalViewHost(Tpetra::Access::OverwriteAll);
    for (std::size_t i = 0; i < v.extent(0); ++i) v(i, 0) = std::cos(static_cast<double>(a.getDomainMap()->getGlobalElement(static_cast<tpetra::LO>(i))));
  }
  a.apply(x, ya);
  b.apply(x, yb);
  const auto va = ya.getLocalViewHost(Tpetra::Access::ReadOnly), vb = yb.getLocalViewHost(Tpetra::Access::ReadOnly);
  const double scale = a.getFrobeniusNorm();
  bool same = va.extent(0) == vb.extent(0);
  for (std::size_t i = 0; same && i < va.extent(0); ++i) same = std::abs(va(i, 0) - vb(i, 0)) <= 1e-12 * scale;
  return bench::all_ranks(same, comm);
}

void system_rows(Report& report, const step40::Laplace<2>& problem, const std::string& size, MPI_Comm comm, int reps) {
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

  // The same Tpetra matrix the other way: deal.II's Epetra assembly, then a bulk copy.
  step40::Vector owned_vector(problem.owned(), comm);
  const DistArray rows_array = dapetra::dealii::vector_as_distarray(owned_vector);
  tpetra::TpetraLayoutOptions options;
  options.distribution.ownership = dapetra::dealii::owners_of(owned_vector);
  const auto rows = tpetra::TpetraLayout::create(rows_array, Teuchos::rcp(new Teuchos::MpiComm<int>(comm)), options);
  Teuchos::RCP<tpetra::CrsMatrix> copied;
  t = bench::paired_median_seconds(comm, reps, [&] { problem.assemble(ours, rhs); },
                                   [&] {
                                     problem.assemble(theirs.matrix, theirs.rhs);
                                     copied = epetra_to_tpetra_copy(theirs.matrix.trilinos_matrix(), *rows);
                                   },
                                   [&] { ours = 0; rhs = 0; }, [&] { theirs.matrix = 0; theirs.rhs = 0; });
  Row bulk{"dealii step-40 Tpetra matrix: direct vs Epetra + bulk copy Q2 " + size, t.ours,
           "deal.II's Epetra assembly (TrilinosWrappers), then its rows copied into Tpetra in bulk", t.baseline, 1.0};
  bulk.same_result = same_products(*ours.tpetra_matrix(), *copied, comm);
  report.add(bulk);

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
  step40::Laplace<2> problem(step40::Shape{quick ? 6u : 8u});
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
