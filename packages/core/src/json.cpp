#include "dapetra/json.hpp"

#include <fstream>
#include <limits>
#include <optional>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "dapetra/validate.hpp"

namespace dapetra {
namespace {

using json = nlohmann::json;
using ordered_json = nlohmann::ordered_json;

std::string brief(const json& j) {
  // Text from the input may be invalid UTF-8 (it is quoted back in messages).
  std::string s = j.dump(-1, ' ', false, json::error_handler_t::replace);
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

std::string type_name(const json& j) {
  if (j.is_number_float()) return "a non-integer number";
  if (j.is_number_integer()) return "an integer";
  return std::string("a ") + j.type_name();
}

// Reads typed values out of JSON objects, recording a Problem for every
// missing key, wrong type or out-of-range number instead of throwing.
struct Reader {
  std::vector<Problem>& out;
  int rank = -1;
  int dim = -1;
  bool failed = false;

  void fail(const std::string& key, const std::string& value, const std::string& rule, const std::string& msg) {
    out.push_back(Problem{rank, dim, key, value, rule, msg});
    failed = true;
  }

  bool integer(const json& j, const std::string& key, global_index_t lo, global_index_t hi, global_index_t& v) {
    if (!j.is_number_integer()) {
      fail(key, brief(j), key + " is an integer", "found " + type_name(j));
      return false;
    }
    if (j.is_number_unsigned() && j.get<std::uint64_t>() > static_cast<std::uint64_t>(hi)) {
      fail(key, brief(j), key + " fits in " + std::to_string(hi), "number out of range");
      return false;
    }
    v = j.get<global_index_t>();
    if (v < lo || v > hi) {
      fail(key, brief(j), key + " in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]", "number out of range");
      return false;
    }
    return true;
  }

  // An integer member; `required` decides whether absence is a problem.
  template <class T>
  void member(const json& obj, const std::string& key, bool required, T& v) {
    const auto it = obj.find(key);
    if (it == obj.end()) {
      if (required) fail(key, "", "'" + key + "' is present", "missing key");
      return;
    }
    global_index_t x = 0;
    if (integer(*it, key, std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), x)) v = static_cast<T>(x);
  }

  void flag(const json& obj, const std::string& key, bool& v) {
    const auto it = obj.find(key);
    if (it == obj.end()) return;
    if (!it->is_boolean()) return fail(key, brief(*it), key + " is true or false", "found " + type_name(*it));
    v = it->get<bool>();
  }

  bool int_list(const json& j, const std::string& key, global_index_t lo, std::vector<global_index_t>& v) {
    if (!j.is_array()) {
      fail(key, brief(j), key + " is a list of integers", "found " + type_name(j));
      return false;
    }
    v.clear();
    v.reserve(j.size());
    for (const json& x : j) {
      global_index_t g = 0;
      if (!integer(x, key, lo, std::numeric_limits<global_index_t>::max(), g)) return false;
      v.push_back(g);
    }
    return true;
  }
};

const std::set<std::string>& allowed_keys(DistType t) {
  static const std::set<std::string> b{"dist_type", "size", "proc_grid_size", "proc_grid_rank", "start", "stop", "padding", "periodic"};
  static const std::set<std::string> c{"dist_type", "size", "proc_grid_size", "proc_grid_rank", "start", "block_size"};
  static const std::set<std::string> u{"dist_type", "size", "proc_grid_size", "proc_grid_rank", "indices", "one_to_one"};
  return t == DistType::block ? b : t == DistType::cyclic ? c : u;
}

// Parses one dimension dictionary; returns false (with problems recorded) if
// it could not be read.
bool read_dim(const json& j, Reader& rd, const std::vector<global_index_t>* local_shape, Dim& d) {
  const std::size_t before = rd.out.size();
  if (!j.is_object()) {
    rd.fail("", brief(j), "a dimension dictionary is a JSON object", "found " + type_name(j));
    return false;
  }
  if (j.empty()) {  // the empty-dictionary alias, section 1.6.3
    if (!local_shape || rd.dim >= static_cast<int>(local_shape->size())) {
      rd.fail("", "{}", "the empty dimension dictionary needs the buffer shape (local_shape)",
              "cannot expand {} without local_shape");
      return false;
    }
    d = Dim::undistributed((*local_shape)[rd.dim]);
    return true;
  }
  const auto t = j.find("dist_type");
  if (t == j.end()) {
    rd.fail("dist_type", "", "'dist_type' is present", "missing key");
    return false;
  }
  const std::string s = t->is_string() ? t->get<std::string>() : "";
  if (s != "b" && s != "c" && s != "u") {
    rd.fail("dist_type", brief(*t), "dist_type is 'b', 'c' or 'u'", "unknown distribution type");
    return false;
  }
  d = Dim{};
  d.dist_type = static_cast<DistType>(s[0]);
  for (const auto& item : j.items())
    if (!allowed_keys(d.dist_type).count(item.key()))
      rd.fail(item.key(), brief(item.value()), "only the spec's keys for dist_type '" + s + "'",
              "unknown key for this dist_type");
  rd.member(j, "size", true, d.size);
  rd.member(j, "proc_grid_size", true, d.proc_grid_size);
  rd.member(j, "proc_grid_rank", true, d.proc_grid_rank);
  switch (d.dist_type) {
    case DistType::block: {
      rd.member(j, "start", true, d.start);
      rd.member(j, "stop", true, d.stop);
      rd.flag(j, "periodic", d.periodic);
      if (const auto p = j.find("padding"); p != j.end()) {
        std::vector<global_index_t> pad;
        if (rd.int_list(*p, "padding", std::numeric_limits<global_index_t>::min(), pad)) {
          if (pad.size() != 2)
            rd.fail("padding", brief(*p), "padding is a pair of integers", "found " + std::to_string(pad.size()) + " values");
          else
            d.padding = {pad[0], pad[1]};
        }
      }
      break;
    }
    case DistType::cyclic:
      rd.member(j, "start", true, d.start);
      rd.member(j, "block_size", false, d.block_size);
      break;
    case DistType::unstructured:
      if (const auto p = j.find("indices"); p == j.end())
        rd.fail("indices", "", "'indices' is present", "missing key");
      else
        rd.int_list(*p, "indices", std::numeric_limits<global_index_t>::min(), d.indices);
      rd.flag(j, "one_to_one", d.one_to_one);
      break;
  }
  return rd.out.size() == before;
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
    out.push_back(Problem{rank, -1, "", "byte " + std::to_string(*at), "JSON nests at most 64 levels deep",
                          "nesting exceeds 64 levels at byte " + std::to_string(*at)});
    return false;
  }
  try {
    j = json::parse(text.begin(), text.end());
    return true;
  } catch (const json::exception& e) {  // parse_error, and out_of_range for numbers like 1e400
    out.push_back(Problem{rank, -1, "", "", "well-formed JSON", e.what()});
    return false;
  }
}

}  // namespace

std::string dim_data_to_json(const std::vector<Dim>& dim_data, int indent) {
  return dims_to_json(dim_data).dump(indent);
}

std::string layout_to_json(const Layout& layout, int indent) {
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
      out.push_back(Problem{rank, -1, "dim_data", brief(j), "dim_data is a list of dimension dictionaries", "found " + type_name(j)});
    } else {
      dims.resize(j.size());
      for (std::size_t d = 0; d < j.size(); ++d) {
        Reader rd{out, rank, static_cast<int>(d)};
        read_dim(j[d], rd, local_shape, dims[d]);
      }
    }
  }
  throw_if_any(out);
  return dims;
}

ParsedLayout parse_layout(std::string_view text) {
  ParsedLayout p;
  json j;
  if (!parse_text(text, j, p.problems, -1)) return p;
  Reader top{p.problems};
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
    Reader rd{p.problems, static_cast<int>(r)};
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
      if (rd.int_list(*s, "local_shape", 0, shape)) entry.local_shape = shape;
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
    for (std::size_t d = 0; d < dd->size(); ++d) {
      Reader dr{p.problems, static_cast<int>(r), static_cast<int>(d)};
      if (!read_dim((*dd)[d], dr, shape, entry.dim_data[d]))
        p.unreadable.emplace_back(static_cast<int>(r), static_cast<int>(d));
    }
  }
  return p;
}

Layout read_layout_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ValidationError({Problem{-1, -1, "", path, "the layout file can be read", "cannot open " + path}});
  std::stringstream ss;
  ss << in.rdbuf();
  ParsedLayout p = parse_layout(ss.str());
  throw_if_any(p.problems);
  throw_if_any(check_layout(p.layout));
  return std::move(p.layout);
}

}  // namespace dapetra
