// Internal: what the plans (and the adapters' own sources) need of a
// DistributedLayout beyond its public face.
#pragma once

#include <algorithm>
#include <vector>

#include "comm.hpp"
#include "dapetra/mpi/distributed_layout.hpp"

namespace dapetra::mpi::detail {

// Owners of this process's positions along the scattered 'u' axis. The
// positions before `prefix` are owned here, each at itself, and need no
// table: where owners come from ranges (or a proven one_to_one flag) that
// is every owned position, so the tables cost the ghosts alone.
struct ScatteredOwners {
  local_index_t prefix = 0;          // positions [0, prefix) owned here, at themselves
  bool rest_foreign = true;          // no position past the prefix is owned here
  std::vector<int> owner;            // per position from the prefix on: the owning rank ...
  std::vector<local_index_t> where;  // ... and that rank's position of the index

  int owner_of(global_index_t p, int me) const {
    return p < prefix ? me : owner[static_cast<std::size_t>(p - prefix)];
  }
  local_index_t position_on_owner(global_index_t p) const {
    return p < prefix ? static_cast<local_index_t>(p) : where[static_cast<std::size_t>(p - prefix)];
  }
  global_index_t count_owned(int me) const {
    return prefix + static_cast<global_index_t>(std::count(owner.begin(), owner.end(), me));
  }
};

struct LayoutAccess {
  static const ScatteredOwners& scattered(const DistributedLayout& l) { return *l.scattered_; }
  static const std::vector<int>& coords(const DistributedLayout& l) { return l.coords_; }
  // Every process's records, when they were gathered; nullptr otherwise.
  static const GlobalLayout* gathered(const DistributedLayout& l) { return l.global_.get(); }
  // The same, for plans that take the gathered path only.
  static const GlobalLayout& global(const DistributedLayout& l) { return *l.global_; }
  static global_index_t lowest_index(const DistributedLayout& l) { return l.lowest_index_; }
  // The 'u' axis whose indices stayed on their processes, or -1.
  static int scattered_axis(const DistributedLayout& l) { return l.scattered_axis_; }
  // The rule that picks the owner of a shared 'u' index; where the holders
  // named the owners (has_held_owners) no rule does, and it throws std::logic_error.
  static const SharedIndexOwner& shared_owner(const DistributedLayout& l) { return l.shared_owner_; }
  // Whether the owners along the 'u' axis were named by their holders
  // (Ownership::from_held_owners).
  static bool has_held_owners(const DistributedLayout& l) { return l.held_owners_given_; }
  // Which collective creation on its communicator made the layout.
  static std::int64_t number(const DistributedLayout& l) { return l.number_; }
  // A plan's first message tag; each plan uses tags [tag, tag + tags_per_plan).
  static constexpr int tags_per_plan = 2;  // forward and backward
  // (Tags stay below 32767, the least upper bound MPI guarantees.)
  static int next_tag(const DistributedLayout& l) { return 100 + (l.inner_->plans_created++ % 8000) * tags_per_plan; }
};

}  // namespace dapetra::mpi::detail
