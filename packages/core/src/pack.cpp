#include "dapetra/wire/pack.hpp"

#include <cstring>
#include <string>
#include <type_traits>

namespace dapetra {
namespace {

constexpr std::int64_t magic = 0x444150u;  // "DAP"

struct Writer {
  std::vector<std::int64_t> w;
  void put(std::int64_t v) { w.push_back(v); }
  void put(const std::string& s) {
    put(static_cast<std::int64_t>(s.size()));
    const std::size_t at = w.size();
    w.resize(at + (s.size() + 7) / 8, 0);
    if (!s.empty()) std::memcpy(w.data() + at, s.data(), s.size());
  }
};

struct Reader {
  const std::int64_t* p;
  std::size_t n, i = 0;
  std::int64_t get() {
    if (i >= n)
      throw ValidationError({Problem::of(-1, "", "", "packed records are complete", "truncated record data")});
    return p[i++];
  }
  // A length, refused if its items (each at least `words_per_item` words, or
  // 1/8 word for string bytes) cannot fit in what is left.
  std::size_t count(std::size_t words_per_item = 1, bool bytes = false) {
    const std::int64_t c = get();
    const std::size_t left = n - i;
    if (c < 0 || static_cast<std::size_t>(c) > (bytes ? left * 8 : left / words_per_item))
      throw ValidationError(
          {Problem::of(-1, "", std::to_string(c), "packed records are complete", "bad length in record data")});
    return static_cast<std::size_t>(c);
  }
  std::string str() {
    const std::size_t len = count(1, true);
    const std::size_t words = (len + 7) / 8;
    if (words > n - i)
      throw ValidationError({Problem::of(-1, "", "", "packed records are complete", "truncated string")});
    std::string s(len, '\0');
    if (len) std::memcpy(s.data(), p + i, len);
    i += words;
    return s;
  }
};

// One key of a record as words, and back (for_each_scalar_key walks them).
template <class T>
void put_key(Writer& wr, const T& v) {
  if constexpr (std::is_same_v<T, DistType>) wr.put(static_cast<std::int64_t>(to_char(v)));
  else if constexpr (std::is_same_v<T, std::array<global_index_t, 2>>) wr.put(v[0]), wr.put(v[1]);
  else wr.put(static_cast<std::int64_t>(v));
}

template <class T>
void get_key(Reader& rd, T& v) {
  if constexpr (std::is_same_v<T, DistType>) {
    const std::int64_t t = rd.get();
    if (t != 'b' && t != 'c' && t != 'u')
      throw ValidationError(
          {Problem::of(-1, "dist_type", std::to_string(t), "dist_type is 'b', 'c' or 'u'", "corrupt record data")});
    v = static_cast<DistType>(t);
  } else if constexpr (std::is_same_v<T, std::array<global_index_t, 2>>) {
    v[0] = rd.get();
    v[1] = rd.get();
  } else if constexpr (std::is_same_v<T, bool>) {
    v = rd.get() != 0;
  } else {
    v = static_cast<T>(rd.get());
  }
}

}  // namespace

std::vector<std::int64_t> pack_rank(const PackedRank& rank) {
  Writer wr;
  std::size_t words = 7 + rank.memory_order.size() + rank.extra.size();  // one allocation
  for (const Dim& d : rank.entry.dim_data) words += 12 + d.indices.size();
  if (rank.entry.local_shape) words += rank.entry.local_shape->size();
  for (const Problem& q : rank.problems)
    words += 6 + (q.key.size() + q.value.size() + q.rule.size() + q.message.size() + 28) / 8;
  wr.w.reserve(words);
  wr.put(magic);
  wr.put(static_cast<std::int64_t>(rank.entry.dim_data.size()));
  for (const Dim& d : rank.entry.dim_data) {
    for_each_scalar_key([&](const char*, const auto& v) { put_key(wr, v); }, d);
    wr.put(static_cast<std::int64_t>(d.indices.size()));
    wr.w.insert(wr.w.end(), d.indices.begin(), d.indices.end());
  }
  wr.put(rank.entry.local_shape ? static_cast<std::int64_t>(rank.entry.local_shape->size()) : -1);
  if (rank.entry.local_shape) wr.w.insert(wr.w.end(), rank.entry.local_shape->begin(), rank.entry.local_shape->end());
  wr.put(static_cast<std::int64_t>(rank.memory_order.size()));
  for (int a : rank.memory_order) wr.put(a);
  wr.put(static_cast<std::int64_t>(rank.problems.size()));
  for (const Problem& q : rank.problems) {
    wr.put(q.rank);
    wr.put(q.dim);
    for (const std::string* s : {&q.key, &q.value, &q.rule, &q.message}) wr.put(*s);
  }
  wr.put(static_cast<std::int64_t>(rank.extra.size()));
  wr.w.insert(wr.w.end(), rank.extra.begin(), rank.extra.end());
  return std::move(wr.w);
}

PackedRank unpack_rank(const std::int64_t* words, std::size_t count) {
  Reader rd{words, count};
  if (rd.get() != magic)
    throw ValidationError({Problem::of(-1, "", "", "packed records are complete", "not Dapetra record data")});
  PackedRank out;
  out.entry.dim_data.resize(rd.count(12));
  for (Dim& d : out.entry.dim_data) {
    for_each_scalar_key([&](const char*, auto& v) { get_key(rd, v); }, d);
    d.indices.resize(rd.count());
    for (auto& g : d.indices) g = rd.get();
  }
  const std::int64_t nshape = rd.get();
  if (nshape >= 0) {
    if (static_cast<std::size_t>(nshape) > count)
      throw ValidationError({Problem::of(-1, "", "", "packed records are complete", "bad shape length")});
    out.entry.local_shape.emplace(static_cast<std::size_t>(nshape));
    for (auto& s : *out.entry.local_shape) s = rd.get();
  }
  out.memory_order.resize(rd.count());
  for (int& a : out.memory_order) a = static_cast<int>(rd.get());
  out.problems.resize(rd.count(6));
  for (Problem& q : out.problems) {
    q.rank = static_cast<int>(rd.get());
    q.dim = static_cast<int>(rd.get());
    q.key = rd.str();
    q.value = rd.str();
    q.rule = rd.str();
    q.message = rd.str();
  }
  out.extra.resize(rd.count());
  for (auto& v : out.extra) v = rd.get();
  return out;
}

}  // namespace dapetra
