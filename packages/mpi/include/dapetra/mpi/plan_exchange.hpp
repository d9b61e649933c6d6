/// \file
/// dapetra/mpi/plan_exchange.hpp: the caller's state of one split-phase call of a plan.
///
/// Every call of a HaloPlan (update, assemble) and of a RedistributionPlan
/// (apply, apply_reverse) has a begin/end pair. begin_X posts the messages
/// and returns; end_X waits for them and finishes. The messages, requests
/// and buffers in flight between the two belong to a PlanExchange the caller
/// owns, as DOLFINx's Scatterer leaves them to its caller: the plan itself
/// stays immutable and may be shared. One PlanExchange holds one call in
/// flight and is reusable once its end_X has run.
#pragma once

#include <memory>

namespace dapetra::mpi {

/// The state of one split-phase call of a plan (message buffers and
/// requests), owned by the caller: one per call in flight, reusable afterwards.
class PlanExchange {
 public:
  PlanExchange();
  ~PlanExchange();
  /// Moves an exchange, in flight or not (its state stays put; the moved-from one is empty).
  PlanExchange(PlanExchange&&) noexcept;
  /// Moves an exchange in flight or not into one that is not in flight (nor may one in flight be destroyed).
  PlanExchange& operator=(PlanExchange&&) noexcept;
  /// @return whether a begin_X awaits its end_X.
  bool in_flight() const;

 private:
  friend class HaloPlan;
  friend class RedistributionPlan;
  struct State;
  State& state();  // made afresh after a move
  std::unique_ptr<State> state_;
};

/// The earlier name of PlanExchange, when only a halo update had a split phase.
using HaloExchange [[deprecated("HaloExchange is now PlanExchange: every plan call has a begin/end pair")]] =
    PlanExchange;

}  // namespace dapetra::mpi
