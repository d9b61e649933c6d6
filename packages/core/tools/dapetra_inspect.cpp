// dapetra-inspect: validate a DAP layout file and describe it.
//
//   dapetra-inspect FILE          human-readable report
//   dapetra-inspect --json FILE   machine-readable report
// Exit status: 0 valid, 2 invalid (every problem is listed), 1 usage error.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "dapetra/inspect.hpp"
#include "dapetra/version.hpp"

int main(int argc, char** argv) {
  bool as_json = false;
  std::string path;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--json") as_json = true;
    else if (a == "--version") {
      std::cout << "dapetra-inspect " << DAPETRA_VERSION_STRING << " (DAP " << dapetra::dap_version << ")\n";
      return 0;
    } else if (a == "-h" || a == "--help") {
      std::cout << "usage: dapetra-inspect [--json] LAYOUT.json\n"
                   "Validates a DAP layout file (every rank's dim_data) and describes it.\n"
                   "Exit status: 0 valid, 2 invalid, 1 usage error.\n";
      return 0;
    } else if (path.empty()) path = a;
    else {
      std::cerr << "dapetra-inspect: unexpected argument '" << a << "'\n";
      return 1;
    }
  }
  if (path.empty()) {
    std::cerr << "usage: dapetra-inspect [--json] LAYOUT.json\n";
    return 1;
  }
  dapetra::ParsedLayout parsed;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    parsed.problems.push_back(dapetra::Problem::of(-1, "", path, "the layout file can be read", "cannot open " + path));
  } else {
    std::stringstream ss;
    ss << in.rdbuf();
    parsed = dapetra::parse_layout(ss.str());
  }
  const dapetra::InspectReport report = dapetra::inspect(parsed);
  std::cout << (as_json ? dapetra::report_to_json(report) + "\n" : dapetra::report_to_text(report));
  return report.valid ? 0 : 2;
}
