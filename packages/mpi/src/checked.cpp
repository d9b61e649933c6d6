#include "checked.hpp"

#include <cstring>
#include <string>

#include "dapetra/validate.hpp"

namespace dapetra::mpi::detail {
namespace {

// The comparisons are written out element by element: they run on every
// halo update, and std::vector equality calls memcmp, which cost more than
// the rest of a small update in profiles.
bool same_values(const std::vector<global_index_t>& x, const std::vector<global_index_t>& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t i = 0; i < x.size(); ++i)
    if (x[i] != y[i]) return false;
  return true;
}

// The same distribution as far as O(1) per axis can tell: every key, and
// the number (not the values) of 'u' indices.
bool same_records(const std::vector<Dim>& x, const std::vector<Dim>& y) {
  if (x.size() != y.size()) return false;
  for (std::size_t a = 0; a < x.size(); ++a)
    if (!same_scalar_keys(x[a], y[a]) || x[a].indices.size() != y[a].indices.size()) return false;
  return true;
}

// The usual case (this library's own version string) by one fixed-size
// comparison, which the compiler inlines; any other 0.x.y through the full rule.
bool is_dap_version(const std::string& version) {
  constexpr std::size_t n = std::char_traits<char>::length(dap_version);
  if (version.size() == n && std::memcmp(version.data(), dap_version, n) == 0) return true;
  return check_version(version).empty();
}

}  // namespace

Problem describe_fault(Fault fault, int rank, const char* operation) {
  switch (fault) {
#define DAPETRA_FAULT_CASE(name, key, rule) \
  case Fault::name:                         \
    return Problem::of(rank, key, "", rule, \
                       std::string(operation) + ": rank " + std::to_string(rank) + "'s call breaks this rule: " rule);
    DAPETRA_ARRAY_FAULTS(DAPETRA_FAULT_CASE)
#undef DAPETRA_FAULT_CASE
    case Fault::none: break;
  }
  return Problem::of(rank, "", std::to_string(static_cast<std::int64_t>(fault)), "a known fault code",
                     std::string(operation) + ": rank " + std::to_string(rank) + " sent an unknown fault code");
}

Fault check_fit(const DistributedLayout& layout, const DistArray& array) {
  if (!is_dap_version(array.version)) return Fault::version;
  if (!same_records(array.dim_data, layout.dim_data())) return Fault::dim_data;
  if (!same_values(array.buffer.shape, layout.local_shape())) return Fault::shape;
  if (!same_values(array.buffer.strides, layout.local_strides())) return Fault::strides;
  if (!dapetra::detail::format_is(array.buffer.format, layout.format().c_str()) ||
      array.buffer.itemsize != layout.itemsize())
    return Fault::format;
  return Fault::none;
}


}  // namespace dapetra::mpi::detail

namespace dapetra::mpi {

void DistributedLayout::check_fits(const DistArray& array) const {
  const detail::Fault fault = detail::check_fit(*this, array);
  if (fault == detail::Fault::none) return;
  Problem p = detail::describe_fault(fault, rank_, "DistributedLayout::check_fits");
  throw ValidationError({p});
}

}  // namespace dapetra::mpi
