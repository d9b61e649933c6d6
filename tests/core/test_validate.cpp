// One negative test per rule: each names the rank, dimension, key and rule.
#include <gtest/gtest.h>

#include <algorithm>

#include "dapetra/validate.hpp"

using namespace dapetra;

namespace {

::testing::AssertionResult has_problem(const std::vector<Problem>& ps, int rank, int dim, const std::string& key,
                                       const std::string& rule_part) {
  for (const Problem& p : ps)
    if (p.rank == rank && p.dim == dim && p.key == key && p.rule.find(rule_part) != std::string::npos)
      return ::testing::AssertionSuccess();
  std::string all;
  for (const Problem& p : ps) all += "\n  " + p.to_string();
  return ::testing::AssertionFailure() << "no problem (rank " << rank << ", dim " << dim << ", key '" << key
                                       << "', rule ~ '" << rule_part << "') among:" << (all.empty() ? " none" : all);
}

// A 1-D layout from per-rank records.
LayoutRecords layout_1d(std::vector<Dim> dims) {
  LayoutRecords l;
  for (auto& d : dims) l.ranks.push_back(RankEntry{{d}, std::nullopt});
  return l;
}

LayoutRecords valid_2x2() {
  LayoutRecords l;
  for (int r = 0; r < 4; ++r) {
    const int i = r / 2, j = r % 2;
    l.ranks.push_back(RankEntry{{Dim::block(5, 2, i, i ? 3 : 0, i ? 5 : 3), Dim::cyclic(9, 2, j)}, std::nullopt});
  }
  return l;
}

}  // namespace

TEST(Version, MinorAndPatchMayDifferMajorMayNot) {
  EXPECT_TRUE(check_version("0.10.0").empty());
  EXPECT_TRUE(check_version("0.11.3").empty());
  EXPECT_TRUE(check_version("0.9.1").empty());
  EXPECT_TRUE(has_problem(check_version("1.0.0"), -1, -1, "__version__", "major version is 0"));
  EXPECT_TRUE(has_problem(check_version("0.10"), -1, -1, "__version__", "major.minor.patch"));
  EXPECT_TRUE(has_problem(check_version("v0.10.0"), -1, -1, "__version__", "major.minor.patch"));
  EXPECT_TRUE(has_problem(check_version(""), -1, -1, "__version__", "major.minor.patch"));
}

TEST(CheckDim, CommonKeys) {
  EXPECT_TRUE(has_problem(check_dim(Dim::block(-1, 1, 0, 0, 0), 3, 1), 3, 1, "size", "size >= 0"));
  EXPECT_TRUE(has_problem(check_dim(Dim::block(4, 0, 0, 0, 4), 0, 0), 0, 0, "proc_grid_size", ">= 1"));
  EXPECT_TRUE(has_problem(check_dim(Dim::block(4, 2, 2, 0, 4), 0, 0), 0, 0, "proc_grid_rank", "< proc_grid_size"));
  EXPECT_TRUE(has_problem(check_dim(Dim::block(4, 2, -1, 0, 4), 0, 0), 0, 0, "proc_grid_rank", "0 <="));
}

TEST(CheckDim, BlockRules) {
  EXPECT_TRUE(check_dim(Dim::block(18, 2, 0, 0, 10, {1, 1}), 0, 0).empty());
  EXPECT_TRUE(check_dim(Dim::block(18, 2, 1, 18, 18), 0, 0).empty());  // empty buffer: start == stop == size
  EXPECT_TRUE(has_problem(check_dim(Dim::block(18, 2, 1, 8, 20), 1, 0), 1, 0, "stop", "stop <= size"));
  EXPECT_TRUE(has_problem(check_dim(Dim::block(18, 2, 1, -2, 5), 1, 0), 1, 0, "start", "start >= 0"));
  EXPECT_TRUE(has_problem(check_dim(Dim::block(18, 2, 1, 8, 5), 1, 0), 1, 0, "stop", "stop >= start"));
  EXPECT_TRUE(has_problem(check_dim(Dim::block(18, 2, 1, 8, 18, {-1, 0}), 1, 0), 1, 0, "padding", ">= 0"));
  EXPECT_TRUE(has_problem(check_dim(Dim::block(18, 2, 1, 8, 10, {2, 1}), 1, 0), 1, 0, "padding",
                          "padding[0] + padding[1] <= stop - start"));
  EXPECT_TRUE(has_problem(check_dim(Dim::block(18, 2, 1, 8, 18), 1, 0, 9), 1, 0, "stop", "buffer shape"));
}

TEST(CheckDim, CyclicRules) {
  EXPECT_TRUE(check_dim(Dim::cyclic(9, 2, 1, 2), 0, 0).empty());
  Dim d = Dim::cyclic(9, 2, 1, 2);
  d.start = 1;
  EXPECT_TRUE(has_problem(check_dim(d, 1, 0), 1, 0, "start", "proc_grid_rank * block_size"));
  d.block_size = 0;
  EXPECT_TRUE(has_problem(check_dim(d, 1, 0), 1, 0, "block_size", ">= 1"));
  // A rank past the last block may give start = rank * block_size or size.
  Dim past = Dim::cyclic(3, 4, 3, 2);
  EXPECT_EQ(past.start, 3);
  EXPECT_TRUE(check_dim(past, 3, 0).empty());
  past.start = 6;
  EXPECT_TRUE(check_dim(past, 3, 0).empty());
  EXPECT_TRUE(has_problem(check_dim(Dim::cyclic(10, 2, 1, 3), 1, 0, 3), 1, 0, "size", "buffer shape"));
}

TEST(CheckDim, UnstructuredRules) {
  EXPECT_TRUE(check_dim(Dim::unstructured(30, 3, 1, {6, 13, 3}), 1, 0).empty());
  EXPECT_TRUE(check_dim(Dim::unstructured(3, 1, 0, {-5, 100, 7}), 0, 0).empty());  // 1-D: any distinct ints
  EXPECT_TRUE(has_problem(check_dim(Dim::unstructured(30, 3, 1, {6, 13, 6}), 1, 0), 1, 0, "indices", "locally unique"));
  EXPECT_TRUE(has_problem(check_dim(Dim::unstructured(2, 1, 0, {0, 1, 2}), 0, 0), 0, 0, "indices", "len(indices) <= size"));
  EXPECT_TRUE(has_problem(check_dim(Dim::unstructured(30, 3, 1, {6}), 1, 0, 2), 1, 0, "indices", "buffer shape"));
}

TEST(CheckRank, ShapeAndMultiDimensionalUnstructuredRange) {
  EXPECT_TRUE(has_problem(check_rank({Dim::undistributed(3)}, 2, std::vector<global_index_t>{3, 1}), 2, -1,
                          "local_shape", "one axis per dimension"));
  const std::vector<Dim> dd{Dim::unstructured(5, 1, 0, {0, 5}), Dim::undistributed(2)};
  EXPECT_TRUE(has_problem(check_rank(dd, 0), 0, 0, "indices", "lie in [0, size)"));
  const std::vector<Dim> huge{Dim::undistributed(1 << 20), Dim::undistributed(1 << 12)};
  EXPECT_TRUE(has_problem(check_rank(huge, 0), 0, -1, "dim_data", "32-bit"));
  EXPECT_TRUE(has_problem(check_dim(Dim::undistributed(global_index_t{1} << 32), 0, 0), 0, 0, "size", "32-bit"));
}

TEST(CheckLayout, ValidLayoutsHaveNoProblems) {
  EXPECT_TRUE(check_layout(valid_2x2()).empty());
  LayoutRecords scalar;
  scalar.ranks.push_back(RankEntry{});
  EXPECT_TRUE(check_layout(scalar).empty());  // zero-dimensional array on one process
}

TEST(CheckLayout, ProcessCountAndGrid) {
  EXPECT_TRUE(has_problem(check_layout(LayoutRecords{}), -1, -1, "ranks", "at least one process"));
  LayoutRecords l = valid_2x2();
  l.ranks.pop_back();
  EXPECT_TRUE(has_problem(check_layout(l), -1, -1, "proc_grid_size", "product of proc_grid_size"));
  LayoutRecords swapped = valid_2x2();
  std::swap(swapped.ranks[1], swapped.ranks[2]);  // grid coordinates no longer in C order
  EXPECT_TRUE(has_problem(check_layout(swapped), 1, 0, "proc_grid_rank", "C-order"));
  LayoutRecords scalar2;
  scalar2.ranks.resize(2);
  EXPECT_TRUE(has_problem(check_layout(scalar2), -1, -1, "proc_grid_size", "product"));
}

TEST(CheckLayout, KeysEveryProcessAgreesOn) {
  LayoutRecords l = valid_2x2();
  l.ranks[3].dim_data[1].size = 10;
  EXPECT_TRUE(has_problem(check_layout(l), 3, 1, "size", "same on every process"));
  l = valid_2x2();
  l.ranks[2].dim_data[1] = Dim::block(9, 2, 0, 0, 5);
  EXPECT_TRUE(has_problem(check_layout(l), 2, 1, "dist_type", "same on every process"));
  l = valid_2x2();
  l.ranks[1].dim_data[0].proc_grid_size = 4;
  EXPECT_TRUE(has_problem(check_layout(l), 1, 0, "proc_grid_size", "same on every process"));
  l = valid_2x2();
  l.ranks[1].dim_data.pop_back();
  EXPECT_TRUE(has_problem(check_layout(l), 1, -1, "dim_data", "same number of dimensions"));
  l = valid_2x2();
  l.version = "2.0.0";
  EXPECT_TRUE(has_problem(check_layout(l), -1, -1, "__version__", "major version"));
}

TEST(CheckLayout, SameGridRankSameRecord) {
  LayoutRecords l = valid_2x2();
  // Ranks 0 and 1 share grid rank 0 on axis 0, but rank 1 claims a different block.
  l.ranks[1].dim_data[0] = Dim::block(5, 2, 0, 0, 2);
  l.ranks[3].dim_data[0] = Dim::block(5, 2, 1, 2, 5);
  EXPECT_TRUE(has_problem(check_layout(l), 1, 0, "stop", "identical dimension dictionaries"));
  EXPECT_TRUE(has_problem(check_layout(l), 3, 0, "start", "identical dimension dictionaries"));
}

TEST(CheckLayout, BlockAxisRules) {
  // Gap between owned ranges.
  EXPECT_TRUE(has_problem(check_layout(layout_1d({Dim::block(10, 2, 0, 0, 4), Dim::block(10, 2, 1, 5, 10)})), 1, 0,
                          "start", "adjacent"));
  // Does not start at 0 / does not end at size.
  EXPECT_TRUE(has_problem(check_layout(layout_1d({Dim::block(10, 2, 0, 1, 4), Dim::block(10, 2, 1, 4, 10)})), 0, 0,
                          "start", "from global index 0"));
  EXPECT_TRUE(has_problem(check_layout(layout_1d({Dim::block(10, 2, 0, 0, 4), Dim::block(10, 2, 1, 4, 9)})), 1, 0,
                          "stop", "owns up to size"));
  // Communication padding counterparts differ: rank 0 right 1, rank 1 left 2.
  EXPECT_TRUE(has_problem(
      check_layout(layout_1d({Dim::block(10, 2, 0, 0, 6, {0, 1}), Dim::block(10, 2, 1, 3, 10, {2, 0})})), 1, 0,
      "padding", "equals left communication padding"));
  // Padding wider than the neighbour owns: owned [0,3) [3,4) [4,6), and rank 0
  // reaches 2 indices into rank 1, which owns only one.
  EXPECT_TRUE(has_problem(
      check_layout(layout_1d({Dim::block(6, 3, 0, 0, 5, {0, 2}), Dim::block(6, 3, 1, 1, 4, {2, 0}),
                              Dim::block(6, 3, 2, 4, 6)})),
      0, 0, "padding", "at most the neighbour's owned count"));
  // Periodic must agree, and the interior must be able to fill the edges.
  EXPECT_TRUE(has_problem(
      check_layout(layout_1d({Dim::block(10, 2, 0, 0, 5, {0, 0}, true), Dim::block(10, 2, 1, 5, 10)})), 1, 0,
      "periodic", "same on every grid rank"));
  EXPECT_TRUE(has_problem(check_layout(layout_1d({Dim::block(3, 1, 0, 0, 3, {2, 1}, true)})), 0, 0, "padding",
                          "interior period"));
  EXPECT_TRUE(check_layout(layout_1d({Dim::block(3, 1, 0, 0, 3, {1, 1}, true)})).empty());  // interior 1 fills both
}

TEST(CheckLayout, CyclicAxisRules) {
  EXPECT_TRUE(has_problem(check_layout(layout_1d({Dim::cyclic(9, 2, 0, 2), Dim::cyclic(9, 2, 1, 3)})), 1, 0,
                          "block_size", "same on every grid rank"));
  Dim shifted = Dim::cyclic(9, 2, 1, 2);
  shifted.start = 1;  // would leave index 1 to nobody and 3 to two processes
  EXPECT_TRUE(has_problem(check_layout(layout_1d({Dim::cyclic(9, 2, 0, 2), shifted})), 1, 0, "start",
                          "proc_grid_rank * block_size"));
}

TEST(CheckLayout, UnstructuredAxisRules) {
  // one_to_one set but index 2 is on two ranks.
  EXPECT_TRUE(has_problem(check_layout(layout_1d({Dim::unstructured(4, 2, 0, {0, 1, 2}, true),
                                                  Dim::unstructured(4, 2, 1, {2, 3}, true)})),
                          1, 0, "indices", "exactly one process"));
  // The same overlap is fine without one_to_one.
  EXPECT_TRUE(check_layout(layout_1d({Dim::unstructured(4, 2, 0, {0, 1, 2}), Dim::unstructured(4, 2, 1, {2, 3})}))
                  .empty());
  EXPECT_TRUE(has_problem(check_layout(layout_1d({Dim::unstructured(4, 2, 0, {0, 1}, true),
                                                  Dim::unstructured(4, 2, 1, {2, 3}, false)})),
                          1, 0, "one_to_one", "same on every grid rank"));
  // size does not match the distinct indices.
  EXPECT_TRUE(has_problem(check_layout(layout_1d({Dim::unstructured(5, 2, 0, {0, 1}), Dim::unstructured(5, 2, 1, {2, 3})})),
                          -1, 0, "size", "distinct indices"));
}

TEST(CheckLayout, ReportsEveryProblemNotJustTheFirst) {
  LayoutRecords l = layout_1d({Dim::block(18, 3, 0, 0, 20), Dim::block(18, 3, 1, -1, 5), Dim::unstructured(18, 3, 2, {1, 1})});
  const auto ps = check_layout(l);
  EXPECT_TRUE(has_problem(ps, 0, 0, "stop", "stop <= size"));
  EXPECT_TRUE(has_problem(ps, 1, 0, "start", "start >= 0"));
  EXPECT_TRUE(has_problem(ps, 2, 0, "indices", "locally unique"));
  const ValidationError e(ps);
  EXPECT_NE(std::string(e.what()).find("rank 1, dim 0, key 'start' = -1"), std::string::npos) << e.what();
}

TEST(GlobalLayout, ThrowsOnInvalidAndAnswersOnValid) {
  EXPECT_THROW(GlobalLayout(layout_1d({Dim::block(10, 2, 0, 0, 4), Dim::block(10, 2, 1, 5, 10)})), ValidationError);
  const GlobalLayout g(valid_2x2());
  EXPECT_EQ(g.global_shape(), (std::vector<global_index_t>{5, 9}));
  EXPECT_EQ(g.owner({4, 8}), 2);  // row 4 on grid row 1, column 8 on grid column 0
  EXPECT_EQ(g.owner({0, 1}), 1);
  EXPECT_EQ(g.num_owned(0) + g.num_owned(1) + g.num_owned(2) + g.num_owned(3), 45);
}

// An adapter that proves per-index rules another way may defer them for one
// 'u' axis; check_index_rules then finds exactly what check_rank would have.
TEST(Validate, IndexRulesCanBeDeferredForOneAxisAndRunLater) {
  const std::vector<Dim> dims{Dim::unstructured(6, 2, 0, {0, 3, 3, 9}), Dim::undistributed(2)};
  const auto has = [](const std::vector<Problem>& ps, const std::string& rule_part) {
    return std::any_of(ps.begin(), ps.end(), [&](const Problem& p) { return p.rule.find(rule_part) != std::string::npos; });
  };
  const auto full = check_rank(dims, 0);
  EXPECT_TRUE(has(full, "locally unique"));
  EXPECT_TRUE(has(full, "lie in [0, size)"));
  const auto deferred = check_rank(dims, 0, std::nullopt, 0);
  EXPECT_FALSE(has(deferred, "locally unique"));
  EXPECT_FALSE(has(deferred, "lie in [0, size)"));
  const auto later = check_index_rules(dims, 0, 0);
  EXPECT_TRUE(has(later, "locally unique"));
  EXPECT_TRUE(has(later, "lie in [0, size)"));
  EXPECT_EQ(deferred.size() + later.size(), full.size());
  EXPECT_TRUE(check_index_rules(dims, 1, 0).empty());  // not a 'u' axis
}

// A problem found twice (by a process's own check and again by the gathered
// one) is listed once; distinct problems all stay, in their order.
TEST(Errors, ThrowIfAnyListsEachDistinctProblemOnce) {
  const Problem a{1, 0, "stop", "5", "stop >= start", "stop 5 is below start 6"};
  const Problem b{0, -1, "__version__", "'x'", "__version__ is 'major.minor.patch'", "not a version"};
  EXPECT_NO_THROW(throw_if_any({}));
  try {
    throw_if_any({a, b, a, b, a});
    ADD_FAILURE() << "nothing thrown";
  } catch (const ValidationError& e) {
    ASSERT_EQ(e.problems().size(), 2u) << e.what();
    EXPECT_EQ(e.problems()[0], a);
    EXPECT_EQ(e.problems()[1], b);
  }
}
