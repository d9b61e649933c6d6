// Tpetra's own Import/Export built by dapetra/tpetra/transfers.hpp, on views
// of DAP memory, against Dapetra's HaloPlan and RedistributionPlan: bit for
// bit on the spec's chapter-2 examples and on random layouts (every
// dist_type, padding, overlapping 'u', empty processes), at 1-4 processes.
#include <gtest/gtest.h>

#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_Export.hpp>
#include <Tpetra_Import.hpp>
#include <Tpetra_MultiVector.hpp>
#include <cstring>
#include <functional>
#include <random>

#include "../core/random_layout.hpp"
#include "dapetra/tpetra/comm.hpp"
#include "dapetra/tpetra/tpetra.hpp"
#include "tpetra_test_util.hpp"

using namespace dapetra;
using namespace dapetra::tpetra;
using dapetra::testing::owning_array;
using dapetra::testing::world;

namespace {

using MV = MultiVector<double>;

// Tpetra moves values by global index; the periodic wrap of edge padding is
// a HaloPlan thing (transfers.hpp), so the comparisons use layouts without it.
std::vector<Dim> without_periodicity(std::vector<Dim> dims) {
  for (Dim& d : dims) d.periodic = false;
  return dims;
}

std::vector<double> values_of(const DistArray& a) {
  std::size_t n = 1;
  for (auto e : a.buffer.shape) n *= static_cast<std::size_t>(e);
  const double* p = data_as<double>(a);
  return std::vector<double>(p, p + n);
}

// The owned part of `buffer`'s memory as Tpetra sees it: a view of the owned
// rows when they are one run (so source and target share memory, as in an
// application), otherwise a copy; `put_back` writes the copy into the rows.
struct OwnedPart {
  Teuchos::RCP<MV> vector;
  std::function<void()> put_back;
};
OwnedPart owned_part(const TpetraLayout& layout, const Teuchos::RCP<MV>& buffer) {
  if (layout.owned_rows()) return {owned_rows_view<double>(layout, *buffer), [] {}};
  auto copy = copy_owned_rows_to_new_vector<double>(layout, *buffer);
  return {copy, [&layout, copy, buffer] { copy_owned_vector_to_rows<double>(*copy, layout, *buffer); }};
}

// One step on two arrays of `dims` filled alike by `fill(flat index, owned?)`:
// `ours` on the first through a HaloPlan, `theirs` on the second through
// Tpetra; the buffers must then be equal, element by element.
void expect_same(const std::vector<Dim>& dims, const std::string& label,
                 const std::function<double(global_index_t, bool)>& fill,
                 const std::function<void(const mpi::HaloPlan&, const DistArray&)>& ours,
                 const std::function<void(const HaloTransfer&, const TpetraLayout&, const Teuchos::RCP<MV>&)>& theirs,
                 const TpetraLayoutOptions& options) {
  const auto comm = world();
  DistArray a = owning_array<double>(dims), b = owning_array<double>(dims);
  const auto layout = TpetraLayout::create(a, comm, options);
  const auto plan = mpi::HaloPlan::create(layout->distribution());
  const auto transfer = HaloTransfer::create(*layout);
  const auto flat = dapetra::testing::global_flat_indices(dims);
  const auto owned = [&](std::size_t i) {
    std::vector<global_index_t> at(dims.size());
    const auto shape = local_shape_of(dims);
    for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
      at[static_cast<std::size_t>(d)] = static_cast<global_index_t>(i) % shape[d];
      i /= static_cast<std::size_t>(shape[d]);
    }
    for (std::size_t d = 0; d < at.size(); ++d)
      if (!layout->distribution()->is_owned(static_cast<int>(d), at[d])) return false;
    return true;
  };
  for (std::size_t i = 0; i < flat.size(); ++i)
    data_as<double>(a)[i] = data_as<double>(b)[i] = fill(flat[i], owned(i));
  ours(*plan, a);
  theirs(transfer, *layout, buffer_view<double>(*layout, b));
  const auto want = values_of(a), got = values_of(b);
  ASSERT_EQ(want.size(), got.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    ASSERT_EQ(std::memcmp(&want[i], &got[i], sizeof(double)), 0)
        << label << ": element " << i << " (global " << flat[i] << "): HaloPlan " << want[i] << ", Tpetra " << got[i];
}

// Every comparison of a HaloTransfer with a HaloPlan on one layout. Values
// are small integers and halves, so sums are exact in any order.
void check_halo(const std::vector<Dim>& dims, const std::string& label, const TpetraLayoutOptions& options = {}) {
  const int rank = world()->getRank();
  // Ghost update: owners' values reach every copy; a ghost's old value is garbage.
  expect_same(
      dims, label + " update", [](global_index_t g, bool own) { return own ? 4.0 * static_cast<double>(g) + 1 : -3.0; },
      [](const mpi::HaloPlan& p, const DistArray& a) { p.update<double>(a); },
      [](const HaloTransfer& t, const TpetraLayout& l, const Teuchos::RCP<MV>& buffer) {
        const OwnedPart owned = owned_part(l, buffer);
        buffer->doImport(*owned.vector, *t.import, Tpetra::INSERT);
      },
      options);
  // Assembly, each mode. ADD: every copy contributes rank + 1 and the global
  // index, so a sum names its contributors.
  const auto assemble_with = [&](mpi::CombineMode ours, Tpetra::CombineMode theirs, const char* name,
                                 const std::function<double(global_index_t, bool)>& fill) {
    expect_same(
        dims, label + " assemble " + name, fill,
        [ours](const mpi::HaloPlan& p, const DistArray& a) { p.assemble<double>(a, ours); },
        [theirs](const HaloTransfer& t, const TpetraLayout& l, const Teuchos::RCP<MV>& buffer) {
          const OwnedPart owned = owned_part(l, buffer);
          owned.vector->doExport(*buffer, *t.exporter, theirs);
          owned.put_back();
        },
        options);
  };
  assemble_with(mpi::CombineMode::add, Tpetra::ADD, "ADD",
                [rank](global_index_t g, bool) { return static_cast<double>(g) + static_cast<double>(rank + 1) * 1024; });
  assemble_with(mpi::CombineMode::absmax, Tpetra::ABSMAX, "ABSMAX", [rank](global_index_t g, bool) {
    const double v = static_cast<double>(8 * g + rank);
    return (g + rank) % 2 ? -v : v;
  });
  // INSERT: every copy of g carries g, its owner g + 0.5, so the result does
  // not hang on the order in which copies land.
  assemble_with(mpi::CombineMode::insert, Tpetra::INSERT, "INSERT",
                [](global_index_t g, bool own) { return static_cast<double>(g) + (own ? 0.5 : 0.0); });
}

}  // namespace

TEST(HaloTransfer, AgreesWithHaloPlanOnTheSpecExamples) {
  const auto comm = world();
  int ran = 0;
  const auto examples = dapetra::testing::spec_examples();
  for (const auto& [id, ex] : examples.items()) {
    if (static_cast<int>(ex["ranks"].size()) != comm->getSize()) continue;
    ++ran;
    check_halo(without_periodicity(dim_data_from_json(ex["ranks"][comm->getRank()]["dim_data"].dump())), "example " + id);
  }
  const int P = comm->getSize();
  if (P == 2 || P == 3 || P == 4) {
    EXPECT_GT(ran, 0);
  }
}

TEST(HaloTransfer, AgreesWithHaloPlanOnRandomLayouts) {
  const auto comm = world();
  dapetra::testing::RandomLayouts draws(2718, comm->getSize());  // the same layouts on every rank
  SCOPED_TRACE(draws.seed.replay);
  for (int trial = 0; trial < 60; ++trial) {
    const LayoutRecords layout = draws.next();
    check_halo(without_periodicity(layout.ranks[comm->getRank()].dim_data), "trial " + std::to_string(trial));
  }
}

// A 1-D 'u' array (the finite-element case) knows its ghosts' owners, and
// its Import is given them instead of asking Tpetra's directory: with owners
// by the default rule, by ranges and as named by their holders, each
// process holding its range then one ghost on each side (the right one owned
// by the right neighbour, which the default rule does not choose).
TEST(HaloTransfer, AOneDimensionalUArrayGivesTheImportItsGhostsOwners) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  const global_index_t n = 4 * P + 1;
  const auto begin = [&](int q) -> global_index_t { return q == P ? n : 4 * q; };
  std::vector<global_index_t> held;
  std::vector<int> owners;
  for (global_index_t g = begin(r); g < begin(r + 1); ++g) {
    held.push_back(g);
    owners.push_back(r);
  }
  if (r + 1 < P) {
    held.push_back(begin(r + 1));
    owners.push_back(r + 1);
  }
  if (r > 0) {
    held.push_back(begin(r) - 1);
    owners.push_back(r - 1);
  }
  std::vector<global_index_t> boundaries;
  for (int q = 0; q <= P; ++q) boundaries.push_back(begin(q));
  const std::vector<Dim> dims{Dim::unstructured(n, P, r, held, false)};
  for (const auto& [how, name] : {std::pair{mpi::Ownership(), "the default rule"},
                                  std::pair{mpi::Ownership::from_ranges(boundaries), "ranges"},
                                  std::pair{mpi::Ownership::from_held_owners(owners), "held owners"}}) {
    TpetraLayoutOptions options;
    options.distribution.ownership = how;
    check_halo(dims, std::string("owners by ") + name, options);
  }
}

// The halo of nodes x components (a velocity field): one MultiVector column
// per component, each column's ghosts filled and assembled alike.
TEST(HaloTransfer, NodesTimesComponentsMoveEveryColumn) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  const global_index_t nodes = 5 * P + 1;
  std::vector<global_index_t> held;  // a strip of nodes, one shared with each neighbour
  for (global_index_t g = 5 * r; g <= std::min<global_index_t>(5 * r + 5, nodes - 1); ++g) held.push_back(g);
  const std::vector<Dim> dims{Dim::block(3, 1, 0, 0, 3), Dim::unstructured(nodes, P, r, held, false)};
  DistArray a = owning_array<double>(dims), b = owning_array<double>(dims);
  TpetraLayoutOptions opt;
  opt.column_axis = 0;
  const auto layout = TpetraLayout::create(a, comm, opt);
  ASSERT_EQ(layout->num_vectors(), 3u);
  const auto plan = mpi::HaloPlan::create(layout->distribution());
  const auto transfer = HaloTransfer::create(*layout);
  for (std::size_t i = 0; i < held.size() * 3; ++i)
    data_as<double>(a)[i] = data_as<double>(b)[i] = static_cast<double>(held[i % held.size()] * 10 + static_cast<global_index_t>(i / held.size()) + r * 1000);
  plan->assemble<double>(a);
  const auto buffer = buffer_view<double>(*layout, b);
  const OwnedPart owned = owned_part(*layout, buffer);
  owned.vector->doExport(*buffer, *transfer.exporter, Tpetra::ADD);
  owned.put_back();
  EXPECT_EQ(values_of(a), values_of(b));
  plan->update<double>(a);
  buffer->doImport(*owned.vector, *transfer.import, Tpetra::INSERT);
  EXPECT_EQ(values_of(a), values_of(b));
}

// Redistribution between random pairs of layouts of one global shape: the
// Import of the owned maps gives every owned element of the target what the
// RedistributionPlan gives it.
TEST(RedistributionImport, AgreesWithRedistributionPlanOnRandomPairs) {
  const auto comm = world();
  dapetra::testing::RandomLayouts draws(1414, comm->getSize());  // the same layouts on every rank
  SCOPED_TRACE(draws.seed.replay);
  draws.options.sparse_1d_indices = false;
  for (int trial = 0; trial < 60; ++trial) {
    const LayoutRecords ls = draws.next();
    std::vector<global_index_t> sizes;
    for (const Dim& d : ls.ranks[0].dim_data) sizes.push_back(d.size);
    const LayoutRecords lt = draws.next(&sizes);
    const auto& ds = ls.ranks[comm->getRank()].dim_data;
    const auto& dt = lt.ranks[comm->getRank()].dim_data;
    DistArray s = owning_array<double>(ds), t = owning_array<double>(dt, -1.0);
    const auto flat = dapetra::testing::global_flat_indices(ds);
    for (std::size_t i = 0; i < flat.size(); ++i) data_as<double>(s)[i] = 0.5 + static_cast<double>(flat[i]);
    const auto from = TpetraLayout::create(s, comm), to = TpetraLayout::create(t, comm);
    mpi::RedistributionPlan::create(from->distribution(), to->distribution())->apply<double>(s, t);

    const auto import = redistribution_import(*from, *to);
    const auto source = copy_owned_rows_to_new_vector<double>(*from, *buffer_view<double>(*from, s));
    MV target(to->owned_map(), 1);
    target.doImport(*source, *import, Tpetra::INSERT);
    const auto want = copy_owned_rows_to_new_vector<double>(*to, *buffer_view<double>(*to, t));
    const auto w = want->getData(0), g = target.getData(0);
    ASSERT_EQ(w.size(), g.size()) << "trial " << trial;
    for (Teuchos_Ordinal k = 0; k < w.size(); ++k)
      ASSERT_EQ(w[k], g[k]) << "trial " << trial << " owned row " << k;
  }
}

TEST(Faults, RedistributionImportBetweenLayoutsThatDoNotMatch) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  const auto block = [&](global_index_t n) {
    return std::vector<Dim>{Dim::block(n, P, r, n * r / P, n * (r + 1) / P)};
  };
  const auto a = TpetraLayout::create(block(12), comm), b = TpetraLayout::create(block(13), comm);
  try {
    redistribution_import(*a, *b);
    ADD_FAILURE() << "layouts of 12 and 13 elements were accepted";
  } catch (const ValidationError& e) {
    ASSERT_FALSE(e.problems().empty());
    EXPECT_EQ(e.problems()[0].key, "shape");
  }
  if (P < 2) return;
  // The same processes in another order: every process sees it and throws.
  MPI_Comm reversed;
  MPI_Comm_split(mpi_comm_of(*comm), 0, P - r, &reversed);
  {
    const auto rc = Teuchos::rcp(new Teuchos::MpiComm<int>(reversed));
    const int rr = rc->getRank();
    const auto c = TpetraLayout::create(std::vector<Dim>{Dim::block(12, P, rr, 12 * rr / P, 12 * (rr + 1) / P)}, rc);
    EXPECT_THROW(redistribution_import(*a, *c), ValidationError);
  }
  MPI_Comm_free(&reversed);
}

// A process that passes the layout of another creation (valid, and alike
// in shape) makes every process throw the same error naming it, before any
// Tpetra Import is built from maps that differ between processes: with the
// other layout on each rank in turn.
TEST(Faults, TransfersGivenAnotherLayoutOnOneProcessFailEverywhere) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  if (P < 2) GTEST_SKIP() << "needs two processes to differ";
  const global_index_t n = 12 * P;
  const auto a = TpetraLayout::create(std::vector<Dim>{Dim::even_block(n, P, r, 1)}, comm);
  const auto b = TpetraLayout::create(std::vector<Dim>{Dim::even_block(n, P, r, 1)}, comm);  // alike, another creation
  const auto c = TpetraLayout::create(std::vector<Dim>{Dim::cyclic(n, P, r, 2)}, comm);
  const std::vector<std::pair<std::string, std::function<void(bool)>>> calls{
      {"HaloTransfer::create", [&](bool odd) { HaloTransfer::create(odd ? *b : *a); }},
      {"redistribution_import", [&](bool odd) { redistribution_import(*a, odd ? *b : *c); }},
  };
  for (const auto& [name, call] : calls)
    for (int odd = 0; odd < P; ++odd) {
      SCOPED_TRACE(name + " with another layout on rank " + std::to_string(odd));
      bool named = false, threw = false;
      try {
        call(r == odd);
      } catch (const ValidationError& e) {
        threw = true;
        for (const Problem& p : e.problems()) named = named || (p.rank == odd && p.key == "layout");
      }
      EXPECT_TRUE(threw);
      EXPECT_TRUE(named);
      int everyone = 0, mine = threw ? 1 : 0;
      MPI_Allreduce(&mine, &everyone, 1, MPI_INT, MPI_SUM, mpi_comm_of(*comm));
      EXPECT_EQ(everyone, P);
      EXPECT_NO_THROW(call(false));
    }
}
