// dapetra-fem: the finite-element pipeline (scripts/demo runs it).
//   dapetra-fem [--n N] [--lshape | --3d | --mesh FILE] [--refine-study] [--out DIR] [--tol T]
//               [--prec MueLu|RELAXATION|...] [--petsc]
// Solves -div(grad u) = f (manufactured u = prod sin(pi x_d)) with P1
// triangles or tetrahedra, partitioned by recursive coordinate bisection,
// through DAP and Tpetra (Belos CG + MueLu), with --petsc also through PETSc
// KSP (CG + GAMG) on the same arrays. Prints each phase as it finishes, the
// errors, and where its files are (parallel VTU; PNGs in 2-D).
#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_Core.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/resource.h>
#include <memory>
#include <string>
#include <vector>

#include "dapetra/version.hpp"
#include "mesh.hpp"
#include "output.hpp"
#include "poisson.hpp"
#if FEM_WITH_PETSC
#include "petsc_solve.hpp"
#endif

namespace {

struct Options {
  int n = 96;
  double perturb = 0.2;  // interior nodes moved by up to this fraction of h
  bool lshape = false, cube = false, refine_study = false;
  std::string mesh_file, out = "build/fem", report;
  fem::SolveOptions solve;
};

const char* usage =
    "usage: dapetra-fem [--n N] [--lshape | --3d | --mesh FILE.msh|FILE] [--perturb P] [--refine-study] [--out DIR]\n"
    "                   [--tol T] [--prec MueLu|RELAXATION|ILUT|...] [--petsc] [--report FILE.json]\n";

fem::Mesh make_mesh(const Options& o, int n) {
  if (!o.mesh_file.empty()) return fem::read_mesh_file(o.mesh_file);
  if (o.cube) return fem::unit_cube(n, o.perturb);
  return o.lshape ? fem::l_shape(n, o.perturb) : fem::unit_square(n, o.perturb);
}

std::string describe(const Options& o) {
  if (!o.mesh_file.empty()) return o.mesh_file;
  return o.cube ? "perturbed unit cube" : o.lshape ? "perturbed L-shape" : "perturbed unit square";
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Runs `step` on every process; if it throws on any, every process learns it
// (one reduction) and rank 0 prints the first message: no process goes on
// into a collective the others will never reach.
template <class Step>
bool agreed(const Teuchos::Comm<int>& comm, Step&& step) {
  std::string error;
  try {
    step();
  } catch (const std::exception& e) {
    error = e.what();
  }
  const int mine = error.empty() ? comm.getSize() : comm.getRank();
  int first = 0;
  Teuchos::reduceAll<int, int>(comm, Teuchos::REDUCE_MIN, 1, &mine, &first);
  if (first == comm.getSize()) return true;
  if (comm.getRank() == first) std::fprintf(stderr, "dapetra-fem: %s\n", error.c_str());
  return false;
}

// The largest peak resident set size over the processes, in MB. Collective.
double peak_resident_mb(const Teuchos::Comm<int>& comm) {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  const double mine = static_cast<double>(usage.ru_maxrss) / 1024.0;  // ru_maxrss is in KB on Linux
  double out = 0;
  Teuchos::reduceAll<int, double>(comm, Teuchos::REDUCE_MAX, 1, &mine, &out);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  Tpetra::ScopeGuard scope(&argc, &argv);
  const auto comm = Tpetra::getDefaultComm();
  const int rank = comm->getRank(), nprocs = comm->getSize();
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--n") o.n = std::stoi(next());
    else if (a == "--lshape") o.lshape = true;
    else if (a == "--3d") o.cube = true;
    else if (a == "--mesh") o.mesh_file = next();
    else if (a == "--refine-study") o.refine_study = true;
    else if (a == "--perturb") o.perturb = std::stod(next());
    else if (a == "--report") o.report = next();
    else if (a == "--out") o.out = next();
    else if (a == "--tol") o.solve.tolerance = std::stod(next());
    else if (a == "--prec") o.solve.preconditioner = next();
    else if (a == "--petsc") o.solve.petsc = true;
    else if (a == "--help" || a == "-h") {
      if (rank == 0) std::printf("%s", usage);
      return 0;
    } else {
      if (rank == 0) std::fprintf(stderr, "dapetra-fem: unknown option %s\n%s", a.c_str(), usage);
      return 1;
    }
  }
  const auto say = [&](const char* fmt, auto... args) {
    if (rank == 0) {
      std::printf(fmt, args...);
      std::fflush(stdout);  // a long run shows its progress
    }
  };
  if (o.solve.petsc && !fem::petsc_available()) {
    if (rank == 0) std::fprintf(stderr, "dapetra-fem: --petsc needs a build with Dapetra's PETSc adapter (petsc-dev)\n");
    return 1;
  }
#if FEM_WITH_PETSC
  // PETSc lives inside MPI's lifetime: finalised before the scope guard.
  std::unique_ptr<fem::PetscSession> petsc_session;
  if (o.solve.petsc) petsc_session = std::make_unique<fem::PetscSession>();
#endif
  o.solve.progress = [&](const std::string& line) { say("%s\n", line.c_str()); };
  say("Dapetra %s finite-element pipeline: -div(grad u) = f, P1 elements, %d MPI processes\n", DAPETRA_VERSION_STRING,
      nprocs);

  std::vector<int> sizes{o.n};
  if (o.refine_study) sizes = o.cube ? std::vector<int>{4, 8, 12, 16, 24} : std::vector<int>{8, 16, 32, 64, 128};
  std::vector<double> hs, l2s, h1s;
  std::vector<int> iterations;
  fem::Result last;
  fem::Mesh last_mesh;
  std::vector<int> last_part;
  double mesh_seconds = 0, partition_seconds = 0;
  for (int n : sizes) {
    fem::Mesh mesh;
    std::vector<int> part;
    auto t0 = std::chrono::steady_clock::now();
    if (!agreed(*comm, [&] { mesh = make_mesh(o, n); })) return 1;
    mesh_seconds = seconds_since(t0);
    const char* cell_word = mesh.dim == 2 ? "triangles" : "tetrahedra";
    const double h = fem::mesh_size(mesh);
    say("\nmesh: %zu nodes, %zu %s, h = %.4f (%s), %.2f s\n", mesh.num_nodes(), mesh.num_cells(), cell_word, h,
        describe(o).c_str(), seconds_since(t0));
    t0 = std::chrono::steady_clock::now();
    if (!agreed(*comm, [&] {
          part = fem::rcb_partition(mesh, nprocs);
          mesh = fem::number_by_owner(mesh, part);  // each rank's owned nodes consecutive
        }))
      return 1;
    partition_seconds = seconds_since(t0);
    say("partition: recursive coordinate bisection, nodes numbered by owner, %.2f s\n", partition_seconds);
    const fem::Result r = fem::solve_poisson(mesh, part, comm, o.solve);
    say("balance: %.0f %s per rank at most, %.1f on average (%.3f); %zu shared nodes (owned by the lowest rank)\n",
        r.max_cells_per_rank, cell_word, r.mean_cells_per_rank, r.max_cells_per_rank / r.mean_cells_per_rank,
        r.shared_nodes);
    say("errors: L2 %.4e, H1 %.4e\n", r.l2_error, r.h1_error);
    hs.push_back(h);
    l2s.push_back(r.l2_error);
    h1s.push_back(r.h1_error);
    iterations.push_back(r.belos.iterations);
    last = r;
    last_mesh = std::move(mesh);
    last_part = std::move(part);
  }

  // Parallel VTU: each process writes its piece; rank 0 the index.
  const auto dir = std::filesystem::absolute(o.out);
  const std::string pvtu = (dir / "solution.pvtu").string();
  const std::string png_u = (dir / "solution.png").string(), png_p = (dir / "partition.png").string();
  const auto t_out = std::chrono::steady_clock::now();
  const bool written = agreed(*comm, [&] {
    std::filesystem::create_directories(dir);
    std::vector<int> owners;
    for (auto v : last.nodes) owners.push_back(last.node_owner[static_cast<std::size_t>(v)]);
    fem::write_vtu_piece((dir / ("solution_p" + std::to_string(rank) + ".vtu")).string(), last_mesh, last.cells, last.nodes,
                         last.u, owners, rank);
    if (rank != 0) return;
    std::vector<std::string> pieces;
    for (int q = 0; q < nprocs; ++q) pieces.push_back("solution_p" + std::to_string(q) + ".vtu");
    fem::write_pvtu(pvtu, pieces);
    if (last_mesh.dim == 2) {
      fem::write_solution_png(png_u, last_mesh, last.u_global);
      fem::write_partition_png(png_p, last_mesh, last_part);
    }
  });
  if (!written) return 1;
  say("output: %.2f s\n", seconds_since(t_out));

  say("\nsummary\n");
  say("mesh: %zu nodes, %zu cells (%d-D) on %d ranks\n", last.num_nodes, last.num_cells, last_mesh.dim, nprocs);
  say("solver iterations: %d\n", last.belos.iterations);
  if (last.petsc) say("PETSc iterations: %d\n", last.petsc->iterations);
  say("L2 error: %.6e\n", last.l2_error);
  say("H1 error: %.6e\n", last.h1_error);
  if (o.refine_study && sizes.size() > 1) {
    const std::size_t k = sizes.size() - 1;
    say("L2 order: %.3f\n", std::log(l2s[k - 1] / l2s[k]) / std::log(hs[k - 1] / hs[k]));
    say("H1 order: %.3f\n", std::log(h1s[k - 1] / h1s[k]) / std::log(hs[k - 1] / hs[k]));
    say("iterations per level:");
    for (int its : iterations) say(" %d", its);
    say("\n");
  }
  say("VTU (ParaView): %s (%d pieces)\n", pvtu.c_str(), nprocs);
  if (last_mesh.dim == 2) {
    say("PNG (solution): %s\n", png_u.c_str());
    say("PNG (partition): %s\n", png_p.c_str());
  }
  if (!o.report.empty()) {
    const double peak = peak_resident_mb(*comm);
    if (rank == 0) {
      std::ofstream json(o.report);
      json << "{\"nodes\": " << last.num_nodes << ", \"cells\": " << last.num_cells << ", \"dim\": " << last_mesh.dim
           << ", \"processes\": " << nprocs << ", \"mesh_s\": " << mesh_seconds << ", \"partition_s\": " << partition_seconds
           << ", \"assembly_s\": " << last.assembly_seconds << ", \"solve_s\": " << last.belos.seconds
           << ", \"iterations\": " << last.belos.iterations << ", \"relative_residual\": " << last.belos.relative_residual
           << ", \"l2_error\": " << last.l2_error << ", \"h1_error\": " << last.h1_error << ", \"peak_rss_mb\": " << peak
           << "}\n";
    }
  }
  const bool solved = last.belos.relative_residual <= 10 * o.solve.tolerance &&
                      (!last.petsc || last.petsc->relative_residual <= 10 * o.solve.tolerance);
  return solved ? 0 : 1;
}
