// Internal: what the plans (and the adapters' own sources) need of a
// DistributedLayout beyond its public face.
#pragma once

#include <vector>

#include "comm.hpp"
#include "dapetra/mpi/distributed_layout.hpp"

namespace dapetra::mpi::detail {

// Owners of this process's positions along the scattered 'u' axis.
struct ScatteredOwners {
  bool all_here = false;             // proven one-to-one: each position owned here, at itself (no tables)
  std::vector<int> owner;            // else per position: the owning rank ...
  std::vector<local_index_t> where;  // ... and that rank's position of the index

  int owner_of(global_index_t p, int me) const { return all_here ? me : owner[static_cast<std::size_t>(p)]; }
  local_index_t position_on_owner(global_index_t p) const {
    return all_here ? static_cast<local_index_t>(p) : where[static_cast<std::size_t>(p)];
  }
};

struct LayoutAccess {
  static const ScatteredOwners& scattered(const DistributedLayout& l) { return *l.scattered_; }
  static const std::vector<int>& coords(const DistributedLayout& l) { return l.coords_; }
  // A plan's first message tag; each plan uses tags [tag, tag + tags_per_plan).
  static constexpr int tags_per_plan = 2;  // forward and backward
  // (Tags stay below 32767, the least upper bound MPI guarantees.)
  static int next_tag(const DistributedLayout& l) { return 100 + (l.inner_->plans_created++ % 8000) * tags_per_plan; }
};

}  // namespace dapetra::mpi::detail
