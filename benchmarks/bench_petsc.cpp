// PETSc as the benchmark peer. A ghost update and an assembly of a ghosted
// unstructured vector, Dapetra's HaloPlan over the ghosted Vec's own local
// form against PETSc's VecGhostUpdateBegin/End on an identical ghosted Vec,
// in alternation; both must then give the same values. Two ghost patterns:
// a strip partition of a structured grid's nodes (one ghost row from each
// neighbour: contiguous runs both ways), and scattered ghosts (random
// indices owned elsewhere, in random order: packed both ways). As in an
// application, the values change before every call (untimed): new owned
// values before an update, new contributions before an assembly; each
// timing is one call.
#include <petscvec.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <random>
#include <vector>

#include "bench_util.hpp"
#include "dapetra/dim_math.hpp"
#include "dapetra/mpi/mpi.hpp"
#include "dapetra/petsc/vec.hpp"

using namespace dapetra;
using bench::Report;
using bench::Row;

namespace dapetra::bench {
namespace {

struct Ghosted {
  Vec v = nullptr;
  PetscInt owned = 0;
  std::vector<PetscInt> ghosts;
  ~Ghosted() { VecDestroy(&v); }
};

// nx x ny grid nodes numbered row by row; process r owns rows [lo, hi).
// Ghosts: the rows next to the strip, or (scattered) as many random nodes
// owned elsewhere, shuffled.
void make(Ghosted& g, PetscInt nx, PetscInt ny, int P, int r, bool scattered) {
  const PetscInt lo = ny * r / P, hi = ny * (r + 1) / P;
  g.owned = (hi - lo) * nx;
  if (r > 0)
    for (PetscInt k = (lo - 1) * nx; k < lo * nx; ++k) g.ghosts.push_back(k);
  if (r < P - 1)
    for (PetscInt k = hi * nx; k < (hi + 1) * nx; ++k) g.ghosts.push_back(k);
  if (scattered && P > 1) {
    std::mt19937_64 rng(1234 + static_cast<unsigned>(r));
    std::uniform_int_distribution<PetscInt> node(0, nx * ny - g.owned - 1);
    std::vector<PetscInt> picked;
    for (std::size_t k = 0; k < g.ghosts.size(); ++k) {
      const PetscInt x = node(rng);  // a node outside [lo * nx, hi * nx)
      picked.push_back(x < lo * nx ? x : x + g.owned);
    }
    std::sort(picked.begin(), picked.end());
    picked.erase(std::unique(picked.begin(), picked.end()), picked.end());
    std::shuffle(picked.begin(), picked.end(), rng);
    g.ghosts = std::move(picked);
  }
  VecCreateGhost(PETSC_COMM_WORLD, g.owned, nx * ny, static_cast<PetscInt>(g.ghosts.size()), g.ghosts.data(), &g.v);
}

// Owned entries: their global index + 0.5 + step; ghosts 0.25 + step.
void fill(const Ghosted& g, int step) {
  Vec local = nullptr;
  VecGhostGetLocalForm(g.v, &local);
  PetscInt lo = 0, hi = 0;
  VecGetOwnershipRange(g.v, &lo, &hi);
  PetscScalar* x = nullptr;
  VecGetArray(local, &x);
  for (PetscInt i = 0; i < g.owned; ++i) x[i] = static_cast<double>(lo + i) + 0.5 + step;
  for (std::size_t k = 0; k < g.ghosts.size(); ++k) x[g.owned + static_cast<PetscInt>(k)] = 0.25 + step;
  VecRestoreArray(local, &x);
  VecGhostRestoreLocalForm(g.v, &local);
}

std::vector<double> local_values(const Ghosted& g) {
  Vec local = nullptr;
  VecGhostGetLocalForm(g.v, &local);
  const PetscScalar* x = nullptr;
  VecGetArrayRead(local, &x);
  std::vector<double> out(x, x + g.owned + static_cast<PetscInt>(g.ghosts.size()));
  VecRestoreArrayRead(local, &x);
  VecGhostRestoreLocalForm(g.v, &local);
  return out;
}

// One pattern's update and assembly rows.
void bench_ghosted(Report& report, MPI_Comm raw, int reps, PetscInt per_rank, bool scattered) {
  int P = 1, r = 0;
  MPI_Comm_size(raw, &P);
  MPI_Comm_rank(raw, &r);
  const PetscInt nx = 1000, ny = per_rank * P / nx;
  Ghosted ours, theirs;
  make(ours, nx, ny, P, r, scattered);
  make(theirs, nx, ny, P, r, scattered);
  const DistArray a = petsc::ghosted_as_distarray(ours.v);
  const auto plan = mpi::HaloPlan::create(mpi::DistributedLayout::create(a, raw, petsc::owners_of(ours.v)));
  const auto petsc_update = [&] {
    VecGhostUpdateBegin(theirs.v, INSERT_VALUES, SCATTER_FORWARD);
    VecGhostUpdateEnd(theirs.v, INSERT_VALUES, SCATTER_FORWARD);
  };
  const auto petsc_assemble = [&] {
    VecGhostUpdateBegin(theirs.v, ADD_VALUES, SCATTER_REVERSE);
    VecGhostUpdateEnd(theirs.v, ADD_VALUES, SCATTER_REVERSE);
  };
  int step = 0;  // both sides get the same fresh values before each call
  const auto fresh = [&](const Ghosted& g) { return [&] { fill(g, ++step % 7); }; };
  const std::string size = std::string(scattered ? " scattered ghosts" : "") + " owned/rank=" + std::to_string(per_rank) +
                           " np=" + std::to_string(P);
  const int calls = 2 * reps * 20;
  const auto u = paired_median_seconds(raw, calls, [&] { plan->update<double>(a); }, petsc_update, fresh(ours), fresh(theirs));
  fill(ours, 3);
  fill(theirs, 3);
  plan->update<double>(a);
  petsc_update();
  Row update{"ghost_update PETSc ghosted Vec" + size, u.ours, "VecGhostUpdateBegin/End(INSERT, FORWARD)", u.baseline,
             P >= 4 ? 0.8 : 1.0};
  update.same_result = all_ranks(local_values(ours) == local_values(theirs), raw);
  report.add(update);
  const auto s = paired_median_seconds(raw, calls, [&] { plan->assemble<double>(a); }, petsc_assemble, fresh(ours),
                                       fresh(theirs));
  fill(ours, 3);
  fill(theirs, 3);
  plan->assemble<double>(a);
  petsc_assemble();
  // Owned values compared: the ghosts' own values after a reverse scatter
  // are left as each side leaves them.
  const auto o = local_values(ours), t = local_values(theirs);
  Row assemble{"assemble(add) PETSc ghosted Vec" + size, s.ours, "VecGhostUpdateBegin/End(ADD, REVERSE)", s.baseline,
               P >= 4 ? 0.8 : 1.0};
  assemble.same_result = all_ranks(std::equal(o.begin(), o.begin() + ours.owned, t.begin()), raw);
  report.add(assemble);
}

}  // namespace

void bench_petsc(Report& report, MPI_Comm raw, bool quick) {
  const int reps = quick ? 5 : 11;
  for (const bool scattered : {false, true})
    for (PetscInt per_rank : {PetscInt{10'000}, PetscInt{1'000'000}}) bench_ghosted(report, raw, reps, per_rank, scattered);
}

// Redistribution of a 1-D block vector into a cyclic one (block size 1 and
// 64), against a VecScatter between the same two distributions (the
// scatter's index sets list, for each target entry, its source index: what a
// PETSc user builds). Both over PETSc's memory; the plan build against
// VecScatterCreate, index sets made before timing.
void bench_petsc_redistribute(Report& report, MPI_Comm raw, bool quick) {
  int P = 1, r = 0;
  MPI_Comm_size(raw, &P);
  MPI_Comm_rank(raw, &r);
  const PetscInt n = quick ? 1'000'000 : 10'000'000;
  const int reps = quick ? 5 : 7;
  for (PetscInt b : {PetscInt{1}, PetscInt{64}}) {
    const Dim to = Dim::cyclic(n, P, r, b);
    Vec x = nullptr, ours = nullptr, theirs = nullptr;
    VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, n, &x);  // PETSc's split is Dim::even_block's
    VecCreateMPI(PETSC_COMM_WORLD, static_cast<PetscInt>(local_extent(to)), n, &ours);
    VecCreateMPI(PETSC_COMM_WORLD, static_cast<PetscInt>(local_extent(to)), n, &theirs);
    PetscInt lo = 0, hi = 0, ylo = 0, yhi = 0;
    VecGetOwnershipRange(x, &lo, &hi);
    VecGetOwnershipRange(theirs, &ylo, &yhi);
    PetscScalar* xv = nullptr;
    VecGetArray(x, &xv);
    for (PetscInt g = lo; g < hi; ++g) xv[g - lo] = static_cast<double>(g) + 0.5;
    VecRestoreArray(x, &xv);
    const DistArray from = petsc::vec_as_distarray(x);
    DistArray target = petsc::vec_as_distarray(ours);
    target.dim_data = {to};  // the same memory, described as the cyclic distribution it holds
    std::vector<PetscInt> sources(static_cast<std::size_t>(local_extent(to)));
    for (std::size_t i = 0; i < sources.size(); ++i) sources[i] = static_cast<PetscInt>(global_index(to, static_cast<global_index_t>(i)));
    IS is_from = nullptr, is_to = nullptr;
    ISCreateGeneral(PETSC_COMM_WORLD, static_cast<PetscInt>(sources.size()), sources.data(), PETSC_USE_POINTER, &is_from);
    ISCreateStride(PETSC_COMM_WORLD, yhi - ylo, ylo, 1, &is_to);
    const auto sl = mpi::DistributedLayout::create(from, raw), tl = mpi::DistributedLayout::create(target, raw);
    const auto plan = mpi::RedistributionPlan::create(sl, tl);
    VecScatter scatter = nullptr;
    VecScatterCreate(x, is_from, theirs, is_to, &scatter);
    const auto moved = paired_median_seconds(raw, reps, [&] { plan->apply<double>(from, target); }, [&] {
      VecScatterBegin(scatter, x, theirs, INSERT_VALUES, SCATTER_FORWARD);
      VecScatterEnd(scatter, x, theirs, INSERT_VALUES, SCATTER_FORWARD);
    });
    // Both targets hold, at each position, its source's value (g + 0.5 at global index g).
    const auto both_moved_the_sources = [&] {
      const PetscScalar *a = nullptr, *t = nullptr;
      VecGetArrayRead(ours, &a);
      VecGetArrayRead(theirs, &t);
      bool same = true;
      for (std::size_t i = 0; i < sources.size() && same; ++i)
        same = a[i] == t[i] && a[i] == static_cast<double>(sources[i]) + 0.5;
      VecRestoreArrayRead(ours, &a);
      VecRestoreArrayRead(theirs, &t);
      return all_ranks(same, raw);
    };
    const auto clear_targets = [&] {
      VecSet(ours, -1.0);
      VecSet(theirs, -1.0);
    };
    const std::string name = (b == 1 ? std::string("block->cyclic") : "block->block-cyclic(64)") + " N=" +
                             (quick ? std::string("1e6") : std::string("1e7")) + " np=" + std::to_string(P);
    Row row{"redistribute PETSc Vecs " + name, moved.ours, "VecScatterBegin/End (same distributions)", moved.baseline, 1.0};
    row.same_result = both_moved_the_sources();
    report.add(row);
    // The plan and the scatter built last in the timed loop then move the values: the build row's own check.
    std::shared_ptr<const mpi::RedistributionPlan> built_plan;
    VecScatter built_scatter = nullptr;
    const auto built = paired_median_seconds(raw, 3, [&] { built_plan = mpi::RedistributionPlan::create(sl, tl); }, [&] {
      VecScatterDestroy(&built_scatter);
      VecScatterCreate(x, is_from, theirs, is_to, &built_scatter);
    });
    clear_targets();
    built_plan->apply<double>(from, target);
    VecScatterBegin(built_scatter, x, theirs, INSERT_VALUES, SCATTER_FORWARD);
    VecScatterEnd(built_scatter, x, theirs, INSERT_VALUES, SCATTER_FORWARD);
    Row build{"plan build PETSc Vecs " + name, built.ours, "VecScatterCreate (index sets given)", built.baseline, 1.0};
    build.same_result = both_moved_the_sources();
    report.add(build);
    VecScatterDestroy(&built_scatter);
    VecScatterDestroy(&scatter);
    ISDestroy(&is_from);
    ISDestroy(&is_to);
    VecDestroy(&x);
    VecDestroy(&ours);
    VecDestroy(&theirs);
  }
}

}  // namespace dapetra::bench
