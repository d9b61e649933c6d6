#include <gtest/gtest.h>

#include "dapetra/dim_math.hpp"
#include "random_layout.hpp"

using namespace dapetra;

namespace {

// Count by definition: global index g belongs to grid rank (g / b) mod P.
global_index_t brute_cyclic_count(global_index_t size, global_index_t b, int P, int r) {
  global_index_t n = 0;
  for (global_index_t g = 0; g < size; ++g) n += (g / b) % P == r;
  return n;
}

global_index_t floor_div(global_index_t a, global_index_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }
global_index_t floor_mod(global_index_t a, global_index_t b) { return a - floor_div(a, b) * b; }

// The closed-form block-cyclic count, n_r = floor((N-1-r b)/(b P)) b + b less
// a short last block, transcribed literally (floor division as in its text).
global_index_t seed004_count(global_index_t N, global_index_t b, int P, int r) {
  const global_index_t base = floor_div(N - 1 - r * b, b * P) * b + b;
  const bool last = r == floor_mod(floor_div(N - 1, b), P);
  return base + (last ? floor_mod(N - 1, b) + 1 - b : 0);
}

// The spec's appendix num_owned_indices_from_cyclic, transcribed literally.
global_index_t spec_appendix_count(global_index_t size, global_index_t b, int P, int r) {
  const global_index_t global_nblocks = size / b, partial = size % b;
  const global_index_t local_nblocks = floor_div(global_nblocks - 1 - r, P) + 1;
  const global_index_t local_partial = r == 0 ? partial : 0;
  return local_nblocks * b + local_partial;
}

}  // namespace

TEST(CyclicCount, MatchesDefinitionForEverySmallCase) {
  for (global_index_t size = 0; size <= 40; ++size)
    for (global_index_t b = 1; b <= 7; ++b)
      for (int P = 1; P <= 6; ++P) {
        global_index_t total = 0;
        for (int r = 0; r < P; ++r) {
          const global_index_t n = cyclic_count(size, b, P, r);
          ASSERT_EQ(n, brute_cyclic_count(size, b, P, r)) << "size " << size << " b " << b << " P " << P << " r " << r;
          total += n;
        }
        ASSERT_EQ(total, size);
      }
}

TEST(CyclicCount, Seed004FormulaIsRightForNonEmptyArrays) {
  // 004's closed form agrees with the definition for N >= 1 (its floor terms
  // are meaningless at N = 0, where every count is 0).
  for (global_index_t N = 1; N <= 40; ++N)
    for (global_index_t b = 1; b <= 7; ++b)
      for (int P = 1; P <= 6; ++P)
        for (int r = 0; r < P; ++r) ASSERT_EQ(seed004_count(N, b, P, r), cyclic_count(N, b, P, r));
}

TEST(CyclicCount, SpecAppendixIsWrongWhenThePartialBlockIsNotOnRankZero) {
  // 004's own example: N=10, P=2, b=3 -> rank 0 holds {0,1,2,6,7,8}, rank 1 {3,4,5,9}.
  EXPECT_EQ(cyclic_count(10, 3, 2, 0), 6);
  EXPECT_EQ(cyclic_count(10, 3, 2, 1), 4);
  EXPECT_EQ(spec_appendix_count(10, 3, 2, 0), 7);  // the appendix gives the partial block to rank 0
  EXPECT_EQ(spec_appendix_count(10, 3, 2, 1), 3);
  // The spec's worked examples happen to put the partial block on rank 0.
  EXPECT_EQ(spec_appendix_count(9, 2, 2, 0), cyclic_count(9, 2, 2, 0));
  EXPECT_EQ(spec_appendix_count(5, 2, 2, 1), cyclic_count(5, 2, 2, 1));
}

TEST(CyclicMaps, GlobalLocalRoundTrip) {
  for (global_index_t size : {0, 1, 9, 10, 31})
    for (global_index_t b : {1, 2, 3, 64})
      for (int P : {1, 2, 3, 4}) {
        std::vector<int> seen(size, 0);
        for (int r = 0; r < P; ++r) {
          const Dim d = Dim::cyclic(size, P, r, b);
          for (global_index_t i = 0; i < local_extent(d); ++i) {
            const global_index_t g = global_index(d, i);
            ASSERT_GE(g, 0);
            ASSERT_LT(g, size);
            ++seen[g];
            EXPECT_EQ(cyclic_owner(g, b, P), r);
            EXPECT_EQ(local_position(d, g), i);
          }
        }
        for (int s : seen) EXPECT_EQ(s, 1);
      }
}

// The bulk writer must agree with the element-wise definition: for 'c' the
// partial last block and empty ranks are where a block loop would slip.
TEST(GlobalIndices, BulkWriterMatchesElementwiseOnRandomAxes) {
  std::mt19937_64 rng(2026);
  for (int trial = 0; trial < 400; ++trial) {
    const int P = 1 + static_cast<int>(rng() % 5);
    for (const Dim& d : dapetra::testing::random_axis(rng, P, 200, trial % 2 == 0)) {
      std::vector<global_index_t> bulk(static_cast<std::size_t>(local_extent(d)), -7);
      global_indices(d, bulk.data());
      for (global_index_t i = 0; i < local_extent(d); ++i)
        ASSERT_EQ(bulk[static_cast<std::size_t>(i)], global_index(d, i)) << describe(d) << " position " << i;
      // Scaled and shifted, into Tpetra's 64-bit type (long long) too.
      for (const auto& [scale, shift] : {std::pair<long long, long long>{1, 5}, {3, -2}, {1, 0}}) {
        std::vector<long long> other(bulk.size(), -7);
        global_indices<long long>(d, other.data(), scale, shift);
        for (global_index_t i = 0; i < local_extent(d); ++i)
          ASSERT_EQ(other[static_cast<std::size_t>(i)], global_index(d, i) * scale + shift) << describe(d) << " at " << i;
      }
    }
  }
}

TEST(CyclicMaps, Seed004Examples) {
  // N = 9, P = 2 cyclic: rank 0 -> 0 2 4 6 8, rank 1 -> 1 3 5 7.
  const Dim r1 = Dim::cyclic(9, 2, 1);
  EXPECT_EQ(local_extent(r1), 4);
  EXPECT_EQ(global_index(r1, 3), 7);
  // N = 10, P = 2, b = 3: rank 0 -> 0 1 2 6 7 8, rank 1 -> 3 4 5 9.
  const Dim b0 = Dim::cyclic(10, 2, 0, 3), b1 = Dim::cyclic(10, 2, 1, 3);
  const std::vector<global_index_t> want0{0, 1, 2, 6, 7, 8}, want1{3, 4, 5, 9};
  for (std::size_t i = 0; i < want0.size(); ++i) EXPECT_EQ(global_index(b0, static_cast<global_index_t>(i)), want0[i]);
  for (std::size_t i = 0; i < want1.size(); ++i) EXPECT_EQ(global_index(b1, static_cast<global_index_t>(i)), want1[i]);
  EXPECT_EQ(b1.start, 3);
}

TEST(BlockMaps, PaddingKindsOfSpecExample2_2) {
  // Process 0: B 1 2 3 4 5 6 7 8 C ; process 1: C 9 ... 16 B
  const Dim p0 = Dim::block(18, 2, 0, 0, 10, {1, 1}), p1 = Dim::block(18, 2, 1, 8, 18, {1, 1});
  EXPECT_EQ(padding_kind(p0, 0), PaddingKind::boundary);
  EXPECT_EQ(padding_kind(p0, 5), PaddingKind::none);
  EXPECT_EQ(padding_kind(p0, 9), PaddingKind::communication);
  EXPECT_EQ(padding_kind(p1, 0), PaddingKind::communication);
  EXPECT_EQ(padding_kind(p1, 9), PaddingKind::boundary);
  EXPECT_EQ(global_index(p0, 9), 9);
  EXPECT_EQ(global_index(p1, 0), 8);
  EXPECT_EQ(global_index(p1, 9), 17);
  EXPECT_EQ(num_held_owned(p0), 9);  // boundary padding counts, communication padding does not
  EXPECT_EQ(num_held_owned(p1), 9);
  EXPECT_EQ(owned_global_range(p0).begin, 0);
  EXPECT_EQ(owned_global_range(p0).end, 9);
  EXPECT_EQ(owned_global_range(p1).begin, 9);
  EXPECT_EQ(communication_padding(p0), (std::array<global_index_t, 2>{0, 1}));
  EXPECT_EQ(boundary_padding(p1), (std::array<global_index_t, 2>{0, 1}));
  EXPECT_EQ(local_position(p1, 8), 0);
  EXPECT_EQ(local_position(p1, 7), -1);
}

TEST(BlockMaps, EvenBlockReproducesSpecExample2_2) {
  EXPECT_EQ(Dim::even_block(18, 2, 0, 1), Dim::block(18, 2, 0, 0, 10, {1, 1}));
  EXPECT_EQ(Dim::even_block(18, 2, 1, 1), Dim::block(18, 2, 1, 8, 18, {1, 1}));
  // Remainder goes to the low ranks: 10 over 3 -> 4, 3, 3.
  EXPECT_EQ(local_extent(Dim::even_block(10, 3, 0)), 4);
  EXPECT_EQ(Dim::even_block(10, 3, 2).start, 7);
}

TEST(BlockMaps, SpecPaddingExampleOnFourRanks) {
  // Section 1.6.2: boundary widths 4 and 0, communication widths 1, 2, 3.
  const std::array<std::array<global_index_t, 2>, 4> pad{{{4, 1}, {1, 2}, {2, 3}, {3, 0}}};
  const std::array<global_index_t, 5> owned_cut{0, 10, 20, 30, 40};
  for (int k = 0; k < 4; ++k) {
    const global_index_t start = owned_cut[k] - (k > 0 ? pad[k][0] : 0);
    const global_index_t stop = owned_cut[k + 1] + (k < 3 ? pad[k][1] : 0);
    const Dim d = Dim::block(40, 4, k, start, stop, pad[k]);
    EXPECT_EQ(num_held_owned(d), 10) << "rank " << k;
    EXPECT_EQ(owned_global_range(d).begin, owned_cut[k]);
  }
}

TEST(Unstructured, PositionsAndGlobalIndices) {
  const Dim d = Dim::unstructured(30, 3, 1, {6, 13, 3});
  EXPECT_EQ(local_extent(d), 3);
  EXPECT_EQ(global_index(d, 2), 3);
  EXPECT_EQ(local_position(d, 13), 1);
  EXPECT_EQ(local_position(d, 7), -1);
  EXPECT_EQ(padding_kind(d, 0), PaddingKind::none);
}
