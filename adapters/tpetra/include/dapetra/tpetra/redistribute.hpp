// dapetra/tpetra/redistribute.hpp: move an array from one DAP distribution to another.
//
// A RedistributionPlan connects two layouts of the same global shape (any
// dist_type per axis on either side, different process grids, padding, empty
// processes; gather-to-one and scatter-from-one are ordinary cases). It is
// built once, collectively, and applied to any number of arrays of that pair,
// from one DAP buffer into another, in place in the caller's memory, and in
// reverse. Only owned elements are sources; the target's communication
// padding is left for a halo update unless the plan was asked to fill it.
//
// It is the communication pattern of the Tpetra Import between the two owned
// maps, computed in closed form: every process knows both layouts' records,
// so each side lists what it sends and what it receives in increasing global
// index order, with no message exchanged to build the plan and no directory
// look-up ('u' layouts take part with their indices gathered:
// LayoutOptions::scatter_unstructured = false). Contiguous and evenly strided
// runs (blocks, cyclic patterns) are kept as runs, so a plan's size follows
// the structure of the two distributions, not the element count.
#pragma once

#include <memory>
#include <vector>

#include "dapetra/distarray.hpp"
#include "dapetra/tpetra/halo.hpp"
#include "dapetra/tpetra/layout.hpp"
#include "dapetra/tpetra/runs.hpp"

namespace dapetra::tpetra {

struct RedistributionOptions {
  // After apply(), fill the target's communication padding (a halo update of
  // the target layout, built with the plan).
  bool fill_target_padding = false;
};

class RedistributionPlan {
 public:
  // Collective over the layouts' communicator (the same for both).
  static std::shared_ptr<const RedistributionPlan> create(std::shared_ptr<const TpetraLayout> source,
                                                          std::shared_ptr<const TpetraLayout> target,
                                                          const RedistributionOptions& options = {});
  ~RedistributionPlan();

  // Collective: every owned element of `to` (target layout) takes the value of
  // the same global element in `from` (source layout).
  template <class Scalar>
  void apply(const DistArray& from, const DistArray& to) const {
    require_plan_scalar<Scalar>();
    move<Scalar>(from, to, true);
  }
  // Collective: the reverse, target layout to source layout.
  template <class Scalar>
  void apply_reverse(const DistArray& from_target, const DistArray& to_source) const {
    require_plan_scalar<Scalar>();
    move<Scalar>(from_target, to_source, false);
  }

  // Elements this process sends to / receives from other processes, and copies locally.
  std::size_t num_sent() const;
  std::size_t num_received() const;
  std::size_t num_local() const { return local_count_; }
  // Runs (contiguous or evenly strided stretches) the plan keeps, all peers together.
  std::size_t num_runs() const;

  using Run = StridedRun;
  struct Peer {
    int rank;
    std::vector<Run> source;  // in the source buffer: what goes to `rank`
    std::vector<Run> target;  // in the target buffer: what comes from `rank`
    std::size_t source_count = 0, target_count = 0;
  };

 private:
  RedistributionPlan() = default;
  template <class Scalar>
  void move(const DistArray& from, const DistArray& to, bool forward) const;

  std::shared_ptr<const TpetraLayout> source_, target_;
  std::vector<Peer> peers_;       // other processes
  Peer self_;                     // this process to itself
  std::size_t local_count_ = 0;
  std::shared_ptr<const HaloPlan> target_halo_;
  int tag_ = 0;
  // Message buffers, kept between calls and never zero-filled (one
  // redistribution per plan at a time).
  struct Scratch;
  std::unique_ptr<Scratch> scratch_;
};

}  // namespace dapetra::tpetra
