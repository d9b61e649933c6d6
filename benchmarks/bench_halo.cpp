// Halo exchange and unstructured ghost update / assembly rows (issue 4):
// HaloPlan versus a hand-written MPI exchange and versus plain Tpetra
// doImport / doExport between separately allocated vectors.
#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_Export.hpp>
#include <Tpetra_Import.hpp>
#include <Tpetra_Map.hpp>
#include <Tpetra_MultiVector.hpp>
#include <numeric>

#include "bench_util.hpp"
#include "dapetra/tpetra/tpetra.hpp"

using namespace dapetra;
using namespace dapetra::tpetra;
using dapetra::mpi::DistributedLayout;
using dapetra::mpi::HaloPlan;
using dapetra::mpi::CombineMode;
using bench::median_seconds;
using bench::Report;
using bench::Row;

namespace dapetra::bench {

namespace {

// An N-D array split along axis 0 only (slabs), halo w on axis 0, unpadded
// elsewhere: the layout hand-written codes use, and the one the raw baseline knows.
std::vector<Dim> slab_dims(const std::vector<global_index_t>& sizes, global_index_t w, int P, int r) {
  std::vector<Dim> dims{Dim::even_block(sizes[0], P, r, w)};
  for (std::size_t a = 1; a < sizes.size(); ++a) dims.push_back(Dim::undistributed(sizes[a]));
  return dims;
}

// The classic hand-written exchange of a slab-decomposed C-ordered array:
// pack the w owned planes next to each neighbour, Isend/Irecv, unpack into
// the padding planes.
struct RawSlabExchange {
  MPI_Comm comm;
  int left = MPI_PROC_NULL, right = MPI_PROC_NULL;
  std::size_t plane = 0, w = 0, lo_owned = 0, hi_owned = 0, extent = 0;
  std::vector<double> send_l, send_r, recv_l, recv_r;
  void run(double* a) {
    MPI_Request req[4];
    int n = 0;
    const std::size_t m = w * plane;
    if (left != MPI_PROC_NULL) {
      std::copy_n(a + lo_owned * plane, m, send_l.data());
      MPI_Irecv(recv_l.data(), static_cast<int>(m), MPI_DOUBLE, left, 1, comm, &req[n++]);
      MPI_Isend(send_l.data(), static_cast<int>(m), MPI_DOUBLE, left, 0, comm, &req[n++]);
    }
    if (right != MPI_PROC_NULL) {
      std::copy_n(a + (hi_owned - w) * plane, m, send_r.data());
      MPI_Irecv(recv_r.data(), static_cast<int>(m), MPI_DOUBLE, right, 0, comm, &req[n++]);
      MPI_Isend(send_r.data(), static_cast<int>(m), MPI_DOUBLE, right, 1, comm, &req[n++]);
    }
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    if (left != MPI_PROC_NULL) std::copy_n(recv_l.data(), m, a + (lo_owned - w) * plane);
    if (right != MPI_PROC_NULL) std::copy_n(recv_r.data(), m, a + hi_owned * plane);
  }
};

void bench_slab(Report& report, const Teuchos::RCP<const Comm>& comm, MPI_Comm raw, const std::string& name,
                const std::vector<global_index_t>& sizes, global_index_t w, int reps) {
  const int P = comm->getSize(), r = comm->getRank();
  const auto dims = slab_dims(sizes, w, P, r);
  auto storage = std::make_shared<std::vector<double>>();
  const auto shape = local_shape_of(dims);
  global_index_t n = 1;
  for (auto s : shape) n *= s;
  storage->assign(static_cast<std::size_t>(n), 1.0);
  DistArray a;
  a.dim_data = dims;
  a.buffer = view_buffer(storage->data(), shape, storage);
  const auto plan = HaloPlan::create(DistributedLayout::create(a, raw));
  const int inner = 20;
  RawSlabExchange x;
  x.comm = raw;
  x.left = r > 0 ? r - 1 : MPI_PROC_NULL;
  x.right = r < P - 1 ? r + 1 : MPI_PROC_NULL;
  x.plane = static_cast<std::size_t>(n / shape[0]);
  x.w = static_cast<std::size_t>(w);
  const LocalRange own = owned_local_range(dims[0]);
  x.lo_owned = static_cast<std::size_t>(own.begin);
  x.hi_owned = static_cast<std::size_t>(own.end);
  x.send_l.resize(x.w * x.plane);
  x.send_r.resize(x.w * x.plane);
  x.recv_l.resize(x.w * x.plane);
  x.recv_r.resize(x.w * x.plane);
  const auto t = bench::paired_median_seconds(
      raw, 2 * reps, [&] { for (int i = 0; i < inner; ++i) plan->update<double>(a); },
      [&] { for (int i = 0; i < inner; ++i) x.run(storage->data()); });
  Row row{name, t.ours / inner, "hand-written MPI pack + Isend/Irecv", t.baseline / inner, 1.2};
  row.extra["halo_elements_per_rank"] = static_cast<double>(plan->num_ghosts());
  report.add(row);
}

// Nodes of an nx x ny structured grid numbered row by row, split in strips of
// rows; each rank holds its strip plus one ghost row from each neighbour, its
// owned nodes first (the owned-prefix order FE codes use).
struct Strip {
  std::vector<global_index_t> nodes;  // owned, then ghost rows
  std::size_t owned = 0;
};
Strip strip(global_index_t nx, global_index_t ny, int P, int r) {
  const global_index_t lo = ny * r / P, hi = ny * (r + 1) / P;
  Strip s;
  for (global_index_t g = lo * nx; g < hi * nx; ++g) s.nodes.push_back(g);
  s.owned = s.nodes.size();
  if (r > 0)
    for (global_index_t g = (lo - 1) * nx; g < lo * nx; ++g) s.nodes.push_back(g);
  if (r < P - 1)
    for (global_index_t g = hi * nx; g < (hi + 1) * nx; ++g) s.nodes.push_back(g);
  return s;
}

void bench_unstructured(Report& report, const Teuchos::RCP<const Comm>& comm, MPI_Comm raw, global_index_t nx,
                        global_index_t ny, int reps) {
  const int P = comm->getSize(), r = comm->getRank();
  const Strip s = strip(nx, ny, P, r);
  auto storage = std::make_shared<std::vector<double>>(s.nodes.size(), 1.0);
  DistArray a;
  a.dim_data = {Dim::unstructured(nx * ny, P, r, s.nodes)};
  a.buffer = view_buffer(storage->data(), {static_cast<global_index_t>(s.nodes.size())}, storage);
  const auto layout = TpetraLayout::create(a, comm);
  const auto plan = HaloPlan::create(layout->distribution());
  const std::string size = " owned/rank=" + std::to_string(s.owned) + " np=" + std::to_string(P);
  const int inner = 20;

  // (a) raw MPI with the same pattern: first / last owned row to the neighbours.
  const std::size_t row = static_cast<std::size_t>(nx);
  std::vector<double> sl(row), sr(row), rl(row), rr(row);
  const int left = r > 0 ? r - 1 : MPI_PROC_NULL, right = r < P - 1 ? r + 1 : MPI_PROC_NULL;
  const std::size_t ghost_left = s.owned, ghost_right = s.owned + (r > 0 ? row : 0);
  const auto raw_update = [&](double* x) {
    MPI_Request req[4];
    int n = 0;
    if (left != MPI_PROC_NULL) {
      std::copy_n(x, row, sl.data());
      MPI_Irecv(rl.data(), static_cast<int>(row), MPI_DOUBLE, left, 1, raw, &req[n++]);
      MPI_Isend(sl.data(), static_cast<int>(row), MPI_DOUBLE, left, 0, raw, &req[n++]);
    }
    if (right != MPI_PROC_NULL) {
      std::copy_n(x + s.owned - row, row, sr.data());
      MPI_Irecv(rr.data(), static_cast<int>(row), MPI_DOUBLE, right, 0, raw, &req[n++]);
      MPI_Isend(sr.data(), static_cast<int>(row), MPI_DOUBLE, right, 1, raw, &req[n++]);
    }
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    if (left != MPI_PROC_NULL) std::copy_n(rl.data(), row, x + ghost_left);
    if (right != MPI_PROC_NULL) std::copy_n(rr.data(), row, x + ghost_right);
  };
  const auto raw_assemble = [&](double* x) {
    MPI_Request req[4];
    int n = 0;
    if (left != MPI_PROC_NULL) {
      std::copy_n(x + ghost_left, row, sl.data());
      MPI_Irecv(rl.data(), static_cast<int>(row), MPI_DOUBLE, left, 1, raw, &req[n++]);
      MPI_Isend(sl.data(), static_cast<int>(row), MPI_DOUBLE, left, 0, raw, &req[n++]);
    }
    if (right != MPI_PROC_NULL) {
      std::copy_n(x + ghost_right, row, sr.data());
      MPI_Irecv(rr.data(), static_cast<int>(row), MPI_DOUBLE, right, 0, raw, &req[n++]);
      MPI_Isend(sr.data(), static_cast<int>(row), MPI_DOUBLE, right, 1, raw, &req[n++]);
    }
    MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
    if (left != MPI_PROC_NULL)
      for (std::size_t i = 0; i < row; ++i) x[i] += rl[i];
    if (right != MPI_PROC_NULL)
      for (std::size_t i = 0; i < row; ++i) x[s.owned - row + i] += rr[i];
  };
  double* x = storage->data();
  // Ours and raw MPI alternate repetition by repetition (microsecond-scale
  // rows are the most exposed to drift on a shared machine).
  const auto updates = bench::paired_median_seconds(
      raw, 2 * reps, [&] { for (int i = 0; i < inner; ++i) plan->update<double>(a); },
      [&] { for (int i = 0; i < inner; ++i) raw_update(x); });
  const auto assemblies = bench::paired_median_seconds(
      raw, 2 * reps, [&] { for (int i = 0; i < inner; ++i) plan->assemble<double>(a); },
      [&] { for (int i = 0; i < inner; ++i) raw_assemble(x); });
  const double ours_u = updates.ours / inner, raw_u = updates.baseline / inner;
  const double ours_a = assemblies.ours / inner, raw_a = assemblies.baseline / inner;

  // (b) plain Tpetra: an owned vector and an overlapped vector, doImport / doExport.
  const auto owned_map = layout->owned_map();
  const auto overlap_map = layout->buffer_map();
  Tpetra::Import<LO, GO, Node> importer(owned_map, overlap_map);
  MultiVector<double> owned_v(owned_map, 1), overlap_v(overlap_map, 1);
  const double tp_u = median_seconds(raw, reps, [&] {
    for (int i = 0; i < inner; ++i) overlap_v.doImport(owned_v, importer, Tpetra::INSERT);
  }) / inner;
  const double tp_a = median_seconds(raw, reps, [&] {
    for (int i = 0; i < inner; ++i) owned_v.doExport(overlap_v, importer, Tpetra::ADD);
  }) / inner;

  report.add({"ghost_update unstructured" + size, ours_u, "hand-written MPI, same pattern", raw_u, 1.2});
  report.add({"ghost_update unstructured" + size, ours_u, "Tpetra doImport owned -> overlapped vector", tp_u, 0.05});
  report.add({"assemble(add) unstructured" + size, ours_a, "hand-written MPI, same pattern", raw_a, 1.2});
  report.add({"assemble(add) unstructured" + size, ours_a, "Tpetra doExport(ADD) overlapped -> owned", tp_a, 0.05});

  // Plan construction (layout + plan) versus Tpetra's generic maps + Import.
  std::vector<GO> owned_gids(s.nodes.begin(), s.nodes.begin() + static_cast<std::ptrdiff_t>(s.owned));
  std::vector<GO> all_gids(s.nodes.begin(), s.nodes.end());
  const auto build = bench::paired_median_seconds(
      raw, 7, [&] { HaloPlan::create(DistributedLayout::create(a, raw)); },
      [&] {
        auto om = Teuchos::rcp(new Map(Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid(), Teuchos::ArrayView<const GO>(owned_gids), 0, comm));
        auto bm = Teuchos::rcp(new Map(Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid(), Teuchos::ArrayView<const GO>(all_gids), 0, comm));
        Tpetra::Import<LO, GO, Node> imp(om, bm);
      });
  const double ours_build = build.ours, tp_build = build.baseline;
  report.add({"plan_build unstructured" + size, ours_build, "Tpetra Map(owned, given) + Map + Import", tp_build, 1.2});
  // With only what a DAP 'u' record says (who holds what, not who owns it),
  // a Tpetra user must find owners first: createOneToOne, then the Import.
  const double tp_unknown = median_seconds(raw, 5, [&] {
    auto bm = Teuchos::rcp(new Map(Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid(), Teuchos::ArrayView<const GO>(all_gids), 0, comm));
    auto om = Tpetra::createOneToOne(Teuchos::RCP<const Map>(bm));
    Tpetra::Import<LO, GO, Node> imp(om, bm);
  });
  report.add({"plan_build unstructured" + size, ours_build, "Tpetra Map + createOneToOne + Import", tp_unknown, 1.2});
}

// Plan construction for one layout (every process's records `dims`): layout
// plus plan versus Tpetra's noncontiguous owned Map plus Import to the buffer
// map, and the plan alone versus 5 halo updates.
void bench_plan_build(Report& report, const Teuchos::RCP<const Comm>& comm, MPI_Comm raw, const std::string& what,
                      const std::vector<Dim>& dims, int reps) {
  const int P = comm->getSize();
  DistArray a;
  const auto shape = local_shape_of(dims);
  global_index_t n = 1;
  for (auto e : shape) n *= e;
  auto storage = std::make_shared<std::vector<double>>(static_cast<std::size_t>(n));
  a.dim_data = dims;
  a.buffer = view_buffer(storage->data(), shape, storage);
  const auto layout = TpetraLayout::create(a, comm);
  const auto plan = HaloPlan::create(layout->distribution());
  // A halo plan needs no Tpetra map: the layout alone.
  const double ours = median_seconds(raw, reps, [&] { HaloPlan::create(DistributedLayout::create(a, raw)); });
  const auto bm = layout->buffer_map();
  std::vector<GO> owned_gids;
  for (LO i = 0; i < static_cast<LO>(layout->owned_map()->getNodeNumElements()); ++i)
    owned_gids.push_back(layout->owned_map()->getGlobalElement(i));
  const double generic = median_seconds(raw, reps, [&] {
    auto om = Teuchos::rcp(new Map(Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid(), Teuchos::ArrayView<const GO>(owned_gids), 0, comm));
    Tpetra::Import<LO, GO, Node> imp(om, bm);
  });
  const std::string suffix = " np=" + std::to_string(P);
  report.add({"plan_build (layout without maps + plan) " + what + suffix, ours, "Tpetra noncontiguous Map + Import",
              generic, 0.1});
  const int inner = 20;
  const double one_update = median_seconds(raw, reps, [&] { for (int i = 0; i < inner; ++i) plan->update<double>(a); }) / inner;
  const auto halo_layout = DistributedLayout::create(a, raw);
  const double plan_only = median_seconds(raw, reps, [&] {
    for (int i = 0; i < inner; ++i) HaloPlan::create(halo_layout);
  }) / inner;
  Row row{"plan_build (plan, layout given) " + what + suffix, plan_only, "5 halo updates", 5 * one_update, 1.0};
  row.extra["halo_elements_per_rank"] = static_cast<double>(plan->num_ghosts());
  report.add(row);
}

}  // namespace

// Layout and halo plan creation on a tiny array (a 1-D block of 100 elements
// per process, halo 1), the cost that grows with the process count: ours
// (validated, gathered layout with its own communicator, plus the plan)
// against what a Tpetra user writes (the contiguous owned Map, the buffer
// Map of owned plus ghost indices, the Import). After timing, both must
// move the same elements: ghosts received and elements sent agree.
void bench_creation(Report& report, const Teuchos::RCP<const Comm>& comm, MPI_Comm raw, int reps) {
  const int P = comm->getSize(), r = comm->getRank();
  const global_index_t per_rank = 100;
  const Dim d = Dim::even_block(per_rank * P, P, r, 1);
  auto storage = std::make_shared<std::vector<double>>(static_cast<std::size_t>(local_extent(d)));
  DistArray a;
  a.dim_data = {d};
  a.buffer = view_buffer(storage->data(), {local_extent(d)}, storage);
  std::vector<GO> buffer_gids(static_cast<std::size_t>(local_extent(d)));
  for (global_index_t i = 0; i < local_extent(d); ++i) buffer_gids[i] = global_index(d, i);
  const auto owned = owned_global_range(d);
  const auto ours = [&] { return HaloPlan::create(DistributedLayout::create(a, raw)); };
  const auto tpetra = [&] {
    auto om = Teuchos::rcp(new Map(static_cast<Tpetra::global_size_t>(per_rank * P), static_cast<std::size_t>(owned.size()), 0, comm));
    auto bm = Teuchos::rcp(new Map(Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid(),
                                   Teuchos::ArrayView<const GO>(buffer_gids), 0, comm));
    return Tpetra::Import<LO, GO, Node>(om, bm);
  };
  const auto t = bench::paired_median_seconds(raw, reps, [&] { ours(); }, [&] { tpetra(); });
  const auto plan = ours();
  const auto import = tpetra();
  const bool same = plan->num_ghosts() == import.getNumRemoteIDs() && plan->num_sends() == import.getNumExportIDs();
  Row row{"layout + halo plan creation 1-D 100/rank np=" + std::to_string(P), t.ours, "Tpetra Map(N, n) + Map + Import",
          t.baseline, 1.0};
  row.same_result = bench::all_ranks(same, raw);
  // What the layout's own communicator costs on its own.
  row.extra["comm_dup_free_s"] = median_seconds(raw, reps, [&] {
    MPI_Comm dup;
    MPI_Comm_dup(raw, &dup);
    MPI_Comm_free(&dup);
  });
  report.add(row);
}

void bench_halo(Report& report, const Teuchos::RCP<const Comm>& comm, MPI_Comm raw, bool quick) {
  const int P = comm->getSize(), r = comm->getRank();
  const int reps = quick ? 5 : 11;
  // Update time must not depend on the owned size (same halo).
  for (global_index_t per_rank : {global_index_t{10'000}, global_index_t{1'000'000}})
    bench_slab(report, comm, raw, "halo_update 1-D w=2 owned/rank=" + std::to_string(per_rank) + " np=" + std::to_string(P),
               {per_rank * P}, 2, reps);
  for (global_index_t w : {1, 2}) {
    bench_slab(report, comm, raw, "halo_update 2-D 4096^2 w=" + std::to_string(w) + " np=" + std::to_string(P),
               {4096, 4096}, w, reps);
    bench_slab(report, comm, raw, "halo_update 3-D 256^3 w=" + std::to_string(w) + " np=" + std::to_string(P),
               {256, 256, 256}, w, reps);
  }
  // Plan construction versus generic Map + Import: a padded 2-D slab, and a
  // 2-D array with a padded 'b' axis over 2 processes and a block-cyclic 'c'
  // axis over the rest (owners along it by formula too).
  bench_plan_build(report, comm, raw, "2-D 1024^2 w=1", slab_dims({1024, 1024}, 1, P, r), reps);
  if (P % 2 == 0) {
    const int half = P / 2;
    const std::vector<Dim> mixed{Dim::even_block(1024, 2, r / half, 1), Dim::cyclic(1024, half, r % half, 16)};
    bench_plan_build(report, comm, raw, "2-D 1024^2 b(w=1) x c(16)", mixed, reps);
  }
  bench_unstructured(report, comm, raw, 1000, quick ? 100 * P : 1000 * P, reps);
}

}  // namespace dapetra::bench
