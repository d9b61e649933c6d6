// The spec's chapter 2 as a conformance suite. tests/data/spec_chapter2.json is
// transcribed from the spec text; in examples 2.4-2.12 every buffer value is
// the global flat index of its element, so checking our index math against
// the listed buffers is exact and independent of Dapetra's own code.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "../common/flat_indices.hpp"
#include "dapetra/dim_math.hpp"
#include "dapetra/inspect.hpp"
#include "dapetra/json.hpp"

using namespace dapetra;
using nlohmann::json;

namespace {

json spec_data() {
  std::ifstream in(DAPETRA_SPEC_DATA);
  return json::parse(in)["examples"];
}

class SpecExample : public ::testing::TestWithParam<std::string> {};

}  // namespace

// (section_name is used by the instantiations at the bottom.)
std::string section_name(const ::testing::TestParamInfo<std::string>& param_info);

TEST_P(SpecExample, LayoutFileMatchesTheSpecAndValidates) {
  const json ex = spec_data()[GetParam()];
  const LayoutRecords layout = read_layout_file(std::string(DAPETRA_LAYOUT_DIR "/") + ex["layout_file"].get<std::string>());
  ASSERT_EQ(layout.ranks.size(), ex["ranks"].size());
  const GlobalLayout gl(layout);
  global_index_t owned_total = 0, size = 1;
  for (std::size_t r = 0; r < layout.ranks.size(); ++r) {
    const json& rank = ex["ranks"][r];
    EXPECT_EQ(layout.ranks[r].dim_data, dim_data_from_json(rank["dim_data"].dump())) << "rank " << r;
    EXPECT_EQ(local_shape_of(layout.ranks[r].dim_data), rank["buffer_shape"].get<std::vector<global_index_t>>());
    owned_total += gl.num_owned(static_cast<int>(r));
  }
  for (auto s : gl.global_shape()) size *= s;
  EXPECT_EQ(owned_total, size);
}

// Examples whose buffers hold their elements' global flat indices (2.1-2.3
// hold data values and have dedicated tests below).
class SpecIndexExample : public SpecExample {};

TEST_P(SpecIndexExample, EveryBufferElementHasTheListedGlobalIndex) {
  const std::string id = GetParam();
  const json ex = spec_data()[id];
  for (std::size_t r = 0; r < ex["ranks"].size(); ++r) {
    const json& rank = ex["ranks"][r];
    const auto dims = dim_data_from_json(rank["dim_data"].dump());
    const auto listed = rank["buffer"].get<std::vector<double>>();
    const auto ours = dapetra::testing::global_flat_indices(dims);
    ASSERT_EQ(ours.size(), listed.size()) << "rank " << r;
    for (std::size_t i = 0; i < ours.size(); ++i)
      EXPECT_EQ(static_cast<double>(ours[i]), listed[i]) << "example " << id << " rank " << r << " element " << i;
  }
}

TEST_P(SpecExample, InspectOwnerMapAgreesWithTheListedBuffers) {
  const std::string id = GetParam();
  const json ex = spec_data()[id];
  std::ifstream in(std::string(DAPETRA_LAYOUT_DIR "/") + ex["layout_file"].get<std::string>());
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto parsed = parse_layout(text);
  const InspectReport rep = inspect(parsed);
  ASSERT_TRUE(rep.valid);
  // 2.1-2.3 list values, not global indices.
  if (id == "2.1" || id == "2.2" || id == "2.3") GTEST_SKIP() << "the listed buffers are values, not indices";
  // The listed buffer of rank r names the global elements r holds (flat, C
  // order); none of these examples has padding or shared indices, so r owns
  // exactly those: by the layout's owner(), and by the inspector's owner map
  // where it draws one (1-D and 2-D).
  const GlobalLayout layout(parsed.layout);
  const auto& shape = layout.global_shape();
  std::size_t checked = 0;
  for (std::size_t r = 0; r < ex["ranks"].size(); ++r)
    for (double listed : ex["ranks"][r]["buffer"].get<std::vector<double>>()) {
      auto flat = static_cast<global_index_t>(listed);
      std::vector<global_index_t> g(shape.size());
      for (std::size_t a = shape.size(); a-- > 0; flat /= shape[a]) g[a] = flat % shape[a];
      EXPECT_EQ(layout.owner(g), static_cast<int>(r)) << "example " << id << " element " << listed;
      if (!rep.owner_map.empty()) {
        EXPECT_EQ(rep.owner_map[static_cast<std::size_t>(listed)], static_cast<int>(r)) << "example " << id;
      }
      ++checked;
    }
  global_index_t total = 1;
  for (auto n : shape) total *= n;
  EXPECT_EQ(static_cast<global_index_t>(checked), total) << "every element listed once, example " << id;
}

std::string section_name(const ::testing::TestParamInfo<std::string>& param_info) {
  std::string s = "Section_" + param_info.param;
  for (char& c : s) c = c == '.' ? '_' : c;
  return s;
}

INSTANTIATE_TEST_SUITE_P(Chapter2, SpecExample,
                         ::testing::Values("2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "2.7", "2.8", "2.9", "2.10",
                                           "2.11", "2.12"),
                         section_name);
INSTANTIATE_TEST_SUITE_P(Chapter2, SpecIndexExample,
                         ::testing::Values("2.4", "2.5", "2.6", "2.7", "2.8", "2.9", "2.10", "2.11", "2.12"),
                         section_name);

TEST(SpecExample2_1, RowsOfTheTwoByTenArray) {
  const json ex = spec_data()["2.1"];
  for (int r = 0; r < 2; ++r) {
    const auto ours = dapetra::testing::global_flat_indices(dim_data_from_json(ex["ranks"][r]["dim_data"].dump()));
    for (int i = 0; i < 10; ++i) EXPECT_EQ(ours[i], r * 10 + i);
  }
}

TEST(SpecExample2_2, BoundaryAndCommunicationPadding) {
  // "Process 0: B 1 2 3 4 5 6 7 8 C / Process 1: C 9 10 ... 16 B", B at 0 and 17.
  const json ex = spec_data()["2.2"];
  const InspectReport rep = inspect(parse_layout(
      [&] { std::ifstream in(std::string(DAPETRA_LAYOUT_DIR "/") + ex["layout_file"].get<std::string>());
            return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()); }()));
  ASSERT_TRUE(rep.valid);
  const auto& r0 = rep.ranks[0].dims[0];
  const auto& r1 = rep.ranks[1].dims[0];
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(r0.global_indices[i], i);
    EXPECT_EQ(r1.global_indices[i], 8 + i);
    EXPECT_EQ(r0.owned[i], i != 9);  // C at position 9 is rank 1's index 9
    EXPECT_EQ(r1.owned[i], i != 0);  // C at position 0 is rank 0's index 8
  }
  EXPECT_EQ(rep.ranks[0].num_owned + rep.ranks[1].num_owned, 18);
  // The spec's buffers agree: each communication padding value equals the owner's value.
  const auto b0 = ex["ranks"][0]["buffer"].get<std::vector<double>>();
  const auto b1 = ex["ranks"][1]["buffer"].get<std::vector<double>>();
  EXPECT_EQ(b0[9], b1[1]);  // global 9
  EXPECT_EQ(b1[0], b0[8]);  // global 8
}

TEST(SpecExample2_3, UnstructuredIndicesCoverTheArrayOnce) {
  const json ex = spec_data()["2.3"];
  std::set<global_index_t> all;
  std::size_t count = 0;
  const std::vector<std::size_t> held{7, 3, 20};
  for (std::size_t r = 0; r < 3; ++r) {
    const auto dims = dim_data_from_json(ex["ranks"][r]["dim_data"].dump());
    EXPECT_EQ(static_cast<std::size_t>(local_extent(dims[0])), held[r]);
    for (auto g : dims[0].indices) all.insert(g);
    count += dims[0].indices.size();
  }
  EXPECT_EQ(count, 30u);
  EXPECT_EQ(all.size(), 30u);
  EXPECT_EQ(*all.begin(), 0);
  EXPECT_EQ(*all.rbegin(), 29);
}
