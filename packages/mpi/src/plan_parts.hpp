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
  // Posts an assembly's round: ghosts to their owners, contributions staged.
  template <class Scalar>
  void post_assemble(Round& round, const DistributedLayout& layout, char* base, const FaultNote& note) const;
  // The received contributions and this process's own copies combined into their owners.
  template <class Scalar>
  void finish_assemble(const Round& round, char* base, CombineMode mode) const;
};

struct RedistributionParts {
  std::vector<PlanPeer> peers;  // other processes
  PlanPeer self;                // this process to itself
  std::size_t local_count = 0;
  bool messages_fit = true;  // every message under MPI's int count
  int tag = 0;               // apply; apply_reverse talks on tag + 1
  std::shared_ptr<const HaloPlan> target_halo;  // fills the target's padding, when asked

  // The first fault of the two arrays (or of the plan's message sizes) on this process.
  template <class Scalar>
  FaultNote check(const DistributedLayout& source, const DistributedLayout& target, bool forward, const DistArray& from,
                  const DistArray& to) const;
  // Posts a move's round and, when the two buffers are apart in memory,
  // copies what stays on this process; returns whether they are apart.
  template <class Scalar>
  bool post(Round& round, bool forward, std::size_t item, MPI_Comm comm, const FaultNote& note, const DistArray& from,
            const DistArray& to) const;
  // After a fault-free wait: what stays here (when the buffers overlap) and what arrived, into `to`.
  template <class Scalar>
  void finish(const Round& round, bool forward, bool apart, const DistArray& from, const DistArray& to) const;
  // After a forward move, the target's padding fill when asked (run whatever
  // happened before, so a fault is passed on); then throws the fault, if any.
  template <class Scalar>
  void fill_padding(const DistributedLayout& target, bool forward, const DistArray& to, FaultNote note,
                    const char* operation) const;
  // This process's own elements, from `from` to `to`.
  template <class Scalar>
  void copy_local(bool forward, const DistArray& from, const DistArray& to) const;
};

}  // namespace dapetra::mpi::detail
