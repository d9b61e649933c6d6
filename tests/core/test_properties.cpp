// Property tests of the index math over many random valid layouts, checked
// against brute-force definitions rather than against the closed forms.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "dapetra/json.hpp"
#include "dapetra/validate.hpp"
#include "../common/seed.hpp"
#include "../common/spec_oracle.hpp"
#include "random_layout.hpp"

using namespace dapetra;

TEST(Properties, RandomLayoutsAreValidAndOwnEveryIndexOnce) {
  const auto seed = dapetra::testing::test_seed(12345);
  SCOPED_TRACE(seed.replay);
  std::mt19937_64 rng(seed.value);
  int empty_buffers = 0, zero_sizes = 0, padded = 0, overlapping = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    const LayoutRecords layout = dapetra::testing::random_layout(rng);
    const auto problems = check_layout(layout);
    ASSERT_TRUE(problems.empty()) << "trial " << trial << ": " << problems.front().to_string();
    const GlobalLayout gl(layout);
    for (int d = 0; d < gl.ndim(); ++d) {
      const AxisPartition& axis = gl.axis(d);
      zero_sizes += axis.size() == 0;
      // Brute force: which grid ranks hold each global index, and who owns it.
      std::map<global_index_t, int> owners_seen;
      global_index_t owned_sum = 0;
      std::vector<Dim> along;
      for (int k = 0; k < axis.grid_size(); ++k) along.push_back(axis.dim(k));
      for (int k = 0; k < axis.grid_size(); ++k) {
        const Dim& dim = axis.dim(k);
        const IndexLookup lookup(dim);
        const global_index_t n = local_extent(dim);
        empty_buffers += n == 0;
        padded += dim.padding[0] + dim.padding[1] > 0;
        for (global_index_t i = 0; i < n; ++i) {
          const global_index_t g = dapetra::testing::oracle::spec_index(dim, i);
          ASSERT_EQ(global_index(dim, i), g) << "position " << i << " of " << describe(dim);
          ASSERT_EQ(axis.is_owned(k, i), dapetra::testing::oracle::owns(along, k, i)) << "position " << i << " of " << describe(dim);
          ASSERT_EQ(lookup.position(g), i) << "global -> local -> global round trip";
          ASSERT_EQ(local_position(dim, g), i);
          if (dim.dist_type != DistType::unstructured || gl.ndim() > 1) {
            ASSERT_GE(g, 0);
            ASSERT_LT(g, axis.size());
          }
          if (axis.is_owned(k, i)) {
            ASSERT_EQ(owners_seen.count(g), 0u) << "index " << g << " owned twice on axis " << d;
            owners_seen[g] = k;
            ASSERT_EQ(axis.owner(g), k);
          } else {
            ASSERT_NE(axis.owner(g), -1) << "a copy whose index nobody owns";
            ASSERT_NE(axis.owner(g), k);
            overlapping += dim.dist_type == DistType::unstructured;
          }
        }
        owned_sum += axis.num_owned(k);
      }
      ASSERT_EQ(static_cast<global_index_t>(owners_seen.size()), axis.size());
      ASSERT_EQ(owned_sum, axis.size());
    }
    global_index_t total = 1, owned = 0;
    for (auto s : gl.global_shape()) total *= s;
    for (int r = 0; r < gl.nprocs(); ++r) owned += gl.num_owned(r);
    ASSERT_EQ(owned, total);
  }
  // The generator must actually reach the corner cases it claims to cover.
  EXPECT_GT(empty_buffers, 50);
  EXPECT_GT(zero_sizes, 20);
  EXPECT_GT(padded, 100);
  EXPECT_GT(overlapping, 100);
}

TEST(Properties, BreakingOneRecordIsAlwaysDetected) {
  const auto seed = dapetra::testing::test_seed(99);
  SCOPED_TRACE(seed.replay);
  std::mt19937_64 rng(seed.value);
  int tried = 0;
  for (int trial = 0; trial < 600; ++trial) {
    LayoutRecords layout = dapetra::testing::random_layout(rng);
    if (layout.ranks.empty() || layout.ranks[0].dim_data.empty()) continue;
    // Without the buffer shapes only the records themselves can give it away.
    for (auto& e : layout.ranks) e.local_shape.reset();
    const std::size_t r = std::uniform_int_distribution<std::size_t>(0, layout.ranks.size() - 1)(rng);
    const std::size_t d = std::uniform_int_distribution<std::size_t>(0, layout.ranks[r].dim_data.size() - 1)(rng);
    Dim& dim = layout.ranks[r].dim_data[d];
    switch (dim.dist_type) {
      case DistType::block: dim.stop += 1; break;  // past size, or into the neighbour's range
      case DistType::cyclic:  // a start no grid rank may have (an empty rank may also say start == size)
        dim.start = dim.start == dim.proc_grid_rank * dim.block_size ? dim.start + 1 : dim.size - 1;
        break;
      case DistType::unstructured: dim.size += 1; break;
    }
    ++tried;
    EXPECT_FALSE(check_layout(layout).empty())
        << "trial " << trial << " mutated rank " << r << " dim " << d << ": " << describe(dim) << "\n"
        << layout_to_json(layout);
  }
  EXPECT_GT(tried, 300);
}
