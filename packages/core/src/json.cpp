#include "dapetra/json.hpp"

#include <fstream>
#include <limits>
#include <optional>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "dapetra/record_reader.hpp"
#include "dapetra/validate.hpp"
#include "record_reading.hpp"

namespace dapetra {
namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

std::string brief(const json& j) {
  // Text from the input may be invalid UTF-8 (it is quoted back in messages).
  std::string s = j.dump(-1, ' ', false, json::error_handler_t::replace);
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

// A JSON node as the record reader sees it.
class JsonValue final : public RecordValue {
 public:
  explicit JsonValue(const json& j) : j_(j) {}
  Kind kind() const override {
    switch (j_.type()) {
      case json::value_t::null: return Kind::null;
      case json::value_t::boolean: return Kind::boolean;
      case json::value_t::number_integer:
      case json::value_t::number_unsigned: return Kind::integer;
      case json::value_t::number_float: return Kind::number;
      case json::value_t::string: return Kind::string;
      case json::value_t::array: return Kind::list;
      case json::value_t::object: return Kind::object;
      default: return Kind::other;
    }
  }
  bool boolean() const override { return j_.get<bool>(); }
  std::optional<global_index_t> integer() const override {
    if (j_.is_number_unsigned() && j_.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<global_index_t>::max()))
      return std::nullopt;
    return j_.get<global_index_t>();
  }
  std::string text() const override { return j_.get<std::string>(); }
  void for_each_item(const std::function<bool(const RecordValue&)>& f) const override {
    for (const json& x : j_)
      if (!f(JsonValue(x))) return;
  }
  void for_each_member(const std::function<void(std::string_view, const RecordValue&)>& f) const override {
    for (const auto& item : j_.items()) f(item.key(), JsonValue(item.value()));
  }
  std::string brief() const override { return dapetra::brief(j_); }

 private:
  const json& j_;
};

std::string type_name(const json& j) { return JsonValue(j).type_name(); }

// One dimension record; false (with problems recorded) if it could not be read.
bool read_dim(const json& j, RecordPlace where, const std::vector<global_index_t>* local_shape, std::vector<Problem>& out, Dim& d) {
  std::optional<global_index_t> extent;
  if (local_shape && where.dim < static_cast<int>(local_shape->size())) extent = (*local_shape)[static_cast<std::size_t>(where.dim)];
  auto read = read_dim_record(JsonValue(j), where, extent, out);
  if (read) d = std::move(*read);
  return read.has_value();
}

ordered_json dim_to_json(const Dim& d) {
  ordered_json j;
  j["dist_type"] = std::string(1, to_char(d.dist_type));
  j["size"] = d.size;
  j["proc_grid_size"] = d.proc_grid_size;
  j["proc_grid_rank"] = d.proc_grid_rank;
  switch (d.dist_type) {
    case DistType::block:
      j["start"] = d.start;
      j["stop"] = d.stop;
      if (d.padding[0] || d.padding[1]) j["padding"] = {d.padding[0], d.padding[1]};
      if (d.periodic) j["periodic"] = true;
      break;
    case DistType::cyclic:
      j["start"] = d.start;
      if (d.block_size != 1) j["block_size"] = d.block_size;
      break;
    case DistType::unstructured:
      j["indices"] = d.indices;
      if (d.one_to_one) j["one_to_one"] = true;
      break;
  }
  return j;
}

ordered_json dims_to_json(const std::vector<Dim>& dims) {
  ordered_json a = ordered_json::array();
  for (const Dim& d : dims) a.push_back(dim_to_json(d));
  return a;
}

// Layouts nest four levels deep ({ranks: [{dim_data: [{...}]}]}); anything
// much deeper is refused before any code recurses over it (a 200 KB file of
// nested brackets must give a located error, not exhaust the stack).
constexpr std::size_t max_json_depth = 64;

// The byte offset where nesting first exceeds `limit` (outside strings), if anywhere.
std::optional<std::size_t> too_deep_at(std::string_view text, std::size_t limit) {
  std::size_t depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return i;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return std::nullopt;
}

bool parse_text(std::string_view text, json& j, std::vector<Problem>& out, int rank) {
  if (const auto at = too_deep_at(text, max_json_depth)) {
    out.push_back(Problem::of(rank, "", "byte " + std::to_string(*at), "JSON nests at most 64 levels deep",
                              "nesting exceeds 64 levels at byte " + std::to_string(*at)));
    return false;
  }
  try {
    j = json::parse(text.begin(), text.end());
    return true;
  } catch (const json::exception& e) {  // parse_error, and out_of_range for numbers like 1e400
    out.push_back(Problem::of(rank, "", "", "well-formed JSON", e.what()));
    return false;
  }
}

}  // namespace

std::string dim_data_to_json(const std::vector<Dim>& dim_data, int indent) {
  return dims_to_json(dim_data).dump(indent);
}

std::string layout_to_json(const LayoutRecords& layout, int indent) {
  ordered_json j;
  j["__version__"] = layout.version;
  j["ranks"] = ordered_json::array();
  for (const RankEntry& r : layout.ranks) {
    ordered_json e;
    e["dim_data"] = dims_to_json(r.dim_data);
    if (r.local_shape) e["local_shape"] = *r.local_shape;
    j["ranks"].push_back(e);
  }
  return j.dump(indent, ' ', false, ordered_json::error_handler_t::replace);
}

std::vector<Dim> dim_data_from_json(std::string_view text, const std::vector<global_index_t>* local_shape, int rank) {
  std::vector<Problem> out;
  json j;
  std::vector<Dim> dims;
  if (parse_text(text, j, out, rank)) {
    if (!j.is_array()) {
      out.push_back(Problem::of(rank, "dim_data", brief(j), "dim_data is a list of dimension dictionaries",
                                "found " + type_name(j)));
    } else {
      dims.resize(j.size());
      for (std::size_t d = 0; d < j.size(); ++d) read_dim(j[d], RecordPlace{rank, static_cast<int>(d)}, local_shape, out, dims[d]);
    }
  }
  throw_if_any(out);
  return dims;
}

ParsedLayout parse_layout(std::string_view text) {
  ParsedLayout p;
  json j;
  if (!parse_text(text, j, p.problems, -1)) return p;
  detail::FieldReader top{p.problems, RecordPlace{}};
  if (!j.is_object()) {
    top.fail("", brief(j), "a layout file is a JSON object", "found " + type_name(j));
    return p;
  }
  for (const auto& item : j.items())
    if (item.key() != "__version__" && item.key() != "ranks" && item.key() != "description")
      top.fail(item.key(), brief(item.value()), "a layout file has keys __version__, ranks (and optionally description)",
               "unknown key");
  if (const auto v = j.find("__version__"); v == j.end())
    top.fail("__version__", "", "'__version__' is present", "missing key");
  else if (!v->is_string())
    top.fail("__version__", brief(*v), "__version__ is a string", "found " + type_name(*v));
  else
    p.layout.version = v->get<std::string>();
  const auto ranks = j.find("ranks");
  if (ranks == j.end() || !ranks->is_array()) {
    top.fail("ranks", ranks == j.end() ? "" : brief(*ranks), "'ranks' is a list with one entry per process",
             ranks == j.end() ? "missing key" : "found " + type_name(*ranks));
    return p;
  }
  p.layout.ranks.resize(ranks->size());
  for (std::size_t r = 0; r < ranks->size(); ++r) {
    const json& e = (*ranks)[r];
    RankEntry& entry = p.layout.ranks[r];
    detail::FieldReader rd{p.problems, RecordPlace{static_cast<int>(r), -1}};
    const auto whole_rank_unreadable = [&] { p.unreadable.emplace_back(static_cast<int>(r), -1); };
    if (!e.is_object()) {
      rd.fail("", brief(e), "a rank entry is an object with dim_data", "found " + type_name(e));
      whole_rank_unreadable();
      continue;
    }
    for (const auto& item : e.items())
      if (item.key() != "dim_data" && item.key() != "local_shape")
        rd.fail(item.key(), brief(item.value()), "a rank entry has keys dim_data and local_shape", "unknown key");
    if (const auto s = e.find("local_shape"); s != e.end()) {
      std::vector<global_index_t> shape;
      if (rd.integer_list(JsonValue(*s), "local_shape", 0, shape)) entry.local_shape = shape;
    }
    const auto dd = e.find("dim_data");
    if (dd == e.end() || !dd->is_array()) {
      rd.fail("dim_data", dd == e.end() ? "" : brief(*dd), "'dim_data' is a list of dimension dictionaries",
              dd == e.end() ? "missing key" : "found " + type_name(*dd));
      whole_rank_unreadable();
      continue;
    }
    entry.dim_data.resize(dd->size());
    const std::vector<global_index_t>* shape = entry.local_shape ? &*entry.local_shape : nullptr;
    for (std::size_t d = 0; d < dd->size(); ++d)
      if (!read_dim((*dd)[d], RecordPlace{static_cast<int>(r), static_cast<int>(d)}, shape, p.problems, entry.dim_data[d]))
        p.unreadable.emplace_back(static_cast<int>(r), static_cast<int>(d));
  }
  return p;
}

LayoutRecords read_layout_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ValidationError({Problem::of(-1, "", path, "the layout file can be read", "cannot open " + path)});
  std::stringstream ss;
  ss << in.rdbuf();
  ParsedLayout p = parse_layout(ss.str());
  throw_if_any(p.problems);
  throw_if_any(check_layout(p.layout));
  return std::move(p.layout);
}

}  // namespace dapetra
