/// \file
/// dapetra/wire/index_fingerprint.hpp (internal, not installed): an order-free fingerprint of a multiset of
/// indices, to prove without moving them that the indices every process holds
/// are, together, exactly {0, ..., n-1}.
///
/// The fingerprint of a multiset is a pair of sums (mod 2^64) of two hashes of
/// its elements, so fingerprints add: each process fingerprints what it holds
/// and subtracts the fingerprint of its own stretch of [0, n); the total over
/// all processes is zero whenever every index is held exactly once (always:
/// the equality is exact), and nonzero otherwise unless both sums collide by
/// accident; index sets would have to be built against the hash. A caller
/// therefore trusts a zero total as proof and treats anything else as "not
/// proven", never as a verdict. The hashes take indices below 2^32
/// (`fingerprint_limit`), which keeps them cheap (32x32-bit products, two per
/// SSE2 instruction); a larger axis needs another proof.
///
/// Plain index math: no MPI. The MPI adapters sum these over processes.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dapetra/dim.hpp"

namespace dapetra {

/// Indices (and axis sizes) the fingerprint covers: [0, fingerprint_limit).
inline constexpr global_index_t fingerprint_limit = global_index_t{1} << 32;

/// Two 64-bit sums of nonlinear hashes of a multiset of indices; they add and subtract like the multisets.
struct IndexFingerprint {
  /// The two sums.
  std::uint64_t sum[2] = {0, 0};

  /// The fingerprint of the union of the two multisets.
  IndexFingerprint& operator+=(const IndexFingerprint& o) {
    sum[0] += o.sum[0];
    sum[1] += o.sum[1];
    return *this;
  }
  /// The fingerprint of the difference of the two multisets.
  IndexFingerprint& operator-=(const IndexFingerprint& o) {
    sum[0] -= o.sum[0];
    sum[1] -= o.sum[1];
    return *this;
  }
  /// Whether both sums are zero (the empty multiset, barring a collision).
  bool is_zero() const { return sum[0] == 0 && sum[1] == 0; }
  /// Equal sums.
  friend bool operator==(const IndexFingerprint& a, const IndexFingerprint& b) {
    return a.sum[0] == b.sum[0] && a.sum[1] == b.sum[1];
  }
};

/// The fingerprint of the single index g, 0 <= g < fingerprint_limit: the
/// reference the bulk functions below agree with.
IndexFingerprint fingerprint_of(global_index_t g);

/// A process's 'u' indices summarised: count, range and fingerprint (see the file's description).
struct FingerprintedIndices {
  bool in_range = true;         ///< every index in [0, limit)
  IndexFingerprint fingerprint; ///< of all of them; meaningful only when in_range
};

/// One pass over `count` indices: whether all lie in [0, limit) (a limit above
/// fingerprint_limit counts as fingerprint_limit), and, when
/// `with_fingerprint`, their fingerprint.
FingerprintedIndices fingerprint_indices(const global_index_t* indices, std::size_t count, global_index_t limit,
                                         bool with_fingerprint = true);

/// The fingerprint of the run [begin, end), 0 <= begin <= end <= fingerprint_limit.
IndexFingerprint fingerprint_range(global_index_t begin, global_index_t end);

}  // namespace dapetra
