// dapetra-fem: the finite-element pipeline (scripts/demo runs it).
//   dapetra-fem [--n N] [--lshape] [--mesh FILE] [--refine-study] [--out DIR] [--tol T]
//               [--prec MueLu|RELAXATION|...] [--petsc]
// Solves -div(grad u) = f (manufactured u = sin(pi x) sin(pi y)) with P1
// triangles, partitioned by recursive coordinate bisection, through DAP and
// Tpetra (Belos CG + MueLu), with --petsc also through PETSc KSP (CG + GAMG)
// on the same arrays, and reports what it did, the errors, and where its
// pictures are.
#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_Core.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
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
  bool lshape = false, refine_study = false;
  std::string mesh_file, out = "build/fem";
  fem::SolveOptions solve;
};

fem::Mesh make_mesh(const Options& o, int n) {
  if (!o.mesh_file.empty()) return fem::read_mesh(o.mesh_file);
  return o.lshape ? fem::l_shape(n) : fem::unit_square(n);
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
    else if (a == "--mesh") o.mesh_file = next();
    else if (a == "--refine-study") o.refine_study = true;
    else if (a == "--out") o.out = next();
    else if (a == "--tol") o.solve.tolerance = std::stod(next());
    else if (a == "--prec") o.solve.preconditioner = next();
    else if (a == "--petsc") o.solve.petsc = true;
    else if (a == "--help" || a == "-h") {
      if (rank == 0)
        std::printf("usage: dapetra-fem [--n N] [--lshape] [--mesh FILE] [--refine-study] [--out DIR] [--tol T]\n"
                    "                   [--prec MueLu|RELAXATION|ILUT|...] [--petsc]\n");
      return 0;
    } else {
      if (rank == 0) std::fprintf(stderr, "dapetra-fem: unknown option %s\n", a.c_str());
      return 1;
    }
  }
  const auto say = [&](const char* fmt, auto... args) {
    if (rank == 0) std::printf(fmt, args...);
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
  say("Dapetra %s finite-element pipeline: -div(grad u) = f, P1 triangles, %d MPI processes\n", DAPETRA_VERSION_STRING,
      nprocs);

  std::vector<int> sizes{o.n};
  if (o.refine_study) sizes = {8, 16, 32, 64, 128};
  std::vector<double> hs, l2s, h1s;
  fem::Result last;
  fem::Mesh last_mesh;
  std::vector<int> last_part;
  for (int n : sizes) {
    const fem::Mesh read = make_mesh(o, n);
    const std::vector<int> part = fem::rcb_partition(read, nprocs);
    const fem::Mesh mesh = fem::number_by_owner(read, part);  // each rank's owned nodes consecutive
    const double h = fem::mesh_size(mesh);
    say("\nmesh: %zu nodes, %zu triangles, h = %.4f (%s)\n", mesh.num_nodes(), mesh.num_cells(), h,
        o.mesh_file.empty() ? (o.lshape ? "perturbed L-shape" : "perturbed unit square") : o.mesh_file.c_str());
    const fem::Result r = fem::solve_poisson(mesh, part, comm, o.solve);
    say("partition: recursive coordinate bisection, %.0f triangles per rank at most, %.1f on average (balance %.3f)\n",
        r.max_cells_per_rank, r.mean_cells_per_rank, r.max_cells_per_rank / r.mean_cells_per_rank);
    say("shared nodes: %zu (held by more than one rank; owned by the lowest, copies updated by Dapetra's HaloPlan)\n",
        r.shared_nodes);
    say("assembly: %.3f s (Eigen element kernels, HaloPlan::assemble for f, Tpetra Export ADD for A)\n",
        r.assembly_seconds);
    const std::string belos = "Belos CG + " + (o.solve.preconditioner == "MueLu" ? std::string("MueLu SA")
                                                                                   : "Ifpack2 " + o.solve.preconditioner);
    say("solve: %-26s %4d iterations, relative residual %.2e, %.3f s\n", (belos + ",").c_str(), r.belos.iterations,
        r.belos.relative_residual, r.belos.seconds);
    if (r.petsc)
      say("solve: %-26s %4d iterations, relative residual %.2e, %.3f s (same DAP arrays; max |u_petsc - u_belos| "
          "%.1e)\n",
          "PETSc KSP CG + GAMG,", r.petsc->iterations, r.petsc->relative_residual, r.petsc->seconds, r.petsc_difference);
    say("errors: L2 %.4e, H1 %.4e\n", r.l2_error, r.h1_error);
    hs.push_back(h);
    l2s.push_back(r.l2_error);
    h1s.push_back(r.h1_error);
    last = r;
    last_mesh = mesh;
    last_part = part;
  }

  const std::string vtu = std::filesystem::absolute(o.out + "/solution.vtu").string();
  const std::string png_u = std::filesystem::absolute(o.out + "/solution.png").string();
  const std::string png_p = std::filesystem::absolute(o.out + "/partition.png").string();
  if (rank == 0) {
    std::filesystem::create_directories(o.out);
    fem::write_vtu(vtu, last_mesh, last.u_global, last.node_owner, last_part);
    fem::write_solution_png(png_u, last_mesh, last.u_global);
    fem::write_partition_png(png_p, last_mesh, last_part);
  }
  say("\nsummary\n");
  say("mesh: %zu nodes, %zu triangles on %d ranks\n", last.num_nodes, last.num_cells, nprocs);
  say("solver iterations: %d\n", last.belos.iterations);
  if (last.petsc) say("PETSc iterations: %d\n", last.petsc->iterations);
  say("L2 error: %.6e\n", last.l2_error);
  say("H1 error: %.6e\n", last.h1_error);
  if (o.refine_study && sizes.size() > 1) {
    const std::size_t k = sizes.size() - 1;
    say("L2 order: %.3f\n", std::log(l2s[k - 1] / l2s[k]) / std::log(hs[k - 1] / hs[k]));
    say("H1 order: %.3f\n", std::log(h1s[k - 1] / h1s[k]) / std::log(hs[k - 1] / hs[k]));
  }
  say("VTU: %s\n", vtu.c_str());
  say("PNG (solution): %s\n", png_u.c_str());
  say("PNG (partition): %s\n", png_p.c_str());
  const bool solved = last.belos.relative_residual <= 10 * o.solve.tolerance &&
                      (!last.petsc || last.petsc->relative_residual <= 10 * o.solve.tolerance);
  return solved ? 0 : 1;
}
