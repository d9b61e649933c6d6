// libFuzzer target: any bytes through the layout reader, every validation
// rule, and (for valid layouts of bounded size) the whole index math behind
// dapetra-inspect. It must never crash, hang, leak or read out of bounds.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "dapetra/dapetra.hpp"
#include "dapetra/wire/pack.hpp"

namespace {

// Valid layouts whose buffers hold more elements than this are only
// validated: inspecting them would spend the fuzzer's memory on arrays of
// indices, not on finding bugs.
constexpr dapetra::global_index_t inspect_limit = 1 << 16;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace dapetra;
  const ParsedLayout parsed = parse_layout(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!parsed.ok()) {
    (void)report_to_json(inspect(parsed));  // the partial-problem path
    return 0;
  }
  const auto problems = check_layout(parsed.layout);
  if (!problems.empty()) return 0;
  global_index_t elements = 0;
  for (const RankEntry& r : parsed.layout.ranks) {
    global_index_t n = 1;
    for (global_index_t e : local_shape_of(r.dim_data)) n *= e;
    elements += n;
    if (elements > inspect_limit) return 0;
  }
  const InspectReport report = inspect(parsed);
  if (!report.valid) __builtin_trap();  // check_layout said valid: inspect must agree
  (void)report_to_text(report);
  (void)report_to_json(report);
  // Round trip: writing and reading back gives the same records.
  const ParsedLayout again = parse_layout(layout_to_json(parsed.layout));
  if (!again.ok()) __builtin_trap();
  for (std::size_t r = 0; r < again.layout.ranks.size(); ++r)
    if (again.layout.ranks[r].dim_data != parsed.layout.ranks[r].dim_data) __builtin_trap();
  // The packed wire format round-trips too, and corrupt words never crash.
  PackedRank packed{parsed.layout.ranks[0], {}, {}, {}};
  auto words = pack_rank(packed);
  if (unpack_rank(words.data(), words.size()).entry.dim_data != packed.entry.dim_data) __builtin_trap();
  for (std::size_t cut = 0; cut < words.size(); cut += 3) {
    try {
      (void)unpack_rank(words.data(), cut);
    } catch (const ValidationError&) {
    }
  }
  return 0;
}
