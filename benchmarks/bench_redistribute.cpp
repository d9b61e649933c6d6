// Redistribution rows: RedistributionPlan versus memcpy (identical layouts),
// an expert's hand-written MPI_Alltoallv redistribution, and Tpetra's generic
// Import construction between the same owned maps. Each row is timed in
// alternation with its baseline and checks afterwards that both sides
// produced the same values (and, for redistribution, the right ones).
#include <Tpetra_Import.hpp>
#include <Tpetra_Map.hpp>
#include <cstring>
#include <Tpetra_MultiVector.hpp>
#include <algorithm>

#include "bench_util.hpp"
#include "dapetra/tpetra/tpetra.hpp"

using namespace dapetra;
using namespace dapetra::tpetra;
using dapetra::mpi::DistributedLayout;
using dapetra::mpi::RedistributionPlan;
using bench::all_ranks;
using bench::paired_median_seconds;
using bench::Report;
using bench::Row;

namespace dapetra::bench {
namespace {

DistArray array_for(const Dim& d, double fill) {
  auto storage = std::make_shared<std::vector<double>>(static_cast<std::size_t>(local_extent(d)), fill);
  DistArray a;
  a.dim_data = {d};
  a.buffer = view_buffer(storage->data(), {local_extent(d)}, storage);
  return a;
}

// The hand-written redistribution of a 1-D even block array into a
// block-cyclic one (block size b), as an MPI expert writes it: counts and
// offsets in closed form (O(P) per process), packing by block copies (a
// stride-P loop for b = 1), and MPI_Alltoallv landing in place: what r
// receives from q is the stretch of r's indices inside q's block, which is
// contiguous in r's buffer.
struct RawBlockToCyclic {
  MPI_Comm comm;
  int P, r;
  global_index_t n, b, lo, hi;
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
  std::vector<double> send;

  // Indices below x that grid rank q holds in the block-cyclic layout.
  global_index_t held_below(global_index_t x, int q) const {
    const global_index_t cycle = b * P, first = static_cast<global_index_t>(q) * b;
    return x / cycle * b + std::clamp<global_index_t>(x % cycle - first, 0, b);
  }
  // Dim::even_block's split: the first n % P ranks own one more.
  global_index_t block_lo(int q) const { return q * (n / P) + std::min<global_index_t>(q, n % P); }

  RawBlockToCyclic(MPI_Comm c, int nprocs, int rank, global_index_t size, global_index_t block)
      : comm(c), P(nprocs), r(rank), n(size), b(block) {
    lo = block_lo(r);
    hi = block_lo(r + 1);
    send_counts.assign(P, 0);
    send_displs.assign(P, 0);
    recv_counts.assign(P, 0);
    recv_displs.assign(P, 0);
    for (int q = 0; q < P; ++q) {
      send_counts[q] = static_cast<int>(held_below(hi, q) - held_below(lo, q));
      recv_counts[q] = static_cast<int>(held_below(block_lo(q + 1), r) - held_below(block_lo(q), r));
      recv_displs[q] = static_cast<int>(held_below(block_lo(q), r));
      if (q > 0) send_displs[q] = send_displs[q - 1] + send_counts[q - 1];
    }
    send.resize(static_cast<std::size_t>(hi - lo));
  }
  void pack(const double* from) {
    for (int q = 0; q < P; ++q) {
      double* out = send.data() + send_displs[q];
      if (b == 1) {
        global_index_t g = lo + ((q - lo) % P + P) % P;  // the first index >= lo that q holds
        for (; g < hi; g += P) *out++ = from[g - lo];
        continue;
      }
      // q's blocks k = q, q + P, ... that meet [lo, hi)
      for (global_index_t k = (lo / b - q + P - 1) / P * P + q; k * b < hi; k += P) {
        const global_index_t s = std::max(lo, k * b), e = std::min(hi, (k + 1) * b);
        out = std::copy(from + (s - lo), from + (e - lo), out);
      }
    }
  }
  void run(const double* from, double* to) {
    pack(from);
    MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), MPI_DOUBLE, to, recv_counts.data(),
                  recv_displs.data(), MPI_DOUBLE, comm);
  }
};

// Values no index shares: the global index, plus a half so zeros stand out.
void fill_with_global_indices(const DistArray& a) {
  double* x = data_as<double>(a);
  for (global_index_t i = 0; i < local_extent(a.dim_data[0]); ++i) x[i] = static_cast<double>(global_index(a.dim_data[0], i)) + 0.5;
}

bool same_values(const DistArray& x, const DistArray& y, MPI_Comm comm) {
  const auto n = static_cast<std::size_t>(local_extent(x.dim_data[0]));
  return all_ranks(std::equal(data_as<const double>(x), data_as<const double>(x) + n, data_as<const double>(y)), comm);
}

}  // namespace

void bench_redistribute(Report& report, const Teuchos::RCP<const Comm>& comm, MPI_Comm raw, bool quick) {
  const int P = comm->getSize(), r = comm->getRank();
  const global_index_t n = quick ? 10'000'000 : 100'000'000;
  const int reps = quick ? 5 : 7;
  const std::string size = " N=" + std::string(quick ? "1e7" : "1e8") + " np=" + std::to_string(P);
  {  // identical layouts: a local copy, no MPI
    const Dim d = Dim::even_block(n, P, r);
    const DistArray a = array_for(d, 0.0), ours = array_for(d, 0.0), base = array_for(d, 0.0);
    fill_with_global_indices(a);
    const auto layout = DistributedLayout::create(a, raw);
    const auto plan = RedistributionPlan::create(layout, layout);
    const auto t = paired_median_seconds(raw, reps, [&] { plan->apply<double>(a, ours); }, [&] {
      std::memcpy(data_as<double>(base), data_as<const double>(a), static_cast<std::size_t>(local_extent(d)) * sizeof(double));
    });
    Row row{"redistribute identical block" + size, t.ours, "memcpy of the local part", t.baseline, 1.2};
    row.same_result = same_values(ours, base, raw);
    report.add(row);
  }
  for (global_index_t bs : {global_index_t{1}, global_index_t{64}}) {
    const Dim from = Dim::even_block(n, P, r), to = Dim::cyclic(n, P, r, bs);
    const DistArray a = array_for(from, 0.0), ours = array_for(to, 0.0), base = array_for(to, 0.0);
    fill_with_global_indices(a);
    const auto sl = DistributedLayout::create(a, raw), tl = DistributedLayout::create(ours, raw);
    const auto plan = RedistributionPlan::create(sl, tl);
    const std::string name = bs == 1 ? "redistribute block->cyclic" : "redistribute block->block-cyclic(64)";
    RawBlockToCyclic hand(raw, P, r, n, bs);
    const auto t = paired_median_seconds(raw, reps, [&] { plan->apply<double>(a, ours); },
                                         [&] { hand.run(data_as<const double>(a), data_as<double>(base)); });
    Row row{name + size, t.ours, "hand-written MPI_Alltoallv (closed-form counts, in place)", t.baseline, 1.3};
    row.extra["plan_runs"] = static_cast<double>(plan->num_runs());
    // Both must hold every target element's own global index (+ 0.5).
    DistArray expected = array_for(to, 0.0);
    fill_with_global_indices(expected);
    row.same_result = same_values(ours, base, raw) && same_values(ours, expected, raw);
    report.add(row);
    // The physical floor: with Open MPI's single-copy transfers, every
    // element that changes process is copied once, so a memcpy of those
    // bytes (num_sent, one contiguous copy between two buffers of this
    // process) is what no redistribution can beat.
    const auto moved = static_cast<std::size_t>(plan->num_sent());
    std::vector<double> floor_from(moved, 1.5), floor_to(moved, 0.0);
    const auto f = paired_median_seconds(raw, reps, [&] { plan->apply<double>(a, ours); },
                                         [&] { std::memcpy(floor_to.data(), floor_from.data(), moved * sizeof(double)); });
    Row floor{name + " vs memory bandwidth" + size, f.ours, "memcpy of the elements that change process", f.baseline, 2.0};
    floor.extra["bytes_moved_per_rank"] = static_cast<double>(moved * sizeof(double));
    floor.same_result = same_values(ours, expected, raw) && all_ranks(floor_to == floor_from, raw);
    report.add(floor);
    // Plan construction: closed form versus Tpetra's generic Import on the
    // same owned maps (built before timing); afterwards Tpetra's doImport
    // through that Import must give the plan's result.
    const auto source_map = TpetraLayout::create(sl, comm)->owned_map();
    const auto target_map = TpetraLayout::create(tl, comm)->owned_map();
    const auto build = paired_median_seconds(raw, 3, [&] { RedistributionPlan::create(sl, tl); },
                                             [&] { Tpetra::Import<LO, GO, Node> imp(source_map, target_map); });
    const Tpetra::Import<LO, GO, Node> import(source_map, target_map);
    MultiVector<double> x(source_map, 1), y(target_map, 1);
    {
      auto xv = x.getLocalViewHost(Tpetra::Access::OverwriteAll);
      for (std::size_t i = 0; i < xv.extent(0); ++i) xv(i, 0) = data_as<const double>(a)[i];
    }
    y.doImport(x, import, Tpetra::INSERT);
    bool same = true;
    {
      auto yv = y.getLocalViewHost(Tpetra::Access::ReadOnly);
      for (std::size_t i = 0; i < yv.extent(0) && same; ++i) same = yv(i, 0) == data_as<const double>(ours)[i];
    }
    Row plan_row{"redistribution plan build " + name.substr(13) + size, build.ours, "Tpetra Import(owned map, owned map)",
                 build.baseline, 0.1};
    plan_row.same_result = all_ranks(same, raw);
    report.add(plan_row);
  }
}

}  // namespace dapetra::bench
