// Internal: who owns each index of a 'u' axis whose indices stay on their
// processes (the finite-element case), found by a rendezvous: each index is
// sent to the process that settles it, which sees every holder, applies the
// owner rule and answers with the owner and where the owner keeps the index.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "dapetra/axis.hpp"
#include "dapetra/dim.hpp"

namespace dapetra::mpi::detail {

// Per position of this process's indices: the owning rank and that rank's
// position of the index (-1 when the rule picked no holder).
struct Owners {
  std::vector<int> owner;
  std::vector<local_index_t> position;
};

// Owners of this process's positions: [0, prefix) owned here at
// themselves, `rest` for the positions after them.
struct PrefixOwners {
  local_index_t prefix = 0;
  Owners rest;
};

// Indices in [0, size): process h settles the stretch [h * chunk, (h + 1) *
// chunk), and indices travel as runs; only indices held more than once are
// looked at one by one. The owner of such an index is its lowest holder, or
// `*rule`'s choice when a rule is given (every process passes one, or
// none); a rule that picks a process not holding the index is refused on
// every process (ValidationError). With `held_owners` (one per position) the
// owner is the one every holder names instead, refused likewise unless all
// name the same holder. The leading positions this process owns at
// themselves come back as the prefix. Collective; indices locally unique.
PrefixOwners holders_by_stretch(const std::vector<std::int64_t>& indices, std::int64_t size, const SharedIndexOwner* rule,
                                MPI_Comm comm, const std::vector<int>* held_owners = nullptr);

// Any indices (1-D 'u' arrays may hold negative ones, or beyond size) and any rule:
// indices are spread by a hash and each settling process sorts what it got.
// A rule that picks a process not holding the index is refused on every
// process (ValidationError). Collective; indices locally unique.
Owners holders_by_rule(const std::vector<std::int64_t>& indices, const SharedIndexOwner& rule, MPI_Comm comm);

// Owners the caller names (Ownership::from_held_owners, one per
// position): each index goes, with the owner named, to the process settling it
// (spread by a hash), which checks that every holder names the same owner
// and that it holds the index; otherwise every process throws
// ValidationError. Collective; indices locally unique.
Owners holders_by_held_owners(const std::vector<std::int64_t>& indices, const std::vector<int>& held_owners, MPI_Comm comm);

// The process whose owned range [boundaries[p], boundaries[p + 1]) holds g (empty
// ranges before it skipped).
inline int range_holding(const std::vector<std::int64_t>& boundaries, std::int64_t g) {
  return static_cast<int>(std::upper_bound(boundaries.begin(), boundaries.end(), g) - boundaries.begin()) - 1;
}

// Closed form for indices numbered by owned ranges (process p owns
// [boundaries[p], boundaries[p + 1]) and keeps them first, in order): the owner of
// g is the range holding it, its position there g - boundaries[owner]. For the
// n indices at `indices`; the caller has checked the ranges and that every
// index lies in [0, size).
Owners owners_from_ranges(const std::int64_t* indices, std::size_t n, const std::vector<std::int64_t>& boundaries);

}  // namespace dapetra::mpi::detail
