// The dapetra-inspect executable, run as a user would.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace {

struct ToolRun {
  int status;
  std::string out;
};

ToolRun run_tool(const std::string& args) {
  const std::string cmd = std::string(DAPETRA_INSPECT_EXE) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

TEST(InspectTool, JsonForSpecExample2_6MatchesTheSpec) {
  const ToolRun r = run_tool("--json " DAPETRA_LAYOUT_DIR "/spec_2_6_block_block_2x2.json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["valid"], true);
  EXPECT_EQ(j["global_shape"], nlohmann::json::parse("[5, 9]"));
  EXPECT_EQ(j["nprocs"], 4);
  const auto& r0 = j["ranks"][0];
  EXPECT_EQ(r0["rank"], 0);
  EXPECT_EQ(r0["grid_coords"], nlohmann::json::parse("[0, 0]"));
  EXPECT_EQ(r0["local_shape"], nlohmann::json::parse("[3, 5]"));
  EXPECT_EQ(r0["num_owned"], 15);
  EXPECT_EQ(r0["dims"][0]["global_indices"], nlohmann::json::parse("[0, 1, 2]"));
  EXPECT_EQ(r0["dims"][0]["owned"], nlohmann::json::parse("[true, true, true]"));
  EXPECT_EQ(j["ranks"][3]["dims"][1]["global_indices"], nlohmann::json::parse("[5, 6, 7, 8]"));
}

TEST(InspectTool, HumanReportDrawsTheOwnerMap) {
  const ToolRun r = run_tool(DAPETRA_LAYOUT_DIR "/spec_2_10_blockcyclic_blockcyclic_2x2.json");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("layout: valid"), std::string::npos) << r.out;
  // Rows 0-1 and 4 on grid row 0, rows 2-3 on grid row 1; columns in pairs.
  EXPECT_NE(r.out.find(" 0 0 1 1 0 0 1 1 0\n 0 0 1 1 0 0 1 1 0\n 2 2 3 3 2 2 3 3 2\n 2 2 3 3 2 2 3 3 2\n 0 0 1 1 0 0 1 1 0\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("load imbalance"), std::string::npos);
}

TEST(InspectTool, InvalidLayoutListsEveryErrorAndExits2) {
  const std::string path = write_temp("bad_layout.json", R"({"__version__": "0.10.0", "ranks": [
    {"dim_data": [{"dist_type": "b", "size": 18, "proc_grid_size": 2, "proc_grid_rank": 0, "start": 0, "stop": 20}]},
    {"dim_data": [{"dist_type": "b", "size": 18, "proc_grid_size": 2, "proc_grid_rank": 1, "start": "8", "stop": 18}]}]})");
  const ToolRun r = run_tool("--json " + path);
  EXPECT_EQ(r.status, 2) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["valid"], false);
  ASSERT_EQ(j["errors"].size(), 2u) << r.out;
  EXPECT_EQ(j["errors"][0]["rank"], 1);
  EXPECT_EQ(j["errors"][0]["key"], "start");
  EXPECT_EQ(j["errors"][1]["rank"], 0);
  EXPECT_EQ(j["errors"][1]["dim"], 0);
  EXPECT_EQ(j["errors"][1]["key"], "stop");
  EXPECT_FALSE(j["errors"][1]["message"].template get<std::string>().empty());
  const ToolRun text = run_tool(path);
  EXPECT_EQ(text.status, 2);
  EXPECT_NE(text.out.find("INVALID (2 problems)"), std::string::npos) << text.out;
}

TEST(InspectTool, MalformedFilesExit2WithoutCrashing) {
  for (const std::string& text : {std::string("{\"__version__\": "), std::string("[1, 2"), std::string(""),
                                  std::string("{\"__version__\": \"0.10.0\", \"ranks\": [{\"dim_data\": [{\"dist_type\": \"b\", "
                                              "\"size\": 1e400}]}]}")}) {
    const ToolRun r = run_tool("--json " + write_temp("malformed.json", text));
    EXPECT_EQ(r.status, 2) << text << "\n" << r.out;
    nlohmann::json report;
    ASSERT_NO_THROW(report = nlohmann::json::parse(r.out)) << r.out;
    EXPECT_EQ(report.value("valid", true), false) << r.out;
    EXPECT_FALSE(report.value("errors", nlohmann::json::array()).empty()) << r.out;
  }
  EXPECT_EQ(run_tool("--json /nonexistent.json").status, 2);
  EXPECT_EQ(run_tool("").status, 1);
}
