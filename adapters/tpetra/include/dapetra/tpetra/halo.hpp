// dapetra/tpetra/halo.hpp: halo exchange and finite-element assembly, in place.
//
// A HaloPlan is the communication plan of one layout, built once and applied
// any number of times to any array with that layout (the DOLFINx Scatterer
// idea). It covers both kinds of "ghosts":
//   - padded block arrays: every communication padding element, edges and
//     corners included, and the edge padding of periodic axes, which is filled
//     from the opposite end of the interior (period M = size - both edge pads:
//     a left pad at g takes g + M, a right pad g - M; so does every
//     communication padding copy of an edge pad, so all copies agree);
//   - overlapping unstructured arrays: every copy of an index held for another
//     process ("ghost" nodes, with any number of values per node).
// update() copies owners' values into the ghosts; assemble() combines the
// ghosts' contributions into their owners (add by default). Owned elements
// and non-periodic boundary padding are never written by update().
//
// The plan is the communication pattern of the Tpetra Import from the owned
// map to the buffer map, computed without Tpetra's generic machinery: ghost
// owners come from the layout (closed form for 'b' and 'c' axes; for a 'u'
// axis, found once when the layout was built). With gathered records (every
// layout but a lone scattered 'u' axis) each process also works out what it
// sends by itself, replaying its neighbours' walks over their records, so
// building the plan sends no message at all; beside a scattered 'u' axis one
// all-to-all tells each owner what to send. Applying it packs only halo
// data straight from the caller's buffer into one message per neighbour and
// unpacks straight into it (MPI Isend/Irecv): no owned vector is copied,
// nothing is looked up per call.
#pragma once

#include <memory>
#include <vector>

#include "dapetra/distarray.hpp"
#include "dapetra/tpetra/layout.hpp"
#include "dapetra/tpetra/runs.hpp"
#include "dapetra/tpetra/types.hpp"

namespace dapetra::tpetra {

// How assemble() combines the contributions of the copies with the owner's
// value (Tpetra's ADD, INSERT and ABSMAX).
enum class CombineMode { add, insert, absmax };

class HaloPlan {
 public:
  // Collective over the layout's communicator (it exchanges messages only
  // when the layout has a scattered 'u' axis, but every process must call it).
  static std::shared_ptr<const HaloPlan> create(std::shared_ptr<const TpetraLayout> layout);
  ~HaloPlan();

  // Collective: fills every ghost element of `array` (the layout's records,
  // shape and strides; element type Scalar) from its owner, in place.
  template <class Scalar>
  void update(const DistArray& array) const {
    require_plan_scalar<Scalar>();
    update_impl<Scalar>(array);
  }

  // Split phase: begin_update packs and posts the messages, end_update waits
  // and unpacks; compute on owned elements in between. Both collective; one
  // split-phase exchange per plan may be in flight at a time.
  template <class Scalar>
  void begin_update(const DistArray& array) const {
    require_plan_scalar<Scalar>();
    begin_update_impl<Scalar>(array);
  }
  template <class Scalar>
  void end_update(const DistArray& array) const {
    require_plan_scalar<Scalar>();
    end_update_impl<Scalar>(array);
  }

  // Collective: combines every ghost's value into its owner (`mode`), then,
  // if `then_update`, copies the result back so all copies agree (otherwise
  // ghosts keep their own contributions).
  template <class Scalar>
  void assemble(const DistArray& array, CombineMode mode = CombineMode::add, bool then_update = false) const {
    require_plan_scalar<Scalar>();
    assemble_impl<Scalar>(array, mode, then_update);
  }

  const TpetraLayout& layout() const { return *layout_; }
  // Elements written by update() on this process (ghost copies, padding).
  std::size_t num_ghosts() const { return num_received_ + local_copies_.size(); }
  // Elements this process sends per update (per column).
  std::size_t num_sends() const { return num_sent_; }
  // Processes this one exchanges messages with.
  std::size_t num_neighbours() const { return peers_.size(); }

 private:
  HaloPlan() = default;
  template <class Scalar>
  void post(char* base, bool forward) const;  // the messages of one exchange
  template <class Scalar>
  void finish_update(char* base) const;  // wait, then unpack into the ghosts
  template <class Scalar>
  void update_impl(const DistArray& array) const;
  template <class Scalar>
  void begin_update_impl(const DistArray& array) const;
  template <class Scalar>
  void end_update_impl(const DistArray& array) const;
  template <class Scalar>
  void assemble_impl(const DistArray& array, CombineMode mode, bool then_update) const;
  using Run = StridedRun;
  struct Peer {
    int rank = 0;
    std::vector<Run> send;  // owned elements it needs, in the order it expects them
    std::vector<Run> recv;  // ghosts it fills, in message order
    std::size_t send_count = 0, recv_count = 0;
  };
  struct Exchange;  // buffers and requests of one exchange in flight

  std::shared_ptr<const TpetraLayout> layout_;
  std::vector<Peer> peers_;
  std::vector<std::pair<std::ptrdiff_t, std::ptrdiff_t>> local_copies_;  // (from, to) on this process
  std::size_t num_sent_ = 0, num_received_ = 0;
  std::ptrdiff_t column_stride_ = 0;  // bytes between columns
  int tag_ = 0;
  std::unique_ptr<Exchange> exchange_;  // scratch reused by every call
};

}  // namespace dapetra::tpetra
