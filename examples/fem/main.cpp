// dapetra-fem: the finite-element pipeline (scripts/demo runs it).
//   dapetra-fem [--n N] [--lshape | --3d | --mesh FILE] [--elasticity] [--refine-study] [--out DIR] [--tol T]
//               [--prec MueLu|RELAXATION|...] [--petsc] [--reassemble K] [--report FILE.json]
//               [--diagonals alike|alternating] [--nodal-values PREFIX] [--checkpoint FILE.h5 | --restart FILE.h5]
// Solves -div(grad u) = f (manufactured u = prod sin(pi x_d)) with P1
// triangles or tetrahedra; with --elasticity, linear elasticity for a
// displacement per node (elasticity.hpp: clamped boundary, body force,
// manufactured displacement, MueLu with the rigid-body modes). Generated meshes are made in parallel, each
// process its own block; a file is read on rank 0. Zoltan2 partitions the
// cells, Dapetra moves them to their parts (distribute.hpp), and no process
// holds the whole mesh from then on. Solved through DAP and Tpetra (Belos CG
// + MueLu), with --petsc also through PETSc KSP (CG + GAMG) on the same
// arrays. Prints each phase as it finishes, the errors, and where its files
// are (parallel VTU; PNGs in 2-D, drawn by every process for its part).
// --checkpoint writes the mesh and the solution to one parallel HDF5 file
// (checkpoint.hpp); --restart reads them on any number of processes,
// partitions the mesh anew, and reports the solution's errors there.
#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_Core.hpp>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <memory>
#include <optional>
#include <stdexcept>
#include <sys/resource.h>
#include <string>
#include <utility>
#include <vector>

#include "dapetra/mpi/agree.hpp"
#include "dapetra/version.hpp"
#include "distribute.hpp"
#include "mesh.hpp"
#include "output.hpp"
#include "elasticity.hpp"
#include "poisson.hpp"
#if FEM_WITH_HDF5
#include "checkpoint.hpp"
#endif
#if FEM_WITH_PETSC
#include "petsc_solve.hpp"
#endif

namespace {

struct Options {
  int n = 96;
  double perturb = 0.2;  // interior nodes moved by up to this fraction of h
  bool lshape = false, cube = false, refine_study = false, alike_diagonals = false, elasticity = false;
  std::string mesh_file, out = "build/fem", report, nodal_values, checkpoint, restart;
  fem::SolveOptions solve;
};

const char* usage =
    "usage: dapetra-fem [--n N] [--lshape | --3d | --mesh FILE.msh|FILE] [--elasticity] [--perturb P] [--refine-study] [--out DIR]\n"
    "                   [--tol T] [--prec MueLu|RELAXATION|ILUT|...] [--petsc] [--reassemble K] [--report FILE.json]\n"
    "                   [--diagonals alike|alternating] [--nodal-values PREFIX] [--checkpoint FILE.h5 | --restart FILE.h5]\n";

// This process's block of the mesh. Collective.
fem::MeshBlock make_block(const Options& o, int n, int rank, int nprocs) {
#if FEM_WITH_HDF5
  if (!o.restart.empty()) return fem::read_checkpoint_block(o.restart, MPI_COMM_WORLD);
#endif
  if (!o.mesh_file.empty()) return fem::read_mesh_block(o.mesh_file, MPI_COMM_WORLD);
  const auto shape = o.cube ? fem::MeshSpec::cube : o.lshape ? fem::MeshSpec::l_shape : fem::MeshSpec::square;
  return fem::generate_block({shape, n, o.perturb, o.alike_diagonals}, rank, nprocs);
}

std::string describe(const Options& o) {
  if (!o.restart.empty()) return "from the checkpoint " + o.restart;
  if (!o.mesh_file.empty()) return o.mesh_file;
  return o.cube ? "perturbed unit cube" : o.lshape ? "perturbed L-shape" : "perturbed unit square";
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Runs `step` on every process; if it throws on any, every process learns
// it (mpi::agree_on) and rank 0 prints the lowest faulty rank's problem: no
// process goes on into a collective the others will never reach.
template <class Step>
bool agreed(MPI_Comm comm, Step&& step) {
  try {
    dapetra::mpi::agree_on(comm, std::forward<Step>(step));
    return true;
  } catch (const dapetra::ValidationError& e) {
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (rank == 0) std::fprintf(stderr, "dapetra-fem: %s\n", e.problems().front().to_string().c_str());
    return false;
  }
}

// The largest of every process's `values`, elementwise. Collective.
template <std::size_t N>
std::array<double, N> largest(const Teuchos::Comm<int>& comm, std::array<double, N> values) {
  std::array<double, N> out{};
  Teuchos::reduceAll<int, double>(comm, Teuchos::REDUCE_MAX, static_cast<int>(N), values.data(), out.data());
  return out;
}
double largest(const Teuchos::Comm<int>& comm, double value) { return largest<1>(comm, {value})[0]; }

// The processes' pictures combined on rank 0 (see output.hpp). Collective.
fem::Pixels combined(const fem::Pixels& mine) {
  fem::Pixels out(mine.size(), 0);
  MPI_Reduce(mine.data(), out.data(), static_cast<int>(mine.size()), MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
  return out;
}

// What the solution PNG draws: a scalar solution on the part's mesh; a
// displacement as the deformed mesh (largest displacement a tenth of the
// mesh's width), coloured by the displacement's length. Collective.
std::pair<fem::Mesh, std::vector<double>> what_to_draw(const fem::MeshPart& part, const fem::Result& r, const Teuchos::Comm<int>& comm) {
  fem::Mesh drawn = part.local;
  if (r.components == 1) return {drawn, r.u};
  std::vector<double> length(drawn.num_nodes(), 0.0);
  std::array<double, 3> m{0, 0, 0};  // the mesh's width (x, y), the largest displacement
  for (std::size_t v = 0; v < drawn.num_nodes(); ++v) {
    length[v] = std::hypot(r.u[2 * v], r.u[2 * v + 1]);
    m[0] = std::max(m[0], std::abs(drawn.x[v][0])), m[1] = std::max(m[1], std::abs(drawn.x[v][1])), m[2] = std::max(m[2], length[v]);
  }
  m = largest(comm, m);
  const double scale = m[2] > 0 ? 0.1 * std::max(m[0], m[1]) / m[2] : 0.0;
  for (std::size_t v = 0; v < drawn.num_nodes(); ++v)
    for (std::size_t d = 0; d < 2; ++d) drawn.x[v][d] += scale * r.u[2 * v + d];
  return {drawn, length};
}

// The solution (what_to_draw) and partition PNGs of a 2-D part, drawn by
// every process for its own cells. Collective; rank 0 writes the files.
void write_pngs(const fem::MeshPart& part, const fem::Result& r, const std::string& caption, const std::string& png_u,
                const std::string& png_p, const Teuchos::Comm<int>& comm) {
  const auto [drawn, value] = what_to_draw(part, r, comm);
  // One reduction for the bounding box and the values' range: maxima of
  // (-x_min, -y_min, x_max, y_max, -u_min, u_max).
  std::array<double, 6> m{-1e300, -1e300, -1e300, -1e300, -1e300, -1e300};
  for (const auto& p : drawn.x)
    for (std::size_t d = 0; d < 2; ++d) m[d] = std::max(m[d], -p[d]), m[d + 2] = std::max(m[d + 2], p[d]);
  for (double v : value) m[4] = std::max(m[4], -v), m[5] = std::max(m[5], v);
  m = largest(comm, m);
  const double u_lo = -m[4], u_hi = m[5];
  const fem::Frame frame = fem::frame_of({-m[0], -m[1]}, {m[2], m[3]});
  const fem::Pixels solution = combined(fem::solution_pixels(frame, drawn, value, u_lo, u_hi, r.components > 1));
  const fem::Pixels partition = combined(fem::partition_pixels(frame, part.local, comm.getRank()));
  if (comm.getRank() != 0) return;
  const std::string title = r.components > 1 ? "deformed mesh, |u_h|, " : "P1 solution u_h, ";
  fem::write_solution_png(png_u, frame, solution, title + caption, u_lo, u_hi);
  fem::write_partition_png(png_p, frame, partition, caption, comm.getSize());
}

// The largest peak resident set size over the processes, in MB. Collective.
double peak_resident_mb(const Teuchos::Comm<int>& comm) {
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  return largest(comm, static_cast<double>(usage.ru_maxrss) / 1024.0);  // ru_maxrss is in KB on Linux
}

// This process's owned nodes as rows of (x, y[, z], u[, u_y[, u_z]]), float64, native
// byte order: what benchmarks/bench_fem.py compares with DOLFINx node by node.
void write_nodal_values(const std::string& path, const fem::MeshPart& part, const fem::Result& r) {
  std::vector<double> rows;
  const int dim = part.local.dim;
  for (std::size_t v = 0; v < r.num_owned; ++v) {
    for (int d = 0; d < dim; ++d) rows.push_back(part.local.x[v][static_cast<std::size_t>(d)]);
    for (int i = 0; i < r.components; ++i) rows.push_back(r.u[v * static_cast<std::size_t>(r.components) + static_cast<std::size_t>(i)]);
  }
  std::ofstream os(path, std::ios::binary);
  os.write(reinterpret_cast<const char*>(rows.data()), static_cast<std::streamsize>(rows.size() * sizeof(double)));
  if (!os) throw std::runtime_error("cannot write " + path);
}

// The command line as Options; none (after saying why on rank 0) when it is wrong.
std::optional<Options> parse_options(int argc, char** argv, int rank) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--n") o.n = std::stoi(next());
    else if (a == "--lshape") o.lshape = true;
    else if (a == "--3d") o.cube = true;
    else if (a == "--mesh") o.mesh_file = next();
    else if (a == "--refine-study") o.refine_study = true;
    else if (a == "--elasticity") o.elasticity = true;
    else if (a == "--perturb") o.perturb = std::stod(next());
    else if (a == "--report") o.report = next();
    else if (a == "--diagonals") {
      const std::string how = next();
      if (how != "alike" && how != "alternating") {
        if (rank == 0) std::fprintf(stderr, "dapetra-fem: --diagonals takes alike or alternating\n%s", usage);
        return std::nullopt;
      }
      o.alike_diagonals = how == "alike";
    }
    else if (a == "--nodal-values") o.nodal_values = next();
    else if (a == "--checkpoint") o.checkpoint = next();
    else if (a == "--restart") o.restart = next();
    else if (a == "--out") o.out = next();
    else if (a == "--tol") o.solve.tolerance = std::stod(next());
    else if (a == "--prec") o.solve.preconditioner = next();
    else if (a == "--petsc") o.solve.petsc = true;
    else if (a == "--reassemble") o.solve.reassemblies = std::stoi(next());
    else {
      if (rank == 0) std::fprintf(stderr, "dapetra-fem: unknown option %s\n%s", a.c_str(), usage);
      return std::nullopt;
    }
  }
  return o;
}

// The Result of the checkpoint's solution on `part` (its errors), scalar or
// a displacement as the file says. Collective.
fem::Result restarted(const std::string& file, const fem::MeshPart& part, const Teuchos::Comm<int>& comm) {
#if FEM_WITH_HDF5
  int components = 1;
  std::vector<double> u = fem::read_checkpoint_solution(file, part, components, MPI_COMM_WORLD);
  return components == 1 ? fem::evaluate_poisson(part, comm, std::move(u))
                         : fem::evaluate_elasticity(part, comm, std::move(u));
#else
  (void)file, (void)part, (void)comm;
  throw std::runtime_error("--restart: this build has no HDF5 (Dapetra's HDF5 adapter was not built)");
#endif
}

// Everything a run keeps: each mesh size's h, errors and iterations, and
// the last size's part, result and timings.
struct Study {
  std::vector<int> sizes;
  std::vector<double> hs, l2s, h1s;
  std::vector<int> iterations;
  fem::Result last;
  fem::MeshPart last_part;
  double mesh_seconds = 0, partition_seconds = 0, h = 0;
};

// Every mesh size in turn (one, or five with --refine-study): make the mesh
// in blocks, partition it (Zoltan2), move it to its parts, solve. Collective;
// false on every process when a step failed on any (rank 0 said why).
template <class Say>
bool run_study(const Options& o, const Teuchos::RCP<const Teuchos::Comm<int>>& comm, Say say, Study& st) {
  const int rank = comm->getRank(), nprocs = comm->getSize();
  std::vector<int>& sizes = st.sizes;
  sizes = {o.n};
  if (o.refine_study) sizes = o.cube ? std::vector<int>{4, 8, 12, 16, 24} : std::vector<int>{8, 16, 32, 64, 128};
  auto &hs = st.hs, &l2s = st.l2s, &h1s = st.h1s;
  std::vector<int>& iterations = st.iterations;
  fem::Result& last = st.last;
  fem::MeshPart& last_part = st.last_part;
  double &mesh_seconds = st.mesh_seconds, &partition_seconds = st.partition_seconds, &h = st.h;
  for (int n : sizes) {
    fem::MeshBlock block;
    std::vector<int> cell_part;
    fem::MeshPart part;
    auto t0 = std::chrono::steady_clock::now();
    if (!agreed(MPI_COMM_WORLD, [&] { block = make_block(o, n, rank, nprocs); })) return false;
    mesh_seconds = seconds_since(t0);
    const char* cell_word = block.dim == 2 ? "triangles" : "tetrahedra";
    say("\nmesh: %lld nodes, %lld %s (%s), %s, %.2f s\n", static_cast<long long>(block.num_nodes),
        static_cast<long long>(block.num_cells), cell_word, describe(o).c_str(),
        !o.restart.empty()         ? "read in even blocks by every process"
        : o.mesh_file.empty() ? "each process made its own block"
                              : "read on rank 0",
        mesh_seconds);
    t0 = std::chrono::steady_clock::now();
    if (!agreed(MPI_COMM_WORLD, [&] { cell_part = fem::partition_cells(block, MPI_COMM_WORLD); })) return false;
    const double zoltan_seconds = seconds_since(t0);
    if (!agreed(MPI_COMM_WORLD, [&] { part = fem::distribute_mesh(block, cell_part, MPI_COMM_WORLD); })) return false;
    block = fem::MeshBlock();  // the blocks are no longer needed
    partition_seconds = seconds_since(t0);
    h = largest(*comm, fem::mesh_size(part.local));
    say("partition: Zoltan2 RCB %.2f s; cells and nodes moved to their parts by Dapetra redistributions, owned nodes "
        "numbered by rank, %.2f s; h = %.4f\n",
        zoltan_seconds, partition_seconds - zoltan_seconds, h);
    fem::Result r;
    if (!o.restart.empty()) {
      if (!agreed(MPI_COMM_WORLD, [&] { r = restarted(o.restart, part, *comm); })) return false;
      say("restart: the solution read from %s at every node by its number (%d per node); no solve\n", o.restart.c_str(),
          r.components);
    } else {
      // (A preconditioner MueLu or Ifpack2 refuses: one message, every process exits.)
      if (!agreed(MPI_COMM_WORLD, [&] {
            r = o.elasticity ? fem::solve_elasticity(part, comm, o.solve) : fem::solve_poisson(part, comm, o.solve);
          }))
        return false;
    }
    say("balance: %.0f %s per rank at most, %.1f on average (%.3f); %zu ghost copies of shared nodes (owned by the lowest "
        "rank)\n",
        r.max_cells_per_rank, cell_word, r.mean_cells_per_rank, r.max_cells_per_rank / r.mean_cells_per_rank,
        r.ghost_copies);
    say("errors: L2 %.4e, H1 %.4e\n", r.l2_error, r.h1_error);
    hs.push_back(h);
    l2s.push_back(r.l2_error);
    h1s.push_back(r.h1_error);
    iterations.push_back(r.belos.iterations);
    last = r;
    last_part = std::move(part);
  }

  return true;
}

// Where a run writes its pictures and its parallel VTU.
struct OutputFiles {
  std::string pvtu, png_u, png_p, xdmf, h5;
};

OutputFiles output_files(const Options& o) {
  const auto dir = std::filesystem::absolute(o.out);
  return {(dir / "solution.pvtu").string(), (dir / "solution.png").string(), (dir / "partition.png").string(),
          (dir / "solution.xdmf").string(), (dir / "solution.h5").string()};
}

// The parallel VTU (each process its piece, rank 0 the index) and, in 2-D,
// the PNGs. Collective; false on every process when any failed.
template <class Say>
bool write_outputs(const Options& o, const Study& st, const OutputFiles& files,
                   const Teuchos::RCP<const Teuchos::Comm<int>>& comm, Say say) {
  const int rank = comm->getRank(), nprocs = comm->getSize();
  const auto dir = std::filesystem::absolute(o.out);
  const std::string &pvtu = files.pvtu, &png_u = files.png_u, &png_p = files.png_p;
  const fem::Result& last = st.last;
  const fem::MeshPart& last_part = st.last_part;
  const bool pictures = last_part.local.dim == 2;
  const auto t_out = std::chrono::steady_clock::now();
  if (!agreed(MPI_COMM_WORLD, [&] {
        if (rank == 0) std::filesystem::create_directories(dir);
      }))
    return false;
  const bool written = agreed(MPI_COMM_WORLD, [&] {
    fem::write_vtu_piece((dir / ("solution_p" + std::to_string(rank) + ".vtu")).string(), last_part.local, last.u,
                         last.components, last_part.owner, rank);
    if (rank != 0) return;
    std::vector<std::string> pieces;
    for (int q = 0; q < nprocs; ++q) pieces.push_back("solution_p" + std::to_string(q) + ".vtu");
    fem::write_pvtu(pvtu, pieces, last.components);
  });
  if (!written) return false;
#if FEM_WITH_HDF5
  // One file for all processes: the checkpoint's datasets, and XDMF naming them for ParaView.
  if (!agreed(MPI_COMM_WORLD, [&] {
        fem::write_checkpoint(files.h5, last_part, last.u, last.components, MPI_COMM_WORLD);
        if (rank == 0)
          fem::write_xdmf(files.xdmf, "solution.h5", last_part.local.dim, last_part.num_nodes, last_part.num_cells,
                          last.components);
      }))
    return false;
#endif
  if (pictures) {
    char caption[96];
    std::snprintf(caption, sizeof caption, "%zu nodes, h = %.3g", last.num_nodes, st.h);
    if (!agreed(MPI_COMM_WORLD, [&] { write_pngs(last_part, last, caption, png_u, png_p, *comm); })) return false;
  }
  say("output: %.2f s\n", seconds_since(t_out));
  return true;
}

// What the run found, on rank 0: sizes, iterations, errors (and their
// orders in a refinement study), where the files are.
template <class Say>
void print_summary(const Options& o, const Study& st, const OutputFiles& files, int nprocs, Say say) {
  say("\nsummary\n");
  const fem::Result& last = st.last;
  const auto &sizes = st.sizes, &iterations = st.iterations;
  const auto &hs = st.hs, &l2s = st.l2s, &h1s = st.h1s;
  say("mesh: %zu nodes, %zu cells (%d-D) on %d ranks\n", last.num_nodes, last.num_cells, st.last_part.local.dim, nprocs);
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
  say("VTU (ParaView): %s (%d pieces)\n", files.pvtu.c_str(), nprocs);
  if (FEM_WITH_HDF5) say("XDMF + HDF5 (ParaView, one file; also a checkpoint): %s\n", files.xdmf.c_str());
  if (st.last_part.local.dim == 2) {
    say("PNG (solution): %s\n", files.png_u.c_str());
    say("PNG (partition): %s\n", files.png_p.c_str());
  }
}

// The run's figures as JSON (benchmarks/bench_fem.py reads them), written
// by rank 0. Collective (the peak memory is the largest process's).
void write_report(const std::string& path, const Study& st, const Teuchos::Comm<int>& comm) {
  const fem::Result& last = st.last;
  const int rank = comm.getRank(), nprocs = comm.getSize();
  const double mesh_seconds = st.mesh_seconds, partition_seconds = st.partition_seconds;
  const double peak = peak_resident_mb(comm);
  if (rank == 0) {
    std::ofstream json(path);
    json << std::setprecision(17);  // the norms are compared with DOLFINx's to rounding
    json << "{\"nodes\": " << last.num_nodes << ", \"cells\": " << last.num_cells << ", \"dim\": " << st.last_part.local.dim
         << ", \"processes\": " << nprocs << ", \"components\": " << last.components << ", \"mesh_s\": " << mesh_seconds << ", \"partition_s\": " << partition_seconds
         << ", \"setup_s\": " << last.setup_seconds << ", \"assembly_s\": " << last.assembly_seconds
         << ", \"structure_s\": " << last.structure_seconds << ", \"reassembly_s\": " << last.reassembly_seconds
         << ", \"solve_s\": " << last.belos.seconds
         << ", \"iterations\": " << last.belos.iterations << ", \"relative_residual\": " << last.belos.relative_residual
         << ", \"dirichlet_nodes\": " << last.dirichlet_nodes << ", \"matrix_entries\": " << last.matrix_entries
         << ", \"assembled_norms\": [" << last.assembled_norms[0]
         << ", " << last.assembled_norms[1] << "], \"reassembled_norms\": [" << last.reassembled_norms[0] << ", "
         << last.reassembled_norms[1] << "]"
         << ", \"l2_error\": " << last.l2_error << ", \"h1_error\": " << last.h1_error << ", \"peak_rss_mb\": " << peak
         << "}\n";
  }
}

}  // namespace

// Whether the command line asks for the usage (before Kokkos sees it: it
// answers --help with its own options).
static bool asks_for_help(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) return true;
  return false;
}

int main(int argc, char** argv) {
  if (asks_for_help(argc, argv)) {
    MPI_Init(&argc, &argv);
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) std::printf("%s", usage);
    MPI_Finalize();
    return 0;
  }
  Tpetra::ScopeGuard scope(&argc, &argv);
  const auto comm = Tpetra::getDefaultComm();
  const int rank = comm->getRank(), nprocs = comm->getSize();
  std::optional<Options> parsed = parse_options(argc, argv, rank);
  if (!parsed) return 1;
  Options& o = *parsed;
  const auto say = [&](const char* fmt, auto... args) {
    if (rank == 0) {
      std::printf(fmt, args...);
      std::fflush(stdout);  // a long run shows its progress
    }
  };
  if (o.solve.petsc && o.elasticity) {
    if (rank == 0) std::fprintf(stderr, "dapetra-fem: --petsc solves the scalar problem only, not --elasticity\n");
    return 1;
  }
  if ((!o.checkpoint.empty() || !o.restart.empty()) && !FEM_WITH_HDF5) {
    if (rank == 0) std::fprintf(stderr, "dapetra-fem: --checkpoint and --restart need a build with Dapetra's HDF5 adapter (libhdf5-openmpi-dev)\n");
    return 1;
  }
  if (!o.restart.empty() && (o.refine_study || !o.mesh_file.empty() || o.solve.petsc || !o.checkpoint.empty())) {
    if (rank == 0) std::fprintf(stderr, "dapetra-fem: --restart takes its mesh and solution from the file: not with --refine-study, --mesh, --petsc or --checkpoint\n");
    return 1;
  }
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
  say("Dapetra %s finite-element pipeline: %s, P1 elements, %d MPI processes\n", DAPETRA_VERSION_STRING,
      o.elasticity ? "linear elasticity -div sigma(u) = f" : "-div(grad u) = f", nprocs);

  Study st;
  if (!run_study(o, comm, say, st)) return 1;
  const OutputFiles files = output_files(o);
  if (!write_outputs(o, st, files, comm, say)) return 1;
  print_summary(o, st, files, nprocs, say);
  if (!o.nodal_values.empty() &&
      !agreed(MPI_COMM_WORLD, [&] { write_nodal_values(o.nodal_values + "." + std::to_string(rank), st.last_part, st.last); }))
    return 1;
  if (!o.report.empty()) write_report(o.report, st, *comm);
#if FEM_WITH_HDF5
  if (!o.checkpoint.empty()) {
    const auto t0 = std::chrono::steady_clock::now();
    if (!agreed(MPI_COMM_WORLD, [&] {
          fem::write_checkpoint(o.checkpoint, st.last_part, st.last.u, st.last.components, MPI_COMM_WORLD);
        }))
      return 1;
    say("checkpoint: mesh and solution written to %s, %.2f s (restart with --restart on any number of processes)\n",
        o.checkpoint.c_str(), seconds_since(t0));
  }
#endif
  const fem::Result& last = st.last;
  const bool solved = last.belos.relative_residual <= 10 * o.solve.tolerance &&
                      (!last.petsc || last.petsc->relative_residual <= 10 * o.solve.tolerance);
  return solved ? 0 : 1;
}
