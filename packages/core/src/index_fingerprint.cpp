#include "dapetra/index_fingerprint.hpp"

#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace dapetra {
namespace {

constexpr std::uint32_t hash_xor = 0x85ebca6bU;
constexpr std::uint32_t hash_mul = 0xc2b2ae35U;

// x = (low half of g xor a constant) * an odd constant, a 64-bit product that
// is injective in g < 2^32. The first hash folds x's high bits into its low
// ones (a bijection, so two different indices never share it); the second
// multiplies the first one's halves. Both are nonlinear in g, so structured
// mistakes (a swapped pair, a shifted run) do not cancel in the sums the way
// they would for g itself or g^2. The SSE2 loops below compute exactly this,
// two indices at a time.
inline void add_hashes(std::uint64_t g, std::uint64_t& s0, std::uint64_t& s1) {
  const std::uint64_t x = static_cast<std::uint64_t>(static_cast<std::uint32_t>(g) ^ hash_xor) * hash_mul;
  const std::uint64_t a = x ^ (x >> 31);
  s0 += a;
  s1 += static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) * (a >> 32);
}

#if defined(__SSE2__)
struct Sums2 {
  __m128i s0 = _mm_setzero_si128(), s1 = _mm_setzero_si128();

  void add(__m128i g) {
    const __m128i x = _mm_mul_epu32(_mm_xor_si128(g, _mm_set1_epi64x(hash_xor)), _mm_set1_epi64x(hash_mul));
    const __m128i a = _mm_xor_si128(x, _mm_srli_epi64(x, 31));
    s0 = _mm_add_epi64(s0, a);
    s1 = _mm_add_epi64(s1, _mm_mul_epu32(a, _mm_srli_epi64(a, 32)));
  }
  void fold_into(std::uint64_t& t0, std::uint64_t& t1) const {
    alignas(16) std::uint64_t a[2], b[2];
    _mm_store_si128(reinterpret_cast<__m128i*>(a), s0);
    _mm_store_si128(reinterpret_cast<__m128i*>(b), s1);
    t0 += a[0] + a[1];
    t1 += b[0] + b[1];
  }
};
#endif

}  // namespace

IndexFingerprint fingerprint_of(global_index_t g) {
  IndexFingerprint f;
  add_hashes(static_cast<std::uint64_t>(g), f.sum[0], f.sum[1]);
  return f;
}

FingerprintedIndices fingerprint_indices(const global_index_t* indices, std::size_t count, global_index_t limit,
                                         bool with_fingerprint) {
  FingerprintedIndices out;
  limit = std::clamp<global_index_t>(limit, 0, fingerprint_limit);
  std::uint64_t s0 = 0, s1 = 0;
  bool in_range = true;
  std::size_t i = 0;
#if defined(__SSE2__)
  // In range: no bit above the low 32 (so also not negative), and the low
  // half below `limit` as unsigned 32-bit numbers (compared signed after
  // flipping their top bits: SSE2 has no unsigned compare).
  const __m128i flip = _mm_set1_epi32(static_cast<int>(0x80000000U));
  const __m128i bound = _mm_xor_si128(_mm_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(limit))), flip);
  const bool compare_low = limit < fingerprint_limit;
  __m128i high = _mm_setzero_si128(), below = _mm_set1_epi32(-1);
  Sums2 sums;
  for (; i + 2 <= count; i += 2) {
    const __m128i g = _mm_loadu_si128(reinterpret_cast<const __m128i*>(indices + i));
    high = _mm_or_si128(high, g);
    if (compare_low) below = _mm_and_si128(below, _mm_cmpgt_epi32(bound, _mm_xor_si128(g, flip)));
    if (with_fingerprint) sums.add(g);
  }
  alignas(16) std::uint64_t h[2];
  _mm_store_si128(reinterpret_cast<__m128i*>(h), high);
  // The low 32-bit half of each 64-bit lane is bytes 0-3 and 8-11.
  in_range = ((h[0] | h[1]) >> 32) == 0 && (_mm_movemask_epi8(below) & 0x0F0F) == 0x0F0F;
  sums.fold_into(s0, s1);
#endif
  for (; i < count; ++i) {
    in_range = in_range && static_cast<std::uint64_t>(indices[i]) < static_cast<std::uint64_t>(limit);
    if (with_fingerprint) add_hashes(static_cast<std::uint64_t>(indices[i]), s0, s1);
  }
  out.in_range = in_range;
  out.fingerprint.sum[0] = s0;
  out.fingerprint.sum[1] = s1;
  return out;
}

IndexFingerprint fingerprint_range(global_index_t begin, global_index_t end) {
  std::uint64_t s0 = 0, s1 = 0;
  global_index_t g = begin;
#if defined(__SSE2__)
  Sums2 sums;
  __m128i pair = _mm_set_epi64x(begin + 1, begin);
  const __m128i two = _mm_set1_epi64x(2);
  for (; g + 2 <= end; g += 2) {
    sums.add(pair);
    pair = _mm_add_epi64(pair, two);
  }
  sums.fold_into(s0, s1);
#endif
  for (; g < end; ++g) add_hashes(static_cast<std::uint64_t>(g), s0, s1);
  IndexFingerprint f;
  f.sum[0] = s0;
  f.sum[1] = s1;
  return f;
}

}  // namespace dapetra
