// Soak: a million halo calls on one plan (blocking updates, split-phase
// updates with a caller-owned exchange, and assemblies, in turn) leave every
// process's resident memory where the first thousand left it: growth under
// 1 MB. The array is finite-element like: a 'u' strip whose ends are shared
// with the neighbours, several values per node. Values are checked at the end,
// so the calls did their work. Its own program, so no other test's memory
// shows in the measurement.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include "dapetra/mpi/mpi.hpp"
#include "mpi_test_util.hpp"

using namespace dapetra;
using namespace dapetra::mpi;
using dapetra::testing::owning_array;
using dapetra::testing::world;

namespace {

long long resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  long long pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * sysconf(_SC_PAGESIZE);
}

// Calls per kind: DAPETRA_SOAK_CALLS, else a million in all.
long long calls() {
  const char* env = std::getenv("DAPETRA_SOAK_CALLS");
  return env ? std::atoll(env) : 1000000;
}

}  // namespace

TEST(Soak, AMillionHaloCallsKeepMemoryFlat) {
  const auto comm = world();
  const int P = comm.size(), r = comm.rank();
  const global_index_t per = 8, n = per * P + 1;
  std::vector<global_index_t> held;
  for (global_index_t g = per * r; g <= per * (r + 1); ++g) held.push_back(g);  // shares its last node with r + 1
  const Dim nodes = Dim::unstructured(n, P, r, held, false);
  DistArray a = owning_array<double>({nodes, Dim::undistributed(3)});
  const auto plan = HaloPlan::create(DistributedLayout::create(a, comm));
  HaloExchange exchange;
  double* v = data_as<double>(a);
  const auto one_round = [&](long long k) {
    switch (k % 3) {
      case 0: plan->update<double>(a); break;
      case 1:
        plan->begin_update<double>(a, exchange);
        plan->end_update<double>(a, exchange);
        break;
      default: plan->assemble<double>(a, CombineMode::insert, false); break;
    }
  };
  const long long total = calls(), warm = 1000;
  for (long long k = 0; k < warm; ++k) one_round(k);
  const long long before = resident_bytes();
  for (long long k = warm; k < total; ++k) {
    if (k % 1000 == 0) v[0] = static_cast<double>(k);  // data changes between calls
    one_round(k);
  }
  const long long growth = resident_bytes() - before;
  long long most = 0;
  MPI_Allreduce(&growth, &most, 1, MPI_LONG_LONG, MPI_MAX, comm);
  if (r == 0) std::printf("soak: %lld calls, resident growth at most %lld bytes on any process\n", total, most);
  EXPECT_LT(most, 1 << 20);
  // The plan still works: owners' values reach every copy (the first node
  // of every process but rank 0 is its lower neighbour's, the lowest holder).
  for (std::size_t i = 0; i < held.size(); ++i)
    for (int c = 0; c < 3; ++c) v[3 * i + c] = i == 0 && r > 0 ? -1.0 : static_cast<double>(10 * held[i] + c);
  plan->update<double>(a);
  for (std::size_t i = 0; i < held.size(); ++i)
    for (int c = 0; c < 3; ++c) EXPECT_EQ(v[3 * i + c], static_cast<double>(10 * held[i] + c)) << "node " << held[i];
}
