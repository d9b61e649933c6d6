#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "dapetra/wire/index_fingerprint.hpp"

using namespace dapetra;

namespace {

IndexFingerprint one_by_one(const std::vector<global_index_t>& indices) {
  IndexFingerprint f;
  for (global_index_t g : indices) f += fingerprint_of(g);
  return f;
}

}  // namespace

// The bulk functions (four indices per AVX2 step and two per SSE2 step where
// the CPU has them, then a scalar tail) agree with the one-index reference
// for every count and offset.
TEST(IndexFingerprint, BulkAgreesWithOneByOne) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<global_index_t> pick(0, fingerprint_limit - 1);
  // Counts around multiples of 4 and 2 (AVX2 and SSE2 steps) and the tails.
  for (std::size_t count : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1000, 1001, 1002, 1003}) {
    std::vector<global_index_t> g(count);
    for (auto& x : g) x = pick(rng);
    const auto bulk = fingerprint_indices(g.data(), g.size(), fingerprint_limit);
    EXPECT_TRUE(bulk.in_range);
    EXPECT_EQ(bulk.fingerprint, one_by_one(g)) << count << " indices";
  }
  for (global_index_t begin : {global_index_t{0}, global_index_t{1}, global_index_t{5}, fingerprint_limit - 6})
    for (global_index_t length : {0, 1, 2, 3, 6, 7}) {
      std::vector<global_index_t> run(static_cast<std::size_t>(length));
      std::iota(run.begin(), run.end(), begin);
      EXPECT_EQ(fingerprint_range(begin, begin + length), one_by_one(run)) << begin << " + " << length;
    }
}

// Out of range anywhere (either SIMD lane or the tail) is seen: negative,
// at the limit, or beyond 2^32 whatever the low half says.
TEST(IndexFingerprint, RangeIsCheckedAtEveryPosition) {
  for (global_index_t limit : {global_index_t{0}, global_index_t{1}, global_index_t{10}, global_index_t{3000000000LL},
                               fingerprint_limit, fingerprint_limit + 5}) {
    const global_index_t clamped = std::min(limit, fingerprint_limit);
    for (std::size_t count : {1, 2, 3, 4, 5, 6, 7, 9}) {
      std::vector<global_index_t> g(count, 0);
      EXPECT_EQ(fingerprint_indices(g.data(), count, limit).in_range, clamped > 0);
      for (std::size_t at = 0; at < count; ++at)
        for (global_index_t bad : {global_index_t{-1}, clamped, fingerprint_limit, fingerprint_limit + clamped - 1,
                                   -(global_index_t{1} << 40)}) {
          std::vector<global_index_t> h(count, clamped > 0 ? clamped - 1 : 0);
          h[at] = bad;
          EXPECT_FALSE(fingerprint_indices(h.data(), count, limit).in_range)
              << "limit " << limit << ", " << bad << " at " << at << " of " << count;
        }
      if (clamped > 0) {
        std::vector<global_index_t> edge(count, clamped - 1);
        EXPECT_TRUE(fingerprint_indices(edge.data(), count, limit).in_range) << limit;
      }
    }
  }
}

// The proof it exists for: a permutation of [0, n) dealt to P processes sums
// to zero against the stretches; every single substitution (an index held
// twice, another missing) and every sum-preserving double substitution of a
// small range does not.
TEST(IndexFingerprint, ProvesPermutationsAndCatchesSubstitutions) {
  const global_index_t n = 10007;
  std::vector<global_index_t> perm(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), std::mt19937_64(3));
  for (int P : {1, 2, 3, 7}) {
    IndexFingerprint total;
    for (int r = 0; r < P; ++r) {
      const std::size_t lo = static_cast<std::size_t>(n * r / P), hi = static_cast<std::size_t>(n * (r + 1) / P);
      total += fingerprint_indices(perm.data() + lo, hi - lo, n).fingerprint;
      const global_index_t chunk = (n + P - 1) / P;
      total -= fingerprint_range(std::min(n, chunk * r), std::min(n, chunk * (r + 1)));
    }
    EXPECT_TRUE(total.is_zero()) << P << " processes";
  }
  const global_index_t m = 48;
  const IndexFingerprint whole = fingerprint_range(0, m);
  const auto differs = [&](global_index_t out1, global_index_t in1, global_index_t out2, global_index_t in2) {
    IndexFingerprint f = whole;
    f -= fingerprint_of(out1);
    f += fingerprint_of(in1);
    f -= fingerprint_of(out2);
    f += fingerprint_of(in2);
    return !(f == whole);
  };
  int checked = 0;
  for (global_index_t x = 0; x < m; ++x)
    for (global_index_t y = 0; y < m; ++y) {
      if (x == y) continue;
      // one substitution: x missing, y twice (the second pair cancels)
      ASSERT_TRUE(differs(x, y, 0, 0)) << x << " -> " << y;
      // two, keeping the plain sum: a, d replaced by b, c with a + d = b + c
      for (global_index_t b = 0; b < m; ++b) {
        const global_index_t c = x + y - b;
        if (c < 0 || c >= m || b == x || b == y) continue;
        ASSERT_TRUE(differs(x, b, y, c)) << "{" << x << ", " << y << "} -> {" << b << ", " << c << "}";
        ++checked;
      }
    }
  EXPECT_GT(checked, 10000);
}
