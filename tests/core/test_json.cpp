#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "dapetra/inspect.hpp"
#include "dapetra/json.hpp"
#include "dapetra/validate.hpp"
#include "random_layout.hpp"

using namespace dapetra;

namespace {

// Every problem the reader reports for `text` (parse + local and collective rules).
std::vector<Problem> problems_of(const std::string& text) {
  ParsedLayout p = parse_layout(text);
  if (!p.ok()) return p.problems;
  return check_layout(p.layout);
}

bool mentions(const std::vector<Problem>& ps, int rank, int dim, const std::string& key) {
  for (const Problem& p : ps)
    if (p.rank == rank && p.dim == dim && p.key == key) return true;
  return false;
}

std::string one_rank(const std::string& dim_json, const std::string& extra = "") {
  return R"({"__version__": "0.10.0", "ranks": [{"dim_data": [)" + dim_json + "]" + extra + "}]}";
}

}  // namespace

TEST(Json, DimDataRoundTrip) {
  const std::vector<Dim> dims{Dim::block(18, 2, 1, 8, 18, {1, 1}, true), Dim::cyclic(9, 2, 1, 2),
                              Dim::unstructured(30, 3, 1, {6, 13, 3}, true), Dim::undistributed(4)};
  const std::string text = dim_data_to_json(dims);
  EXPECT_EQ(dim_data_from_json(text), dims);
  // Default-valued optional keys are left out, spec keys only.
  EXPECT_EQ(dim_data_to_json({Dim::cyclic(9, 2, 0)}),
            R"([{"dist_type":"c","size":9,"proc_grid_size":2,"proc_grid_rank":0,"start":0}])");
}

TEST(Json, RandomLayoutsRoundTrip) {
  std::mt19937_64 rng(7);
  for (int t = 0; t < 200; ++t) {
    const LayoutRecords l = dapetra::testing::random_layout(rng);
    const ParsedLayout p = parse_layout(layout_to_json(l, t % 2 ? 2 : -1));
    ASSERT_TRUE(p.ok()) << p.problems.front().to_string();
    ASSERT_EQ(p.layout.ranks.size(), l.ranks.size());
    for (std::size_t r = 0; r < l.ranks.size(); ++r) {
      EXPECT_EQ(p.layout.ranks[r].dim_data, l.ranks[r].dim_data);
      EXPECT_EQ(p.layout.ranks[r].local_shape, l.ranks[r].local_shape);
    }
  }
}

TEST(Json, EmptyDictionaryAliasNeedsTheBufferShape) {
  const std::vector<global_index_t> shape{3, 7};
  const auto dims = dim_data_from_json(R"([{}, {"dist_type": "c", "size": 14, "proc_grid_size": 2, "proc_grid_rank": 0, "start": 0}])", &shape);
  EXPECT_EQ(dims[0], Dim::block(3, 1, 0, 0, 3));
  EXPECT_THROW(dim_data_from_json("[{}]"), ValidationError);
  const auto ps = problems_of(one_rank("{}"));
  EXPECT_TRUE(mentions(ps, 0, 0, "")) << ps.front().to_string();
  EXPECT_TRUE(problems_of(one_rank("{}", R"(, "local_shape": [4])")).empty());
}

TEST(Json, MalformedInputNeverCrashes) {
  const std::vector<std::string> bad{
      "", "{", "[]", "null", "42", R"({"ranks": []})", R"({"__version__": 1, "ranks": []})",
      R"({"__version__": "0.10.0"})", R"({"__version__": "0.10.0", "ranks": {}})",
      R"({"__version__": "0.10.0", "ranks": [5]})", R"({"__version__": "0.10.0", "ranks": [{}]})",
      R"({"__version__": "0.10.0", "ranks": [{"dim_data": 3}]})",
      R"({"__version__": "0.10.0", "ranks": [{"dim_data": [], "local_shape": "x"}]})",
      R"({"__version__": "0.10.0", "ranks": []})", one_rank("7"), one_rank("[]"), one_rank(R"({"dist_type": "x"})"),
      one_rank(R"({"dist_type": 98})"), one_rank(R"({"size": 3})"),
      one_rank(R"({"dist_type": "b", "size": "3", "proc_grid_size": 1, "proc_grid_rank": 0, "start": 0, "stop": 3})"),
      one_rank(R"({"dist_type": "b", "size": 3.5, "proc_grid_size": 1, "proc_grid_rank": 0, "start": 0, "stop": 3})"),
      one_rank(R"({"dist_type": "b", "size": 99999999999999999999999, "proc_grid_size": 1, "proc_grid_rank": 0, "start": 0, "stop": 3})"),
      one_rank(R"({"dist_type": "b", "size": 18446744073709551615, "proc_grid_size": 1, "proc_grid_rank": 0, "start": 0, "stop": 3})"),
      one_rank(R"({"dist_type": "b", "size": 3, "proc_grid_size": 4294967297, "proc_grid_rank": 0, "start": 0, "stop": 3})"),
      one_rank(R"({"dist_type": "b", "size": 3, "proc_grid_size": 1, "proc_grid_rank": 0, "start": 0, "stop": 3, "padding": [1]})"),
      one_rank(R"({"dist_type": "b", "size": 3, "proc_grid_size": 1, "proc_grid_rank": 0, "start": 0, "stop": 3, "padding": 1})"),
      one_rank(R"({"dist_type": "b", "size": 3, "proc_grid_size": 1, "proc_grid_rank": 0, "start": 0, "stop": 3, "periodic": 1})"),
      one_rank(R"({"dist_type": "u", "size": 3, "proc_grid_size": 1, "proc_grid_rank": 0})"),
      one_rank(R"({"dist_type": "u", "size": 3, "proc_grid_size": 1, "proc_grid_rank": 0, "indices": [0, "1", 2]})"),
      one_rank(R"({"dist_type": "u", "size": 3, "proc_grid_size": 1, "proc_grid_rank": 0, "indices": [0, 1, 2], "one_to_one": "yes"})"),
      one_rank(R"({"dist_type": "c", "size": 3, "proc_grid_size": 1, "proc_grid_rank": 0, "start": 0, "stop": 3})"),
      one_rank(R"({"dist_type": "c", "size": 3, "proc_grid_size": 1, "proc_grid_rank": 0, "start": 0, "block_size": -9223372036854775808})"),
      one_rank(R"({"dist_type": "b", "size": 9223372036854775807, "proc_grid_size": 1, "proc_grid_rank": 0, "start": 0, "stop": 9223372036854775807})"),
      R"({"__version__": "0.10.0", "ranks": [{"dim_data": []}], "extra": true})",
  };
  for (const std::string& text : bad) {
    std::vector<Problem> ps;
    ASSERT_NO_THROW(ps = problems_of(text)) << text;
    EXPECT_FALSE(ps.empty()) << "accepted: " << text;
    for (const Problem& p : ps) EXPECT_FALSE(p.message.empty());
  }
}

TEST(Json, ProblemsNameRankDimAndKey) {
  const std::string text = R"({"__version__": "0.10.0", "ranks": [
    {"dim_data": [{"dist_type": "b", "size": 4, "proc_grid_size": 2, "proc_grid_rank": 0, "start": 0, "stop": 2}]},
    {"dim_data": [{"dist_type": "b", "size": 4, "proc_grid_size": 2, "proc_grid_rank": 1, "start": 2, "stopp": 4}]}]})";
  const auto ps = problems_of(text);
  EXPECT_TRUE(mentions(ps, 1, 0, "stopp"));  // unknown key
  EXPECT_TRUE(mentions(ps, 1, 0, "stop"));   // missing key
  const auto typed = problems_of(one_rank(R"({"dist_type": "b", "size": true, "proc_grid_size": 1, "proc_grid_rank": 0, "start": 0, "stop": 3})"));
  ASSERT_TRUE(mentions(typed, 0, 0, "size"));
  EXPECT_NE(typed.front().message.find("boolean"), std::string::npos) << typed.front().message;
}

TEST(Json, ReadLayoutFileThrowsWithEveryProblem) {
  EXPECT_THROW(read_layout_file("/nonexistent/layout.json"), ValidationError);
  try {
    read_layout_file(DAPETRA_LAYOUT_DIR "/spec_2_2_block_padded_1d.json");
  } catch (const ValidationError& e) {
    FAIL() << e.what();
  }
}

TEST(Json, InvalidUtf8InInputIsReportedNotThrownFromTheReport) {
  // Found by fuzz_layout: a parse error quoting an invalid byte made the
  // --json report throw while escaping the message.
  const std::string text = "{\"__version__\": \"0.10.0\", \"ranks\": [{\"dim_data\": [{\"padding\": [1\xf0 1]}]}]}";
  const ParsedLayout p = parse_layout(text);
  ASSERT_FALSE(p.ok());
  EXPECT_NO_THROW((void)report_to_json(inspect(p)));
  EXPECT_NE(report_to_json(inspect(p)).find("\"valid\":false"), std::string::npos);
}

// Deep nesting is refused with a located error before anything recurses: the
// 100,000-level file that used to crash the reader, and the depth limit's edges.
TEST(Json, DeepNestingIsRefusedNotACrash) {
  const auto nested = [](std::size_t levels, char open, char close) {
    return R"({"__version__": "0.10.0", "ranks": )" + std::string(levels, open) + std::string(levels, close) + "}";
  };
  for (const char* brackets : {"[]", "{}"}) {
    const ParsedLayout p = parse_layout(nested(100000, brackets[0], brackets[1]));
    ASSERT_FALSE(p.problems.empty());
    EXPECT_NE(p.problems[0].message.find("nesting exceeds 64 levels"), std::string::npos) << p.problems[0].message;
  }
  // 63 levels inside the outer object fit (the ranks value is then wrong, not too deep).
  const ParsedLayout fits = parse_layout(nested(63, '[', ']'));
  ASSERT_FALSE(fits.problems.empty());
  EXPECT_EQ(fits.problems[0].message.find("nesting exceeds"), std::string::npos) << fits.problems[0].message;
  // Brackets inside strings do not count.
  const ParsedLayout quoted = parse_layout(R"({"__version__": ")" + std::string(1000, '[') + R"(", "ranks": []})");
  for (const Problem& q : quoted.problems) EXPECT_EQ(q.message.find("nesting exceeds"), std::string::npos);
}
