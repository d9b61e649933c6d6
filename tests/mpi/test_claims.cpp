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
#include <functional>

#include "dapetra/mpi/mpi.hpp"
#include "mpi_test_util.hpp"

namespace {
std::atomic<long> calls{0};  // every counted MPI call that communicates
}

// Every call that sends, receives or synchronises, as OpenMPI 4.1 declares it.
extern "C" {
int MPI_Send(const void* b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c) {
  ++calls;
  return PMPI_Send(b, n, t, d, tag, c);
}
int MPI_Isend(const void* b, int n, MPI_Datatype t, int d, int tag, MPI_Comm c, MPI_Request* r) {
  ++calls;
  return PMPI_Isend(b, n, t, d, tag, c, r);
}
int MPI_Irecv(void* b, int n, MPI_Datatype t, int s, int tag, MPI_Comm c, MPI_Request* r) {
  ++calls;
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
  return PMPI_Allgather(sb, sn, st, rb, rn, rt, c);
}
int MPI_Allgatherv(const void* sb, int sn, MPI_Datatype st, void* rb, const int rn[], const int d[], MPI_Datatype rt,
                   MPI_Comm c) {
  ++calls;
  return PMPI_Allgatherv(sb, sn, st, rb, rn, d, rt, c);
}
int MPI_Allreduce(const void* sb, void* rb, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  ++calls;
  return PMPI_Allreduce(sb, rb, n, t, op, c);
}
int MPI_Alltoall(const void* sb, int sn, MPI_Datatype st, void* rb, int rn, MPI_Datatype rt, MPI_Comm c) {
  ++calls;
  return PMPI_Alltoall(sb, sn, st, rb, rn, rt, c);
}
int MPI_Alltoallv(const void* sb, const int sn[], const int sd[], MPI_Datatype st, void* rb, const int rn[],
                  const int rd[], MPI_Datatype rt, MPI_Comm c) {
  ++calls;
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

TEST(Claims, BuildingAHaloPlanFromGatheredRecordsSendsNoMessage) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  for (const bool periodic : {false, true}) {
    const auto layout = DistributedLayout::create({Dim::even_block(40, P, r, 2, periodic), Dim::undistributed(3)}, comm);
    ASSERT_TRUE(layout->has_global_layout());
    std::shared_ptr<const HaloPlan> plan;
    EXPECT_EQ(calls_in([&] { plan = HaloPlan::create(layout); }), 0) << (periodic ? "periodic" : "");
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
  EXPECT_EQ(calls_in([&] { RedistributionPlan::create(from, to); }), 0);
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
