// deal.II's vectors through Tpetra (dapetra/dealii/vector.hpp with
// dapetra/tpetra): the owned view is the vector's own memory; Tpetra's
// Import from the owned map onto the buffer map gives what deal.II's
// update_ghost_values() gives, and its Export with ADD what
// compress(VectorOperation::add) gives, entry by entry, at 1-4 processes.
#include <deal.II/base/index_set.h>
#include <gtest/gtest.h>

#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_Export.hpp>
#include <Tpetra_Import.hpp>
#include <Tpetra_MultiVector.hpp>
#include <Tpetra_Vector.hpp>

#include "../common/world.hpp"
#include "dapetra/dealii/vector.hpp"
#include "dapetra/tpetra/tpetra.hpp"

using ::dealii::IndexSet;
using DealiiVector = dapetra::dealii::Vector;

namespace {

// Every process owns 5 + rank entries; its ghosts are the first entry of
// every other process's range and the entry just past its own.
DealiiVector ring_vector() {
  const auto [rank, size] = dapetra::testing::World();
  unsigned n = 0, first = 0;
  std::vector<unsigned> starts;
  for (int p = 0; p < size; ++p) {
    if (p == rank) first = n;
    starts.push_back(n);
    n += 5 + static_cast<unsigned>(p);
  }
  IndexSet owned(n), ghosts(n);
  owned.add_range(first, first + 5 + static_cast<unsigned>(rank));
  for (int p = 0; p < size; ++p)
    if (p != rank) ghosts.add_index(starts[static_cast<std::size_t>(p)]);
  const unsigned past = (first + 5 + static_cast<unsigned>(rank)) % n;
  if (!owned.is_element(past)) ghosts.add_index(past);
  return DealiiVector(owned, ghosts, MPI_COMM_WORLD);
}

std::shared_ptr<const dapetra::tpetra::TpetraLayout> layout_of(DealiiVector& v, const dapetra::DistArray& a) {
  dapetra::tpetra::TpetraLayoutOptions options;
  options.distribution.ownership = dapetra::dealii::owners_of(v);
  return dapetra::tpetra::TpetraLayout::create(a, Teuchos::rcp(new Teuchos::MpiComm<int>(MPI_COMM_WORLD)), options);
}

void fill(DealiiVector& v, double ghost_value) {
  const auto& p = *v.get_partitioner();
  for (unsigned i = 0; i < p.locally_owned_size(); ++i) v.local_element(i) = 1.0 + p.local_to_global(i);
  for (unsigned k = 0; k < p.n_ghost_indices(); ++k) v.local_element(p.locally_owned_size() + k) = ghost_value + k;
}

}  // namespace

TEST(DealiiTpetra, TheOwnedViewIsTheVectorsMemory) {
  DealiiVector v = ring_vector();
  fill(v, -1);
  const dapetra::DistArray a = dapetra::dealii::vector_as_distarray(v);
  const auto layout = layout_of(v, a);
  const auto owned = dapetra::tpetra::owned_view<double>(*layout, a);
  EXPECT_EQ(owned->getLocalViewHost(Tpetra::Access::ReadOnly).data(), v.begin());
  EXPECT_DOUBLE_EQ(owned->getVector(0)->norm2(), v.l2_norm());
  owned->scale(2.0);  // seen by deal.II: the same memory
  EXPECT_EQ(v.local_element(0), 2.0 * (1.0 + v.get_partitioner()->local_to_global(0)));
}

TEST(DealiiTpetra, ImportAndExportAreDealiisGhostUpdateAndCompress) {
  DealiiVector ours = ring_vector(), source = ring_vector(), theirs = ring_vector();
  const dapetra::DistArray a = dapetra::dealii::vector_as_distarray(ours), s = dapetra::dealii::vector_as_distarray(source);
  const auto layout = layout_of(ours, a);
  const Tpetra::Import<dapetra::tpetra::LO, dapetra::tpetra::GO, dapetra::tpetra::Node> import(layout->owned_map(), layout->buffer_map());

  fill(ours, -1);
  fill(source, -2);
  fill(theirs, -3);
  dapetra::tpetra::buffer_view<double>(*layout, a)->doImport(*dapetra::tpetra::owned_view<double>(*layout, s), import, Tpetra::INSERT);
  theirs.update_ghost_values();
  for (unsigned i = 0; i < ours.get_partitioner()->locally_owned_size() + ours.get_partitioner()->n_ghost_indices(); ++i)
    EXPECT_EQ(ours.local_element(i), theirs.local_element(i)) << "entry " << i;

  fill(ours, 100);
  fill(theirs, 100);
  auto sums = dapetra::tpetra::copy_owned_rows_to_new_vector<double>(*layout, *dapetra::tpetra::buffer_view<double>(*layout, a));
  sums->putScalar(0.0);
  sums->doExport(*dapetra::tpetra::buffer_view<double>(*layout, a), import, Tpetra::ADD);
  theirs.compress(::dealii::VectorOperation::add);
  const auto got = sums->getLocalViewHost(Tpetra::Access::ReadOnly);
  for (unsigned i = 0; i < theirs.get_partitioner()->locally_owned_size(); ++i)
    EXPECT_EQ(got(i, 0), theirs.local_element(i)) << "owned entry " << i;
}
