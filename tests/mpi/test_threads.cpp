// Plans used from several threads at once, as halo.hpp allows: a plan holds
// no mutable state, blocking calls take message buffers kept per thread, and
// split-phase state is the caller's PlanExchange. Three threads run their own
// plans concurrently (blocking halo updates; two split-phase updates of one
// plan in flight at once; redistributions), the owned values changing every
// round, and every element is checked every round. Its own program: MPI is
// initialised with MPI_THREAD_MULTIPLE (skipped where the MPI lacks it). On an
// MPI library proven to hang with several threads in MPI at once
// (../common/thread_faults.hpp: threads_pattern.cpp shows it with no Dapetra
// in it) the test runs clear of the faulty transport and says so.
#include <gtest/gtest.h>
#include <mpi.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <thread>

#include "../common/rank_failure_printer.hpp"
#include "../common/thread_faults.hpp"
#include "dapetra/mpi/mpi.hpp"
#include "mpi_test_util.hpp"

using namespace dapetra;
using namespace dapetra::mpi;
using dapetra::testing::owning_array;
using dapetra::testing::world;

namespace {

int thread_support = MPI_THREAD_SINGLE;

constexpr global_index_t n = 4000;
constexpr int rounds = 300;

// The value of global element g in round k of thread t.
double value(global_index_t g, int k, int t) { return static_cast<double>(g) + 1e4 * k + 1e8 * t; }

// A 1-D array of `dim`, its owned elements set to round k's values, its ghosts to -1.
void fill_owned(const DistributedLayout& layout, const DistArray& a, int k, int t) {
  const auto flat = dapetra::testing::global_flat_indices(a.dim_data);
  for (std::size_t i = 0; i < flat.size(); ++i)
    data_as<double>(a)[i] = layout.is_owned(0, static_cast<global_index_t>(i)) ? value(flat[i], k, t) : -1.0;
}

// Elements of `a` (all of them, or the owned ones) that differ from round k's values.
int wrong(const DistributedLayout& layout, const DistArray& a, int k, int t, bool owned_only) {
  const auto flat = dapetra::testing::global_flat_indices(a.dim_data);
  int bad = 0;
  for (std::size_t i = 0; i < flat.size(); ++i)
    if (!owned_only || layout.is_owned(0, static_cast<global_index_t>(i)))
      bad += data_as<double>(a)[i] != value(flat[i], k, t);
  return bad;
}

}  // namespace

TEST(Threads, PlansRunConcurrentlyFromSeveralThreads) {
  if (thread_support < MPI_THREAD_MULTIPLE) GTEST_SKIP() << "this MPI does not provide MPI_THREAD_MULTIPLE";
  const auto comm = world();
  const int P = comm.size(), r = comm.rank();
  // Every layout and plan is made on this thread (creation is collective);
  // each thread then uses its own plans only.
  const DistArray a = owning_array<double>({Dim::even_block(n, P, r, 2)});
  const DistArray b1 = owning_array<double>({Dim::even_block(n, P, r, 3)});
  const DistArray b2 = owning_array<double>({Dim::even_block(n, P, r, 3)});
  const DistArray from = owning_array<double>({Dim::even_block(n, P, r)});
  const DistArray to = owning_array<double>({Dim::cyclic(n, P, r, 7)});
  const auto la = DistributedLayout::create(a, comm);
  const auto lb = DistributedLayout::create(b1, comm);
  const auto lfrom = DistributedLayout::create(from, comm), lto = DistributedLayout::create(to, comm);
  const auto halo_a = HaloPlan::create(la), halo_b = HaloPlan::create(lb);
  const auto move = RedistributionPlan::create(lfrom, lto);

  std::atomic<int> bad_blocking{0}, bad_split{0}, bad_moved{0};
  const std::function<void()> blocking = [&] {
    for (int k = 0; k < rounds; ++k) {
      fill_owned(*la, a, k, 0);
      halo_a->update<double>(a);
      bad_blocking += wrong(*la, a, k, 0, false);
    }
  };
  const std::function<void()> split = [&] {
    PlanExchange first, second;
    for (int k = 0; k < rounds; ++k) {
      fill_owned(*lb, b1, k, 1);
      fill_owned(*lb, b2, k, 2);
      halo_b->begin_update<double>(b1, first);
      halo_b->begin_update<double>(b2, second);
      halo_b->end_update<double>(b2, second);
      halo_b->end_update<double>(b1, first);
      bad_split += wrong(*lb, b1, k, 1, false) + wrong(*lb, b2, k, 2, false);
    }
  };
  const std::function<void()> moving = [&] {
    for (int k = 0; k < rounds; ++k) {
      fill_owned(*lfrom, from, k, 3);
      move->apply<double>(from, to);
      bad_moved += wrong(*lto, to, k, 3, true);
    }
  };
  std::thread t1(blocking), t2(split), t3(moving);
  t1.join();
  t2.join();
  t3.join();
  EXPECT_EQ(bad_blocking.load(), 0);
  EXPECT_EQ(bad_split.load(), 0);
  EXPECT_EQ(bad_moved.load(), 0);
}

int main(int argc, char** argv) {
  const dapetra::testing::ThreadFault fault = dapetra::testing::known_thread_fault();
  if (!fault.version.empty()) setenv("OMPI_MCA_btl", fault.avoided.c_str(), 1);
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &thread_support);
  if (!fault.version.empty() && world().rank() == 0)
    std::printf("%s: %s; run with btl %s\n", fault.version.c_str(), fault.what.c_str(), fault.avoided.c_str());
  ::testing::InitGoogleTest(&argc, argv);
  const int any = dapetra::testing::run_all_tests_on_every_rank(MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}
