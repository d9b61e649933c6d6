// Owners from owned ranges (Ownership::from_ranges): a 1-D
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

#include "../common/seed.hpp"
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

// One random draw, the same on every rank: an axis of 1 to 60 indices,
// its owned ranges, every rank's holdings, and this rank's record.
struct Draw {
  std::vector<global_index_t> starts;
  std::vector<std::vector<global_index_t>> held;
  Dim mine;
};
Draw draw(std::mt19937_64& rng, int P, int me) {
  const global_index_t n = std::uniform_int_distribution<global_index_t>(1, 60)(rng);
  Draw d;
  d.starts = random_ranges(rng, n, P);
  d.held = random_holdings(rng, d.starts);
  d.mine = Dim::unstructured(n, P, me, d.held[static_cast<std::size_t>(me)], false);
  return d;
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
  const auto seed = dapetra::testing::test_seed(4242);  // the same draws on every rank
  SCOPED_TRACE(seed.replay);
  std::mt19937_64 rng(seed.value);
  for (int trial = 0; trial < 25; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const Draw drawn = draw(rng, P, me);
    const auto& starts = drawn.starts;
    const Dim& d = drawn.mine;
    DistributedLayoutOptions by_ranges, by_rule;
    by_ranges.ownership = Ownership::from_ranges(starts);
    by_rule.ownership = Ownership::by_rule([&starts](global_index_t g, const std::vector<int>&) { return range_owner(starts, g); });
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
    const char* key = "owned_ranges";
  };
  // (Ghost faults: past the owned range, where only the ghosts are checked.)
  const std::vector<Case> cases = {
      {"one boundary short", [](auto& ranges, auto&) { ranges.pop_back(); }, true},
      {"not ending at size", [n](auto& ranges, auto&) { ranges.back() = n + 1; }, true},
      {"owned range not first", [](auto&, auto& held) { std::reverse(held.begin(), held.end()); }, true},
      {"another process's ranges", [](auto& ranges, auto&) { ranges[1] -= 1; }, false},
      {"a ghost past size", [n](auto&, auto& held) { held.push_back(n); }, true},
      {"a negative ghost", [](auto&, auto& held) { held.push_back(-1); }, true},
      {"a ghost from its own range", [me, per](auto&, auto& held) { held.push_back(per * me + per / 2); }, true, "indices"},
      {"a ghost twice", [n, per, me](auto&, auto& held) { held.push_back((per * (me + 1)) % n), held.push_back(held.back()); },
       true, "indices"},
  };
  for (const Case& c : cases)
    for (int bad = 0; bad < P; ++bad) {
      if (!c.named && P < 2) continue;  // one process cannot disagree with itself
      SCOPED_TRACE(std::string(c.what) + " on rank " + std::to_string(bad));
      std::vector<global_index_t> ranges = starts, held = P > 1 ? mine : std::vector<global_index_t>(mine.begin(), mine.end() - 1);
      if (me == bad) c.spoil(ranges, held);
      DistributedLayoutOptions options;
      options.ownership = Ownership::from_ranges(ranges);
      const auto error = outcome([&] {
        DistributedLayout::create(std::vector<Dim>{Dim::unstructured(n, P, me, held, false)}, comm, options);
      });
      ASSERT_TRUE(error.has_value());
      bool found = false;
      for (const Problem& p : error->problems())
        found = found || (p.key == c.key && (!c.named || p.rank == bad));
      EXPECT_TRUE(found) << error->what();
    }
  // Owned ranges are for a layout whose only distributed axis is 'u'.
  DistributedLayoutOptions options;
  options.ownership = Ownership::from_ranges(starts);
  EXPECT_THROW(DistributedLayout::create(std::vector<Dim>{Dim::even_block(n, P, me)}, comm, options), ValidationError);
}

// A one_to_one flag under owned ranges holds exactly when no process holds
// a ghost: proven from the counts (the ranges checked), refused otherwise.
TEST(OwnedRanges, OneToOneClaimsAreDecidedFromTheCounts) {
  const auto comm = world();
  const int P = comm.size(), me = comm.rank();
  const global_index_t per = 5, n = per * P;
  std::vector<global_index_t> starts;
  for (int q = 0; q <= P; ++q) starts.push_back(per * q);
  DistributedLayoutOptions options;
  options.ownership = Ownership::from_ranges(starts);
  std::vector<global_index_t> mine(static_cast<std::size_t>(per));
  std::iota(mine.begin(), mine.end(), per * me);
  const auto layout = DistributedLayout::create(std::vector<Dim>{Dim::unstructured(n, P, me, mine, true)}, comm, options);
  EXPECT_EQ(layout->num_owned(), per);
  EXPECT_EQ(HaloPlan::create(layout)->num_ghosts(), 0u);
  if (P < 2) return;  // one process holds no ghost
  for (int bad = 0; bad < P; ++bad) {
    SCOPED_TRACE("a ghost on rank " + std::to_string(bad));
    std::vector<global_index_t> held = mine;
    if (me == bad) held.push_back((per * (me + 1)) % n);
    const auto error = outcome([&] {
      DistributedLayout::create(std::vector<Dim>{Dim::unstructured(n, P, me, held, true)}, comm, options);
    });
    ASSERT_TRUE(error.has_value());
    bool named = false;
    for (const Problem& p : error->problems()) named = named || (p.key == "indices" && p.rank == bad);
    EXPECT_TRUE(named) << error->what();
  }
}

// Beside undistributed axes (nodes x components): the same update as the
// rendezvous told the same owners, every component of every ghost node.
TEST(OwnedRanges, NodesTimesComponentsUpdateAsTheRendezvousDoes) {
  const auto comm = world();
  const int P = comm.size(), me = comm.rank();
  const auto seed = dapetra::testing::test_seed(977);  // the same draws on every rank
  SCOPED_TRACE(seed.replay);
  std::mt19937_64 rng(seed.value);
  const global_index_t components = 3;
  for (int trial = 0; trial < 10; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const global_index_t n = std::uniform_int_distribution<global_index_t>(1, 40)(rng);
    const auto starts = random_ranges(rng, n, P);
    const auto held = random_holdings(rng, starts)[static_cast<std::size_t>(me)];
    const std::vector<Dim> dims{Dim::unstructured(n, P, me, held, false), Dim::undistributed(components)};
    DistributedLayoutOptions by_ranges, by_rule;
    by_ranges.ownership = Ownership::from_ranges(starts);
    by_rule.ownership = Ownership::by_rule([&starts](global_index_t g, const std::vector<int>&) { return range_owner(starts, g); });
    const auto run = [&](const DistributedLayoutOptions& options) {
      std::vector<double> v(held.size() * components, -1.0);
      const global_index_t owned = starts[me + 1] - starts[me];
      for (global_index_t i = 0; i < owned; ++i)
        for (global_index_t c = 0; c < components; ++c)
          v[static_cast<std::size_t>(i * components + c)] = static_cast<double>(held[static_cast<std::size_t>(i)] * components + c);
      DistArray a;
      a.dim_data = dims;
      a.buffer = view_buffer(v.data(), {static_cast<global_index_t>(held.size()), components});
      HaloPlan::create(DistributedLayout::create(a, comm, options))->update<double>(a);
      return v;
    };
    const auto closed = run(by_ranges);
    EXPECT_EQ(closed, run(by_rule));
    for (std::size_t i = 0; i < held.size(); ++i)
      for (global_index_t c = 0; c < components; ++c)
        EXPECT_EQ(closed[i * components + static_cast<std::size_t>(c)], static_cast<double>(held[i] * components + c)) << i;
  }
}

// Untold, a numbering by owned ranges (each process's range first) is found
// from the leading runs, and only what follows the ranges travels. Every
// owner rule still decides shared indices, even where it gives an index of
// one process's range to another holder: the owners must be what every
// holder list, known here in full, says.
TEST(OwnedRanges, RangesTheNumberingShowsKeepEveryOwnerRule) {
  const auto comm = world();
  const int P = comm.size(), me = comm.rank();
  const auto seed = dapetra::testing::test_seed(5151);  // the same draws on every rank
  SCOPED_TRACE(seed.replay);
  std::mt19937_64 rng(seed.value);
  const auto lowest = [](global_index_t, const std::vector<int>& holders) { return holders.front(); };
  const auto highest = [](global_index_t, const std::vector<int>& holders) { return holders.back(); };
  int moved = 0;  // indices of a range owned by another process, over the trials
  for (int trial = 0; trial < 25; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const Draw drawn = draw(rng, P, me);
    const auto& starts = drawn.starts;
    const auto& held = drawn.held;
    const Dim& d = drawn.mine;
    for (const bool highest_rule : {false, true}) {
      DistributedLayoutOptions options;  // the default rule, or the highest holder
      if (highest_rule) options.ownership = Ownership::by_rule(highest);
      const auto& rule = highest_rule ? SharedIndexOwner(highest) : SharedIndexOwner(lowest);
      const auto layout = DistributedLayout::create(std::vector<Dim>{d}, comm, options);
      const auto map = IndexMap::create(layout);
      std::vector<int> want(d.indices.size());
      for (std::size_t i = 0; i < d.indices.size(); ++i) {
        std::vector<int> holders;
        for (int q = 0; q < P; ++q)
          if (std::count(held[static_cast<std::size_t>(q)].begin(), held[static_cast<std::size_t>(q)].end(), d.indices[i]))
            holders.push_back(q);
        want[i] = rule(d.indices[i], holders);
        moved += static_cast<int>(i) < starts[me + 1] - starts[me] && want[i] != me;
      }
      EXPECT_EQ(map->owners(), want);
      const auto v = updated(*HaloPlan::create(layout), d, want, me);
      for (std::size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i], static_cast<double>(d.indices[i]) + 0.5) << i;
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &moved, 1, MPI_INT, MPI_SUM, comm);
  if (P > 1) {
    EXPECT_GT(moved, 0) << "no draw gave an index of a range to another process";
  }
}
