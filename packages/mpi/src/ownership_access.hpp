// Internal: which of its three kinds an Ownership is (creation reads it;
// dapetra/mpi/ownership.hpp keeps its factories only).
#pragma once

#include <variant>
#include <vector>

#include "dapetra/mpi/ownership.hpp"

namespace dapetra::mpi::detail {

struct OwnershipAccess {
  // The rule, when ownership is a rule; nullptr otherwise.
  static const SharedIndexOwner* rule(const Ownership& o) { return std::get_if<SharedIndexOwner>(&o.how_); }
  // Whether the rule is the default, lowest_holder (the core's function itself).
  static bool is_lowest_holder(const Ownership& o);
  // The P+1 boundaries, when ownership is from_ranges(); nullptr otherwise.
  static const std::vector<global_index_t>* ranges(const Ownership& o) {
    const auto* r = std::get_if<Ownership::Ranges>(&o.how_);
    return r ? &r->boundaries : nullptr;
  }
  // One owner per held position, when ownership is from_held_owners(); nullptr otherwise.
  static const std::vector<int>* held_owners(const Ownership& o) {
    const auto* c = std::get_if<Ownership::HeldOwners>(&o.how_);
    return c ? &c->owners : nullptr;
  }
};

}  // namespace dapetra::mpi::detail
