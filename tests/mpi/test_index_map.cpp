// IndexMap against a brute-force oracle: every process knows every
// process's records (random layouts drawn alike on every rank, and the
// spec's chapter-2 examples), and the oracle (spec_oracle.hpp) says who owns
// each element of each buffer from the spec's definitions alone. Owners,
// global indices, global-to-local look-ups, owned ranges, src, dest and the
// holders of each owned element's copies must all agree with it.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "../common/outcome.hpp"
#include "../common/spec_oracle.hpp"
#include "../core/random_layout.hpp"
#include "dapetra/json.hpp"
#include "dapetra/mpi/adapter_access.hpp"  // white-box: how the layout settled its owners
#include "dapetra/mpi/mpi.hpp"
#include "mpi_test_util.hpp"

using namespace dapetra;
using namespace dapetra::mpi;
using dapetra::testing::world;
namespace oracle = dapetra::testing::oracle;

namespace {

// Every rank's elements (local C order): global flat index and whether that rank owns it.
struct Truth {
  std::vector<std::vector<global_index_t>> flat;
  std::vector<std::vector<bool>> owned;
  std::map<global_index_t, int> owner;  // global index -> owning rank
};

Truth truth_of(const LayoutRecords& layout) {
  Truth t;
  for (int q = 0; q < static_cast<int>(layout.ranks.size()); ++q) {
    const auto& dims = layout.ranks[static_cast<std::size_t>(q)].dim_data;
    t.flat.push_back(oracle::global_flat_indices(dims));
    std::vector<bool> owned = oracle::owned_elements(layout, q);
    for (std::size_t e = 0; e < owned.size(); ++e)
      if (owned[e]) t.owner[t.flat.back()[e]] = q;
    t.owned.push_back(std::move(owned));
  }
  return t;
}

// Every answer of `map` (this rank's) against the oracle; returns the ghosts seen.
int expect_agrees(const IndexMap& map, const LayoutRecords& layout, const std::string& what) {
  SCOPED_TRACE(what);
  const int me = map.layout().rank();
  const Truth t = truth_of(layout);
  const auto& flat = t.flat[static_cast<std::size_t>(me)];
  EXPECT_EQ(map.global_indices(), flat);
  EXPECT_EQ(map.global_size(), static_cast<global_index_t>(t.owner.size()));
  std::vector<int> src;
  std::set<int> dest;
  global_index_t owned = 0, lo = 0, hi = 0;
  for (std::size_t i = 0; i < flat.size(); ++i) {
    const auto li = static_cast<local_index_t>(i);
    EXPECT_EQ(map.owners()[i], t.owner.at(flat[i])) << "element " << i;
    EXPECT_EQ(map.is_owned(li), static_cast<bool>(t.owned[static_cast<std::size_t>(me)][i])) << "element " << i;
    EXPECT_EQ(map.local_index(flat[i]), li);
    if (map.owners()[i] != me) src.push_back(map.owners()[i]);
    if (t.owned[static_cast<std::size_t>(me)][i]) {
      lo = owned == 0 ? flat[i] : std::min(lo, flat[i]);
      hi = owned == 0 ? flat[i] + 1 : std::max(hi, flat[i] + 1);
      ++owned;
    }
    // The holders of copies: every other rank holding this index without owning it.
    std::vector<int> want;
    if (t.owned[static_cast<std::size_t>(me)][i])
      for (int q = 0; q < static_cast<int>(t.flat.size()); ++q)
        if (q != me && std::count(t.flat[static_cast<std::size_t>(q)].begin(), t.flat[static_cast<std::size_t>(q)].end(), flat[i]))
          want.push_back(q);
    const auto [b, e] = map.sharers(li);
    EXPECT_EQ(std::vector<int>(b, e), want) << "element " << i;
    dest.insert(want.begin(), want.end());
  }
  EXPECT_EQ(map.num_owned(), owned);
  EXPECT_EQ(map.num_ghosts() + map.num_owned(), static_cast<local_index_t>(flat.size()));
  std::sort(src.begin(), src.end());
  src.erase(std::unique(src.begin(), src.end()), src.end());
  EXPECT_EQ(map.src(), src);
  EXPECT_EQ(map.dest(), std::vector<int>(dest.begin(), dest.end()));
  if (owned == 0) {
    EXPECT_EQ(map.owned_range(), std::make_optional(std::make_pair(global_index_t{0}, global_index_t{0})));
  } else if (hi - lo == owned) {
    EXPECT_EQ(map.owned_range(), std::make_optional(std::make_pair(lo, hi)));
  } else {
    EXPECT_FALSE(map.owned_range().has_value());
  }
  // Indices held nowhere here are not found (1-D 'u' arrays may hold negative ones).
  const auto [least, most] = std::minmax_element(flat.begin(), flat.end());
  for (global_index_t g : {flat.empty() ? 0 : *least - 1, flat.empty() ? 1 : *most + 1}) EXPECT_EQ(map.local_index(g), -1);
  return static_cast<int>(flat.size()) - static_cast<int>(owned);
}

}  // namespace

TEST(IndexMap, AgreesWithTheOracleOnRandomLayouts) {
  const auto comm = world();
  dapetra::testing::RandomLayouts draws(4242, comm.size());  // the same layouts on every rank
  SCOPED_TRACE(draws.seed.replay);
  int ghosts = 0, scattered = 0;
  for (int trial = 0; trial < 80; ++trial) {
    const LayoutRecords layout = draws.next();
    const auto dl = DistributedLayout::create(layout.ranks[static_cast<std::size_t>(comm.rank())].dim_data, comm);
    scattered += mpi::adapter::scattered_axis(*dl) >= 0;
    ghosts += expect_agrees(*IndexMap::create(dl), layout, "trial " + std::to_string(trial));
  }
  // The draws must have exercised ghosts (somewhere: one process alone may
  // hold none) and scattered 'u' layouts.
  MPI_Allreduce(MPI_IN_PLACE, &ghosts, 1, MPI_INT, MPI_SUM, comm);
  if (comm.size() > 1) {
    EXPECT_GT(ghosts, 0);
    EXPECT_GT(scattered, 0);
  }
}

// Scattered 'u' layouts with shared indices, lowest holder and another
// owner rule: each process holds a run of a ring and the next process's
// first two indices.
TEST(IndexMap, SharedUnstructuredIndicesUnderEitherOwnerRule) {
  const auto comm = world();
  const int P = comm.size(), r = comm.rank();
  const global_index_t n = 5 * P;
  const auto ring = [&](int q) {
    std::vector<global_index_t> held;
    for (global_index_t k = 0; k < (P > 1 ? 7 : 5); ++k) held.push_back((5 * q + k) % n);
    return Dim::unstructured(n, P, q, held, false);
  };
  LayoutRecords layout;
  for (int q = 0; q < P; ++q) layout.ranks.push_back(RankEntry{{ring(q)}, std::nullopt});
  const auto map = IndexMap::create(DistributedLayout::create(std::vector<Dim>{ring(r)}, comm));
  expect_agrees(*map, layout, "lowest holder");
  DistributedLayoutOptions highest;
  highest.ownership = Ownership::highest_holder();
  const auto other = IndexMap::create(DistributedLayout::create(std::vector<Dim>{ring(r)}, comm, highest));
  for (local_index_t i = 0; i < other->local_size(); ++i) {
    const global_index_t g = other->global_indices()[static_cast<std::size_t>(i)];
    int last = -1;
    for (int q = 0; q < P; ++q)
      if (std::count(layout.ranks[static_cast<std::size_t>(q)].dim_data[0].indices.begin(),
                     layout.ranks[static_cast<std::size_t>(q)].dim_data[0].indices.end(), g))
        last = q;
    EXPECT_EQ(other->owners()[static_cast<std::size_t>(i)], last) << "index " << g;
  }
}

TEST(IndexMap, AgreesWithTheOracleOnTheSpecExamples) {
  const auto comm = world();
  int ran = 0;
  const auto examples = dapetra::testing::spec_examples();
  for (const auto& [id, ex] : examples.items()) {
    if (static_cast<int>(ex["ranks"].size()) != comm.size()) continue;
    LayoutRecords layout;
    for (const auto& rank : ex["ranks"])
      layout.ranks.push_back(RankEntry{dim_data_from_json(rank["dim_data"].dump()), std::nullopt});
    const auto dl = DistributedLayout::create(layout.ranks[static_cast<std::size_t>(comm.rank())].dim_data, comm);
    expect_agrees(*IndexMap::create(dl), layout, "example " + id);
    ++ran;
  }
  if (comm.size() == 2 || comm.size() == 3 || comm.size() == 4) {
    EXPECT_GT(ran, 0);
  }
}

// Sub-maps of random layouts, each rank keeping a random subset of its
// elements (drawn alike on every rank for every rank): the oracle carries
// ownership over by the rule (an owner that keeps an element owns it, else
// its lowest keeper) and numbers kept elements consecutively by owner.
TEST(IndexMap, SubMapsCarryOwnershipOverAndNumberByOwner) {
  const auto comm = world();
  const int P = comm.size(), me = comm.rank();
  dapetra::testing::RandomLayouts draws(777, P);  // the same layouts on every rank
  SCOPED_TRACE(draws.seed.replay);
  int moved = 0;
  for (int trial = 0; trial < 60; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    const LayoutRecords layout = draws.next();
    const Truth t = truth_of(layout);
    std::vector<std::vector<local_index_t>> keep(static_cast<std::size_t>(P));
    for (int q = 0; q < P; ++q)
      for (std::size_t i = 0; i < t.flat[static_cast<std::size_t>(q)].size(); ++i)
        if (draws.rng() % 3 != 0) keep[static_cast<std::size_t>(q)].push_back(static_cast<local_index_t>(i));
    // The oracle: keepers of each index, its new owner, the numbering.
    std::map<global_index_t, std::vector<int>> keepers;
    for (int q = 0; q < P; ++q)
      for (local_index_t i : keep[static_cast<std::size_t>(q)]) keepers[t.flat[static_cast<std::size_t>(q)][static_cast<std::size_t>(i)]].push_back(q);
    std::map<global_index_t, int> new_owner;
    for (const auto& [g, who] : keepers) {
      const int old = t.owner.at(g);
      new_owner[g] = std::count(who.begin(), who.end(), old) ? old : *std::min_element(who.begin(), who.end());
      moved += new_owner[g] != old;
    }
    std::map<global_index_t, global_index_t> number;
    global_index_t next = 0;
    for (int q = 0; q < P; ++q)
      for (local_index_t i : keep[static_cast<std::size_t>(q)]) {
        const global_index_t g = t.flat[static_cast<std::size_t>(q)][static_cast<std::size_t>(i)];
        if (new_owner.at(g) == q) number[g] = next++;
      }
    const auto parent = IndexMap::create(DistributedLayout::create(layout.ranks[static_cast<std::size_t>(me)].dim_data, comm));
    const SubIndexMap sub = create_sub_index_map(*parent, keep[static_cast<std::size_t>(me)]);
    EXPECT_EQ(sub.parent_local, keep[static_cast<std::size_t>(me)]);
    ASSERT_EQ(sub.map->local_size(), static_cast<local_index_t>(keep[static_cast<std::size_t>(me)].size()));
    EXPECT_EQ(sub.map->global_size(), next);
    for (std::size_t k = 0; k < keep[static_cast<std::size_t>(me)].size(); ++k) {
      const global_index_t g = t.flat[static_cast<std::size_t>(me)][static_cast<std::size_t>(keep[static_cast<std::size_t>(me)][k])];
      EXPECT_EQ(sub.map->global_indices()[k], number.at(g)) << "kept element " << k;
      EXPECT_EQ(sub.map->owners()[k], new_owner.at(g)) << "kept element " << k;
    }
    // Each process's owned elements are one range, in rank order.
    ASSERT_TRUE(sub.map->owned_range().has_value());
  }
  if (P > 1) {
    EXPECT_GT(moved, 0) << "no draw moved an element to a new owner";
  }
}

TEST(Faults, SubMapWithAKeepListOutOfOrderOnOneProcess) {
  const auto comm = world();
  const int P = comm.size(), r = comm.rank();
  const auto parent = IndexMap::create(DistributedLayout::create(std::vector<Dim>{Dim::even_block(10 * P, P, r, 1)}, comm));
  for (int bad = 0; bad < P; ++bad) {
    std::vector<local_index_t> keep{0, 1, 2};
    if (r == bad) keep = {2, 1};
    const auto e = dapetra::testing::outcome([&] { create_sub_index_map(*parent, keep); });
    ASSERT_TRUE(e.has_value()) << "faulty rank " << bad;
    EXPECT_EQ(e->problems().at(0).rank, bad);
    EXPECT_EQ(e->problems().at(0).key, "keep");
  }
}
