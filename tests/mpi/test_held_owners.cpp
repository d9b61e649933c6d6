// Owners named per held position (Ownership::from_held_owners):
// what a DOLFINx or PETSc numbering that is not ranges gives its user. On
// random layouts drawn alike on every rank (any numbering, each index held
// by a random set of processes, its owner a random one of them), the held
// layout must agree with the rendezvous told the same owners by a rule:
// owners, neighbours, halo update, and redistribution both to a layout
// with records (block) and to another scattered 'u' layout. Faults: held owners
// that disagree, name a non-holder, miss a position or are missing on one
// process are refused on every process.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>

#include "../common/outcome.hpp"
#include "../common/seed.hpp"
#include "dapetra/mpi/adapter_access.hpp"  // white-box: how the layout settled its owners
#include "dapetra/mpi/mpi.hpp"
#include "mpi_test_util.hpp"

using namespace dapetra;
using namespace dapetra::mpi;
using dapetra::testing::outcome;
using dapetra::testing::world;

namespace {

// One random draw, the same on every rank: an axis of 1 to 50 indices, each
// held by a random non-empty set of processes in random order, its owner a
// random holder; this rank's indices and the owners it names for them.
struct Draw {
  global_index_t n = 0;
  std::map<global_index_t, int> owner;  // of every index
  std::map<global_index_t, std::vector<int>> holders;  // of every index, ascending
  std::vector<global_index_t> mine;
  std::vector<int> held_owners;
};
Draw draw(std::mt19937_64& rng, int P, int me) {
  Draw d;
  d.n = std::uniform_int_distribution<global_index_t>(1, 50)(rng);
  std::vector<std::vector<global_index_t>> held(static_cast<std::size_t>(P));
  std::uniform_int_distribution<int> any_rank(0, P - 1);
  std::bernoulli_distribution also(0.3);
  for (global_index_t g = 0; g < d.n; ++g) {
    std::vector<int> holders{any_rank(rng)};
    for (int q = 0; q < P; ++q)
      if (q != holders[0] && also(rng)) holders.push_back(q);
    d.owner[g] = holders[std::uniform_int_distribution<std::size_t>(0, holders.size() - 1)(rng)];
    std::sort(holders.begin(), holders.end());
    d.holders[g] = holders;
    for (int q : holders) held[static_cast<std::size_t>(q)].push_back(g);
  }
  for (auto& h : held) std::shuffle(h.begin(), h.end(), rng);
  d.mine = held[static_cast<std::size_t>(me)];
  for (global_index_t g : d.mine) d.held_owners.push_back(d.owner.at(g));
  return d;
}

// Owned entries 10 g + 1, the others -1 (as after a solve on the owned
// entries alone).
std::vector<double> owned_values(const Dim& d, const std::vector<int>& owners, int me) {
  std::vector<double> v(d.indices.size());
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = owners[i] == me ? 10.0 * static_cast<double>(d.indices[i]) + 1 : -1.0;
  return v;
}

DistArray array_over(std::vector<double>& v, const std::vector<Dim>& dims) {
  DistArray a;
  a.dim_data = dims;
  a.buffer = view_buffer(v.data(), {static_cast<global_index_t>(v.size())});
  return a;
}

}  // namespace

TEST(HeldOwners, AgreeWithARuleNamingTheSameOwners) {
  const auto comm = world();
  const int P = comm.size(), me = comm.rank();
  const auto seed = dapetra::testing::test_seed(2911);  // the same draws on every rank
  SCOPED_TRACE(seed.replay);
  std::mt19937_64 rng(seed.value);
  int not_lowest = 0;         // shared indices whose owner is not the lowest holder, over the trials
  for (int trial = 0; trial < 25; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const Draw drawn = draw(rng, P, me);
    const Dim d = Dim::unstructured(drawn.n, P, me, drawn.mine, false);
    DistributedLayoutOptions with_held_owners, by_rule;
    with_held_owners.ownership = Ownership::from_held_owners(drawn.held_owners);
    by_rule.ownership = Ownership::by_rule([&drawn](global_index_t g, const std::vector<int>&) { return drawn.owner.at(g); });
    const auto layout = DistributedLayout::create(std::vector<Dim>{d}, comm, with_held_owners);
    const auto ruled = DistributedLayout::create(std::vector<Dim>{d}, comm, by_rule);
    EXPECT_TRUE(mpi::adapter::has_held_owners(*layout));
    const auto map = IndexMap::create(layout), want = IndexMap::create(ruled);
    EXPECT_EQ(map->owners(), drawn.held_owners);
    EXPECT_EQ(map->owners(), want->owners());
    EXPECT_EQ(map->src(), want->src());
    EXPECT_EQ(map->dest(), want->dest());
    EXPECT_EQ(layout->num_owned(), want->num_owned());

    // A halo update copies each owner's value (not the lowest holder's).
    std::vector<double> v = owned_values(d, drawn.held_owners, me);
    HaloPlan::create(layout)->update<double>(array_over(v, {d}));
    for (std::size_t i = 0; i < v.size(); ++i) EXPECT_EQ(v[i], 10.0 * static_cast<double>(d.indices[i]) + 1) << i;

    // The same indices moved below 0 (a 1-D 'u' array may hold such):
    // settled by a hash, not in plain arrays over [0, size).
    std::vector<global_index_t> shifted = drawn.mine;
    for (global_index_t& g : shifted) g -= 1000;
    const Dim below = Dim::unstructured(drawn.n, P, me, shifted, false);
    const auto hashed = IndexMap::create(DistributedLayout::create(std::vector<Dim>{below}, comm, with_held_owners));
    EXPECT_EQ(hashed->owners(), drawn.held_owners);
    EXPECT_EQ(hashed->src(), want->src());
    EXPECT_EQ(hashed->dest(), want->dest());
    std::vector<double> w = owned_values(below, drawn.held_owners, me);
    HaloPlan::create(DistributedLayout::create(std::vector<Dim>{below}, comm, with_held_owners))->update<double>(array_over(w, {below}));
    for (std::size_t i = 0; i < w.size(); ++i) EXPECT_EQ(w[i], 10.0 * static_cast<double>(shifted[i]) + 1) << i;

    // Redistribution to a block layout (the records near this process) and
    // to a scattered 'u' layout (every process's records gathered) takes
    // each index's value from its held owner: mark every copy that is
    // not the owner's with -1 and none may arrive.
    std::vector<double> source = owned_values(d, drawn.held_owners, me);
    const Dim block = Dim::even_block(drawn.n, P, me);
    std::vector<double> to_block(static_cast<std::size_t>(local_extent(block)), -7.0);
    RedistributionPlan::create(layout, DistributedLayout::create(std::vector<Dim>{block}, comm))
        ->apply<double>(array_over(source, {d}), array_over(to_block, {block}));
    for (global_index_t i = 0; i < local_extent(block); ++i)
      EXPECT_EQ(to_block[static_cast<std::size_t>(i)], 10.0 * static_cast<double>(global_index(block, i)) + 1) << i;
    std::vector<global_index_t> reversed;  // every index once, dealt from the top down
    for (global_index_t g = drawn.n - 1; g >= 0; --g)
      if (static_cast<int>(g % P) == me) reversed.push_back(g);
    const Dim other = Dim::unstructured(drawn.n, P, me, reversed, true);
    std::vector<double> to_other(reversed.size(), -7.0);
    RedistributionPlan::create(layout, DistributedLayout::create(std::vector<Dim>{other}, comm))
        ->apply<double>(array_over(source, {d}), array_over(to_other, {other}));
    for (std::size_t i = 0; i < reversed.size(); ++i) EXPECT_EQ(to_other[i], 10.0 * static_cast<double>(reversed[i]) + 1) << i;

    for (const auto& [g, owner] : drawn.owner) not_lowest += owner != drawn.holders.at(g).front();
  }
  if (P > 1) {
    EXPECT_GT(not_lowest, 0) << "the draws never tested an owner other than the lowest holder";
  }
}

// Claims that do not fit are refused on every process with the key
// "held_owners"; those one process can see name that process.
TEST(Faults, HeldOwnersThatDoNotFitAreRefusedEverywhere) {
  const auto comm = world();
  const int P = comm.size(), me = comm.rank();
  const global_index_t per = 4, n = per * P;
  // Process q holds [4q, 4q + 4) and the next process's first index; every
  // index is named for the process whose range holds it.
  std::vector<global_index_t> mine;
  for (global_index_t g = per * me; g < per * (me + 1); ++g) mine.push_back(g);
  if (P > 1) mine.push_back(per * ((me + 1) % P));
  std::vector<int> held_owners;
  for (global_index_t g : mine) held_owners.push_back(static_cast<int>(g / per));
  {
    DistributedLayoutOptions options;
    options.ownership = Ownership::from_held_owners(held_owners);
    EXPECT_EQ(IndexMap::create(DistributedLayout::create(std::vector<Dim>{Dim::unstructured(n, P, me, mine, false)}, comm,
                                                         options))->owners(),
              held_owners);
  }
  struct Case {
    const char* what;
    std::function<void(std::vector<int>& held_owners, DistributedLayoutOptions& options)> spoil;
    bool named;      // the faulty process is the one named
    bool needs_two;  // needs another process to disagree with
  };
  const std::vector<Case> cases = {
      {"one owner short", [](auto& c, auto&) { c.pop_back(); }, true, false},
      {"a rank past the communicator", [P](auto& c, auto&) { c[0] = P; }, true, false},
      {"a negative rank", [](auto& c, auto&) { c[1] = -1; }, true, false},
      {"none where others name owners", [](auto& c, auto&) { c.clear(); }, true, true},
      {"a ghost's owner differing from what its owner names", [P, me](auto& c, auto&) { c.back() = (me + 2) % P; }, false, true},
      {"an owned index given to a process not holding it", [P, me](auto& c, auto&) { c[2] = (me + 1) % P; }, false, true},
  };
  // Indices in [0, size) settle in plain arrays; shifted below 0, by a hash.
  for (const global_index_t shift : {global_index_t{0}, global_index_t{-1000}})
  for (const Case& c : cases)
    for (int bad = 0; bad < P; ++bad) {
      if (c.needs_two && P < 2) continue;
      SCOPED_TRACE(std::string(c.what) + " on rank " + std::to_string(bad) + ", indices shifted by " + std::to_string(shift));
      std::vector<int> given = held_owners;
      DistributedLayoutOptions options;
      if (me == bad) c.spoil(given, options);
      options.ownership = Ownership::from_held_owners(given);
      std::vector<global_index_t> held = mine;
      for (global_index_t& g : held) g += shift;
      const auto error = outcome([&] {
        DistributedLayout::create(std::vector<Dim>{Dim::unstructured(n, P, me, held, false)}, comm, options);
      });
      ASSERT_TRUE(error.has_value());
      bool found = false;
      for (const Problem& p : error->problems()) found = found || (p.key == "held_owners" && (!c.named || p.rank == bad));
      EXPECT_TRUE(found) << error->what();
    }
  // Held owners are for a layout whose only distributed axis is 'u'.
  DistributedLayoutOptions options;
  options.ownership = Ownership::from_held_owners(std::vector<int>(static_cast<std::size_t>(per), me));
  EXPECT_THROW(DistributedLayout::create(std::vector<Dim>{Dim::even_block(n, P, me)}, comm, options), ValidationError);
}
