/// \file
/// dapetra/wire/layout_words.hpp (internal, not installed): what each process shares beside its records.
///
/// A DistributedLayout's creation gathers every process's records
/// (pack.hpp) and, in PackedRank::extra, these words: the buffer's element
/// type, the scattered axis, a summary of that axis's indices instead of the
/// indices, and what the caller said of ownership. One list, in one place,
/// beside the other wire formats.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

namespace dapetra {

// Values each process shares beside its records.
enum Extra {
  extra_itemsize,
  extra_format,
  extra_scattered_axis,
  // Summary of the scattered 'u' axis's indices (see summarize_indices).
  extra_default_rule,
  extra_in_range,
  extra_lowest_negative,
  extra_held,
  extra_fingerprint_1,
  extra_fingerprint_2,
  extra_unread,  // 1: this process could not read its input (adapter::refuse_layout)
  extra_ranges,  // a fold of the owned ranges passed (0: none)
  extra_held_owners,       // 1: this process passed held owners (Ownership::from_held_owners)
  extra_count
};

/// A buffer format ("d", "Zd", ...) as one word (its first 7 bytes).
inline std::int64_t encode_format(const std::string& f) {
  std::int64_t v = 0;
  std::memcpy(&v, f.data(), std::min<std::size_t>(f.size(), 7));
  return v;
}

}  // namespace dapetra
