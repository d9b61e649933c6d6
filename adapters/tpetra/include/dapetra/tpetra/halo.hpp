// dapetra/tpetra/halo.hpp: halo exchange and finite-element assembly, in place.
//
// A HaloPlan is the communication plan of one layout, built once and applied
// any number of times to any array with that layout (the DOLFINx Scatterer
// idea, on Tpetra's machinery). It covers both kinds of "ghosts":
//   - padded block arrays: every communication padding element, edges and
//     corners included, and the edge padding of periodic axes, which is filled
//     from the opposite end of the interior (period M = size - both edge pads:
//     a left pad at g takes g + M, a right pad g - M);
//   - overlapping unstructured arrays: every copy of an index held for another
//     process ("ghost" nodes, with any number of values per node).
// update() copies owners' values into the ghosts; assemble() combines the
// ghosts' contributions into their owners (add by default). Owned elements
// and non-periodic boundary padding are never written by update().
//
// Built on Tpetra: the plan holds a Tpetra::Import from the owned map to a
// map of the ghosts alone, constructed with the owners' ranks (closed form
// for 'b' and 'c' axes, so no distributed directory look-up; 'u' axes look
// their owners up once). Applying it packs only halo data straight from the
// caller's buffer and unpacks straight into it, through the Import's
// Distributor: no owned vector is copied, nothing is looked up per call.
#pragma once

#include <memory>
#include <vector>

#include "dapetra/distarray.hpp"
#include "dapetra/tpetra/layout.hpp"
#include "dapetra/tpetra/types.hpp"

namespace Tpetra {
template <class LO, class GO, class Node>
class Import;
}

namespace dapetra::tpetra {

// How assemble() combines the contributions of the copies with the owner's
// value (Tpetra's ADD, INSERT and ABSMAX).
enum class CombineMode { add, insert, absmax };

class HaloPlan {
 public:
  // Collective over the layout's communicator.
  static std::shared_ptr<const HaloPlan> create(std::shared_ptr<const TpetraLayout> layout);

  // Collective: fills every ghost element of `array` (the layout's records,
  // shape and strides; element type Scalar) from its owner, in place.
  template <class Scalar>
  void update(const DistArray& array) const;

  // Split phase: begin_update posts the messages (packing owners' values now),
  // end_update waits and unpacks; compute on owned elements in between.
  // Both collective; one split-phase exchange per plan may be in flight.
  template <class Scalar>
  void begin_update(const DistArray& array) const;
  template <class Scalar>
  void end_update(const DistArray& array) const;

  // Collective: combines every ghost's value into its owner (`mode`), then,
  // if `then_update`, copies the result back so all copies agree.
  template <class Scalar>
  void assemble(const DistArray& array, CombineMode mode = CombineMode::add, bool then_update = false) const;

  const TpetraLayout& layout() const { return *layout_; }
  // Elements written by update() on this process (ghost copies, padding).
  std::size_t num_ghosts() const { return remote_offsets_.size() + local_copies_.size(); }
  // Elements this process sends per update (per column).
  std::size_t num_sends() const { return export_offsets_.size(); }

 private:
  HaloPlan() = default;
  template <class Scalar>
  Scalar* checked(const DistArray& array) const;

  std::shared_ptr<const TpetraLayout> layout_;
  Teuchos::RCP<Tpetra::Import<LO, GO, Node>> import_;
  std::vector<std::ptrdiff_t> export_offsets_;   // byte offset in the buffer of each exported element
  std::vector<std::size_t> remote_ptr_;          // CSR over the ghost map's entries ...
  std::vector<std::ptrdiff_t> remote_offsets_;   // ... listing the buffer byte offsets each one fills
  std::vector<std::pair<std::ptrdiff_t, std::ptrdiff_t>> local_copies_;  // (from, to) on this process
  std::vector<int> remote_lids_;                 // ghost (CSR row) of each received element, in receive order
  std::ptrdiff_t column_stride_ = 0;             // bytes between columns
  mutable std::shared_ptr<void> in_flight_;      // buffers of a begun split-phase update
};

}  // namespace dapetra::tpetra
