// Layout creation on grids with two or more distributed axes, where each
// process gathers only the records of its own grid lines. The answers come
// from the core's serial GlobalLayout built from every process's records
// (the full check), which knows nothing of grid lines; refusals must reach
// every process, with the same problems the full check names.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <optional>

#include "dapetra/mpi/adapter_access.hpp"  // white box: the gathered records
#include "dapetra/mpi/mpi.hpp"
#include "dapetra/validate.hpp"
#include "mpi_test_util.hpp"

using namespace dapetra;
using namespace dapetra::mpi;
using dapetra::testing::owning_array;
using dapetra::testing::world;

namespace {

// Every rank's records of one test array, computed alike on every process.
using Records = std::function<std::vector<Dim>(int rank)>;

LayoutRecords layout_of(const Records& records, int nprocs) {
  LayoutRecords all;
  for (int r = 0; r < nprocs; ++r) all.ranks.push_back(RankEntry{records(r), std::nullopt});
  return all;
}

// 2 x 2 grid: a padded block axis of 7 and a block-cyclic axis of 9.
std::vector<Dim> block_by_cyclic(int r) {
  const int row = r / 2, col = r % 2;
  const Dim rows = row == 0 ? Dim::block(7, 2, 0, 0, 5, {0, 1}) : Dim::block(7, 2, 1, 3, 7, {1, 0});
  return {rows, Dim::cyclic(9, 2, col, 2)};
}

// 2 x 1 x 2 grid: an undistributed axis between two distributed ones, the
// last unstructured with an index both of its grid ranks hold.
std::vector<Dim> block_undistributed_unstructured(int r) {
  const int first = r / 2, last = r % 2;
  std::vector<global_index_t> held = last == 0 ? std::vector<global_index_t>{4, 0, 2, 5} : std::vector<global_index_t>{1, 3, 5};
  return {Dim::even_block(5, 2, first, 1), Dim::undistributed(3), Dim::unstructured(6, 2, last, held, false)};
}

bool has_four_processes() { return world()->size() == 4; }

// Grid lines at any process count (the default waits for many processes).
DistributedLayoutOptions by_grid_lines() {
  DistributedLayoutOptions o;
  o.tuning.grid_lines_from = 1;
  return o;
}

// The layout built collectively, by grid lines or by the full gather, agrees
// with the serial one in every record, every owner and every owned count.
void expect_matches_serial(const Records& records, const DistributedLayoutOptions& options) {
  const auto comm = world();
  const int P = comm->size(), me = comm->rank();
  const GlobalLayout serial(layout_of(records, P));
  const auto layout = DistributedLayout::create(owning_array<double>(records(me)), comm, options);
  ASSERT_NE(mpi::adapter::gathered_records(*layout), nullptr);
  const GlobalLayout& g = *mpi::adapter::gathered_records(*layout);
  ASSERT_EQ(g.grid().shape(), serial.grid().shape());
  ASSERT_EQ(g.global_shape(), serial.global_shape());
  for (int r = 0; r < P; ++r) {
    EXPECT_EQ(g.dim_data(r), records(r)) << "rank " << r;
    EXPECT_EQ(g.num_owned(r), serial.num_owned(r)) << "rank " << r;
  }
  const auto& shape = serial.global_shape();
  std::vector<global_index_t> at(shape.size(), 0);
  for (bool more = true; more;) {
    EXPECT_EQ(g.owner(at), serial.owner(at));
    more = false;
    for (std::size_t a = shape.size(); a-- > 0;)
      if (++at[a] < shape[a]) {
        more = true;
        break;
      } else {
        at[a] = 0;
      }
  }
  EXPECT_EQ(layout->num_owned(), serial.num_owned(me));
}

void expect_matches_serial(const Records& records) {
  expect_matches_serial(records, by_grid_lines());
  expect_matches_serial(records, DistributedLayoutOptions{});
}

// Every process throws; the problems are the full serial check's, on every process.
void expect_refused_everywhere_as_serially(const Records& records, const DistributedLayoutOptions& options) {
  const auto comm = world();
  const int P = comm->size(), me = comm->rank();
  const auto serial = check_layout(layout_of(records, P));
  ASSERT_FALSE(serial.empty()) << "the test's records should be wrong";
  bool threw = false;
  try {
    DistributedLayout::create(owning_array<double>(records(me)), comm, options);
  } catch (const ValidationError& e) {
    threw = true;
    ASSERT_EQ(e.problems().size(), serial.size());
    for (std::size_t i = 0; i < serial.size(); ++i) {
      EXPECT_EQ(e.problems()[i].rank, serial[i].rank);
      EXPECT_EQ(e.problems()[i].key, serial[i].key);
      EXPECT_EQ(e.problems()[i].rule, serial[i].rule);
    }
  }
  EXPECT_TRUE(threw);
  int everyone = 0, mine = threw ? 1 : 0;
  MPI_Allreduce(&mine, &everyone, 1, MPI_INT, MPI_SUM, comm);
  EXPECT_EQ(everyone, P);
}

void expect_refused_everywhere_as_serially(const Records& records) {
  expect_refused_everywhere_as_serially(records, by_grid_lines());
  expect_refused_everywhere_as_serially(records, DistributedLayoutOptions{});
}

}  // namespace

TEST(GridLines, BlockByCyclicMatchesTheSerialLayout) {
  if (!has_four_processes()) GTEST_SKIP() << "a 2 x 2 grid needs 4 processes";
  expect_matches_serial(block_by_cyclic);
}

TEST(GridLines, UnstructuredBesideBlockMatchesTheSerialLayout) {
  if (!has_four_processes()) GTEST_SKIP() << "a 2 x 1 x 2 grid needs 4 processes";
  expect_matches_serial(block_undistributed_unstructured);
}

TEST(GridLines, LayoutsOnOneGridShareItsLinesAndStillWorkInEitherAxisOrder) {
  if (!has_four_processes()) GTEST_SKIP() << "a 2 x 2 grid needs 4 processes";
  for (int i = 0; i < 3; ++i) expect_matches_serial(block_by_cyclic);
  // Same grid, the axes' roles swapped: the same cached lines serve it.
  expect_matches_serial([](int r) {
    return std::vector<Dim>{Dim::cyclic(9, 2, r / 2, 2), Dim::even_block(6, 2, r % 2, 1)};
  });
}

TEST(GridLines, BuffersInDifferentAxisOrdersAreEachKnown) {
  if (!has_four_processes()) GTEST_SKIP() << "a 2 x 2 grid needs 4 processes";
  const auto comm = world();
  const int me = comm->rank();
  DistArray a = owning_array<double>(block_by_cyclic(me));
  if (me == 3) {  // Fortran order on one process
    const auto& shape = a.buffer.shape;
    a.buffer.strides = {static_cast<global_index_t>(sizeof(double)), static_cast<global_index_t>(sizeof(double)) * shape[0]};
  }
  const auto layout = DistributedLayout::create(a, comm, by_grid_lines());
  for (int r = 0; r < 4; ++r) EXPECT_EQ(layout->memory_order_of(r), (r == 3 ? std::vector<int>{1, 0} : std::vector<int>{0, 1}));
  expect_matches_serial(block_by_cyclic);
}

// Rank 1 and rank 3 (the second column) move their row boundary: their line
// along axis 0 is a valid split on its own, but differs from the first
// column's, which only a comparison between lines can see.
TEST(Faults, GridLinesThatDisagreeAreRefusedEverywhere) {
  if (!has_four_processes()) GTEST_SKIP() << "a 2 x 2 grid needs 4 processes";
  expect_refused_everywhere_as_serially([](int r) {
    auto d = block_by_cyclic(r);
    if (r == 1) d[0] = Dim::block(7, 2, 0, 0, 4, {0, 1});
    if (r == 3) d[0] = Dim::block(7, 2, 1, 2, 7, {1, 0});
    return d;
  });
}

// A rule only a whole line can check: index 1 of the unstructured axis is
// held by no grid rank.
TEST(Faults, AGapAlongGridLinesIsRefusedEverywhere) {
  if (!has_four_processes()) GTEST_SKIP() << "a 2 x 2 grid needs 4 processes";
  expect_refused_everywhere_as_serially([](int r) {
    auto d = block_undistributed_unstructured(r);
    if (r == 3) d[2] = Dim::unstructured(6, 2, 1, {3, 5}, false);  // index 1 is held by nobody
    if (r == 1) d[2] = Dim::unstructured(6, 2, 1, {3, 5}, false);
    return d;
  });
}

// One process alone differs from all others on an undistributed axis.
TEST(Faults, OneProcessDisagreeingOnAnUndistributedAxisIsRefusedEverywhere) {
  if (!has_four_processes()) GTEST_SKIP() << "a 2 x 1 x 2 grid needs 4 processes";
  expect_refused_everywhere_as_serially([](int r) {
    auto d = block_undistributed_unstructured(r);
    if (r == 2) d[1] = Dim::block(3, 1, 0, 0, 3, {1, 1});  // boundary padding nobody else has
    return d;
  });
}

// A 1-D 'u' axis over all processes: rank r holds [3r, 3r + 4) of 3P + 1
// indices, so each boundary index is held by two neighbours.
static Dim overlapping_strip(int P, int r) {
  std::vector<global_index_t> held;
  for (global_index_t g = 3 * r; g < 3 * r + 4; ++g) held.push_back(g);
  return Dim::unstructured(3 * P + 1, P, r, held, false);
}

TEST(SharedOwners, ARuleChoosesAmongTheHoldersAndOwnershipFollowsIt) {
  const auto comm = world();
  const int P = comm->size(), me = comm->rank();
  for (const bool highest : {false, true}) {
    DistributedLayoutOptions options;
    if (highest) options.ownership = Ownership::highest_holder();
    const auto layout = DistributedLayout::create(std::vector<Dim>{overlapping_strip(P, me)}, comm, options);
    // By hand: index 3r is shared with r - 1 (for r > 0), index 3r + 3 with r + 1.
    for (global_index_t i = 0; i < 4; ++i) {
      const bool shared_left = i == 0 && me > 0, shared_right = i == 3 && me < P - 1;
      const bool mine = highest ? !shared_right : !shared_left;
      EXPECT_EQ(layout->is_owned(0, i), mine) << "rule " << (highest ? "highest" : "lowest") << ", position " << i;
    }
  }
}

TEST(Faults, ARuleChoosingAProcessThatDoesNotHoldTheIndexIsRefusedEverywhere) {
  const auto comm = world();
  const int P = comm->size(), me = comm->rank();
  if (P < 3) GTEST_SKIP() << "a non-holder of a shared index needs 3 processes";
  DistributedLayoutOptions options;
  // Index 3 is held by ranks 0 and 1; the rule names rank 2.
  options.ownership = Ownership::by_rule([](global_index_t g, const std::vector<int>& h) { return g == 3 ? 2 : h.front(); });
  // In order, the strips show owned ranges (only copies travel, to the
  // ranges' processes); reversed, they do not (every index travels).
  for (const bool reversed : {false, true}) {
    SCOPED_TRACE(reversed ? "reversed" : "in order");
    Dim strip = overlapping_strip(P, me);
    if (reversed) std::reverse(strip.indices.begin(), strip.indices.end());
    bool threw = false;
    try {
      DistributedLayout::create(std::vector<Dim>{strip}, comm, options);
    } catch (const ValidationError& e) {
      threw = true;
      EXPECT_EQ(e.problems().at(0).key, "shared_owner");
    }
    EXPECT_TRUE(threw);
  }
}

// A binding that cannot read one process's input refuses there; the others
// are in create() and all throw the same problem, naming that rank.
TEST(Faults, AnInputOneProcessCouldNotReadIsRefusedEverywhere) {
  const auto comm = world();
  const int P = comm->size(), me = comm->rank();
  for (int faulty = 0; faulty < P; ++faulty) {
    std::optional<ValidationError> error;
    try {
      if (me == faulty)
        mpi::adapter::refuse_layout({Problem::of(-1, "indices", "'x'", "indices are integers", "a string", 0)}, comm);
      else
        DistributedLayout::create(std::vector<Dim>{Dim::even_block(20, P, me)}, comm);
    } catch (const ValidationError& e) {
      error = e;
    }
    ASSERT_TRUE(error.has_value()) << "faulty rank " << faulty;
    ASSERT_EQ(error->problems().size(), 1u);
    EXPECT_EQ(error->problems()[0].rank, faulty);
    EXPECT_EQ(error->problems()[0].key, "indices");
  }
}

// A layout whose only distributed axis is 'u' is agreed by the creation's
// vote, without gathering. One process differing in what the vote compares
// (the axis's one_to_one, or an undistributed axis beside it) sends every
// process to the full gather, which names it as the serial check does:
// tried with the fault on each process in turn.
TEST(Faults, OneProcessDifferingBesideALoneUAxisIsRefusedEverywhere) {
  const int P = world()->size();
  if (P < 2) GTEST_SKIP() << "one process has nobody to differ from";
  const auto strip = [](int rank, int nprocs) {  // [3r, 3r + 3) of 3P: each index held once
    std::vector<global_index_t> held;
    for (global_index_t g = 3 * rank; g < 3 * rank + 3; ++g) held.push_back(g);
    return Dim::unstructured(3 * nprocs, nprocs, rank, held, true);
  };
  for (int bad = 0; bad < P; ++bad) {
    SCOPED_TRACE("the fault on rank " + std::to_string(bad));
    expect_refused_everywhere_as_serially(
        [&](int r) {
          Dim u = strip(r, P);
          u.one_to_one = r != bad;
          return std::vector<Dim>{u};
        },
        DistributedLayoutOptions{});
    expect_refused_everywhere_as_serially(
        [&](int r) { return std::vector<Dim>{strip(r, P), Dim::undistributed(r == bad ? 3 : 2)}; },
        DistributedLayoutOptions{});
  }
}

// 1-D layouts whose records follow from a formula (an even 'b' split, a
// 'c' axis) or from where each owned range begins (any other split with one
// halo), kept without any other process's record: every size, halo and
// period against the serial layout built from every record, with a halo
// update filling every position, and refused on every process where the
// serial check refuses them (a halo wider than a neighbour's block, a
// periodic interior shorter than its edges).
TEST(ClosedForm, EverySplitMatchesTheSerialLayoutOrIsRefusedAsSerially) {
  const int P = world()->size(), me = world()->rank();
  // A halo update then gives every position the value of the index it
  // stands for: its own, or on a periodic axis, for a copy of an edge's
  // padding wherever it sits, the index a period away (Domi's rule).
  const auto expect_update_fills = [&](const Records& records) {
    const Dim d = records(me)[0], first = records(0)[0], last = records(P - 1)[0];
    const global_index_t low = first.padding[0], high = d.size - last.padding[1], period = high - low;
    const auto stands_for = [&](global_index_t g) { return !d.periodic ? g : g < low ? g + period : g >= high ? g - period : g; };
    DistArray a = owning_array<double>({d});
    const auto layout = DistributedLayout::create(a, world());
    double* v = data_as<double>(a);
    for (global_index_t i = 0; i < local_extent(d); ++i)
      v[i] = layout->is_owned(0, i) ? static_cast<double>(global_index(d, i)) : -1.0;
    HaloPlan::create(layout)->update<double>(a);
    for (global_index_t i = 0; i < local_extent(d); ++i)
      EXPECT_EQ(v[i], static_cast<double>(stands_for(global_index(d, i)))) << "position " << i;
  };
  const auto check = [&](const Records& records) {
    if (check_layout(layout_of(records, P)).empty()) {
      expect_matches_serial(records, DistributedLayoutOptions{});
      expect_update_fills(records);
    } else {
      expect_refused_everywhere_as_serially(records, DistributedLayoutOptions{});
    }
  };
  for (global_index_t size = 0; size <= 2 * P + 2; ++size) {
    for (global_index_t h = 0; h <= 2; ++h)
      for (bool periodic : {false, true}) {
        SCOPED_TRACE("size " + std::to_string(size) + ", halo " + std::to_string(h) + (periodic ? ", periodic" : ""));
        check([&](int r) { return std::vector<Dim>{Dim::even_block(size, P, r, h, periodic)}; });
        // The same halo over a split with the extra indices last, not first.
        const auto begin = [&](int q) { return q * (size / P) + std::max<global_index_t>(0, q - (P - size % P)); };
        check([&](int r) {
          const global_index_t lo = begin(r), hi = begin(r + 1);
          return std::vector<Dim>{Dim::block(size, P, r, r > 0 ? lo - h : lo, r < P - 1 ? hi + h : hi, {h, h}, periodic)};
        });
      }
    for (global_index_t b = 1; b <= 2; ++b) check([&](int r) { return std::vector<Dim>{Dim::cyclic(size, P, r, b)}; });
  }
}

// An uneven 'b' split with one halo width gathers only where each owned
// range begins; a gap or an overlap there is refused on every process as
// the serial check refuses it, with the fault on each process in turn.
TEST(Faults, AGapInAnUnevenBlockSplitIsRefusedEverywhere) {
  const int P = world()->size();
  if (P < 2) GTEST_SKIP() << "one process has no split";
  const global_index_t size = 5 * P - 2;
  const auto lo = [&](int q) -> global_index_t { return q == 0 ? 0 : q == P ? size : 5 * q - 2; };  // 3, then 5 each
  for (int bad = 0; bad < P; ++bad) {
    SCOPED_TRACE("the fault on rank " + std::to_string(bad));
    for (const global_index_t shift : {1, -1}) {  // a gap, then an overlap, beside rank `bad`
      expect_refused_everywhere_as_serially(
          [&](int q) {
            const global_index_t first = lo(q) + (q == bad && q > 0 ? shift : 0);
            const global_index_t last = lo(q + 1) - (q == bad && q == 0 ? shift : 0);
            return std::vector<Dim>{Dim::block(size, P, q, q > 0 ? first - 1 : first, q < P - 1 ? last + 1 : last, {1, 1})};
          },
          DistributedLayoutOptions{});
    }
  }
}

// On a 2 x 2 grid with an uneven split of the first axis, one process says
// its row's range begins elsewhere than its row twin says: the gathered
// words give two splits for one grid rank, so every process takes the full
// gather and throws as the serial check does. The fault on each rank in turn.
TEST(Faults, TwinsDisagreeingOnAnUnevenSplitAreRefusedEverywhere) {
  if (!has_four_processes()) GTEST_SKIP() << "a 2 x 2 grid needs 4 processes";
  for (int bad = 0; bad < 4; ++bad) {
    SCOPED_TRACE("the fault on rank " + std::to_string(bad));
    expect_refused_everywhere_as_serially(
        [&](int r) {
          const int row = r / 2, col = r % 2;
          const global_index_t cut = r == bad ? 4 : 3;  // rows [0, 3) and [3, 9), halo 1: one process says 4
          const Dim rows = row == 0 ? Dim::block(9, 2, 0, 0, cut + 1, {1, 1}) : Dim::block(9, 2, 1, cut - 1, 9, {1, 1});
          return std::vector<Dim>{rows, Dim::even_block(8, 2, col, 1)};
        },
        DistributedLayoutOptions{});
  }
}
