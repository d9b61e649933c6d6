#include <gtest/gtest.h>

#include "dapetra/axis.hpp"
#include "dapetra/error.hpp"
#include "dapetra/process_grid.hpp"

using namespace dapetra;

TEST(ProcessGrid, COrderAsTheSpecAndMpiCartCreate) {
  const ProcessGrid g({2, 3});
  EXPECT_EQ(g.size(), 6);
  EXPECT_EQ(g.rank_of({1, 2}), 1 * 3 + 2);  // (i, j) -> i*M + j
  EXPECT_EQ(g.coords_of(4), (std::vector<int>{1, 1}));
  for (int r = 0; r < 6; ++r) EXPECT_EQ(g.rank_of(g.coords_of(r)), r);
  const ProcessGrid g3({2, 2, 2});
  EXPECT_EQ(g3.coords_of(1), (std::vector<int>{0, 0, 1}));  // last coordinate fastest
  EXPECT_EQ(ProcessGrid(std::vector<int>{}).size(), 1);
  EXPECT_EQ(ProcessGrid(std::vector<int>{}).rank_of({}), 0);
  EXPECT_THROW(g.coords_of(6), std::out_of_range);
  EXPECT_THROW(ProcessGrid({0}), std::invalid_argument);
  // One coordinate at a time, and the rank on one axis alone.
  for (const ProcessGrid& grid : {g, g3, ProcessGrid({3, 1, 4})})
    for (int r = 0; r < grid.size(); ++r)
      for (int a = 0; a < grid.ndim(); ++a) {
        EXPECT_EQ(grid.coord_of(r, a), grid.coords_of(r)[a]);
        std::vector<int> on_axis(grid.ndim(), 0);
        on_axis[a] = grid.coords_of(r)[a];
        EXPECT_EQ(grid.rank_at(a, on_axis[a]), grid.rank_of(on_axis));
      }
  EXPECT_THROW(g.coord_of(6, 0), std::out_of_range);
  EXPECT_THROW(g.coord_of(0, 2), std::out_of_range);
  EXPECT_THROW(g.rank_at(0, 2), std::out_of_range);
}

TEST(AxisPartition, BlockOwnersWithEmptyRanksAndPadding) {
  // size 10 over 4 owned as [0,4) [4,4) [4,9) [9,10); ranks 2 and 3 share
  // one communication padding element each way (an empty rank can lend none).
  std::vector<Dim> dims{Dim::block(10, 4, 0, 0, 4), Dim::block(10, 4, 1, 4, 4),
                        Dim::block(10, 4, 2, 4, 10, {0, 1}), Dim::block(10, 4, 3, 8, 10, {1, 0})};
  const AxisPartition a(dims);
  EXPECT_EQ(a.owner(0), 0);
  EXPECT_EQ(a.owner(3), 0);
  EXPECT_EQ(a.owner(4), 2);
  EXPECT_EQ(a.owner(8), 2);
  EXPECT_EQ(a.owner(9), 3);
  EXPECT_EQ(a.owner(10), -1);
  EXPECT_EQ(a.owner(-1), -1);
  EXPECT_EQ(a.num_owned(1), 0);
  EXPECT_EQ(a.num_owned(2), 5);
  EXPECT_FALSE(a.is_owned(2, 5));  // right communication padding (global 9)
  EXPECT_FALSE(a.is_owned(3, 0));  // left communication padding (global 8)
  EXPECT_TRUE(a.is_owned(3, 1));
}

TEST(AxisPartition, RefusesNonAdjacentBlocks) {
  std::vector<Dim> dims{Dim::block(10, 2, 0, 0, 4), Dim::block(10, 2, 1, 5, 10)};
  EXPECT_THROW(AxisPartition{dims}, ValidationError);
}

TEST(AxisPartition, CyclicClosedForm) {
  std::vector<Dim> dims;
  for (int k = 0; k < 3; ++k) dims.push_back(Dim::cyclic(11, 3, k, 2));
  const AxisPartition a(dims);
  for (global_index_t g = 0; g < 11; ++g) EXPECT_EQ(a.owner(g), (g / 2) % 3);
  EXPECT_EQ(a.num_owned(0) + a.num_owned(1) + a.num_owned(2), 11);
}

namespace {

// An axis kept as a formula or as its boundaries answers every question as
// the same axis with every grid rank's record kept.
void expect_same_axis(const AxisPartition& kept_small, const std::vector<Dim>& every_record) {
  const AxisPartition full(every_record);
  ASSERT_EQ(kept_small.grid_size(), full.grid_size());
  ASSERT_EQ(kept_small.size(), full.size());
  ASSERT_EQ(kept_small.dist_type(), full.dist_type());
  for (int c = 0; c < full.grid_size(); ++c) {
    EXPECT_EQ(kept_small.dim(c), every_record[static_cast<std::size_t>(c)]) << "grid rank " << c;
    EXPECT_EQ(kept_small.extent(c), local_extent(every_record[static_cast<std::size_t>(c)])) << "grid rank " << c;
    EXPECT_EQ(kept_small.num_owned(c), full.num_owned(c)) << "grid rank " << c;
    if (full.dist_type() == DistType::block) {
      EXPECT_EQ(kept_small.owned_begin(c), full.owned_begin(c)) << "grid rank " << c;
    }
    for (global_index_t i = 0; i < full.extent(c); ++i) EXPECT_EQ(kept_small.is_owned(c, i), full.is_owned(c, i));
  }
  for (global_index_t g = -1; g <= full.size(); ++g) EXPECT_EQ(kept_small.owner(g), full.owner(g)) << "index " << g;
}

}  // namespace

// Every even 'b' split (halo and periodic too, empty grid ranks among them)
// and every 'c' axis, from any grid rank's record, against the records.
TEST(AxisPartition, AFormulaAxisAnswersAsItsRecords) {
  for (int P = 1; P <= 5; ++P)
    for (global_index_t size = 0; size <= 3 * P + 1; ++size) {
      for (global_index_t h = 0; h <= 2; ++h)
        for (bool periodic : {false, true}) {
          std::vector<Dim> dims;
          for (int c = 0; c < P; ++c) dims.push_back(Dim::even_block(size, P, c, h, periodic));
          SCOPED_TRACE("'b' size " + std::to_string(size) + " over " + std::to_string(P) + ", halo " + std::to_string(h));
          for (int c = 0; c < P; ++c) expect_same_axis(AxisPartition::regular(dims[static_cast<std::size_t>(c)]), dims);
        }
      for (global_index_t b = 1; b <= 3; ++b) {
        std::vector<Dim> dims;
        for (int c = 0; c < P; ++c) dims.push_back(Dim::cyclic(size, P, c, b));
        SCOPED_TRACE("'c' size " + std::to_string(size) + " over " + std::to_string(P) + ", block " + std::to_string(b));
        expect_same_axis(AxisPartition::regular(dims.back()), dims);
      }
    }
  // A record no formula gives: an uneven split, a 'u' axis.
  EXPECT_THROW(AxisPartition::regular(Dim::block(10, 2, 0, 0, 3)), ValidationError);
  EXPECT_THROW(AxisPartition::regular(Dim::unstructured(4, 2, 0, {0, 1})), ValidationError);
}

// An uneven 'b' split with one halo, kept as its boundaries.
TEST(AxisPartition, ASplitAxisAnswersAsItsRecords) {
  const std::vector<global_index_t> begins{0, 3, 3, 9, 10};  // owned counts 3, 0, 6, 1
  for (global_index_t h : {0, 1})
    for (bool periodic : {false, true}) {
      std::vector<Dim> dims;
      for (int c = 0; c < 4; ++c) {
        const global_index_t lo = begins[static_cast<std::size_t>(c)], hi = begins[static_cast<std::size_t>(c) + 1];
        dims.push_back(Dim::block(10, 4, c, c > 0 ? lo - h : lo, c < 3 ? hi + h : hi, {h, h}, periodic));
      }
      SCOPED_TRACE("halo " + std::to_string(h));
      expect_same_axis(AxisPartition::block_split(dims[2], begins), dims);
    }
  EXPECT_THROW(AxisPartition::block_split(Dim::block(10, 2, 0, 0, 4), {0, 4}), ValidationError);      // too few
  EXPECT_THROW(AxisPartition::block_split(Dim::block(10, 2, 0, 0, 4), {0, 5, 4}), ValidationError);   // falls, and short of size
  EXPECT_THROW(AxisPartition::block_split(Dim::block(10, 2, 0, 0, 4), {1, 4, 10}), ValidationError);  // not from 0
}

TEST(AxisPartition, SharedUnstructuredIndicesGoToTheLowestHolderByDefault) {
  std::vector<Dim> dims{Dim::unstructured(5, 3, 0, {0, 1, 2}), Dim::unstructured(5, 3, 1, {2, 3, 1}),
                        Dim::unstructured(5, 3, 2, {4, 3})};
  const AxisPartition a(dims);
  EXPECT_EQ(a.owner(1), 0);
  EXPECT_EQ(a.owner(2), 0);
  EXPECT_EQ(a.owner(3), 1);
  EXPECT_EQ(a.owner(4), 2);
  EXPECT_EQ(a.owner(7), -1);
  EXPECT_EQ(a.num_owned(0), 3);
  EXPECT_EQ(a.num_owned(1), 1);
  EXPECT_EQ(a.num_owned(2), 1);
  EXPECT_FALSE(a.is_owned(1, 0));  // index 2 on grid rank 1 is a copy
  EXPECT_TRUE(a.is_owned(1, 1));   // index 3
  EXPECT_FALSE(a.is_owned(2, 1));
}

TEST(AxisPartition, CallerChosenOwnerRule) {
  std::vector<Dim> dims{Dim::unstructured(3, 2, 0, {0, 1}), Dim::unstructured(3, 2, 1, {1, 2})};
  const AxisPartition highest(dims, [](global_index_t, const std::vector<int>& h) { return h.back(); });
  EXPECT_EQ(highest.owner(1), 1);
  EXPECT_EQ(highest.num_owned(0), 1);
  const auto bogus = [](global_index_t, const std::vector<int>&) { return 7; };
  EXPECT_THROW(AxisPartition(dims, bogus), ValidationError);
}

TEST(IndexLookup, AllDistTypes) {
  const IndexLookup u(Dim::unstructured(100, 1, 0, {42, -3, 17}));
  EXPECT_EQ(u.position(-3), 1);
  EXPECT_EQ(u.position(17), 2);
  EXPECT_EQ(u.position(5), -1);
  const IndexLookup c(Dim::cyclic(10, 2, 1, 3));
  EXPECT_EQ(c.position(9), 3);
  EXPECT_EQ(c.position(0), -1);
  const IndexLookup b(Dim::block(18, 2, 1, 8, 18, {1, 1}));
  EXPECT_EQ(b.position(8), 0);
  EXPECT_EQ(b.position(18), -1);
}
