// Internal: what the plans are made of (their peers and runs, the tags they
// talk on) and the steps their calls share, kept out of the public headers.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "dapetra/mpi/halo.hpp"
#include "dapetra/mpi/redistribute.hpp"
#include "exchange.hpp"
#include "runs.hpp"

namespace dapetra::mpi::detail {

struct HaloParts {
  std::vector<PlanPeer> peers;
  std::vector<std::pair<std::ptrdiff_t, std::ptrdiff_t>> local_copies;  // (from, to) on this process
  std::size_t num_sent = 0, num_received = 0;
  bool messages_fit = true;  // every message under MPI's int count
  int tag = 0;               // update; assembly talks on tag + 1

  // The first fault of `array` (or of the plan's message sizes) on this process.
  template <class Scalar>
  FaultNote check(const DistributedLayout& layout, const DistArray& array) const;
  // One blocking update of the buffer at `base`, passing `note` on to every peer.
  template <class Scalar>
  FaultNote run_update(const DistributedLayout& layout, char* base, FaultNote note) const;
  // The received ghosts and this process's own copies into `base`.
  template <class Scalar>
  void finish_update(const Round& round, char* base) const;
};

struct RedistributionParts {
  std::vector<PlanPeer> peers;  // other processes
  PlanPeer self;                // this process to itself
  std::size_t local_count = 0;
  bool messages_fit = true;  // every message under MPI's int count
  int tag = 0;               // apply; apply_reverse talks on tag + 1
  std::shared_ptr<const HaloPlan> target_halo;  // fills the target's padding, when asked
};

}  // namespace dapetra::mpi::detail
