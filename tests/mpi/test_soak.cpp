// Soaks: many calls leave every process's resident memory where the first
// rounds left it, and every round's values are checked as it goes, so the
// calls did their work all along (not only at the end).
//  - a million halo calls on one plan: blocking updates, split-phase updates
//    with a caller-owned exchange, and assemblies, in turn;
//  - creation: layouts, halo plans and redistribution plans made anew each
//    round, used once with a fresh exchange, and dropped;
//  - redistribution: one plan applied forward and back on changing data.
// The arrays are finite-element like: a 'u' strip whose ends are shared with
// the neighbours, several values per node, moved to and from a block layout.
// Its own program, so no other test's memory shows in the measurement.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>

#include "dapetra/mpi/mpi.hpp"
#include "mpi_test_util.hpp"

using namespace dapetra;
using namespace dapetra::mpi;
using dapetra::testing::owning_array;
using dapetra::testing::world;

namespace {

constexpr global_index_t per = 8;  // nodes per process before sharing
constexpr int components = 3;
constexpr long long growth_bound = 1 << 20;

long long resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  long long pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * sysconf(_SC_PAGESIZE);
}

// Rounds of a soak: DAPETRA_SOAK_CALLS scales them (the sanitizers' runs pass
// a tenth), else `full`.
long long rounds(long long full) {
  const char* env = std::getenv("DAPETRA_SOAK_CALLS");
  return env ? full * std::atoll(env) / 1000000 : full;
}

// Whether resident memory says anything of leaks in this build. Under
// AddressSanitizer freed blocks wait in its quarantine (hundreds of MB), so
// a soak that allocates per round grows there whatever the library does:
// the sanitized build sets DAPETRA_SOAK_MEMORY=unchecked for those soaks,
// which still check every round's values (and ASan reports real leaks).
bool memory_checked() {
  const char* env = std::getenv("DAPETRA_SOAK_MEMORY");
  return !env || std::string(env) != "unchecked";
}

// Rounds warm..total-1 of `round` after rounds 0..warm-1: the largest
// resident growth of any process over them. Collective.
long long largest_growth(const char* what, long long total, long long warm, const std::function<void(long long)>& round) {
  for (long long k = 0; k < warm; ++k) round(k);
  const long long before = resident_bytes();
  for (long long k = warm; k < total; ++k) round(k);
  const long long growth = resident_bytes() - before;
  long long most = 0;
  MPI_Allreduce(&growth, &most, 1, MPI_LONG_LONG, MPI_MAX, world());
  if (world().rank() == 0) std::printf("soak %s: %lld rounds, resident growth at most %lld bytes on any process\n", what, total, most);
  return most;
}

// Global nodes per*r .. per*(r+1) on process r: its last node is its upper
// neighbour's first, owned by the lowest holder (this process).
std::vector<global_index_t> strip_nodes(int r) {
  std::vector<global_index_t> held;
  for (global_index_t g = per * r; g <= per * (r + 1); ++g) held.push_back(g);
  return held;
}

DistArray strip_array(int P, int r) {
  return owning_array<double>({Dim::unstructured(per * P + 1, P, r, strip_nodes(r), false), Dim::undistributed(components)});
}

DistArray block_array(int P, int r) {
  return owning_array<double>({Dim::even_block(per * P + 1, P, r), Dim::undistributed(components)});
}

// The value every copy of (node, component) holds in round k.
double value(long long k, global_index_t node, int c) {
  return static_cast<double>(k % 9973) * 1000.0 + 10.0 * static_cast<double>(node) + c;
}

// The strip's owned entries take round k's values, its shared first node
// (every process's but rank 0's, owned below) a stale -1.
void fill_strip(DistArray& a, int r, long long k) {
  const auto held = strip_nodes(r);
  double* v = data_as<double>(a);
  for (std::size_t i = 0; i < held.size(); ++i)
    for (int c = 0; c < components; ++c) v[components * i + c] = i == 0 && r > 0 ? -1.0 : value(k, held[i], c);
}

// Entries of the strip unlike round k's values.
int strip_mismatches(const DistArray& a, int r, long long k) {
  const auto held = strip_nodes(r);
  const double* v = data_as<const double>(a);
  int wrong = 0;
  for (std::size_t i = 0; i < held.size(); ++i)
    for (int c = 0; c < components; ++c) wrong += v[components * i + c] != value(k, held[i], c);
  return wrong;
}

// Entries of the block array unlike round k's values.
int block_mismatches(const DistArray& b, long long k) {
  const Dim& d = b.dim_data[0];
  const double* v = data_as<const double>(b);
  int wrong = 0;
  for (global_index_t g = d.start; g < d.stop; ++g)
    for (int c = 0; c < components; ++c) wrong += v[components * (g - d.start) + c] != value(k, g, c);
  return wrong;
}

}  // namespace

TEST(Soak, AMillionHaloCallsKeepMemoryFlat) {
  const auto comm = world();
  const int P = comm.size(), r = comm.rank();
  DistArray a = strip_array(P, r);
  const auto plan = HaloPlan::create(DistributedLayout::create(a, comm));
  PlanExchange exchange;
  int wrong = 0;
  const auto one_round = [&](long long k) {
    switch (k % 3) {
      case 0: plan->update<double>(a); break;
      case 1:
        plan->begin_update<double>(a, exchange);
        plan->end_update<double>(a, exchange);
        break;
      default: plan->assemble<double>(a, CombineMode::insert, false); break;
    }
    if (k % 1000 == 999) {  // new data, and its update checked
      fill_strip(a, r, k);
      plan->update<double>(a);
      wrong += strip_mismatches(a, r, k);
    }
  };
  EXPECT_LT(largest_growth("halo calls", rounds(1000000), 1000, one_round), growth_bound);
  EXPECT_EQ(wrong, 0) << "rank " << r << ": entries not their owner's value after an update";
}

TEST(Soak, CreatingPlansAnewKeepsMemoryFlat) {
  const auto comm = world();
  const int P = comm.size(), r = comm.rank();
  int wrong = 0;
  const auto one_round = [&](long long k) {
    DistArray a = strip_array(P, r), b = block_array(P, r);
    const auto strip = DistributedLayout::create(a, comm);
    const auto halo = HaloPlan::create(strip);
    const auto move = RedistributionPlan::create(strip, DistributedLayout::create(b, comm));
    PlanExchange exchange;  // a fresh one per call
    fill_strip(a, r, k);
    halo->begin_update<double>(a, exchange);
    halo->end_update<double>(a, exchange);
    wrong += strip_mismatches(a, r, k);
    move->apply<double>(a, b);
    wrong += block_mismatches(b, k);
  };
  const long long growth = largest_growth("creation", rounds(10000), 200, one_round);
  if (memory_checked()) {
    EXPECT_LT(growth, growth_bound);
  }
  EXPECT_EQ(wrong, 0) << "rank " << r << ": entries unlike the round's values";
}

TEST(Soak, RedistributingKeepsMemoryFlat) {
  const auto comm = world();
  const int P = comm.size(), r = comm.rank();
  DistArray a = strip_array(P, r), b = block_array(P, r);
  const auto move = RedistributionPlan::create(DistributedLayout::create(a, comm), DistributedLayout::create(b, comm));
  int wrong = 0;
  const auto one_round = [&](long long k) {
    fill_strip(a, r, k);
    move->apply<double>(a, b);
    wrong += block_mismatches(b, k);
    // Back: the strip's owned entries from the block array's (the shared
    // first node is not owned here, so stays stale until an update).
    fill_strip(a, r, -1);
    move->apply_reverse<double>(b, a);
    const double* v = data_as<const double>(a);
    const auto held = strip_nodes(r);
    for (std::size_t i = r > 0 ? 1 : 0; i < held.size(); ++i)
      for (int c = 0; c < components; ++c) wrong += v[components * i + c] != value(k, held[i], c);
  };
  const long long growth = largest_growth("redistribution", rounds(200000), 1000, one_round);
  if (memory_checked()) {
    EXPECT_LT(growth, growth_bound);
  }
  EXPECT_EQ(wrong, 0) << "rank " << r << ": entries unlike the round's values";
}
