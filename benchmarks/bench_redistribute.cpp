// Redistribution rows (issue 5): RedistributionPlan versus memcpy (identical
// layouts), a hand-written MPI_Alltoallv redistribution, and Tpetra's generic
// Import construction between the same owned maps.
#include <Tpetra_Import.hpp>
#include <Tpetra_Map.hpp>
#include <cstring>
#include <numeric>

#include "bench_util.hpp"
#include "dapetra/tpetra/tpetra.hpp"

using namespace dapetra;
using namespace dapetra::tpetra;
using dapetra::mpi::DistributedLayout;
using dapetra::mpi::RedistributionPlan;
using bench::median_seconds;
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

// The hand-written redistribution of a 1-D block array into a block-cyclic
// one (block size b): pack by destination, MPI_Alltoallv, unpack.
struct RawBlockToCyclic {
  MPI_Comm comm;
  int P, r;
  global_index_t n, b, lo, hi;
  std::vector<int> send_counts, send_displs, recv_counts, recv_displs;
  std::vector<double> send, recv;
  RawBlockToCyclic(MPI_Comm c, int nprocs, int rank, global_index_t size, global_index_t block)
      : comm(c), P(nprocs), r(rank), n(size), b(block) {
    lo = n * r / P;
    hi = n * (r + 1) / P;
    send_counts.assign(P, 0);
    for (global_index_t g = lo; g < hi; ++g) ++send_counts[(g / b) % P];
    recv_counts.assign(P, 0);
    for (int q = 0; q < P; ++q)
      for (global_index_t g = n * q / P; g < n * (q + 1) / P; ++g) recv_counts[q] += (g / b) % P == r;
    send_displs.assign(P, 0);
    recv_displs.assign(P, 0);
    for (int q = 1; q < P; ++q) {
      send_displs[q] = send_displs[q - 1] + send_counts[q - 1];
      recv_displs[q] = recv_displs[q - 1] + recv_counts[q - 1];
    }
    send.resize(static_cast<std::size_t>(hi - lo));
    recv.resize(static_cast<std::size_t>(std::accumulate(recv_counts.begin(), recv_counts.end(), 0)));
  }
  void run(const double* from, double* to) {
    std::vector<int> pos(send_displs);
    for (global_index_t g = lo; g < hi; ++g) send[pos[(g / b) % P]++] = from[g - lo];
    MPI_Alltoallv(send.data(), send_counts.data(), send_displs.data(), MPI_DOUBLE, recv.data(), recv_counts.data(),
                  recv_displs.data(), MPI_DOUBLE, comm);
    for (int q = 0; q < P; ++q) {  // q's elements arrive in increasing global index
      std::size_t k = static_cast<std::size_t>(recv_displs[q]);
      for (global_index_t g = n * q / P; g < n * (q + 1) / P; ++g)
        if ((g / b) % P == r) to[(g / (b * P)) * b + g % b] = recv[k++];
    }
  }
};

}  // namespace

void bench_redistribute(Report& report, const Teuchos::RCP<const Comm>& comm, MPI_Comm raw, bool quick) {
  const int P = comm->getSize(), r = comm->getRank();
  const global_index_t n = quick ? 10'000'000 : 100'000'000;
  const int reps = quick ? 5 : 7;
  const std::string size = " N=" + std::string(quick ? "1e7" : "1e8") + " np=" + std::to_string(P);
  {  // identical layouts: a local copy, no MPI
    const Dim d = Dim::even_block(n, P, r);
    const DistArray a = array_for(d, 1.0), b = array_for(d, 0.0);
    const auto layout = DistributedLayout::create(a, raw);
    const auto plan = RedistributionPlan::create(layout, layout);
    const double ours = median_seconds(raw, reps, [&] { plan->apply<double>(a, b); });
    const double base = median_seconds(raw, reps, [&] {
      std::memcpy(data_as<double>(b), data_as<const double>(a), static_cast<std::size_t>(local_extent(d)) * sizeof(double));
    });
    report.add({"redistribute identical block" + size, ours, "memcpy of the local part", base, 1.2});
  }
  for (global_index_t bs : {global_index_t{1}, global_index_t{64}}) {
    const Dim from = Dim::even_block(n, P, r), to = Dim::cyclic(n, P, r, bs);
    const DistArray a = array_for(from, 1.0), b = array_for(to, 0.0);
    const auto sl = DistributedLayout::create(a, raw), tl = DistributedLayout::create(b, raw);
    const auto plan = RedistributionPlan::create(sl, tl);
    const std::string name = bs == 1 ? "redistribute block->cyclic" : "redistribute block->block-cyclic(64)";
    const double ours = median_seconds(raw, reps, [&] { plan->apply<double>(a, b); });
    RawBlockToCyclic hand(raw, P, r, n, bs);
    const double base = median_seconds(raw, reps, [&] { hand.run(data_as<const double>(a), data_as<double>(b)); });
    Row row{name + size, ours, "hand-written MPI_Alltoallv", base, 1.3};
    row.extra["plan_runs"] = static_cast<double>(plan->num_runs());
    report.add(row);
    // Plan construction: closed form versus Tpetra's generic Import on the same owned maps.
    const double build = median_seconds(raw, 3, [&] { RedistributionPlan::create(sl, tl); });
    const auto source_map = TpetraLayout::create(sl, comm)->owned_map();
    const auto target_map = TpetraLayout::create(tl, comm)->owned_map();
    const double generic = median_seconds(raw, 3, [&] { Tpetra::Import<LO, GO, Node> imp(source_map, target_map); });
    report.add({"redistribution plan build " + name.substr(13) + size, build, "Tpetra Import(owned map, owned map)", generic, 0.1});
  }
}

}  // namespace dapetra::bench
