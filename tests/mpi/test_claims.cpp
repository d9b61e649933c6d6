// Claims the README makes that only a measurement inside the MPI calls can
// back: building a plan from gathered records sends no message; a block
// against a pure cyclic axis is one strided run per destination; a message
// too large for MPI's int counts is refused on every process, never
// truncated. The MPI calls of this test program are counted through
// the MPI profiling interface (each wrapper below counts, then calls the
// PMPI_ entry point): the libraries are linked statically into this program,
// so their calls come here too.
#include <gtest/gtest.h>
#include <mpi.h>

#include <atomic>
#include <algorithm>
#include <functional>
#include <utility>
#include <vector>

#include "dapetra/mpi/adapter_access.hpp"  // white box: the gathered records
#include "dapetra/mpi/mpi.hpp"
#include "mpi_test_util.hpp"

namespace {
std::atomic<long> calls{0};      // every counted MPI call that communicates
std::atomic<long> alltoalls{0};  // the all-to-all calls among them
std::atomic<long> synchronous_sends{0};
std::atomic<long> reductions{0};  // MPI_Allreduce calls
std::atomic<long> gathers{0};     // MPI_Allgather and MPI_Allgatherv calls
std::atomic<long> gathered_slot{0};  // the elements each process puts into the last MPI_Allgather
// The buffers handed to MPI_Isend / MPI_Irecv while `recording`.
bool recording = false;
std::vector<const void*> sent_from, received_into;
}

// Every call that sends, receives or synchronises, as OpenMPI 4.1 declares it.
extern "C" {
int MPI_Send(const void* b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c) {
  ++calls;
  return PMPI_Send(b, n, t, d, tag, c);
}
int MPI_Isend(const void* b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c, MPI_Request* r) {
  ++calls;
  if (recording) sent_from.push_back(b);
  return PMPI_Isend(b, n, t, d, tag, c, r);
}
int MPI_Issend(const void* b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c, MPI_Request* r) {
  ++calls;
  ++synchronous_sends;
  return PMPI_Issend(b, n, t, d, tag, c, r);
}
int MPI_Iallreduce(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c, MPI_Request* r) {
  ++calls;
  return PMPI_Iallreduce(sb, rb, n, t, op, c, r);
}
int MPI_Irecv(void* b, int n, MPI_Datatype t, int s, int tag, MPI_Comm c, MPI_Request* r) {
  ++calls;
  if (recording) received_into.push_back(b);
  return PMPI_Irecv(b, n, t, s, tag, c, r);
}
int MPI_Recv(void* b, int n, MPI_Datatype t, int s, int tag, MPI_Comm c, MPI_Status* st) {
  ++calls;
  return PMPI_Recv(b, n, t, s, tag, c, st);
}
int MPI_Sendrecv(const void* sb, int sn, MPI_Datatype st, int d, int stag, void* rb, int rn, MPI_Datatype rt, int s,
                 int rtag, MPI_Comm c, MPI_Status* status) {
  ++calls;
  return PMPI_Sendrecv(sb, sn, st, d, stag, rb, rn, rt, s, rtag, c, status);
}
int MPI_Allgather(const void* sb, int sn, MPI_Datatype st, void* rb, int rn, MPI_Datatype rt, MPI_Comm c) {
  ++calls;
  ++gathers;
  gathered_slot = sn;
  return PMPI_Allgather(sb, sn, st, rb, rn, rt, c);
}
int MPI_Allgatherv(const void* sb, int sn, MPI_Datatype st, void* rb, const int rn[], const int d[], MPI_Datatype rt,
                   MPI_Comm c) {
  ++calls;
  ++gathers;
  return PMPI_Allgatherv(sb, sn, st, rb, rn, d, rt, c);
}
int MPI_Allreduce(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  ++calls;
  ++reductions;
  return PMPI_Allreduce(sb, rb, n, t, op, c);
}
int MPI_Alltoall(const void* sb, int sn, MPI_Datatype st, void* rb, int rn, MPI_Datatype rt, MPI_Comm c) {
  ++calls;
  ++alltoalls;
  return PMPI_Alltoall(sb, sn, st, rb, rn, rt, c);
}
int MPI_Alltoallv(const void* sb, const int sn[], const int sd[], MPI_Datatype st, void* rb, const int rn[],
                  const int rd[], MPI_Datatype rt, MPI_Comm c) {
  ++calls;
  ++alltoalls;
  return PMPI_Alltoallv(sb, sn, sd, st, rb, rn, rd, rt, c);
}
int MPI_Bcast(void* b, int n, MPI_Datatype t, int root, MPI_Comm c) {
  ++calls;
  return PMPI_Bcast(b, n, t, root, c);
}
int MPI_Barrier(MPI_Comm c) {
  ++calls;
  return PMPI_Barrier(c);
}
int MPI_Comm_dup(MPI_Comm c, MPI_Comm* out) {
  ++calls;
  return PMPI_Comm_dup(c, out);
}
int MPI_Comm_split(MPI_Comm c, int color, int key, MPI_Comm* out) {
  ++calls;
  return PMPI_Comm_split(c, color, key, out);
}
}

using namespace dapetra;
using namespace dapetra::mpi;
using dapetra::testing::owning_array;
using dapetra::testing::world;

namespace {

// The buffers `f` hands to MPI_Isend and MPI_Irecv on this process.
std::pair<std::vector<const void*>, std::vector<const void*>> buffers_in(const std::function<void()>& f) {
  sent_from.clear();
  received_into.clear();
  recording = true;
  f();
  recording = false;
  return {sent_from, received_into};
}

// How many of `addresses` lie inside `array`'s buffer (1-D, C order).
std::size_t inside(const std::vector<const void*>& addresses, const DistArray& array) {
  const char* first = static_cast<const char*>(array.buffer.data);
  const char* end = first + array.buffer.num_elements() * static_cast<global_index_t>(array.buffer.itemsize);
  return static_cast<std::size_t>(std::count_if(addresses.begin(), addresses.end(), [&](const void* a) {
    return static_cast<const char*>(a) >= first && static_cast<const char*>(a) < end;
  }));
}

// A 'u' axis of 12 indices per process: process r owns [12r, 12r + 12)
// and also holds the last index of the process before it and the first of
// the one after it.
struct Strip {
  global_index_t size;
  std::vector<global_index_t> owned, held;  // held: the owned ones, then the two neighbours'
  std::vector<int> owners;                  // of each held index
  std::vector<global_index_t> starts;       // the owned ranges' P + 1 boundaries
};
Strip strip_of_twelve(int P, int r) {
  Strip s{12 * P, {}, {}, {}, {}};
  for (global_index_t g = 12 * r; g < 12 * (r + 1); ++g) s.owned.push_back(g);
  s.held = s.owned;
  if (r > 0) s.held.push_back(12 * r - 1);
  if (r < P - 1) s.held.push_back(12 * (r + 1));
  for (global_index_t g : s.held) s.owners.push_back(static_cast<int>(g / 12));
  for (int q = 0; q <= P; ++q) s.starts.push_back(12 * q);
  return s;
}

// MPI calls made by `f` on this process.
long calls_in(const std::function<void()>& f) {
  const long before = calls.load();
  f();
  return calls.load() - before;
}

}  // namespace

TEST(Claims, TheCountersSeeTheLibrarysCalls) {
  // Creating a layout gathers the records: the wrappers must see that, or
  // the zero counts below would prove nothing.
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  EXPECT_GT(calls_in([&] { DistributedLayout::create({Dim::even_block(40, P, r, 2)}, comm); }), 0);
}

// What `f` calls on this process: MPI calls in all, and reductions among them.
static std::pair<long, long> calls_and_reductions_in(const std::function<void()>& f) {
  const long before = reductions.load();
  const long all = calls_in(f);
  return {all, reductions.load() - before};
}

// Building a plan from gathered records exchanges no message: the one
// collective call is the reduction that agrees every process passed the
// same layout.
TEST(Claims, BuildingAHaloPlanFromGatheredRecordsSendsNoMessage) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  for (const bool periodic : {false, true}) {
    const auto layout = DistributedLayout::create({Dim::even_block(40, P, r, 2, periodic), Dim::undistributed(3)}, comm);
    ASSERT_NE(mpi::adapter::gathered_records(*layout), nullptr);
    std::shared_ptr<const HaloPlan> plan;
    const auto [all, reduced] = calls_and_reductions_in([&] { plan = HaloPlan::create(layout); });
    EXPECT_EQ(all, 1) << (periodic ? "periodic" : "");
    EXPECT_EQ(reduced, 1) << (periodic ? "periodic" : "");
    if (P > 1) {
      EXPECT_GT(plan->num_neighbours(), 0u);
    }
  }
}

TEST(Claims, BuildingARedistributionPlanBetweenGatheredLayoutsSendsNoMessage) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  const auto from = DistributedLayout::create({Dim::even_block(1000, P, r)}, comm);
  const auto to = DistributedLayout::create({Dim::cyclic(1000, P, r, 3)}, comm);
  const auto [all, reduced] = calls_and_reductions_in([&] { RedistributionPlan::create(from, to); });
  EXPECT_EQ(all, 1);
  EXPECT_EQ(reduced, 1);
}

TEST(Claims, BlockAgainstPureCyclicIsOneStridedRunPerDestination) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  const global_index_t n = 1'000'003;  // not a multiple of P
  const auto from = DistributedLayout::create({Dim::even_block(n, P, r)}, comm);
  const auto to = DistributedLayout::create({Dim::cyclic(n, P, r, 1)}, comm);
  const auto plan = RedistributionPlan::create(from, to);
  // Per peer (this process included) one run to send and one to receive.
  EXPECT_LE(plan->num_runs(), static_cast<std::size_t>(2 * P));
  EXPECT_EQ(plan->num_sent() + plan->num_local(), static_cast<std::size_t>(local_extent(Dim::even_block(n, P, r))));
}

// Rank 0 must send rank 1 more than 2^31 bytes: the call is refused on both,
// naming the rule, before anything is packed or sent. The buffers are never
// touched (they stand for 4 GB): a call that went ahead would read outside
// them and crash, so this test can fail.
TEST(Claims, AMessageTooLargeForMpiIsRefusedOnEveryProcess) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  if (P != 2) GTEST_SKIP() << "two processes";
  const global_index_t n = (global_index_t{1} << 29) + 64;  // rank 0 owns 2^28 + 32 doubles
  const auto array_of = [](const Dim& d) {
    static double stand_in[1];
    DistArray a;
    a.dim_data = {d};
    a.buffer = view_buffer(stand_in, {local_extent(d)});
    return a;
  };
  const DistArray a = array_of(Dim::even_block(n, P, r));
  const DistArray b = array_of(r == 0 ? Dim::block(n, P, 0, 0, 16) : Dim::block(n, P, 1, 16, n));
  const auto plan = RedistributionPlan::create(DistributedLayout::create(a, comm), DistributedLayout::create(b, comm));
  const std::size_t moved = r == 0 ? plan->num_sent() : plan->num_received();
  ASSERT_GT(moved * sizeof(double), std::size_t{1} << 31);
  // Refused on both, each naming the rule (the peers still trade the small
  // headers that carry the verdict, so neither waits).
  bool refused = false;
  try {
    plan->apply<double>(a, b);
  } catch (const ValidationError& e) {
    refused = true;
    EXPECT_EQ(e.problems().at(0).key, "message_size");
  }
  EXPECT_TRUE(refused);
}

// A peer whose elements are one contiguous stretch of more than 16 bytes is
// sent from and received into the caller's own array (issue 26): a 1-D halo
// 8 wide is one stretch of 64 bytes each way. Assembly sends its ghosts in
// place and stages what it receives (it combines it).
TEST(Claims, ContiguousHaloMessagesUseTheCallersArray) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  if (P < 2) GTEST_SKIP() << "needs a neighbour";
  const Dim d = Dim::even_block(4000, P, r, 8);
  DistArray x = owning_array<double>({d}, 1.0);
  const auto plan = HaloPlan::create(DistributedLayout::create(x, comm));
  const std::size_t neighbours = plan->num_neighbours();
  ASSERT_GT(neighbours, 0u);
  auto [sends, receives] = buffers_in([&] { plan->update<double>(x); });
  EXPECT_EQ(sends.size(), neighbours);
  EXPECT_EQ(receives.size(), neighbours);
  EXPECT_EQ(inside(sends, x), neighbours);
  EXPECT_EQ(inside(receives, x), neighbours);
  std::tie(sends, receives) = buffers_in([&] { plan->assemble<double>(x); });
  EXPECT_EQ(inside(sends, x), neighbours);
  EXPECT_EQ(inside(receives, x), 0u);
  PlanExchange exchange;
  std::tie(sends, receives) = buffers_in([&] {
    plan->begin_update<double>(x, exchange);
    plan->end_update<double>(x, exchange);
  });
  EXPECT_EQ(inside(sends, x), neighbours);
  EXPECT_EQ(inside(receives, x), neighbours);
}

// The same for a redistribution between two block splits: each message is
// one run on both sides. A halo of 2 doubles (16 bytes) travels behind its
// status header instead, packed.
TEST(Claims, ContiguousRedistributionMessagesUseTheCallersArrays) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  if (P < 2) GTEST_SKIP() << "needs a neighbour";
  const global_index_t n = 1000;
  const Dim from_dim = Dim::even_block(n, P, r);
  const Dim to_dim = Dim::block(n, P, r, r == 0 ? 0 : n * r / P - 7, r == P - 1 ? n : n * (r + 1) / P - 7);
  DistArray from = owning_array<double>({from_dim}, 2.0), to = owning_array<double>({to_dim}, 0.0);
  const auto plan = RedistributionPlan::create(DistributedLayout::create(from, comm), DistributedLayout::create(to, comm));
  const auto [sends, receives] = buffers_in([&] { plan->apply<double>(from, to); });
  ASSERT_FALSE(sends.empty() && receives.empty());
  EXPECT_EQ(inside(sends, from), sends.size());
  EXPECT_EQ(inside(receives, to), receives.size());
  for (global_index_t i = 0; i < local_extent(to_dim); ++i) EXPECT_EQ(data_as<double>(to)[i], 2.0);

  DistArray narrow = owning_array<double>({Dim::even_block(40, P, r, 2)}, 1.0);
  const auto halo = HaloPlan::create(DistributedLayout::create(narrow, comm));
  const auto [small_sends, small_receives] = buffers_in([&] { halo->update<double>(narrow); });
  EXPECT_EQ(inside(small_sends, narrow), 0u);
  EXPECT_EQ(inside(small_receives, narrow), 0u);
}

// A 'u' layout whose owners are given by ranges (a strip of a grid's nodes:
// the owned rows first, a ghost row from each neighbour after) finds them
// in closed form: no all-to-all, where the same layout told the same owners
// by a rule runs a rendezvous, a sparse exchange (the counters must see that
// one, or the zero proves nothing).
TEST(Claims, OwnersFromRangesNeedNoRendezvous) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  if (P < 2) GTEST_SKIP() << "one process owns everything";
  const global_index_t nx = 10, per_rows = 3, n = nx * per_rows * P;
  std::vector<global_index_t> starts;
  for (int q = 0; q <= P; ++q) starts.push_back(nx * per_rows * q);
  std::vector<global_index_t> held;
  for (global_index_t g = starts[r]; g < starts[r + 1]; ++g) held.push_back(g);
  if (r > 0)
    for (global_index_t g = starts[r] - nx; g < starts[r]; ++g) held.push_back(g);
  if (r < P - 1)
    for (global_index_t g = starts[r + 1]; g < starts[r + 1] + nx; ++g) held.push_back(g);
  const std::vector<Dim> dims{Dim::unstructured(n, P, r, held, false)};
  DistributedLayoutOptions by_ranges, by_rule;
  by_ranges.ownership = Ownership::from_ranges(starts);
  by_rule.ownership = Ownership::by_rule([starts](global_index_t g, const std::vector<int>&) {
    return static_cast<int>(std::upper_bound(starts.begin(), starts.end(), g) - starts.begin()) - 1;
  });
  const long before = synchronous_sends.load();
  const auto closed = DistributedLayout::create(dims, comm, by_ranges);
  EXPECT_EQ(synchronous_sends.load() - before, 0);
  DistributedLayout::create(dims, comm, by_rule);
  EXPECT_GT(synchronous_sends.load() - before, 0);
  EXPECT_EQ(closed->num_owned(), nx * per_rows);
}

// No creation path runs an all-to-all: owners settled by a rule, by claims
// or by ranges, index maps and halo plans over them, and redistributions
// between a scattered layout and a block one find their peers by sparse
// exchanges (a process names only the processes it sends to).
TEST(Claims, NoCreationRunsAnAllToAll) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  const Strip strip = strip_of_twelve(P, r);
  const auto& [n, owned, held, owners, starts] = strip;
  const std::vector<Dim> u{Dim::unstructured(n, P, r, held, false)};
  const long before = alltoalls.load();
  for (const Ownership& how : {Ownership(), Ownership::highest_holder(), Ownership::from_ranges(starts),
                               Ownership::from_held_owners(owners)}) {
    const auto layout = DistributedLayout::create(u, comm, how);
    IndexMap::create(layout);
    HaloPlan::create(layout);
    RedistributionPlan::create(layout, DistributedLayout::create({Dim::even_block(n, P, r)}, comm));
  }
  const auto block = DistributedLayout::create({Dim::even_block(n, P, r, 1)}, comm);
  HaloPlan::create(block);
  IndexMap::create(block);
  RedistributionPlan::create(block, DistributedLayout::create({Dim::cyclic(n, P, r, 3)}, comm));
  EXPECT_EQ(alltoalls.load() - before, 0);
}

// Regular layouts (even 'b' splits with one halo width, periodic or not,
// 'c' axes, undistributed axes) are agreed by one reduction: nothing is
// gathered, and every grid rank's records are what a gather would give.
// An uneven split still gathers (the counter must see that one).
TEST(Claims, RegularLayoutsGatherNothing) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  if (P < 2) GTEST_SKIP() << "one process gathers nothing anyway";
  DistributedLayout::create({Dim::even_block(8, P, r)}, comm);  // the duplicate communicator, made once
  const std::vector<std::vector<Dim>> regular{
      {Dim::even_block(10 * P + 3, P, r, 2)},
      {Dim::even_block(10 * P, P, r, 1, true), Dim::undistributed(3)},
      {Dim::cyclic(7 * P + 1, P, r, 3)},
      {Dim::undistributed(4), Dim::cyclic(5 * P, P, r)},
  };
  for (const auto& dims : regular) {
    const long before = gathers.load();
    const auto layout = DistributedLayout::create(dims, comm);
    EXPECT_EQ(gathers.load() - before, 0) << describe(dims[0]);
    const GlobalLayout* every = mpi::adapter::gathered_records(*layout);
    ASSERT_NE(every, nullptr);
    for (int q = 0; q < P; ++q) {
      std::vector<Dim> expected = dims;
      for (Dim& d : expected)
        if (d.proc_grid_size > 1)
          d = d.dist_type == DistType::block ? Dim::even_block(d.size, P, q, d.padding[0], d.periodic)
                                             : Dim::cyclic(d.size, P, q, d.block_size);
      EXPECT_EQ(every->dim_data(q), expected) << "rank " << q;
    }
  }
}

// Any other split of a 'b' axis with one halo width gathers one word per
// process (where its owned range begins) and builds every record from
// those: the records a full gather would give. A layout whose halo widths
// differ between processes gathers every record (a 64-word slot each).
TEST(Claims, UnevenBlockSplitsGatherOneWordPerProcess) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  if (P < 2) GTEST_SKIP() << "one process gathers nothing anyway";
  DistributedLayout::create({Dim::even_block(8, P, r)}, comm);  // the duplicate communicator, made once
  const global_index_t size = 3 + 5 * (P - 1);
  const auto lo = [](int q) -> global_index_t { return q == 0 ? 0 : 3 + 5 * (q - 1); };  // 3, then 5 each: not even
  for (const global_index_t halo : {0, 1, 2}) {
    for (const bool periodic : {false, true}) {
      SCOPED_TRACE("halo " + std::to_string(halo) + (periodic ? ", periodic" : ""));
      const auto record = [&](int q) {
        return Dim::block(size, P, q, q > 0 ? lo(q) - halo : 0, q < P - 1 ? lo(q + 1) + halo : size, {halo, halo},
                          periodic);
      };
      const long before = gathers.load();
      const auto layout = DistributedLayout::create({record(r), Dim::undistributed(2)}, comm);
      EXPECT_EQ(gathers.load() - before, 1);
      EXPECT_EQ(gathered_slot.load(), 1);  // one word: where this process's owned range begins
      const GlobalLayout* every = mpi::adapter::gathered_records(*layout);
      ASSERT_NE(every, nullptr);
      for (int q = 0; q < P; ++q) EXPECT_EQ(every->dim_data(q), (std::vector<Dim>{record(q), Dim::undistributed(2)}));
    }
  }
  const long before = gathers.load();
  // A halo of 1 between ranks 0 and 1 only: valid, but not one width.
  const global_index_t left = r == 1 ? 1 : 0, right = r == 0 ? 1 : 0;
  DistributedLayout::create({Dim::block(size, P, r, lo(r) - left, (r < P - 1 ? lo(r + 1) : size) + right, {left, right})},
                            comm);
  EXPECT_EQ(gathers.load() - before, 1);
  EXPECT_EQ(gathered_slot.load(), 64);
}

// A layout whose only distributed axis is 'u' (the finite-element case)
// gathers nothing either, whoever names the owners: every process's
// summary is combined by the creation's one vote, and owners are settled by
// sparse exchanges. Its index map and halo plan gather nothing. Only a
// layout some process finds fault with gathers, to name the problems (the
// counter must see that one).
TEST(Claims, LayoutsWhoseOnlyDistributedAxisIsUGatherNothing) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  if (P < 2) GTEST_SKIP() << "one process gathers nothing anyway";
  const Strip strip = strip_of_twelve(P, r);
  const auto& [n, owned, held, owners, starts] = strip;
  std::vector<global_index_t> scattered = owned;  // one_to_one, not in rising runs
  std::reverse(scattered.begin(), scattered.end());
  DistributedLayout::create({Dim::even_block(8, P, r)}, comm);  // the duplicate communicator, made once
  struct Case {
    std::vector<Dim> dims;
    Ownership how;
  };
  const std::vector<Case> cases{
      {{Dim::unstructured(n, P, r, held, false)}, Ownership()},
      {{Dim::unstructured(n, P, r, held, false)}, Ownership::highest_holder()},
      {{Dim::unstructured(n, P, r, held, false)}, Ownership::from_ranges(starts)},
      {{Dim::unstructured(n, P, r, held, false)}, Ownership::from_held_owners(owners)},
      {{Dim::unstructured(n, P, r, held, false), Dim::undistributed(3)}, Ownership()},
      {{Dim::undistributed(2), Dim::unstructured(n, P, r, owned, true)}, Ownership()},
      {{Dim::unstructured(n, P, r, scattered, true)}, Ownership()},
  };
  for (std::size_t k = 0; k < cases.size(); ++k) {
    SCOPED_TRACE("case " + std::to_string(k));
    const long before = gathers.load();
    const auto layout = DistributedLayout::create(cases[k].dims, comm, cases[k].how);
    IndexMap::create(layout);
    HaloPlan::create(layout);
    EXPECT_EQ(gathers.load() - before, 0);
    EXPECT_EQ(mpi::adapter::gathered_records(*layout), nullptr);
    long long owned_everywhere = layout->num_owned();  // (each element owned once)
    MPI_Allreduce(MPI_IN_PLACE, &owned_everywhere, 1, MPI_LONG_LONG, MPI_SUM, comm);
    global_index_t elements = 1;
    for (const Dim& d : cases[k].dims) elements *= d.size;
    EXPECT_EQ(owned_everywhere, elements);
  }
  // One process's record says another size: every process throws, after a gather.
  const long before = gathers.load();
  const std::vector<Dim> faulty{Dim::unstructured(r == P - 1 ? n + 1 : n, P, r, held, false)};
  EXPECT_THROW(DistributedLayout::create(faulty, comm), ValidationError);
  EXPECT_GT(gathers.load() - before, 0);
}
