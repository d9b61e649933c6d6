/// \file
/// dapetra/tpetra/transfers.hpp: Tpetra's own Import and Export on DAP layouts.
///
/// For code that drives halo exchange and redistribution with Tpetra's
/// doImport/doExport (a Tpetra application, a solver's own vectors) on DAP
/// memory seen through views.hpp. Each transfer is built once, collectively,
/// from the maps a TpetraLayout already has, and reused: a doImport or
/// doExport then costs its messages only.
///
///   - HaloTransfer::import (owned map -> buffer map), with INSERT: every
///     element of the buffer takes its owner's value (HaloPlan::update);
///   - HaloTransfer::exporter (buffer map -> owned map, the reverse of the
///     import, built without messages), with ADD, INSERT or ABSMAX: each owned
///     element takes the buffer's owned copy, then the copies held elsewhere
///     are combined into it (HaloPlan::assemble);
///   - redistribution_import(from, to) (from's owned map -> to's owned map):
///     every owned element of `to` takes its value in `from`
///     (RedistributionPlan::apply).
///
/// Tpetra moves values by global index. The one thing a HaloPlan does that
/// has no such counterpart is the periodic fill of edge padding (its period
/// wrap maps one global index onto another): through these transfers edge
/// padding is owned, and an update leaves it as it is.
///
/// With INSERT, a global element held by several processes takes one of the
/// copies' values, in Tpetra's order (as HaloPlan::assemble's insert does in
/// its own): the same only when at most one copy lies elsewhere.
#pragma once

#include <Teuchos_RCP.hpp>
#include <Tpetra_Export_fwd.hpp>
#include <Tpetra_Import_fwd.hpp>
#include <memory>

#include "dapetra/tpetra/tpetra_layout.hpp"
#include "dapetra/tpetra/types.hpp"

namespace dapetra::tpetra {

/// Tpetra's Import type on Dapetra's maps.
using Import = Tpetra::Import<LO, GO, Node>;
/// Tpetra's Export type on Dapetra's maps.
using Export = Tpetra::Export<LO, GO, Node>;

/// A layout's halo as Tpetra transfers: the ghost update and its reverse, the assembly.
struct HaloTransfer {
  /// owned_map() -> buffer_map(): `buffer.doImport(owned, *import, Tpetra::INSERT)`.
  Teuchos::RCP<const Import> import;
  /// buffer_map() -> owned_map(): `owned.doExport(buffer, *exporter, Tpetra::ADD)`.
  Teuchos::RCP<const Export> exporter;

  /// Collective over layout.comm(): one reduction (every process passed a layout of one creation), one Import
  /// and its reverse Export (no messages). A 1-D 'u' array's layout knows its ghosts' owners and gives them
  /// to the Import, which then skips its directory's look-up; for others Tpetra's directory finds them.
  /// @param layout the layout.
  /// @return the Import and Export.
  static HaloTransfer create(const TpetraLayout& layout);
};

/// Collective over from.comm(): the Import that moves an array from layout
/// `from` to layout `to` (same global shape, columns and index base, same
/// processes in the same order): `to_owned.doImport(from_owned, *import,
/// Tpetra::INSERT)`, both vectors on the layouts' owned maps. Throws the same ValidationError on every
/// process when the layouts do not match, or are not every process's layouts of the same creations (two reductions).
/// @param from the source layout.
/// @param to the target layout (the same global shape, the same processes).
/// @return the Import from from's owned map to to's.
Teuchos::RCP<const Import> redistribution_import(const TpetraLayout& from, const TpetraLayout& to);

}  // namespace dapetra::tpetra
