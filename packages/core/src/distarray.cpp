#include "dapetra/distarray.hpp"

#include <algorithm>
#include <numeric>

#include "dapetra/dim_math.hpp"
#include "dapetra/validate.hpp"

namespace dapetra {

global_index_t BufferView::num_elements() const {
  return std::accumulate(shape.begin(), shape.end(), global_index_t{1}, std::multiplies<>());
}

std::vector<global_index_t> c_strides(const std::vector<global_index_t>& shape, std::size_t itemsize) {
  std::vector<global_index_t> s(shape.size());
  global_index_t step = static_cast<global_index_t>(itemsize);
  for (std::size_t d = shape.size(); d-- > 0;) {
    s[d] = step;
    step *= std::max<global_index_t>(shape[d], 1);
  }
  return s;
}

std::vector<global_index_t> f_strides(const std::vector<global_index_t>& shape, std::size_t itemsize) {
  std::vector<global_index_t> s(shape.size());
  global_index_t step = static_cast<global_index_t>(itemsize);
  for (std::size_t d = 0; d < shape.size(); ++d) {
    s[d] = step;
    step *= std::max<global_index_t>(shape[d], 1);
  }
  return s;
}

bool BufferView::is_c_contiguous() const {
  if (num_elements() == 0) return true;
  const auto want = c_strides(shape, itemsize);
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (shape[d] > 1 && strides[d] != want[d]) return false;
  return true;
}

bool BufferView::is_f_contiguous() const {
  if (num_elements() == 0) return true;
  const auto want = f_strides(shape, itemsize);
  for (std::size_t d = 0; d < shape.size(); ++d)
    if (shape[d] > 1 && strides[d] != want[d]) return false;
  return true;
}

namespace {

std::size_t itemsize_of(const std::string& format) {
  static const std::pair<const char*, std::size_t> known[] = {
      {"d", 8}, {"f", 4}, {"i", 4}, {"l", sizeof(long)}, {"q", 8}, {"Zd", 16}, {"Zf", 8},
      {"b", 1}, {"B", 1}, {"h", 2}, {"H", 2}, {"I", 4}, {"Q", 8}, {"?", 1}};
  for (const auto& [f, n] : known)
    if (format == f) return n;
  return 0;
}

// Elements must not overlap in memory: sort the axes by |stride| and require
// each stride to step over the whole extent of the faster axes.
bool strides_disjoint(const BufferView& b) {
  std::vector<std::size_t> order(b.shape.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return std::llabs(b.strides[x]) < std::llabs(b.strides[y]);
  });
  global_index_t span = static_cast<global_index_t>(b.itemsize);
  for (std::size_t d : order) {
    if (b.shape[d] <= 1) continue;
    if (std::llabs(b.strides[d]) < span) return false;
    span = std::llabs(b.strides[d]) * b.shape[d];
  }
  return true;
}

}  // namespace

std::vector<int> memory_order(const BufferView& b) {
  std::vector<int> order(b.shape.size());
  std::iota(order.begin(), order.end(), 0);
  if (b.strides.size() == b.shape.size())
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) {
      return std::llabs(b.strides[x]) > std::llabs(b.strides[y]);
    });
  return order;
}

std::vector<Problem> check_buffer(const BufferView& b, int rank) {
  std::vector<Problem> out;
  const auto add = [&](std::string key, std::string value, std::string rule, std::string message) {
    out.push_back(Problem::of(rank, std::move(key), std::move(value), std::move(rule), std::move(message)));
  };
  const std::size_t expected = itemsize_of(b.format);
  if (expected == 0)
    add("format", "'" + b.format + "'", "a PEP-3118 format Dapetra knows", "unknown element format");
  else if (b.itemsize != expected)
    add("itemsize", std::to_string(b.itemsize), "itemsize matches the format",
        "format '" + b.format + "' has itemsize " + std::to_string(expected));
  for (std::size_t d = 0; d < b.shape.size(); ++d)
    if (b.shape[d] < 0) add("shape", std::to_string(b.shape[d]), "buffer extents >= 0", "negative extent on axis " + std::to_string(d));
  if (b.strides.size() != b.shape.size())
    add("strides", std::to_string(b.strides.size()) + " strides", "one stride per buffer axis",
        "the buffer has " + std::to_string(b.shape.size()) + " axes");
  else if (expected != 0 && out.empty() && !strides_disjoint(b))
    add("strides", "", "distinct elements occupy distinct memory", "the strides make elements overlap");
  if (b.data == nullptr && out.empty() && b.num_elements() > 0)
    add("buffer", "null", "a non-empty buffer has memory", "data pointer is null");
  return out;
}

std::vector<Problem> check_local(const DistArray& a, int rank) {
  std::vector<Problem> out = check_version(a.version);
  for (Problem& p : out) p.rank = rank;
  auto buf = check_buffer(a.buffer, rank);
  out.insert(out.end(), buf.begin(), buf.end());
  auto dims = check_rank(a.dim_data, rank, a.buffer.shape);
  out.insert(out.end(), dims.begin(), dims.end());
  return out;
}

}  // namespace dapetra
