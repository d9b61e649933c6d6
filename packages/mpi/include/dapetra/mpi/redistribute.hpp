/// \file
/// dapetra/mpi/redistribute.hpp: move an array from one DAP distribution to another.
///
/// A RedistributionPlan connects two layouts of the same global shape on the
/// same processes (any dist_type per axis on either side, different process
/// grids, padding, empty processes; gather-to-one and scatter-from-one are
/// ordinary cases). It is built once, collectively, and applied to any number
/// of arrays of that pair, from one DAP buffer into another, in place in the
/// caller's memory, and in reverse, each blocking or in a split phase
/// (begin_apply/end_apply, dapetra/mpi/plan_exchange.hpp). Only owned elements are sources; the
/// target's communication padding is left for a halo update unless the plan
/// was asked to fill it.
///
/// Each side lists what it sends and what it receives in increasing global
/// index order, from the other layout's records: gathered by the layout, or,
/// for a layout whose 'u' indices stayed on their processes, sent by one
/// sparse exchange to the processes that own them in the other layout (only when
/// both layouts kept their 'u' indices are they gathered to every process).
/// Creation is then in proportion to each process's part of the array. Contiguous and evenly strided runs
/// (blocks, cyclic patterns) are kept as runs, so a plan's size follows the
/// structure of the two distributions, not the element count. A message
/// whose elements are one contiguous stretch of more than 16 bytes on either
/// side (blocks exchange long runs) is sent straight from the source buffer,
/// or received straight into the target buffer; the rest is packed. When the
/// two buffers overlap in memory, everything is packed, so the result is the
/// same as for separate buffers.
///
/// Faults and threads: as for HaloPlan (dapetra/mpi/halo.hpp). A wrong array
/// on one process makes apply() throw there and on every process it
/// exchanges with; calls of one plan are made from one thread.
#pragma once

#include <memory>
#include <vector>

#include "dapetra/distarray.hpp"
#include "dapetra/mpi/distributed_layout.hpp"
#include "dapetra/mpi/halo.hpp"
#include "dapetra/mpi/plan_exchange.hpp"
#include "dapetra/mpi/scalar.hpp"

namespace dapetra::mpi {

namespace detail {
struct RedistributionParts;
}  // namespace detail

/// Options of a RedistributionPlan; every process must pass the same.
struct RedistributionOptions {
  /// After apply(), fill the target's communication padding (a halo update of
  /// the target layout, built with the plan).
  bool fill_target_padding = false;
};

/// Moves arrays from one layout to another of the same global shape, built once, collectively.
class RedistributionPlan {
 public:
  /// Collective over the layouts' processes (the two layouts must span the
  /// same processes; the plan talks on the source layout's communicator).
  /// @param source the layout arrays move from.
  /// @param target the layout they move to.
  /// @param options whether the target's padding is filled too.
  static std::shared_ptr<const RedistributionPlan> create(std::shared_ptr<const DistributedLayout> source,
                                                          std::shared_ptr<const DistributedLayout> target,
                                                          const RedistributionOptions& options = {});
  ~RedistributionPlan();

  /// @name Blocking calls
  ///@{

  /// Every owned element of `to` (target layout) takes the value of the same
  /// global element in `from` (source layout). Collective over the processes
  /// this one exchanges with.
  /// @param from an array of the source layout.
  /// @param to an array of the target layout.
  template <class Scalar>
  void apply(const DistArray& from, const DistArray& to) const {
    require_plan_scalar<Scalar>();
    move<Scalar>(from, to, true);
  }
  /// The reverse, target layout to source layout.
  /// @param from_target an array of the target layout.
  /// @param to_source an array of the source layout.
  template <class Scalar>
  void apply_reverse(const DistArray& from_target, const DistArray& to_source) const {
    require_plan_scalar<Scalar>();
    move<Scalar>(from_target, to_source, false);
  }
  ///@}

  /// @name Split phase
  ///@{

  /// Split phase of apply(): begin_apply checks both arrays, posts the
  /// messages and copies what stays on this process; end_apply waits, places
  /// what arrived and, when the plan was asked to, fills the target's
  /// padding. Collective over the processes this one exchanges with, as a
  /// pair (same arrays, same exchange). Until end_apply the caller must not
  /// write `from` (its elements may be sent straight from it) nor touch the
  /// owned elements of `to` (they may be half received), nor free either.
  /// @param from an array of the source layout.
  /// @param to an array of the target layout.
  /// @param exchange the caller's state of this call (not in flight).
  template <class Scalar>
  void begin_apply(const DistArray& from, const DistArray& to, PlanExchange& exchange) const {
    require_plan_scalar<Scalar>();
    begin_move<Scalar>(from, to, exchange, true);
  }
  /// Waits for the messages begin_apply posted and places them in `to`. Collective over the processes
  /// this one exchanges with.
  /// @param from the source array begin_apply was given.
  /// @param to the target array begin_apply was given.
  /// @param exchange the same exchange.
  template <class Scalar>
  void end_apply(const DistArray& from, const DistArray& to, PlanExchange& exchange) const {
    require_plan_scalar<Scalar>();
    end_move<Scalar>(from, to, exchange, true);
  }
  /// Split phase of apply_reverse(), under begin_apply's rules with the two layouts' roles swapped.
  /// Collective over the processes this one exchanges with, as a pair.
  /// @param from_target an array of the target layout.
  /// @param to_source an array of the source layout.
  /// @param exchange the caller's state of this call (not in flight).
  template <class Scalar>
  void begin_apply_reverse(const DistArray& from_target, const DistArray& to_source, PlanExchange& exchange) const {
    require_plan_scalar<Scalar>();
    begin_move<Scalar>(from_target, to_source, exchange, false);
  }
  /// Waits for the messages begin_apply_reverse posted and places them in `to_source`. Collective over the
  /// processes this one exchanges with.
  /// @param from_target the array begin_apply_reverse read.
  /// @param to_source the array it writes.
  /// @param exchange the same exchange.
  template <class Scalar>
  void end_apply_reverse(const DistArray& from_target, const DistArray& to_source, PlanExchange& exchange) const {
    require_plan_scalar<Scalar>();
    end_move<Scalar>(from_target, to_source, exchange, false);
  }
  ///@}

  /// @name What the plan is
  ///@{

  /// @return the layout arrays move from.
  const DistributedLayout& source_layout() const { return *source_; }
  /// @return the layout arrays move to.
  const DistributedLayout& target_layout() const { return *target_; }
  /// @return elements this process sends to other processes.
  std::size_t num_sent() const;
  /// @return elements this process receives from others.
  std::size_t num_received() const;
  /// @return elements this process copies to itself.
  std::size_t num_local() const;
  /// @return runs (contiguous or evenly strided stretches) the plan keeps, all peers together.
  std::size_t num_runs() const;
  ///@}

 private:
  RedistributionPlan();
  friend struct RedistributionPlanBuilder;
  template <class Scalar>
  void move(const DistArray& from, const DistArray& to, bool forward) const;
  template <class Scalar>
  void begin_move(const DistArray& from, const DistArray& to, PlanExchange& exchange, bool forward) const;
  template <class Scalar>
  void end_move(const DistArray& from, const DistArray& to, PlanExchange& exchange, bool forward) const;

  std::shared_ptr<const DistributedLayout> source_, target_;
  std::unique_ptr<detail::RedistributionParts> parts_;
};

}  // namespace dapetra::mpi
