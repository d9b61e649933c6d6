// The fingerprint's loops (index_fingerprint.hpp), written once over a SIMD
// register type. Each instruction set's translation unit instantiates them
// with its own register traits (Sse2 in index_fingerprint.cpp, Avx2 in
// index_fingerprint_avx2.cpp, compiled with -mavx2) and the public functions
// pick one at run time. Everything here has internal linkage, so code built
// for different instruction sets is never merged by the linker.
//
// The hash, per 64-bit lane g: x = (low half of g xor hash_xor) * hash_mul as
// a 32x32->64-bit product (pmuludq), a = x xor (x >> 31), and the sums
// collect a and (low half of a) * (high half of a). add_hashes() in
// index_fingerprint.cpp is the scalar reference.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dapetra/dim.hpp"

namespace dapetra::detail {
namespace {

constexpr std::uint32_t hash_xor = 0x85ebca6bU;
constexpr std::uint32_t hash_mul = 0xc2b2ae35U;

// Running sums over whole registers, and the range check: no bit above the
// low 32 in any index, and every low half below the limit (unsigned, compared
// signed after flipping the top bits).
template <class S>
struct LaneSums {
  typename S::V s0 = S::zero(), s1 = S::zero(), high = S::zero(), below = S::ones();

  void hash(typename S::V g) {
    const auto x = S::mul32(S::bxor(g, S::set1(hash_xor)), S::set1(hash_mul));
    const auto a = S::bxor(x, S::template shr<31>(x));
    s0 = S::add(s0, a);
    s1 = S::add(s1, S::mul32(a, S::template shr<32>(a)));
  }
  void add_into(std::uint64_t& t0, std::uint64_t& t1) const {
    t0 += S::sum(s0);
    t1 += S::sum(s1);
  }
};

// Indices [i, count) in whole registers; advances i past them.
template <class S>
void fingerprint_lanes(const global_index_t* indices, std::size_t& i, std::size_t count, global_index_t limit,
                       bool with_fingerprint, std::uint64_t& s0, std::uint64_t& s1, bool& in_range) {
  LaneSums<S> sums;
  const auto flip = S::set1_32(0x80000000U);
  const auto bound = S::bxor(S::set1_32(static_cast<std::uint32_t>(limit)), flip);
  const bool compare_low = limit < (global_index_t{1} << 32);
  for (; i + S::lanes <= count; i += S::lanes) {
    const auto g = S::load(indices + i);
    sums.high = S::bor(sums.high, g);
    if (compare_low) sums.below = S::band(sums.below, S::less32(S::bxor(g, flip), bound));
    if (with_fingerprint) sums.hash(g);
  }
  in_range = in_range && (S::or_all(sums.high) >> 32) == 0 && S::low_halves_all_set(sums.below);
  sums.add_into(s0, s1);
}

// The run [g, end) in whole registers; advances g past it.
template <class S>
void fingerprint_run_lanes(global_index_t& g, global_index_t end, std::uint64_t& s0, std::uint64_t& s1) {
  LaneSums<S> sums;
  auto run = S::iota(g);
  const auto step = S::set1(static_cast<std::uint64_t>(S::lanes));
  for (; g + S::lanes <= end; g += S::lanes) {
    sums.hash(run);
    run = S::add(run, step);
  }
  sums.add_into(s0, s1);
}

}  // namespace
}  // namespace dapetra::detail
