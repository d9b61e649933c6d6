// What creating each kind of layout and plan costs one process: its
// messages, bytes and peers are counted by the caller from Open MPI's own
// per-process monitoring files (tests/scale/check_scale.py), or from SimGrid
// SMPI's traces (tests/scale/simulate.py); the heap it keeps is measured
// here. The arrays have a fixed size per process, so a cost that grows with
// the number of processes is the library's.
//
//   count_creation --list              the kinds, one per line
//   DAPETRA_SCALE_RUNS=n count_creation KIND
//     creates KIND n times (default 1), one after the other; rank 0 prints
//     one JSON line with the most heap any process's objects of the last
//     creation held (the caller subtracts the messages of a run of 1 from
//     those of a run of 2, so start-up and first-use traffic cancel).
//
// (Open MPI 4.1.4 lists its pml_monitoring_* counters through MPI_T but
// answers MPI_T_ERR_INVALID_INDEX for them, so the counting cannot be done
// in-process.)
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>
// (SimGrid's SMPI defines malloc as a macro of its own: no heap count there.)
#if !defined(malloc) && defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
#include <malloc.h>
#define DAPETRA_SCALE_HEAP 1
#endif

#include "dapetra/mpi/mpi.hpp"
#ifdef DAPETRA_SCALE_TPETRA
#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_Core.hpp>
#include <Tpetra_Export.hpp>
#include <Tpetra_Import.hpp>
#include <Tpetra_Map.hpp>

#include "dapetra/tpetra/tpetra.hpp"
#endif
#ifdef DAPETRA_SCALE_DEALII
#include <deal.II/base/index_set.h>

#include "dapetra/dealii/vector.hpp"
#endif

using namespace dapetra;
using namespace dapetra::mpi;

namespace {

// Bytes this process has taken from the heap and not given back (glibc's
// own count: small blocks in every arena, and blocks mapped on their own;
// blocks freed into its per-thread cache still count as in use, so the
// caller runs with GLIBC_TUNABLES=glibc.malloc.tcache_count=0).
long long heap_in_use() {
#ifdef DAPETRA_SCALE_HEAP
  const struct mallinfo2 info = mallinfo2();
  return static_cast<long long>(info.uordblks + info.hblkhd);
#else
  return 0;
#endif
}

// What a kind keeps alive: its layouts, plans and maps, as the user holds them.
using Kept = std::shared_ptr<void>;

template <typename... T>
Kept keep(T... objects) {
  return std::make_shared<std::tuple<T...>>(std::move(objects)...);
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
// included). The held indices, owned first, each one's owner, and the
// quadrilaterals whose first corner this process owns (corners as positions
// among the held nodes).
constexpr global_index_t m = 40;
struct Nodes {
  std::vector<global_index_t> held;
  std::vector<int> owner;
  std::vector<global_index_t> boundaries;
  std::vector<local_index_t> cells;
};
Nodes fe_nodes(int P, int r) {
  const Grid2 g = grid2(P, r);
  const global_index_t nx = m * g.px, ny = m * g.py;
  std::map<std::pair<global_index_t, global_index_t>, local_index_t> position;
  Nodes n;
  const auto hold = [&](global_index_t x, global_index_t y) {
    const int o = static_cast<int>(x / m) * g.py + static_cast<int>(y / m);
    position[{x, y}] = static_cast<local_index_t>(n.held.size());
    n.held.push_back(o * m * m + (x % m) * m + (y % m));
    n.owner.push_back(o);
  };
  const auto inside = [&](global_index_t x, global_index_t y) {
    return x >= g.cx * m && x < (g.cx + 1) * m && y >= g.cy * m && y < (g.cy + 1) * m;
  };
  for (global_index_t x = g.cx * m; x < (g.cx + 1) * m; ++x)
    for (global_index_t y = g.cy * m; y < (g.cy + 1) * m; ++y) hold(x, y);
  for (global_index_t x = g.cx * m - 1; x <= (g.cx + 1) * m; ++x)
    for (global_index_t y = g.cy * m - 1; y <= (g.cy + 1) * m; ++y)
      if (!inside(x, y) && x >= 0 && y >= 0 && x < nx && y < ny) hold(x, y);
  for (global_index_t x = g.cx * m; x < (g.cx + 1) * m && x + 1 < nx; ++x)
    for (global_index_t y = g.cy * m; y < (g.cy + 1) * m && y + 1 < ny; ++y)
      for (const auto& [dx, dy] : {std::pair{0, 0}, {1, 0}, {1, 1}, {0, 1}}) n.cells.push_back(position.at({x + dx, y + dy}));
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
Kept layout_halo_update(const std::vector<Dim>& dims, const Ownership& how = {}) {
  std::vector<double> v = values_for(dims);
  const DistArray a = array_over(v, dims);
  const auto layout = DistributedLayout::create(a, MPI_COMM_WORLD, how);
  const auto plan = HaloPlan::create(layout);
  plan->update<double>(a);
  return keep(layout, plan);
}

Kept layout_index_map(const std::vector<Dim>& dims, const Ownership& how = {}) {
  const auto layout = DistributedLayout::create(dims, MPI_COMM_WORLD, how);
  return keep(layout, IndexMap::create(layout));
}

Kept redistribute(const std::vector<Dim>& from, const std::vector<Dim>& to, const Ownership& how = {}) {
  std::vector<double> u = values_for(from), w = values_for(to);
  const DistArray a = array_over(u, from), b = array_over(w, to);
  const auto source = DistributedLayout::create(a, MPI_COMM_WORLD, how);
  const auto target = DistributedLayout::create(b, MPI_COMM_WORLD);
  const auto plan = RedistributionPlan::create(source, target);
  plan->apply<double>(a, b);
  return keep(source, target, plan);
}

#ifdef DAPETRA_SCALE_DEALII
// deal.II's distributed vector over the nodes: this process's owned range, and the ring as ghosts.
std::shared_ptr<dapetra::dealii::Vector> dealii_vector(const Nodes& nodes, global_index_t N, int r) {
  const auto n = static_cast<::dealii::types::global_dof_index>(N);
  ::dealii::IndexSet owned(n), ghosts(n);
  owned.add_range(static_cast<::dealii::types::global_dof_index>(r * m * m),
                  static_cast<::dealii::types::global_dof_index>((r + 1) * m * m));
  for (std::size_t i = static_cast<std::size_t>(m * m); i < nodes.held.size(); ++i)
    ghosts.add_index(static_cast<::dealii::types::global_dof_index>(nodes.held[i]));
  return std::make_shared<dapetra::dealii::Vector>(owned, ghosts, MPI_COMM_WORLD);
}
#endif

// Every kind, by name: what it creates (and keeps), given this process's place.
std::map<std::string, std::function<Kept()>> kinds_of(int P, int r, const Nodes& nodes) {
  const Grid2 g = grid2(P, r);
  const global_index_t n1 = 64 * P, N = m * m * P;
  const std::vector<Dim> u{Dim::unstructured(N, P, r, nodes.held, false)};
  const Ownership ranges = Ownership::from_ranges(nodes.boundaries);
  return {
      {"block_1d_halo", [=] { return layout_halo_update({Dim::even_block(n1, P, r, 1)}); }},
      // An uneven split (64 + r % 3 elements on rank r): one word per
      // process is gathered, where each owned range begins.
      {"block_1d_uneven_halo",
       [=] {
         const auto begin = [](global_index_t q) { return 64 * q + (q / 3) * 3 + (q % 3 == 2 ? 1 : 0); };
         const global_index_t size = begin(P), first = begin(r), last = begin(r + 1);
         return layout_halo_update(
             {Dim::block(size, P, r, r > 0 ? first - 1 : first, r < P - 1 ? last + 1 : last, {1, 1})});
       }},
      {"block_2d_halo",
       [=] {
         return layout_halo_update({Dim::even_block(m * g.px, g.px, g.cx, 1), Dim::even_block(m * g.py, g.py, g.cy, 1)});
       }},
      {"cyclic_1d", [=] { return layout_index_map({Dim::cyclic(n1, P, r)}); }},
      {"block_cyclic_2d",
       [=] { return layout_index_map({Dim::cyclic(m * g.px, g.px, g.cx, 4), Dim::cyclic(m * g.py, g.py, g.cy, 4)}); }},
      {"u_by_rule", [=] { return layout_halo_update(u); }},
      {"u_by_ranges", [=] { return layout_halo_update(u, ranges); }},
      {"u_by_held_owners", [=, &nodes] { return layout_halo_update(u, Ownership::from_held_owners(nodes.owner)); }},
      {"index_map_u", [=] { return layout_index_map(u, ranges); }},
      // (Blocks of 16 against 64 elements per process: each process sends
      // to 4 others at any P. Smaller blocks would add peers up to 64 / block
      // size as P grows: the data's neighbourhood, not the library's cost.)
      {"redistribute_block_to_cyclic", [=] { return redistribute({Dim::even_block(n1, P, r)}, {Dim::cyclic(n1, P, r, 16)}); }},
      {"redistribute_u_to_block", [=] { return redistribute(u, {Dim::even_block(N, P, r)}, ranges); }},
#ifdef DAPETRA_SCALE_TPETRA
      // The 'u' array as Tpetra sees it through Dapetra: the layout (its
      // maps) and the halo as Tpetra's Import and Export.
      {"tpetra_layout_u",
       [=] {
         tpetra::TpetraLayoutOptions options;
         options.distribution.ownership = ranges;
         const auto layout = tpetra::TpetraLayout::create(u, Teuchos::rcp(new Teuchos::MpiComm<int>(MPI_COMM_WORLD)), options);
         return keep(layout, tpetra::HaloTransfer::create(*layout));
       }},
      // The finite-element graph of the quadrilaterals over those nodes.
      {"fe_graph_u",
       [=, &nodes] {
         tpetra::TpetraLayoutOptions options;
         options.distribution.ownership = ranges;
         const auto layout = tpetra::TpetraLayout::create(u, Teuchos::rcp(new Teuchos::MpiComm<int>(MPI_COMM_WORLD)), options);
         return keep(layout, tpetra::FEGraph::create(layout, nodes.cells, 4));
       }},
      // The baseline: Tpetra's own maps of the same owned and held
      // indices, its Import between them (Tpetra finds the owners) and the
      // reverse Export, as HaloTransfer builds them (the same work).
      {"baseline_tpetra_import_export_u",
       [=, &nodes] {
         using Map = Tpetra::Map<tpetra::LO, tpetra::GO, tpetra::Node>;
         const auto comm = Teuchos::rcp(new Teuchos::MpiComm<int>(MPI_COMM_WORLD));
         std::vector<tpetra::GO> held(nodes.held.begin(), nodes.held.end());
         const auto invalid = Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid();
         const auto owned = Teuchos::rcp(new Map(invalid, Teuchos::ArrayView<const tpetra::GO>(held.data(), m * m), 0, comm));
         const auto all = Teuchos::rcp(new Map(invalid, Teuchos::ArrayView<const tpetra::GO>(held), 0, comm));
         const auto import = Teuchos::rcp(new tpetra::Import(owned, all));
         return keep(owned, all, import, Teuchos::rcp(new tpetra::Export(*import)));
       }},
#endif
#ifdef DAPETRA_SCALE_DEALII
      // deal.II's own vector of the same nodes (its partitioner finds the
      // ghosts' owners), shared with Dapetra: its layout, owners from
      // deal.II's ranges, a halo plan and an update.
      {"dealii_vector_u",
       [=, &nodes] {
         const auto v = dealii_vector(nodes, N, r);
         const DistArray a = dapetra::dealii::vector_as_distarray(*v);
         const auto layout = DistributedLayout::create(a, MPI_COMM_WORLD, dapetra::dealii::owners_of(*v));
         const auto plan = HaloPlan::create(layout);
         plan->update<double>(a);
         return keep(v, layout, plan);
       }},
      // The baseline: the same vector and its update_ghost_values(), deal.II alone.
      {"baseline_dealii_vector_u",
       [=, &nodes] {
         const auto v = dealii_vector(nodes, N, r);
         v->update_ghost_values();
         return keep(v);
       }},
#endif
  };
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int P = 1, r = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  int status = 0;
  {
#ifdef DAPETRA_SCALE_TPETRA
    Tpetra::ScopeGuard tpetra(&argc, &argv);
#endif
    const char* runs_env = std::getenv("DAPETRA_SCALE_RUNS");
    const int runs = runs_env ? std::atoi(runs_env) : 1;
    const Nodes nodes = fe_nodes(P, r);
    const auto kinds = kinds_of(P, r, nodes);
    const std::vector<std::string> chosen(argv + 1, argv + argc);
    if (chosen == std::vector<std::string>{"--list"}) {
      if (r == 0)
        for (const auto& kind : kinds) std::printf("%s\n", kind.first.c_str());
    } else {
      for (const std::string& name : chosen) {
        const auto it = kinds.find(name);
        if (it == kinds.end()) {
          if (r == 0) std::fprintf(stderr, "count_creation: no kind %s (--list names them)\n", name.c_str());
          status = 2;
          continue;
        }
        // The heap the last creation's objects hold: in use while they live,
        // less in use once they are gone (what MPI kept for itself on the
        // way, its free lists and connections, stays in both).
        long long mine = 0, most = 0;
        for (int k = 0; k < runs; ++k) {
          Kept kept = it->second();
          const long long alive = heap_in_use();
          kept.reset();
          mine = alive - heap_in_use();
        }
        MPI_Reduce(&mine, &most, 1, MPI_LONG_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
        if (r == 0) std::printf("{\"kind\": \"%s\", \"P\": %d, \"kept_bytes\": %lld}\n", name.c_str(), P, most);
      }
    }
  }
  MPI_Finalize();
  return status;
}
