/// \file
/// dapetra/mpi/ownership.hpp: who owns the indices of a 'u' axis that several processes hold.
///
/// A DAP record says which indices a process holds, not which process owns
/// an index held by several (one_to_one false). An Ownership says it, in one
/// of three ways, each made by a named factory:
///   - a rule over the holders (lowest_holder(), the default; highest_holder();
///     by_rule() for any other), applied wherever the index is settled;
///   - from_ranges(): owned ranges, as DOLFINx's IndexMap, PETSc's ownership
///     ranges and Tpetra's contiguous Map number a 'u' axis: owners in closed
///     form, no rendezvous;
///   - from_held_owners(): the owner's rank of every position this process
///     holds, as the caller's own numbering names it (DOLFINx's ghost owners,
///     PETSc's), for numberings that are not ranges.
/// Exactly one of them holds, so no combination that makes no sense can be
/// written. Every process passes the same kind (and the same rule or ranges);
/// creation checks that, and the held owners themselves, on every process alike.
#pragma once

#include <utility>
#include <variant>
#include <vector>

#include "dapetra/axis.hpp"

namespace dapetra::mpi {

namespace detail {
struct OwnershipAccess;
}  // namespace detail

/// Who owns shared 'u' indices (see the file's description).
class Ownership {
 public:
  /// The lowest rank holding an index owns it (the default).
  Ownership() = default;
  /// The lowest rank holding an index owns it.
  static Ownership lowest_holder() { return Ownership(); }
  /// The highest rank holding an index owns it.
  static Ownership highest_holder();
  /// `rule(index, holders)` picks the owner among the holders (increasing
  /// ranks). It runs wherever an index is settled, so it must give every
  /// process the same answer; a rank that does not hold the index is refused
  /// at creation on every process.
  /// @param rule the rule.
  static Ownership by_rule(SharedIndexOwner rule);
  /// For a layout whose only distributed axis is 'u', numbered by ranges:
  /// process p owns the indices [boundaries[p], boundaries[p+1]) and holds
  /// them first in its buffer, in ascending order (its ghosts follow, in any
  /// order). Creation proves that every held index has exactly one owner:
  /// the P+1 boundaries run from 0 to size without decreasing, every process
  /// passes the same ones, each holds its own range as its prefix, and every
  /// index after it lies in another range, none twice. Creation and the halo
  /// plan then cost about the ghosts, plus one pass over the owned prefix.
  /// @param boundaries P+1 boundaries, the same on every process.
  static Ownership from_ranges(std::vector<global_index_t> boundaries);
  /// For a layout whose only distributed axis is 'u': the owner's rank of
  /// every position this process holds along it. Creation sends each owner named
  /// with its index to the process settling it, which checks that every
  /// holder names the same owner and that the owner holds the index.
  /// @param owner_of_each_held one rank per held position, in buffer order.
  static Ownership from_held_owners(std::vector<int> owner_of_each_held);

 private:
  friend struct detail::OwnershipAccess;  ///< creation reads which of the three it is
  struct Ranges {
    std::vector<global_index_t> boundaries;
  };
  struct HeldOwners {
    std::vector<int> owners;
  };
  using How = std::variant<SharedIndexOwner, Ranges, HeldOwners>;
  explicit Ownership(How how) : how_(std::move(how)) {}
  std::variant<SharedIndexOwner, Ranges, HeldOwners> how_{SharedIndexOwner(dapetra::lowest_holder)};
};

}  // namespace dapetra::mpi
