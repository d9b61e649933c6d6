/// \file
/// dapetra/wire/leading_run.hpp (internal, not installed): the ascending run
/// that starts a process's 'u' indices. Finite-element numberings (DOLFINx,
/// PETSc, Tpetra's contiguous maps) put each process's owned range there, so
/// checks and owner searches can treat the run in closed form and look at
/// the indices after it alone.
///
/// Plain index math: no MPI.
#pragma once

#include <cstddef>
#include <cstdint>

#include "dapetra/dim.hpp"

namespace dapetra {

/// How many of the `count` indices at `indices` form the run
/// indices[0], indices[0] + 1, ... that starts them (0 when there are none).
inline std::size_t leading_run(const global_index_t* indices, std::size_t count) {
  if (count == 0) return 0;
  std::size_t n = 1;
  // Whole blocks are compared without an early exit, which the compiler
  // vectorises; where no index of the run can pass the largest index, the
  // unsigned sum equals the true one.
  constexpr std::size_t block = 64;
  const auto base = static_cast<std::uint64_t>(indices[0]);
  if (indices[0] <= INT64_MAX - static_cast<std::int64_t>(count))
    for (; n + block <= count; n += block) {
      bool all = true;
      for (std::size_t k = n; k < n + block; ++k) all &= static_cast<std::uint64_t>(indices[k]) == base + k;
      if (!all) break;
    }
  // Then one by one, compared as unsigned after the order test, so no index overflows.
  while (n < count && indices[n - 1] < indices[n] &&
         static_cast<std::uint64_t>(indices[n]) - static_cast<std::uint64_t>(indices[n - 1]) == 1)
    ++n;
  return n;
}

}  // namespace dapetra
