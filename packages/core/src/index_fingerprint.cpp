#include "dapetra/wire/index_fingerprint.hpp"

#include <algorithm>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "fingerprint_kernel.hpp"

namespace dapetra {
namespace detail {

#if defined(__SSE2__)
// Two 64-bit lanes: SSE2 is part of every x86-64 CPU.
struct Sse2 {
  using V = __m128i;
  static constexpr int lanes = 2;
  static V zero() { return _mm_setzero_si128(); }
  static V ones() { return _mm_set1_epi32(-1); }
  static V set1(std::uint64_t v) { return _mm_set1_epi64x(static_cast<long long>(v)); }
  static V set1_32(std::uint32_t v) { return _mm_set1_epi32(static_cast<int>(v)); }
  static V iota(global_index_t g) { return _mm_set_epi64x(g + 1, g); }
  static V load(const global_index_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
  static V bxor(V a, V b) { return _mm_xor_si128(a, b); }
  static V bor(V a, V b) { return _mm_or_si128(a, b); }
  static V band(V a, V b) { return _mm_and_si128(a, b); }
  static V add(V a, V b) { return _mm_add_epi64(a, b); }
  static V mul32(V a, V b) { return _mm_mul_epu32(a, b); }
  template <int k>
  static V shr(V a) { return _mm_srli_epi64(a, k); }
  static V less32(V a, V b) { return _mm_cmpgt_epi32(b, a); }
  static std::uint64_t sum(V a) {
    alignas(16) std::uint64_t v[2];
    _mm_store_si128(reinterpret_cast<__m128i*>(v), a);
    return v[0] + v[1];
  }
  static std::uint64_t or_all(V a) {
    alignas(16) std::uint64_t v[2];
    _mm_store_si128(reinterpret_cast<__m128i*>(v), a);
    return v[0] | v[1];
  }
  // The low 32-bit half of each 64-bit lane is bytes 0-3 and 8-11.
  static bool low_halves_all_set(V a) { return (_mm_movemask_epi8(a) & 0x0F0F) == 0x0F0F; }
};
#endif

#if defined(DAPETRA_FINGERPRINT_AVX2)
// index_fingerprint_avx2.cpp, built with -mavx2; called only on CPUs with AVX2.
void fingerprint_lanes_avx2(const global_index_t* indices, std::size_t& i, std::size_t count, global_index_t limit,
                            bool with_fingerprint, std::uint64_t& s0, std::uint64_t& s1, bool& in_range);
void fingerprint_run_lanes_avx2(global_index_t& g, global_index_t end, std::uint64_t& s0, std::uint64_t& s1);
#endif

}  // namespace detail

namespace {

#if defined(DAPETRA_FINGERPRINT_AVX2)
bool cpu_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}
#endif

// The scalar reference of the hash in fingerprint_kernel.hpp. The first hash
// folds x's high bits into its low ones (a bijection of x, and x is injective
// in g < 2^32, so two different indices never share it); the second
// multiplies the first one's halves. Both are nonlinear in g, so structured
// mistakes (a swapped pair, a shifted run) do not cancel in the sums as they
// would for g itself or g^2.
inline void add_hashes(std::uint64_t g, std::uint64_t& s0, std::uint64_t& s1) {
  const std::uint64_t x = static_cast<std::uint64_t>(static_cast<std::uint32_t>(g) ^ detail::hash_xor) * detail::hash_mul;
  const std::uint64_t a = x ^ (x >> 31);
  s0 += a;
  s1 += static_cast<std::uint64_t>(static_cast<std::uint32_t>(a)) * (a >> 32);
}

}  // namespace

IndexFingerprint fingerprint_of(global_index_t g) {
  IndexFingerprint f;
  add_hashes(static_cast<std::uint64_t>(g), f.sum[0], f.sum[1]);
  return f;
}

FingerprintedIndices fingerprint_indices(const global_index_t* indices, std::size_t count, global_index_t limit,
                                         bool with_fingerprint) {
  limit = std::clamp<global_index_t>(limit, 0, fingerprint_limit);
  std::uint64_t s0 = 0, s1 = 0;
  bool in_range = true;
  std::size_t i = 0;
#if defined(DAPETRA_FINGERPRINT_AVX2)
  if (cpu_has_avx2()) detail::fingerprint_lanes_avx2(indices, i, count, limit, with_fingerprint, s0, s1, in_range);
#endif
#if defined(__SSE2__)
  detail::fingerprint_lanes<detail::Sse2>(indices, i, count, limit, with_fingerprint, s0, s1, in_range);
#endif
  for (; i < count; ++i) {
    in_range = in_range && static_cast<std::uint64_t>(indices[i]) < static_cast<std::uint64_t>(limit);
    if (with_fingerprint) add_hashes(static_cast<std::uint64_t>(indices[i]), s0, s1);
  }
  FingerprintedIndices out;
  out.in_range = in_range;
  out.fingerprint.sum[0] = s0;
  out.fingerprint.sum[1] = s1;
  return out;
}

IndexFingerprint fingerprint_range(global_index_t begin, global_index_t end) {
  std::uint64_t s0 = 0, s1 = 0;
  global_index_t g = begin;
#if defined(DAPETRA_FINGERPRINT_AVX2)
  if (cpu_has_avx2()) detail::fingerprint_run_lanes_avx2(g, end, s0, s1);
#endif
#if defined(__SSE2__)
  detail::fingerprint_run_lanes<detail::Sse2>(g, end, s0, s1);
#endif
  for (; g < end; ++g) add_hashes(static_cast<std::uint64_t>(g), s0, s1);
  IndexFingerprint f;
  f.sum[0] = s0;
  f.sum[1] = s1;
  return f;
}

}  // namespace dapetra
