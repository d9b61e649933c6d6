#include "dapetra/record_reader.hpp"

#include <array>
#include <limits>

#include "record_reading.hpp"

namespace dapetra {

std::string RecordValue::type_name() const {
  switch (kind()) {
    case Kind::null: return "null";
    case Kind::boolean: return "a boolean";
    case Kind::integer: return "an integer";
    case Kind::number: return "a non-integer number";
    case Kind::string: return "a string";
    case Kind::list: return "a list";
    case Kind::object: return "a dictionary";
    case Kind::other: break;
  }
  return "a value of another type";
}

namespace detail {

void FieldReader::fail(const std::string& key, const std::string& value, const std::string& rule, const std::string& message) {
  out.push_back(Problem::of(where.rank, key, value, rule, message, where.dim));
}

bool FieldReader::integer(const RecordValue& v, const std::string& key, global_index_t lo, global_index_t hi, global_index_t& x) {
  if (v.kind() != RecordValue::Kind::integer) {
    fail(key, v.brief(), key + " is an integer", "found " + v.type_name());
    return false;
  }
  const auto got = v.integer();
  if (!got) {
    fail(key, v.brief(), key + " fits in " + std::to_string(hi), "number out of range");
    return false;
  }
  if (*got < lo || *got > hi) {
    fail(key, v.brief(), key + " in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]", "number out of range");
    return false;
  }
  x = *got;
  return true;
}

bool FieldReader::boolean(const RecordValue& v, const std::string& key, bool& b) {
  if (v.kind() != RecordValue::Kind::boolean) {
    fail(key, v.brief(), key + " is true or false", "found " + v.type_name());
    return false;
  }
  b = v.boolean();
  return true;
}

bool FieldReader::integer_list(const RecordValue& v, const std::string& key, global_index_t lo, std::vector<global_index_t>& x) {
  if (v.kind() != RecordValue::Kind::list) {
    fail(key, v.brief(), key + " is a list of integers", "found " + v.type_name());
    return false;
  }
  if (v.packed_integers(x)) {
    for (global_index_t g : x)
      if (g < lo) {
        fail(key, std::to_string(g), key + " entries are at least " + std::to_string(lo), "number out of range");
        return false;
      }
    return true;
  }
  x.clear();
  bool ok = true;
  v.for_each_item([&](const RecordValue& item) {
    global_index_t g = 0;
    ok = integer(item, key, lo, std::numeric_limits<global_index_t>::max(), g);
    if (ok) x.push_back(g);
    return ok;
  });
  return ok;
}

}  // namespace detail

namespace {

using detail::FieldReader;

// An integer key into a field of type T, within T's range.
template <class T>
void read_into(FieldReader& r, const RecordValue& v, const char* key, T& field) {
  global_index_t x = 0;
  if (r.integer(v, key, std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), x)) field = static_cast<T>(x);
}

void read_padding(FieldReader& r, const RecordValue& v, Dim& d) {
  if (v.kind() != RecordValue::Kind::list)
    return r.fail("padding", v.brief(), "padding is a pair of integers", "found " + v.type_name());
  // Read into the pair itself: a record is read on every plan call from Python.
  std::size_t n = 0;
  bool ok = true;
  v.for_each_item([&d, &n, &ok, &r](const RecordValue& item) {
    global_index_t x = 0;
    ok = r.integer(item, "padding", std::numeric_limits<global_index_t>::min(), std::numeric_limits<global_index_t>::max(), x);
    if (ok && n < 2) d.padding[n] = x;
    ++n;
    return ok;
  });
  if (ok && n != 2)
    r.fail("padding", v.brief(), "padding is a pair of integers", "found " + std::to_string(n) + " values");
}

// The spec's keys (section 1.6), the dist_types that have each, and how each
// is read: the one list of them.
struct Key {
  std::string_view name;
  std::string_view dist_types;
  bool required;
  void (*read)(FieldReader&, const RecordValue&, Dim&);
};

constexpr std::array<Key, 11> spec_keys{{
    {"dist_type", "bcu", true, nullptr},  // read first: it decides the others
    {"size", "bcu", true, [](FieldReader& r, const RecordValue& v, Dim& d) { read_into(r, v, "size", d.size); }},
    {"proc_grid_size", "bcu", true,
     [](FieldReader& r, const RecordValue& v, Dim& d) { read_into(r, v, "proc_grid_size", d.proc_grid_size); }},
    {"proc_grid_rank", "bcu", true,
     [](FieldReader& r, const RecordValue& v, Dim& d) { read_into(r, v, "proc_grid_rank", d.proc_grid_rank); }},
    {"start", "bc", true, [](FieldReader& r, const RecordValue& v, Dim& d) { read_into(r, v, "start", d.start); }},
    {"stop", "b", true, [](FieldReader& r, const RecordValue& v, Dim& d) { read_into(r, v, "stop", d.stop); }},
    {"padding", "b", false, read_padding},
    {"periodic", "b", false, [](FieldReader& r, const RecordValue& v, Dim& d) { r.boolean(v, "periodic", d.periodic); }},
    {"block_size", "c", false,
     [](FieldReader& r, const RecordValue& v, Dim& d) { read_into(r, v, "block_size", d.block_size); }},
    {"indices", "u", true,
     [](FieldReader& r, const RecordValue& v, Dim& d) {
       r.integer_list(v, "indices", std::numeric_limits<global_index_t>::min(), d.indices);
     }},
    {"one_to_one", "u", false, [](FieldReader& r, const RecordValue& v, Dim& d) { r.boolean(v, "one_to_one", d.one_to_one); }},
}};

bool has(const Key& k, char dist_type) { return k.dist_types.find(dist_type) != std::string_view::npos; }

const Key* key_named(std::string_view name, char dist_type) {
  for (const Key& k : spec_keys)
    if (name == k.name) return has(k, dist_type) ? &k : nullptr;
  return nullptr;
}

// What a first look at a record finds: whether it has members, and its
// dist_type ('b', 'c', 'u'; 0 where missing or unknown, with `quoted` the
// value found).
struct FirstLook {
  bool empty = true;
  bool has_dist_type = false;
  char dist_type = 0;
  std::string quoted;
};

FirstLook first_look(const RecordValue& record) {
  FirstLook look;
  // One reference captured: std::function keeps it without allocating.
  record.for_each_member([&look](std::string_view key, const RecordValue& v) {
    look.empty = false;
    if (key != "dist_type") return;
    look.has_dist_type = true;
    const std::string s = v.kind() == RecordValue::Kind::string ? v.text() : std::string();
    if (s == "b" || s == "c" || s == "u") look.dist_type = s[0];
    else look.quoted = v.brief();
  });
  return look;
}

// Each member read into the Dim, and which of the spec's keys were seen.
struct Members {
  FieldReader& r;
  Dim& d;
  std::array<bool, spec_keys.size()> seen{};

  void read(std::string_view name, const RecordValue& v) {
    const char t = static_cast<char>(d.dist_type);
    const Key* k = key_named(name, t);
    if (!k)
      return r.fail(std::string(name), v.brief(), "only the spec's keys for dist_type '" + std::string(1, t) + "'",
                    "unknown key for this dist_type");
    seen[static_cast<std::size_t>(k - spec_keys.data())] = true;
    if (k->read) k->read(r, v, d);
  }
};

}  // namespace

std::optional<Dim> read_dim_record(const RecordValue& record, RecordPlace where, std::optional<global_index_t> local_extent,
                                   std::vector<Problem>& problems) {
  FieldReader r{problems, where};
  const std::size_t before = problems.size();
  if (record.kind() != RecordValue::Kind::object) {
    r.fail("", record.brief(), "a dimension record is a dictionary (a JSON object)", "found " + record.type_name());
    return std::nullopt;
  }
  const FirstLook look = first_look(record);
  if (look.empty) {  // the empty-dictionary alias, section 1.6.3
    if (!local_extent) {
      r.fail("", "{}", "the empty dimension dictionary needs the buffer shape (local_shape)",
             "cannot expand {} without local_shape");
      return std::nullopt;
    }
    return Dim::undistributed(*local_extent);
  }
  if (!look.has_dist_type) r.fail("dist_type", "", "'dist_type' is present", "missing key");
  else if (!look.dist_type) r.fail("dist_type", look.quoted, "dist_type is 'b', 'c' or 'u'", "unknown distribution type");
  if (!look.dist_type) return std::nullopt;
  Dim d;
  d.dist_type = static_cast<DistType>(look.dist_type);
  Members members{r, d};
  record.for_each_member([&members](std::string_view name, const RecordValue& v) { members.read(name, v); });
  for (std::size_t i = 0; i < spec_keys.size(); ++i)
    if (spec_keys[i].required && has(spec_keys[i], look.dist_type) && !members.seen[i])
      r.fail(std::string(spec_keys[i].name), "", "'" + std::string(spec_keys[i].name) + "' is present", "missing key");
  if (problems.size() != before) return std::nullopt;
  return d;
}

}  // namespace dapetra
