/// \file
/// dapetra/wire/mix.hpp (internal, not installed): the one 64-bit mixer the wire formats use.
///
/// splitmix64's finaliser: spreads clustered words (negative, strided
/// indices) evenly, and folds lists of words into one value that every
/// process computes alike from equal words.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dapetra {

/// splitmix64's step: `z` plus the golden ratio, then its finaliser.
inline std::uint64_t splitmix64(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// `word` folded into `h`: a value below 2^62 (so that it and its negation
/// fit one MPI_MIN reduction); equal words give equal values on every process.
inline std::int64_t fold(std::int64_t h, std::int64_t word) {
  return static_cast<std::int64_t>(splitmix64(static_cast<std::uint64_t>(h) + static_cast<std::uint64_t>(word)) >> 2);
}

/// `n` words folded into `h`, in order.
inline std::int64_t fold_all(const std::int64_t* words, std::size_t n, std::int64_t h = 0) {
  for (std::size_t i = 0; i < n; ++i) h = fold(h, words[i]);
  return h;
}

}  // namespace dapetra
