// Owners from owned ranges (DistributedLayoutOptions::owned_ranges): a 1-D
// 'u' layout numbered as DOLFINx, PETSc and Tpetra's contiguous maps number
// it (each process's owned range first, ghosts after) finds its owners in
// closed form. Checked against the rendezvous, told the same owners by a
// rule, on random layouts drawn alike on every rank: the same owners, the
// same neighbours, the same halo update. Faults: wrong ranges on one process
// are refused on every process, naming that process.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "../common/outcome.hpp"
#include "dapetra/mpi/mpi.hpp"
#include "mpi_test_util.hpp"

using namespace dapetra;
using namespace dapetra::mpi;
using dapetra::testing::outcome;
using dapetra::testing::world;

namespace {

// P + 1 random boundaries from 0 to n (some ranges empty).
std::vector<global_index_t> random_ranges(std::mt19937_64& rng, global_index_t n, int P) {
  std::vector<global_index_t> cuts(static_cast<std::size_t>(P) - 1);
  std::uniform_int_distribution<global_index_t> at(0, n);
  for (auto& c : cuts) c = at(rng);
  std::sort(cuts.begin(), cuts.end());
  std::vector<global_index_t> starts{0};
  starts.insert(starts.end(), cuts.begin(), cuts.end());
  starts.push_back(n);
  return starts;
}

// Each process's indices: its owned range in order, then random indices of
// other ranges in shuffled order.
std::vector<std::vector<global_index_t>> random_holdings(std::mt19937_64& rng, const std::vector<global_index_t>& starts) {
  const int P = static_cast<int>(starts.size()) - 1;
  const global_index_t n = starts.back();
  std::vector<std::vector<global_index_t>> held(static_cast<std::size_t>(P));
  std::bernoulli_distribution ghost(0.2);
  for (int q = 0; q < P; ++q) {
    auto& mine = held[static_cast<std::size_t>(q)];
    for (global_index_t g = starts[q]; g < starts[q + 1]; ++g) mine.push_back(g);
    std::vector<global_index_t> ghosts;
    for (global_index_t g = 0; g < n; ++g)
      if ((g < starts[q] || g >= starts[q + 1]) && ghost(rng)) ghosts.push_back(g);
    std::shuffle(ghosts.begin(), ghosts.end(), rng);
    mine.insert(mine.end(), ghosts.begin(), ghosts.end());
  }
  return held;
}

int range_owner(const std::vector<global_index_t>& starts, global_index_t g) {
  return static_cast<int>(std::upper_bound(starts.begin(), starts.end(), g) - starts.begin()) - 1;
}

// Owned entries g + 0.5, ghosts -1, then a halo update.
std::vector<double> updated(const HaloPlan& plan, const Dim& d, const std::vector<int>& owners, int me) {
  std::vector<double> v(d.indices.size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = owners[i] == me ? static_cast<double>(d.indices[i]) + 0.5 : -1.0;
  DistArray a;
  a.dim_data = {d};
  a.buffer = view_buffer(v.data(), {static_cast<global_index_t>(v.size())});
  plan.update<double>(a);
  return v;
}

}  // namespace

TEST(OwnedRanges, ClosedFormOwnersAgreeWithTheRendezvous) {
  const auto comm = world();
  const int P = comm.size(), me = comm.rank();
  std::mt19937_64 rng(4242);  // the same draws on every rank
  for (int trial = 0; trial < 25; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const global_index_t n = std::uniform_int_distribution<global_index_t>(1, 60)(rng);
    const auto starts = random_ranges(rng, n, P);
    const auto held = random_holdings(rng, starts);
    const Dim d = Dim::unstructured(n, P, me, held[static_cast<std::size_t>(me)], false);
    DistributedLayoutOptions by_ranges, by_rule;
    by_ranges.owned_ranges = starts;
    by_rule.shared_owner = [&starts](global_index_t g, const std::vector<int>&) { return range_owner(starts, g); };
    const auto closed = IndexMap::create(DistributedLayout::create(std::vector<Dim>{d}, comm, by_ranges));
    const auto rendezvous = IndexMap::create(DistributedLayout::create(std::vector<Dim>{d}, comm, by_rule));
    for (std::size_t i = 0; i < d.indices.size(); ++i) EXPECT_EQ(closed->owners()[i], range_owner(starts, d.indices[i])) << i;
    EXPECT_EQ(closed->owners(), rendezvous->owners());
    EXPECT_EQ(closed->num_owned(), starts[me + 1] - starts[me]);
    EXPECT_EQ(closed->src(), rendezvous->src());
    EXPECT_EQ(closed->dest(), rendezvous->dest());
    for (local_index_t i = 0; i < closed->num_owned(); ++i) {
      const auto [a0, a1] = closed->sharers(i);
      const auto [b0, b1] = rendezvous->sharers(i);
      EXPECT_EQ(std::vector<int>(a0, a1), std::vector<int>(b0, b1)) << "owned element " << i;
    }
    const auto plan = HaloPlan::create(DistributedLayout::create(std::vector<Dim>{d}, comm, by_ranges));
    const auto v = updated(*plan, d, closed->owners(), me);
    for (std::size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i], static_cast<double>(d.indices[i]) + 0.5) << i;
  }
}

// Wrong owned ranges on one process (or wrong for its indices) are refused on
// every process, with the key "owned_ranges"; those one process can see
// name that process.
TEST(Faults, OwnedRangesThatDoNotFitAreRefusedEverywhere) {
  const auto comm = world();
  const int P = comm.size(), me = comm.rank();
  const global_index_t per = 4, n = per * P;
  std::vector<global_index_t> starts(static_cast<std::size_t>(P) + 1);
  for (int q = 0; q <= P; ++q) starts[static_cast<std::size_t>(q)] = per * q;
  std::vector<global_index_t> mine;
  for (global_index_t g = starts[me]; g < starts[me + 1]; ++g) mine.push_back(g);
  mine.push_back((starts[me + 1]) % n);  // a ghost from the next range
  struct Case {
    const char* what;
    std::function<void(std::vector<global_index_t>& ranges, std::vector<global_index_t>& held)> spoil;
    bool named;  // the faulty process can tell
  };
  const std::vector<Case> cases = {
      {"one boundary short", [](auto& ranges, auto&) { ranges.pop_back(); }, true},
      {"not ending at size", [n](auto& ranges, auto&) { ranges.back() = n + 1; }, true},
      {"owned range not first", [](auto&, auto& held) { std::reverse(held.begin(), held.end()); }, true},
      {"another process's ranges", [](auto& ranges, auto&) { ranges[1] -= 1; }, false},
  };
  for (const Case& c : cases)
    for (int bad = 0; bad < P; ++bad) {
      if (!c.named && P < 2) continue;  // one process cannot disagree with itself
      SCOPED_TRACE(std::string(c.what) + " on rank " + std::to_string(bad));
      std::vector<global_index_t> ranges = starts, held = P > 1 ? mine : std::vector<global_index_t>(mine.begin(), mine.end() - 1);
      if (me == bad) c.spoil(ranges, held);
      DistributedLayoutOptions options;
      options.owned_ranges = ranges;
      const auto error = outcome([&] {
        DistributedLayout::create(std::vector<Dim>{Dim::unstructured(n, P, me, held, false)}, comm, options);
      });
      ASSERT_TRUE(error.has_value());
      bool found = false;
      for (const Problem& p : error->problems())
        found = found || (p.key == "owned_ranges" && (!c.named || p.rank == bad));
      EXPECT_TRUE(found) << error->what();
    }
  // Owned ranges are for a layout whose only distributed axis is 'u'.
  DistributedLayoutOptions options;
  options.owned_ranges = starts;
  EXPECT_THROW(DistributedLayout::create(std::vector<Dim>{Dim::even_block(n, P, me)}, comm, options), ValidationError);
}
