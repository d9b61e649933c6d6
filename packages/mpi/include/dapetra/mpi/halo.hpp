/// \file
/// dapetra/mpi/halo.hpp: halo exchange and finite-element assembly, in place.
///
/// A HaloPlan is the communication plan of one layout, built once and applied
/// any number of times to any array with that layout (the DOLFINx Scatterer
/// idea). It covers both kinds of "ghosts":
///   - padded block arrays: every communication padding element, edges and
///     corners included, and the edge padding of periodic axes, which is filled
///     from the opposite end of the interior (period M = size - both edge pads:
///     a left pad at g takes g + M, a right pad g - M; so does every
///     communication padding copy of an edge pad, so all copies agree);
///   - overlapping unstructured arrays: every copy of an index held for another
///     process ("ghost" nodes, with any number of values per node).
/// update() copies owners' values into the ghosts; assemble() combines the
/// ghosts' contributions into their owners (add by default). Owned elements
/// and non-periodic boundary padding are never written by update(). Each
/// has a split phase, begin_update/end_update and begin_assemble/end_assemble
/// (dapetra/mpi/plan_exchange.hpp).
///
/// Ghost owners come from the layout (closed form for 'b' and 'c' axes; for a
/// 'u' axis, found once when the layout was built). With gathered records each
/// process also works out what it sends by itself, replaying its neighbours'
/// walks over their records, so building the plan sends no message at all;
/// beside a scattered 'u' axis one sparse exchange tells each owner what to send.
/// Applying it sends one message per neighbour and direction. When the
/// elements a neighbour gets (or fills) are one contiguous stretch of more
/// than 16 bytes, the message is sent straight from the caller's buffer (or
/// received straight into it), as PETSc does; otherwise only the halo data is
/// packed and unpacked. Assembly sends ghosts in place too, but stages what
/// it receives, to combine it. Nothing is looked up per call.
///
/// Faults: an array that does not fit the layout (records, shape, strides,
/// element type, version) makes the call throw ValidationError on that
/// process and on every process that exchanges messages with it in that call,
/// naming the faulty rank; nobody waits forever. After such a throw the
/// ghost elements of the array hold unspecified values (a peer's fault
/// note may have landed where its data would have).
///
/// Threads and concurrency: a plan is immutable, and the state of an
/// exchange belongs to the caller: a split-phase exchange's to its
/// PlanExchange, a blocking call's to message buffers kept per thread (reused
/// across calls and plans). Exchanges of one plan that are in flight at once
/// (split phase, each with its own PlanExchange) must be begun in the same
/// order on every process, so start them from one thread; different plans may
/// be used from different threads at once (with MPI_THREAD_MULTIPLE).
#pragma once

#include <memory>
#include <vector>

#include "dapetra/distarray.hpp"
#include "dapetra/mpi/distributed_layout.hpp"
#include "dapetra/mpi/plan_exchange.hpp"
#include "dapetra/mpi/scalar.hpp"

namespace dapetra::mpi {

namespace detail {
struct HaloParts;
struct RedistributionParts;
}  // namespace detail

/// How assemble() combines the contributions of the copies with the owner's
/// value (Tpetra's ADD, INSERT and ABSMAX).
enum class CombineMode { add, insert, absmax };

/// The communication plan of one layout's halo: ghost update and assembly, built once, applied to any
/// array of that layout.
class HaloPlan {
 public:
  /// Collective over the layout's communicator (it exchanges messages only
  /// when the layout has a scattered 'u' axis, but every process must call it).
  /// @param layout the distribution.
  static std::shared_ptr<const HaloPlan> create(std::shared_ptr<const DistributedLayout> layout);
  ~HaloPlan();

  /// @name Update: owners' values into the ghosts
  ///@{

  /// Fills every ghost element of `array` (the layout's records, shape,
  /// strides and element type Scalar) from its owner, in place. Collective
  /// over the processes this one exchanges with.
  /// @param array an array of the plan's layout.
  template <class Scalar>
  void update(const DistArray& array) const {
    require_plan_scalar<Scalar>();
    update_impl<Scalar>(array);
  }

  /// Split phase: begin_update posts the messages, end_update waits and
  /// unpacks. Collective over the processes this one exchanges with, as a
  /// pair. `exchange` holds the messages in flight until end_update (same
  /// array, same exchange).
  ///
  /// Between the two, as with PETSc's VecGhostUpdateBegin/End and DOLFINx's
  /// scatter_fwd_begin/end, messages may read and write `array` directly:
  ///   - the caller may read every element update() does not write, and
  ///     write every element update() neither reads nor writes: the interior
  ///     away from the halo (owned elements no other process holds a copy of,
  ///     IndexMap::sharers, and on a periodic axis not within a padding
  ///     width of either edge), e.g. to compute there while the halo travels;
  ///   - it must not write an element that is sent (a peer may receive
  ///     either value), nor touch one that is filled (it may be half
  ///     received), nor free the buffer.
  /// @param array an array of the plan's layout.
  /// @param exchange the caller's state of this exchange (not in flight).
  template <class Scalar>
  void begin_update(const DistArray& array, PlanExchange& exchange) const {
    require_plan_scalar<Scalar>();
    begin_update_impl<Scalar>(array, exchange);
  }
  /// Waits for the messages begin_update posted and unpacks them into `array`. Collective over the
  /// processes this one exchanges with.
  /// @param array the array begin_update was given.
  /// @param exchange the same exchange.
  template <class Scalar>
  void end_update(const DistArray& array, PlanExchange& exchange) const {
    require_plan_scalar<Scalar>();
    end_update_impl<Scalar>(array, exchange);
  }
  ///@}

  /// @name Assembly: the ghosts' contributions into their owners
  ///@{

  /// Split phase of assemble(): begin_assemble sends every ghost's value to
  /// its owner, end_assemble waits and combines what arrived into the owners
  /// (`mode`, as DOLFINx's scatter_rev_end takes its operation). Collective
  /// over the processes this one exchanges with, as a pair; every process
  /// passes the same mode. Ghosts go out straight from `array` when
  /// contiguous, so until end_assemble the caller must not write a ghost
  /// nor free the buffer. Contributions are received into the exchange's
  /// own buffers, so owned elements may be read and written meanwhile:
  /// end_assemble combines into the values they then hold. To make the
  /// copies agree afterwards, update().
  /// @param array an array of the plan's layout.
  /// @param exchange the caller's state of this exchange (not in flight).
  template <class Scalar>
  void begin_assemble(const DistArray& array, PlanExchange& exchange) const {
    require_plan_scalar<Scalar>();
    begin_assemble_impl<Scalar>(array, exchange);
  }
  /// Waits for the contributions begin_assemble posted and combines them into their owners in `array`.
  /// Collective over the processes this one exchanges with.
  /// @param array the array begin_assemble was given.
  /// @param exchange the same exchange.
  /// @param mode how copies combine into their owners.
  template <class Scalar>
  void end_assemble(const DistArray& array, PlanExchange& exchange, CombineMode mode = CombineMode::add) const {
    require_plan_scalar<Scalar>();
    end_assemble_impl<Scalar>(array, exchange, mode);
  }

  /// Combines every ghost's value into its owner (`mode`), then, if
  /// `then_update`, copies the result back so all copies agree (otherwise
  /// ghosts keep their own contributions). Every process passes the same
  /// mode and then_update. Collective over the processes this one exchanges with.
  /// @param array an array of the plan's layout.
  /// @param mode how copies combine into their owners.
  /// @param then_update whether the copies then take their owners' combined values.
  template <class Scalar>
  void assemble(const DistArray& array, CombineMode mode = CombineMode::add, bool then_update = false) const {
    require_plan_scalar<Scalar>();
    assemble_impl<Scalar>(array, mode, then_update);
  }
  ///@}

  /// @name What the plan is
  ///@{

  /// @return the layout the plan was built for.
  const DistributedLayout& layout() const { return *layout_; }
  /// @return elements written by update() on this process (ghost copies, padding).
  std::size_t num_ghosts() const;
  /// @return elements this process sends to other processes per update.
  std::size_t num_sent() const;
  /// @return elements this process receives from other processes per update.
  std::size_t num_received() const;
  /// @return num_sent() (the earlier name; removed in the next release).
  [[deprecated("HaloPlan::num_sends() is now num_sent(), as RedistributionPlan's")]] std::size_t num_sends() const {
    return num_sent();
  }
  /// @return processes this one exchanges messages with.
  std::size_t num_neighbours() const;
  ///@}

 private:
  HaloPlan();
  friend struct detail::RedistributionParts;  ///< fills a target's padding after a move
  friend struct HaloPlanBuilder;
  template <class Scalar>
  void update_impl(const DistArray& array) const;
  template <class Scalar>
  void begin_update_impl(const DistArray& array, PlanExchange& exchange) const;
  template <class Scalar>
  void end_update_impl(const DistArray& array, PlanExchange& exchange) const;
  template <class Scalar>
  void assemble_impl(const DistArray& array, CombineMode mode, bool then_update) const;
  template <class Scalar>
  void begin_assemble_impl(const DistArray& array, PlanExchange& exchange) const;
  template <class Scalar>
  void end_assemble_impl(const DistArray& array, PlanExchange& exchange, CombineMode mode) const;

  std::shared_ptr<const DistributedLayout> layout_;
  std::unique_ptr<detail::HaloParts> parts_;
};

}  // namespace dapetra::mpi
