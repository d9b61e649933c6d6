// What creating each kind of layout and plan costs one process in messages,
// bytes and peers, counted by Open MPI's own message monitoring (MPI_T
// performance variables pml_monitoring_messages_count/_size, every message
// this process sends to each peer, point-to-point and inside collectives
// alike; run with `--mca pml_monitoring_enable 1`). The arrays have a fixed
// size per process, so a cost that grows with the number of processes is
// the library's. Rank 0 prints one JSON line per kind with the busiest
// process's counts; tests/scale/check_scale.py runs it at several process
// counts and holds the growth to its targets.
//
//   mpirun -n 16 --mca pml_monitoring_enable 1 count_creation [kind...]
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <cstdlib>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "dapetra/mpi/mpi.hpp"
#ifdef DAPETRA_SCALE_TPETRA
#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_Core.hpp>
#include <Tpetra_Import.hpp>
#include <Tpetra_Map.hpp>

#include "dapetra/tpetra/tpetra.hpp"
#endif

using namespace dapetra;
using namespace dapetra::mpi;

namespace {

struct NoMonitoring : std::runtime_error {
  using std::runtime_error::runtime_error;
};

#ifdef SMPI_H
// SimGrid's SMPI (simulation to thousands of processes) has no MPI_T: there
// the caller counts from SMPI's time-independent traces (DAPETRA_SCALE_RUNS).
class Monitor {
 public:
  Monitor() { throw NoMonitoring("SimGrid's SMPI has no MPI_T: run with DAPETRA_SCALE_RUNS=n and count from -trace-ti"); }
  std::vector<unsigned long long> messages() { return {}; }
  std::vector<unsigned long long> bytes() { return {}; }
};
#else
// Every message and byte this process has sent, per peer, so far.
class Monitor {
 public:
  Monitor() {
    int provided = 0;
    if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS) throw NoMonitoring("MPI_T_init_thread failed");
    MPI_T_pvar_session_create(&session_);
    count_ = open("pml_monitoring_messages_count");
    size_ = open("pml_monitoring_messages_size");
  }
  ~Monitor() {
    MPI_T_pvar_handle_free(session_, &count_.handle);
    MPI_T_pvar_handle_free(session_, &size_.handle);
    MPI_T_pvar_session_free(&session_);
    MPI_T_finalize();
  }
  // Messages and bytes sent so far, per peer (world rank).
  std::vector<unsigned long long> messages() { return read(count_); }
  std::vector<unsigned long long> bytes() { return read(size_); }

 private:
  struct Var {
    MPI_T_pvar_handle handle;
    int count = 0;
  };
  Var open(const char* name) {
    int n = 0;
    MPI_T_pvar_get_num(&n);
    for (int i = 0; i < n; ++i) {
      char found[256], desc[1024];
      int name_len = sizeof found, desc_len = sizeof desc, verbosity, var_class, bind, readonly, continuous, atomic;
      MPI_Datatype type;
      MPI_T_enum enumtype;
      MPI_T_pvar_get_info(i, found, &name_len, &verbosity, &var_class, &type, &enumtype, desc, &desc_len, &bind,
                          &readonly, &continuous, &atomic);
      if (std::strcmp(found, name) != 0) continue;
      Var v;
      MPI_Comm world = MPI_COMM_WORLD;
      MPI_T_pvar_handle_alloc(session_, i, &world, &v.handle, &v.count);
      MPI_T_pvar_start(session_, v.handle);
      return v;
    }
    throw NoMonitoring(std::string("no MPI_T variable ") + name + ": run with --mca pml_monitoring_enable 1");
  }
  std::vector<unsigned long long> read(Var& v) {
    std::vector<unsigned long long> out(static_cast<std::size_t>(v.count));
    MPI_T_pvar_read(session_, v.handle, out.data());
    return out;
  }
  MPI_T_pvar_session session_;
  Var count_, size_;
};
#endif

struct Counts {
  unsigned long long messages = 0, bytes = 0, peers = 0;
};

// What `step` sends from this process (sender-side counts: a call's sends
// are all issued once it returns, so nothing of the step before or after is
// counted here).
Counts count(Monitor& monitor, const std::function<void()>& step) {
  MPI_Barrier(MPI_COMM_WORLD);
  const auto m0 = monitor.messages(), b0 = monitor.bytes();
  step();
  const auto m1 = monitor.messages(), b1 = monitor.bytes();
  Counts c;
  for (std::size_t p = 0; p < m0.size(); ++p) {
    c.messages += m1[p] - m0[p];
    c.bytes += b1[p] - b0[p];
    c.peers += m1[p] != m0[p];
  }
  return c;
}

// The process grid and this process's place on it (as square as MPI makes it).
struct Grid2 {
  int px = 1, py = 1, cx = 0, cy = 0;
};
Grid2 grid2(int P, int r) {
  int dims[2] = {0, 0};
  MPI_Dims_create(P, 2, dims);
  return {dims[0], dims[1], r / dims[1], r % dims[1]};
}

// A finite-element-like 'u' axis: each process owns an m x m block of a 2-D
// node grid, numbered by owner (process p's nodes are p * m^2 + i * m + j),
// and holds the ring of nodes around it too (its neighbours', diagonals
// included). Returns the held indices, owned first, and each one's owner.
constexpr global_index_t m = 40;
struct Nodes {
  std::vector<global_index_t> held;
  std::vector<int> owner;
  std::vector<global_index_t> boundaries;
};
Nodes fe_nodes(int P, int r) {
  const Grid2 g = grid2(P, r);
  const global_index_t nx = m * g.px, ny = m * g.py;
  const auto number = [&](global_index_t x, global_index_t y, int& owner) {
    const int ox = static_cast<int>(x / m), oy = static_cast<int>(y / m);
    owner = ox * g.py + oy;
    return owner * m * m + (x % m) * m + (y % m);
  };
  Nodes n;
  int o = 0;
  for (global_index_t x = g.cx * m; x < (g.cx + 1) * m; ++x)
    for (global_index_t y = g.cy * m; y < (g.cy + 1) * m; ++y) {
      n.held.push_back(number(x, y, o));
      n.owner.push_back(o);
    }
  for (global_index_t x = g.cx * m - 1; x <= (g.cx + 1) * m; ++x)
    for (global_index_t y = g.cy * m - 1; y <= (g.cy + 1) * m; ++y) {
      const bool inside = x >= g.cx * m && x < (g.cx + 1) * m && y >= g.cy * m && y < (g.cy + 1) * m;
      if (inside || x < 0 || y < 0 || x >= nx || y >= ny) continue;
      n.held.push_back(number(x, y, o));
      n.owner.push_back(o);
    }
  for (int p = 0; p <= P; ++p) n.boundaries.push_back(p * m * m);
  return n;
}

std::vector<double> values_for(const std::vector<Dim>& dims) {
  global_index_t n = 1;
  for (global_index_t e : local_shape_of(dims)) n *= e;
  return std::vector<double>(static_cast<std::size_t>(n), 1.0);
}

DistArray array_over(std::vector<double>& values, const std::vector<Dim>& dims) {
  DistArray a;
  a.buffer = view_buffer(values.data(), local_shape_of(dims));
  a.dim_data = dims;
  return a;
}

// A layout, its halo plan and one update: what a code creating an array does.
void layout_halo_update(const std::vector<Dim>& dims, const Ownership& how = {}) {
  std::vector<double> v = values_for(dims);
  const DistArray a = array_over(v, dims);
  const auto layout = DistributedLayout::create(a, MPI_COMM_WORLD, how);
  HaloPlan::create(layout)->update<double>(a);
}

void redistribute(const std::vector<Dim>& from, const std::vector<Dim>& to, const Ownership& how = {}) {
  std::vector<double> u = values_for(from), w = values_for(to);
  const DistArray a = array_over(u, from), b = array_over(w, to);
  RedistributionPlan::create(DistributedLayout::create(a, MPI_COMM_WORLD, how), DistributedLayout::create(b, MPI_COMM_WORLD))
      ->apply<double>(a, b);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int P = 1, r = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
#ifdef DAPETRA_SCALE_TPETRA
  Tpetra::ScopeGuard tpetra(&argc, &argv);
#endif
  int status = 0;
  // DAPETRA_SCALE_RUNS=n: no counting here, each kind created n times (the
  // caller counts from Open MPI's own per-process files instead, which MPI_T
  // turns off: check_scale.py subtracts a run of 1 from a run of 2).
  const char* runs_env = std::getenv("DAPETRA_SCALE_RUNS");
  const int runs = runs_env ? std::atoi(runs_env) : 0;
  try {
    std::optional<Monitor> monitor;
    if (runs == 0) monitor.emplace();
    const Grid2 g = grid2(P, r);
    const Nodes nodes = fe_nodes(P, r);
    const global_index_t n1 = 64 * P, N = m * m * P;
    const std::vector<Dim> u{Dim::unstructured(N, P, r, nodes.held, false)};
    std::map<std::string, std::function<void()>> kinds{
        {"block_1d_halo", [&] { layout_halo_update({Dim::even_block(n1, P, r, 1)}); }},
        // An uneven split (64 + r % 3 elements on rank r): one word per
        // process is gathered, where each owned range begins.
        {"block_1d_uneven_halo",
         [&] {
           const auto begin = [](global_index_t q) { return 64 * q + (q / 3) * 3 + (q % 3 == 2 ? 1 : 0); };
           const global_index_t size = begin(P), first = begin(r), last = begin(r + 1);
           layout_halo_update({Dim::block(size, P, r, r > 0 ? first - 1 : first, r < P - 1 ? last + 1 : last, {1, 1})});
         }},
        {"block_2d_halo",
         [&] { layout_halo_update({Dim::even_block(m * g.px, g.px, g.cx, 1), Dim::even_block(m * g.py, g.py, g.cy, 1)}); }},
        {"cyclic_1d", [&] { IndexMap::create(DistributedLayout::create({Dim::cyclic(n1, P, r)}, MPI_COMM_WORLD)); }},
        {"block_cyclic_2d",
         [&] {
           IndexMap::create(DistributedLayout::create(
               {Dim::cyclic(m * g.px, g.px, g.cx, 4), Dim::cyclic(m * g.py, g.py, g.cy, 4)}, MPI_COMM_WORLD));
         }},
        {"u_by_rule", [&] { layout_halo_update(u); }},
        {"u_by_ranges", [&] { layout_halo_update(u, Ownership::from_ranges(nodes.boundaries)); }},
        {"u_by_held_owners", [&] { layout_halo_update(u, Ownership::from_held_owners(nodes.owner)); }},
        {"index_map_u",
         [&] { IndexMap::create(DistributedLayout::create(u, MPI_COMM_WORLD, Ownership::from_ranges(nodes.boundaries))); }},
        // (Blocks of 16 against 64 elements per process: each process sends
        // to 4 others at any P. Smaller blocks would add peers up to 64 / block
        // size as P grows: the data's neighbourhood, not the library's cost.)
        {"redistribute_block_to_cyclic", [&] { redistribute({Dim::even_block(n1, P, r)}, {Dim::cyclic(n1, P, r, 16)}); }},
        {"redistribute_u_to_block",
         [&] { redistribute(u, {Dim::even_block(N, P, r)}, Ownership::from_ranges(nodes.boundaries)); }},
#ifdef DAPETRA_SCALE_TPETRA
        {"tpetra_layout_u",
         [&] {
           const auto comm = Teuchos::rcp(new Teuchos::MpiComm<int>(MPI_COMM_WORLD));
           tpetra::TpetraLayoutOptions options;
           options.distribution.ownership = Ownership::from_ranges(nodes.boundaries);
           const auto layout = tpetra::TpetraLayout::create(u, comm, options);
           tpetra::HaloTransfer::create(*layout);
         }},
        // The baseline: Tpetra's own maps of the same owned and held
        // indices, and its Import between them (Tpetra finds the owners).
        {"baseline_tpetra_map_import_u",
         [&] {
           using Map = Tpetra::Map<tpetra::LO, tpetra::GO, tpetra::Node>;
           const auto comm = Teuchos::rcp(new Teuchos::MpiComm<int>(MPI_COMM_WORLD));
           std::vector<tpetra::GO> held(nodes.held.begin(), nodes.held.end());
           const auto invalid = Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid();
           const auto owned = Teuchos::rcp(new Map(invalid, Teuchos::ArrayView<const tpetra::GO>(held.data(), m * m), 0, comm));
           const auto all = Teuchos::rcp(new Map(invalid, Teuchos::ArrayView<const tpetra::GO>(held), 0, comm));
           Tpetra::Import<tpetra::LO, tpetra::GO, tpetra::Node> import(owned, all);
         }},
#endif
    };
    std::vector<std::string> chosen(argv + 1, argv + argc);
    if (chosen.empty())
      for (const auto& k : kinds) chosen.push_back(k.first);
    for (const std::string& name : chosen) {
      const auto it = kinds.find(name);
      if (it == kinds.end()) {
        if (r == 0) std::fprintf(stderr, "count_creation: no kind %s\n", name.c_str());
        status = 2;
        continue;
      }
      if (runs > 0) {
        for (int k = 0; k < runs; ++k) it->second();
        continue;
      }
      it->second();  // once before counting: communicators and caches made on first use are not the kind's
      const Counts c = count(*monitor, it->second);
      unsigned long long mine[3] = {c.messages, c.bytes, c.peers}, most[3] = {0, 0, 0};
      MPI_Reduce(mine, most, 3, MPI_UNSIGNED_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
      if (r == 0)
        std::printf("{\"kind\": \"%s\", \"P\": %d, \"messages\": %llu, \"bytes\": %llu, \"peers\": %llu}\n", name.c_str(),
                    P, most[0], most[1], most[2]);
      std::fflush(stdout);
    }
  } catch (const NoMonitoring& e) {  // no monitoring in this MPI: said, and skipped by the test
    if (r == 0) std::fprintf(stderr, "count_creation: %s\n", e.what());
    status = 77;
  }
  MPI_Finalize();
  return status;
}
