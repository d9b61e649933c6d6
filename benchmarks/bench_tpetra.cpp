// Dapetra's benchmark driver (run under mpirun by scripts/bench).
//   dapetra-bench [--quick] [--check] [--only GROUP] [--out FILE] [--append]
// --check: exit with status 1 if any row's two sides produced different
// results (the timings are reported but not judged; CI runs this).
// Rows: zero-copy view creation across buffer sizes, owned-map construction
// versus Tpetra's own constructors (here), halo exchange, ghost update and
// assembly versus hand-written MPI and plain Tpetra (bench_halo.cpp), the
// two finite-element assembly engines (bench_fe_assembly.cpp).
#include <Tpetra_Core.hpp>
#include <Tpetra_Map.hpp>
#include <Tpetra_MultiVector.hpp>
#include <Teuchos_DefaultMpiComm.hpp>
#include <malloc.h>
#ifdef DAPETRA_BENCH_PETSC
#include <petscsys.h>
#endif

#include <cmath>
#include <functional>
#include <numeric>
#include <random>

#include "bench_util.hpp"
#include "dapetra/tpetra/tpetra.hpp"

using namespace dapetra;
using namespace dapetra::tpetra;
using bench::median_seconds;
using bench::paired_median_seconds;
using bench::Report;
using bench::Row;

namespace {

std::string pow10_name(global_index_t n) {
  const int e = static_cast<int>(std::lround(std::log10(static_cast<double>(n))));
  return "1e" + std::to_string(e);
}

// View creation: O(1) whatever N. The baseline is the same operation at the
// smallest size, timed in alternation with each size, so the ratio shows how
// the cost grows with N (target: flat).
void bench_views(Report& report, const Teuchos::RCP<const Comm>& comm, MPI_Comm raw, bool quick) {
  const int P = comm->getSize(), r = comm->getRank();
  const global_index_t largest = quick ? 10'000'000 : 100'000'000;
  struct Case {
    std::shared_ptr<std::vector<double>> storage;
    DistArray array;
    std::shared_ptr<const TpetraLayout> layout;
  };
  const auto make = [&](global_index_t n) {
    Case c;
    c.storage = std::make_shared<std::vector<double>>();
    const Dim d = Dim::even_block(n, P, r, 1);
    c.storage->assign(static_cast<std::size_t>(local_extent(d)), 1.0);
    c.array.dim_data = {d};
    c.array.buffer = view_buffer(c.storage->data(), {local_extent(d)}, c.storage);
    c.layout = TpetraLayout::create(c.array, comm);
    return c;
  };
  const Case smallest = make(1000);
  const int reps = 200;
  std::vector<Teuchos::RCP<MultiVector<double>>> keep;
  keep.reserve(reps);
  const auto create_views = [&](const Case& c) {
    return [&keep, &c] {
      keep.clear();
      for (int i = 0; i < reps; ++i) keep.push_back(buffer_view<double>(*c.layout, c.array));
    };
  };
  for (global_index_t n = 1000; n <= largest; n *= 10) {
    const Case c = make(n);
    const auto t = bench::paired_median_seconds(raw, 9, create_views(c), create_views(smallest));
    keep.clear();
    const double rss0 = bench::resident_mib();
    create_views(c)();
    const double rss_growth = bench::resident_mib() - rss0;
    keep.clear();
    Row row{"view_create N=" + pow10_name(n), t.ours / reps, "view_create N=1e3 (same run, alternated)", t.baseline / reps,
            1.5};
    // Both sides are views: each one's data is the buffer itself.
    const auto is_view = [](const Case& k) {
      return buffer_view<double>(*k.layout, k.array)->getData(0).getRawPtr() == k.storage->data();
    };
    row.same_result = bench::all_ranks(is_view(c) && is_view(smallest), raw);
    row.extra["rss_growth_mib_per_200_views"] = rss_growth;
    row.extra["buffer_mib_per_rank"] = static_cast<double>(local_extent(c.array.dim_data[0])) * 8.0 / (1024.0 * 1024.0);
    report.add(row);
  }
}

// Owned map from a DAP layout (gather + check every rule + build) versus
// Tpetra's constructor given the same indices directly. Each repetition
// builds `batch` maps (many for the microsecond-scale block case), ours and
// the baseline in alternation.
void bench_maps(Report& report, const Teuchos::RCP<const Comm>& comm, MPI_Comm raw, bool quick) {
  const int P = comm->getSize(), r = comm->getRank();
  const int reps = quick ? 7 : 15;
  const auto batched = [](int batch, const std::function<void()>& f) {
    return [batch, f] {
      for (int i = 0; i < batch; ++i) f();
    };
  };
  for (global_index_t n : quick ? std::vector<global_index_t>{100'000, 1'000'000}
                                : std::vector<global_index_t>{100'000, 1'000'000, 10'000'000}) {
    const std::string size = " N=" + pow10_name(n) + " np=" + std::to_string(P);
    // block: both sides O(1) in N. Even splits (Tpetra's uniform one, which
    // owned_map builds without communication beyond its check) and an uneven
    // one (rank r owns a share proportional to r + 1; Tpetra's nonuniform
    // constructor needs a scan and a reduction on both sides).
    for (const bool even : {true, false}) {
      global_index_t lo = n * r / P, hi = n * (r + 1) / P;
      if (!even) {
        const global_index_t shares = static_cast<global_index_t>(P) * (P + 1) / 2;
        lo = n * (static_cast<global_index_t>(r) * (r + 1) / 2) / shares;
        hi = n * (static_cast<global_index_t>(r + 1) * (r + 2) / 2) / shares;
      }
      const std::vector<Dim> dims{even ? Dim::even_block(n, P, r) : Dim::block(n, P, r, lo, hi)};
      const std::size_t nlocal = static_cast<std::size_t>(local_extent(dims[0]));
      const int batch = 200;
      // Like with like: the even split against Tpetra's uniform constructor
      // (no communication), the uneven one against the nonuniform one.
      const auto tpetra_map = [&] {
        return even ? Teuchos::rcp(new Map(static_cast<Tpetra::global_size_t>(n), 0, comm))
                    : Teuchos::rcp(new Map(static_cast<Tpetra::global_size_t>(n), nlocal, 0, comm));
      };
      const auto t = paired_median_seconds(raw, reps, batched(batch, [&] { owned_map(dims, comm); }),
                                           batched(batch, [&] { tpetra_map(); }));
      Row row{std::string(even ? "owned_map block" : "owned_map block uneven") + size, t.ours / batch,
              even ? "Tpetra::Map uniform constructor Map(N, 0, comm)" : "Tpetra::Map contiguous constructor Map(N, n, 0, comm)",
              t.baseline / batch, 1.0};
      row.same_result = owned_map(dims, comm)->isSameAs(*tpetra_map());
      report.add(row);
      if (even && n == 100'000) {
        // The whole layout (both maps, what views and plans need) from the
        // same records: the project's own target, not the issue's.
        const auto whole = paired_median_seconds(
            raw, reps, batched(batch, [&] { TpetraLayout::create(dims, comm); }),
            batched(batch, [&] { tpetra_map(); }));
        Row whole_row{"TpetraLayout block (both maps, view data) np=" + std::to_string(P), whole.ours / batch,
                      "Tpetra::Map uniform constructor Map(N, 0, comm)", whole.baseline / batch, 4.0};
        whole_row.same_result = TpetraLayout::create(dims, comm)->owned_map()->isSameAs(*tpetra_map());
        report.add(whole_row);
      }
    }
    {  // cyclic, block size 64
      const std::vector<Dim> dims{Dim::cyclic(n, P, r, 64)};
      std::vector<GO> gids(static_cast<std::size_t>(local_extent(dims[0])));
      for (std::size_t i = 0; i < gids.size(); ++i) gids[i] = global_index(dims[0], static_cast<global_index_t>(i));
      const auto t = paired_median_seconds(
          raw, reps, [&] { TpetraLayout::create(dims, comm); },
          [&] { Map m(static_cast<Tpetra::global_size_t>(n), Teuchos::ArrayView<const GO>(gids), 0, comm); });
      Row row{"owned_map cyclic(b=64)" + size, t.ours, "Tpetra::Map from the same index list", t.baseline, 1.2};
      row.same_result = TpetraLayout::create(dims, comm)->owned_map()->isSameAs(
          Map(static_cast<Tpetra::global_size_t>(n), Teuchos::ArrayView<const GO>(gids), 0, comm));
      report.add(row);
    }
    {  // unstructured, one-to-one, random permutation
      std::vector<global_index_t> perm(static_cast<std::size_t>(n));
      std::iota(perm.begin(), perm.end(), 0);
      std::shuffle(perm.begin(), perm.end(), std::mt19937_64(42));
      const std::size_t lo = static_cast<std::size_t>(n * r / P), hi = static_cast<std::size_t>(n * (r + 1) / P);
      std::vector<global_index_t> mine(perm.begin() + static_cast<std::ptrdiff_t>(lo), perm.begin() + static_cast<std::ptrdiff_t>(hi));
      const std::vector<Dim> dims{Dim::unstructured(n, P, r, mine, true)};
      std::vector<GO> gids(mine.begin(), mine.end());
      const auto t = paired_median_seconds(
          raw, reps, [&] { TpetraLayout::create(dims, comm); },
          [&] { Map m(static_cast<Tpetra::global_size_t>(n), Teuchos::ArrayView<const GO>(gids), 0, comm); });
      Row row{"owned_map unstructured one_to_one" + size, t.ours, "Tpetra::Map from the same index list", t.baseline, 1.2};
      row.same_result = TpetraLayout::create(dims, comm)->owned_map()->isSameAs(
          Map(static_cast<Tpetra::global_size_t>(n), Teuchos::ArrayView<const GO>(gids), 0, comm));
      report.add(row);
    }
  }
}

}  // namespace

namespace dapetra::bench {
void bench_halo(Report& report, const Teuchos::RCP<const Comm>& comm, MPI_Comm raw, bool quick);
void bench_redistribute(Report& report, const Teuchos::RCP<const Comm>& comm, MPI_Comm raw, bool quick);
void bench_scalapack(Report& report, const Teuchos::RCP<const Comm>& comm, MPI_Comm raw, bool quick);
void bench_creation(Report& report, const Teuchos::RCP<const Comm>& comm, MPI_Comm raw, int reps);
void bench_fe_assembly(Report& report, const Teuchos::RCP<const Comm>& comm, MPI_Comm raw, bool quick);
#ifdef DAPETRA_BENCH_PETSC
void bench_petsc(Report& report, MPI_Comm raw, bool quick);
void bench_petsc_redistribute(Report& report, MPI_Comm raw, bool quick);
void bench_petsc_mat(Report& report, MPI_Comm raw, bool quick);
#endif
}

int main(int argc, char** argv) {
  // Fixed allocator thresholds: with glibc's adaptive ones, a loop that
  // builds and frees the same object flips between two timings depending
  // only on allocation order (the heap top is returned to the kernel and
  // faulted back in on every iteration, or never). Seen on both sides: Tpetra's
  // own Map constructor over 5e4 indices took 0.34 ms or 1.28 ms per call.
  // Fixing them (as allocator-tuned HPC codes do) takes that out of every
  // row, ours and baselines alike.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 256 << 20);
  Tpetra::ScopeGuard scope(&argc, &argv);
  bool quick = false, append = false, check = false;
  std::string out = "build/bench/results.json", only;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick") quick = true;
    else if (a == "--check") check = true;
    else if (a == "--append") append = true;  // add rows to an existing results file
    else if (a == "--only" && i + 1 < argc) only = argv[++i];  // one group: views, maps, halo, creation, redistribute, scalapack, fe, petsc
    else if (a == "--out" && i + 1 < argc) out = argv[++i];
  }
  const auto comm = Tpetra::getDefaultComm();
  const auto* mpi = dynamic_cast<const Teuchos::MpiComm<int>*>(comm.get());
  MPI_Comm raw = mpi ? static_cast<MPI_Comm>(*mpi->getRawMpiComm()) : MPI_COMM_SELF;
  Report report(comm->getRank());
  report.header();
  const auto want = [&](const char* group) { return only.empty() || only == group; };
  if (want("views")) bench_views(report, comm, raw, quick);
  if (want("maps")) bench_maps(report, comm, raw, quick);
  if (want("halo")) bench::bench_halo(report, comm, raw, quick);
  if (want("creation")) bench::bench_creation(report, comm, raw, quick ? 7 : 15);
  if (want("redistribute")) bench::bench_redistribute(report, comm, raw, quick);
  if (want("scalapack")) bench::bench_scalapack(report, comm, raw, quick);
  if (want("fe")) bench::bench_fe_assembly(report, comm, raw, quick);
#ifdef DAPETRA_BENCH_PETSC
  if (want("petsc")) {  // PETSc joins the MPI that Tpetra's scope guard started
    PetscInitializeNoArguments();
    bench::bench_petsc(report, raw, quick);
    bench::bench_petsc_redistribute(report, raw, quick);
    bench::bench_petsc_mat(report, raw, quick);
    PetscFinalize();
  }
#endif
  nlohmann::ordered_json context;
  context["np"] = comm->getSize();
  context["mode"] = quick ? "quick" : "full";
  report.write(out, context, append);
  if (check && !report.all_same()) {
    if (comm->getRank() == 0) std::printf("check FAILED: a row marked WRONG produced a result different from its baseline's\n");
    return 1;
  }
  return 0;
}
