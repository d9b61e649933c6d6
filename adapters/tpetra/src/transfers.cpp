#include "dapetra/tpetra/transfers.hpp"

#include <Tpetra_Export.hpp>
#include <Tpetra_Import.hpp>
#include <Tpetra_Map.hpp>
#include <mpi.h>
#include <string>
#include <vector>

#include "dapetra/mpi/adapter_access.hpp"
#include "dapetra/mpi/agree.hpp"
#include "dapetra/tpetra/comm.hpp"
#include "tpetra_layout_access.hpp"

namespace dapetra::tpetra {
namespace {

std::string shape_text(const std::vector<global_index_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + ")";
}

// What keeps `from` and `to` from being one array's two distributions, as
// seen from this process (the shapes are global, so every process sees
// those alike; the communicators are compared locally and agreed on).
std::vector<Problem> pair_problems(const TpetraLayout& from, const TpetraLayout& to) {
  std::vector<Problem> problems;
  const int rank = from.distribution()->rank();
  if (detail::TpetraLayoutAccess::map_shape(from) != detail::TpetraLayoutAccess::map_shape(to))
    problems.push_back(Problem::of(rank, "shape", shape_text(detail::TpetraLayoutAccess::map_shape(to)),
                                   "both layouts have the same global shape (column axis left out)",
                                   "the source's is " + shape_text(detail::TpetraLayoutAccess::map_shape(from))));
  if (from.num_vectors() != to.num_vectors())
    problems.push_back(Problem::of(rank, "column_axis", std::to_string(to.num_vectors()),
                                   "both layouts have the same number of columns",
                                   "the source has " + std::to_string(from.num_vectors()), to.column_axis()));
  if (from.index_base() != to.index_base())
    problems.push_back(Problem::of(rank, "index_base", std::to_string(to.index_base()),
                                   "both layouts have the same index base",
                                   "the source's is " + std::to_string(from.index_base())));
  int same = MPI_UNEQUAL;
  MPI_Comm_compare(from.distribution()->comm(), to.distribution()->comm(), &same);
  if (same != MPI_IDENT && same != MPI_CONGRUENT)
    problems.push_back(Problem::of(rank, "comm", "", "both layouts span the same processes in the same order",
                                   "the target layout's communicator differs from the source's"));
  return problems;
}

// Whether the layout knows the owner of every element it holds: a 1-D 'u'
// array settled without gathering. The same verdict on every process (the
// kind of layout was agreed at its creation), as it must be: the two Import
// constructors below differ in their collectives.
bool owners_known(const TpetraLayout& layout) {
  const mpi::DistributedLayout& dl = *layout.distribution();
  return dl.dim_data().size() == 1 && mpi::adapter::scattered_axis(dl) == 0 && mpi::adapter::gathered_records(dl) == nullptr;
}

// The owner of each element the Import receives: buffer_map's elements that
// owned_map lacks, in buffer_map's order, as Tpetra lists them. The buffer
// map of such a layout is its held indices in buffer order (build_maps).
Teuchos::Array<int> owners_of_remote(const TpetraLayout& layout) {
  const std::vector<int> owners = mpi::adapter::owners_of_held(*layout.distribution());
  const Map& owned = *layout.owned_map();
  const Map& buffer = *layout.buffer_map();
  Teuchos::Array<int> remote;
  for (std::size_t i = 0; i < owners.size(); ++i)
    if (!owned.isNodeGlobalElement(buffer.getGlobalElement(static_cast<LO>(i)))) remote.push_back(owners[i]);
  return remote;
}

}  // namespace

HaloTransfer HaloTransfer::create(const TpetraLayout& layout) {
  mpi::adapter::agree_on_layouts({layout.distribution().get()}, "HaloTransfer::create");
  HaloTransfer t;
  // Where the layout knows every ghost's owner, Tpetra's Import is given
  // them and skips its directory's look-up.
  if (owners_known(layout)) {
    Teuchos::Array<int> remote = owners_of_remote(layout);
    t.import = Teuchos::rcp(new Import(layout.owned_map(), layout.buffer_map(), remote, Teuchos::null));
  } else {
    t.import = Teuchos::rcp(new Import(layout.owned_map(), layout.buffer_map()));
  }
  t.exporter = Teuchos::rcp(new Export(*t.import));
  return t;
}

Teuchos::RCP<const Import> redistribution_import(const TpetraLayout& from, const TpetraLayout& to) {
  mpi::agree(pair_problems(from, to), from.distribution()->comm());
  mpi::adapter::agree_on_layouts({from.distribution().get(), to.distribution().get()}, "redistribution_import");
  return Teuchos::rcp(new Import(from.owned_map(), to.owned_map()));
}

}  // namespace dapetra::tpetra
