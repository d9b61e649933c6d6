// The fingerprint loops four lanes at a time. Built with -mavx2 (see
// packages/core/CMakeLists.txt) and called only after the CPU was seen to
// have AVX2.
#include <immintrin.h>

#include "fingerprint_kernel.hpp"

namespace dapetra::detail {
namespace {

struct Avx2 {
  using V = __m256i;
  static constexpr int lanes = 4;
  static V zero() { return _mm256_setzero_si256(); }
  static V ones() { return _mm256_set1_epi32(-1); }
  static V set1(std::uint64_t v) { return _mm256_set1_epi64x(static_cast<long long>(v)); }
  static V set1_32(std::uint32_t v) { return _mm256_set1_epi32(static_cast<int>(v)); }
  static V iota(global_index_t g) { return _mm256_set_epi64x(g + 3, g + 2, g + 1, g); }
  static V load(const global_index_t* p) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)); }
  static V bxor(V a, V b) { return _mm256_xor_si256(a, b); }
  static V bor(V a, V b) { return _mm256_or_si256(a, b); }
  static V band(V a, V b) { return _mm256_and_si256(a, b); }
  static V add(V a, V b) { return _mm256_add_epi64(a, b); }
  static V mul32(V a, V b) { return _mm256_mul_epu32(a, b); }
  template <int k>
  static V shr(V a) { return _mm256_srli_epi64(a, k); }
  static V less32(V a, V b) { return _mm256_cmpgt_epi32(b, a); }
  static std::uint64_t sum(V a) {
    alignas(32) std::uint64_t v[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(v), a);
    return v[0] + v[1] + v[2] + v[3];
  }
  static std::uint64_t or_all(V a) {
    alignas(32) std::uint64_t v[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(v), a);
    return v[0] | v[1] | v[2] | v[3];
  }
  // The low 32-bit half of each 64-bit lane is bytes 0-3, 8-11, 16-19, 24-27.
  static bool low_halves_all_set(V a) {
    return (static_cast<unsigned>(_mm256_movemask_epi8(a)) & 0x0F0F0F0FU) == 0x0F0F0F0FU;
  }
};

}  // namespace

void fingerprint_lanes_avx2(const global_index_t* indices, std::size_t& i, std::size_t count, global_index_t limit,
                            bool with_fingerprint, std::uint64_t& s0, std::uint64_t& s1, bool& in_range) {
  fingerprint_lanes<Avx2>(indices, i, count, limit, with_fingerprint, s0, s1, in_range);
}

void fingerprint_run_lanes_avx2(global_index_t& g, global_index_t end, std::uint64_t& s0, std::uint64_t& s1) {
  fingerprint_run_lanes<Avx2>(g, end, s0, s1);
}

}  // namespace dapetra::detail
