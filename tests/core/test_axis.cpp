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
