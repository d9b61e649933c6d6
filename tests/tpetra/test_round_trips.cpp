#include <gtest/gtest.h>

#include <Tpetra_Map.hpp>
#include <Tpetra_MultiVector.hpp>
#include <Tpetra_Vector.hpp>
#include <Teuchos_CommHelpers.hpp>
#include <random>

#include "../common/seed.hpp"
#include "../core/random_layout.hpp"
#include "dapetra/tpetra/tpetra.hpp"
#include "dapetra/validate.hpp"
#include "tpetra_test_util.hpp"

using namespace dapetra;
using namespace dapetra::tpetra;
using dapetra::testing::expect_every_rank_throws;
using dapetra::testing::owning_array;
using dapetra::testing::world;

// DAP -> Tpetra -> DAP over random layouts (every dist_type, padding,
// periodic axes, overlapping 'u', empty ranks): the same records come back,
// the buffer is the same memory, and every buffer element's GID is its flat index.
TEST(RoundTrip, DapToTpetraToDapIsExact) {
  const auto comm = world();
  dapetra::testing::RandomLayouts draws(2024, comm->getSize());  // the same layouts on every rank
  SCOPED_TRACE(draws.seed.replay);
  for (int trial = 0; trial < 60; ++trial) {
    const LayoutRecords layout = draws.next();
    const auto& dims = layout.ranks[comm->getRank()].dim_data;
    const DistArray a = owning_array<double>(dims, 1.0);
    const auto tl = TpetraLayout::create(a, comm);
    const auto mv = buffer_view<double>(*tl, a);
    const DistArray back = to_distarray(mv, *tl);
    EXPECT_EQ(back.dim_data, dims) << "trial " << trial;
    EXPECT_EQ(back.buffer.data, a.buffer.data) << "trial " << trial;
    EXPECT_EQ(back.buffer.shape, a.buffer.shape);
    EXPECT_EQ(back.buffer.strides, a.buffer.strides);
    const auto flat = dapetra::testing::global_flat_indices(dims);
    for (std::size_t i = 0; i < flat.size(); ++i)
      ASSERT_EQ(tl->buffer_map()->getGlobalElement(static_cast<LO>(i)), flat[i]) << "trial " << trial;
    global_index_t total = 1;
    for (auto s : tl->distribution()->global_shape()) total *= s;
    EXPECT_EQ(static_cast<global_index_t>(tl->owned_map()->getGlobalNumElements()), total);
  }
}

// The owned rows of a buffer vector, taken out (copy, or view where they are
// one run) and put back, on random layouts: the k-th owned row is the owned
// map's k-th element, each global element is owned once, and putting back
// writes the owned rows alone (ownership from the test oracle).
TEST(RoundTrip, OwnedRowsOutAndBackOnRandomLayouts) {
  const auto comm = world();
  dapetra::testing::RandomLayouts draws(2025, comm->getSize());  // the same layouts on every rank
  SCOPED_TRACE(draws.seed.replay);
  int scattered = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const LayoutRecords layout = draws.next();
    const auto& dims = layout.ranks[comm->getRank()].dim_data;
    const auto flat = dapetra::testing::global_flat_indices(dims);
    const auto owned = dapetra::testing::oracle::owned_elements(layout, comm->getRank());
    const DistArray a = owning_array<double>(dims, 0.0);
    for (std::size_t i = 0; i < flat.size(); ++i) data_as<double>(a)[i] = static_cast<double>(flat[i]);
    const auto tl = TpetraLayout::create(a, comm);
    const auto buffer = buffer_view<double>(*tl, a);
    const auto copy = copy_owned_rows_to_new_vector<double>(*tl, *buffer);
    std::vector<double> want;
    for (std::size_t i = 0; i < flat.size(); ++i)
      if (owned[i]) want.push_back(static_cast<double>(flat[i]));
    const auto got = copy->getData(0);
    ASSERT_EQ(static_cast<std::size_t>(got.size()), want.size()) << "trial " << trial;
    for (std::size_t k = 0; k < want.size(); ++k) {
      ASSERT_EQ(got[k], want[k]) << "trial " << trial << " owned row " << k;
      ASSERT_EQ(static_cast<double>(tl->owned_map()->getGlobalElement(static_cast<LO>(k))), want[k]);
    }
    scattered += !tl->owned_rows() && !tl->buffer_map_is_owned_map();
    if (tl->owned_rows()) {
      const auto view = owned_rows_view<double>(*tl, *buffer);
      EXPECT_EQ(view->getLocalLength(), want.size());
      if (!want.empty()) {
        EXPECT_EQ(view->getData(0).getRawPtr(), data_as<double>(a) + tl->owned_rows()->begin);
      }
    } else {
      EXPECT_THROW(owned_rows_view<double>(*tl, *buffer), ValidationError);
    }
    copy->scale(-1.0);
    copy_owned_vector_to_rows<double>(*copy, *tl, *buffer);
    for (std::size_t i = 0; i < flat.size(); ++i)
      ASSERT_EQ(data_as<double>(a)[i], owned[i] ? -static_cast<double>(flat[i]) : static_cast<double>(flat[i]))
          << "trial " << trial << " element " << i;
  }
  // Whether any process drew scattered owned rows is a property of the whole
  // run: one process alone may draw none in 60 trials.
  int scattered_anywhere = 0;
  Teuchos::reduceAll(*comm, Teuchos::REDUCE_SUM, scattered, Teuchos::outArg(scattered_anywhere));
  if (comm->getSize() > 1) {
    EXPECT_GT(scattered_anywhere, 0) << "no layout with scattered owned rows was drawn on any process";
  }
}

namespace {

// A map of each kind the producer recognises, built with Tpetra's own constructors.
std::vector<Teuchos::RCP<const Map>> sample_maps(const Teuchos::RCP<const Comm>& comm, std::mt19937_64& rng) {
  const int P = comm->getSize(), r = comm->getRank();
  std::vector<Teuchos::RCP<const Map>> maps;
  maps.push_back(Teuchos::rcp(new Map(37, 0, comm)));  // even contiguous
  maps.push_back(Teuchos::rcp(new Map(Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid(),
                                      static_cast<std::size_t>(r == 0 ? 0 : 3 * r + 1), 1, comm)));  // uneven, empty rank 0, base 1
  for (GO b : {1, 3}) {  // (block-)cyclic
    std::vector<GO> gids;
    for (global_index_t i = 0; i < cyclic_count(29, b, P, r); ++i) gids.push_back(static_cast<GO>(cyclic_global_index(i, b, P, r)));
    maps.push_back(Teuchos::rcp(new Map(29, Teuchos::ArrayView<const GO>(gids), 0, comm)));
  }
  std::vector<GO> perm(40);  // random one-to-one, then overlapping
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<GO> mine;
  for (std::size_t i = 0; i < perm.size(); ++i)
    if (static_cast<int>(i % P) == r) mine.push_back(perm[i]);
  maps.push_back(Teuchos::rcp(new Map(40, Teuchos::ArrayView<const GO>(mine), 0, comm)));
  mine.push_back(perm[(static_cast<std::size_t>(r) + 1) % perm.size()]);  // one index shared with the next rank
  if (P > 1) maps.push_back(Teuchos::rcp(new Map(Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid(),
                                                 Teuchos::ArrayView<const GO>(mine), 0, comm)));
  return maps;
}

}  // namespace

TEST(RoundTrip, TpetraToDapToTpetraGivesTheSameMap) {
  const auto comm = world();
  const auto seed = dapetra::testing::test_seed(7);
  SCOPED_TRACE(seed.replay);
  std::mt19937_64 rng(seed.value);
  const auto maps = sample_maps(comm, rng);
  const std::vector<char> expected{'b', 'b', 'c', 'c', 'u', 'u'};
  for (std::size_t m = 0; m < maps.size(); ++m) {
    const auto& map = maps[m];
    auto mv = Teuchos::rcp(new MultiVector<double>(map, 2));
    mv->randomize();
    const DistArray a = to_distarray(mv);
    ASSERT_EQ(a.dim_data.size(), 2u);
    const Dim& d = a.dim_data[0];
    if (comm->getSize() > 1 || m < 2) {
      EXPECT_EQ(to_char(d.dist_type), expected[m]) << "map " << m;
    }
    EXPECT_EQ(a.buffer.data, mv->getLocalViewHost(Tpetra::Access::ReadOnly).data());
    TpetraLayoutOptions opt;
    opt.column_axis = 1;
    opt.index_base = map->getIndexBase();
    const auto tl = TpetraLayout::create(a, comm, opt);
    EXPECT_TRUE(tl->owned_map()->isSameAs(*map) || !map->isOneToOne()) << "map " << m << " " << describe(d);
    EXPECT_TRUE(tl->buffer_map()->isSameAs(*map)) << "map " << m << " " << describe(d);
    // And the views see the same numbers.
    const auto view = buffer_view<double>(*tl, a);
    EXPECT_EQ(view->getVector(1)->norm1(), mv->getVector(1)->norm1());
  }
}

TEST(RoundTrip, ProducerKeepsTheVectorAlive) {
  const auto comm = world();
  DistArray a;
  {
    auto mv = Teuchos::rcp(new MultiVector<double>(Teuchos::rcp(new Map(10, 0, comm)), 1));
    mv->putScalar(4.0);
    a = to_distarray(mv);
  }  // the caller's RCP is gone; the protocol object holds the vector
  const double* x = data_as<const double>(a);
  for (global_index_t i = 0; i < a.buffer.shape[0]; ++i) {
    EXPECT_EQ(x[i], 4.0);
  }
}

// A fault on one rank: every rank throws the same ValidationError naming it;
// nobody waits forever in MPI (ctest's timeout would catch a hang).
TEST(Faults, BadRecordsOnOneRankFailEveryRank) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  for (int bad = 0; bad < P; ++bad) {
    Dim d = Dim::even_block(20, P, r);
    if (r == bad) d.stop = 21;  // past size on one rank only
    const DistArray a = owning_array<double>({d});
    try {
      TpetraLayout::create(a, comm);
      ADD_FAILURE() << "no error for a fault on rank " << bad;
    } catch (const ValidationError& e) {
      bool names_bad_rank = false;
      for (const Problem& p : e.problems()) names_bad_rank = names_bad_rank || (p.rank == bad && p.key == "stop");
      EXPECT_TRUE(names_bad_rank) << e.what();
    }
  }
}

TEST(Faults, BufferMismatchOnOneRankFailsEveryRank) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  for (int bad = 0; bad < P; ++bad) {
    SCOPED_TRACE("bad rank " + std::to_string(bad));
    DistArray a = owning_array<double>({Dim::even_block(20, P, r)});
    if (r == bad) a.buffer.itemsize = 4;  // lies about its element size
    expect_every_rank_throws([&] { TpetraLayout::create(a, comm); }, bad, "itemsize");
    DistArray b = owning_array<double>({Dim::even_block(20, P, r)});
    if (r == bad) b.version = "1.0.0";
    expect_every_rank_throws([&] { TpetraLayout::create(b, comm); }, bad, "__version__");
  }
}

// The column axis: one rank names another axis, or none, or an axis that
// cannot be columns; every rank throws the same error (no rank left in a
// reduction the others skipped).
TEST(Faults, ColumnAxisDisagreementFailsEveryRank) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  const std::vector<Dim> dims{Dim::undistributed(3), Dim::even_block(20, P, r)};
  for (int bad = 0; bad < P; ++bad)
    for (const int other : {-1, 1}) {
      TpetraLayoutOptions options;
      options.column_axis = r == bad ? other : 0;
      const bool everyone_agrees = P == 1 && other == -1;  // then the one rank just has no columns
      try {
        TpetraLayout::create(dims, comm, options);
        EXPECT_TRUE(everyone_agrees) << "no error for column axis " << other << " on rank " << bad;
      } catch (const ValidationError& e) {
        EXPECT_FALSE(everyone_agrees) << e.what();
        ASSERT_EQ(e.problems().size(), 1u);
        EXPECT_EQ(e.problems()[0].key, "column_axis");
        // Axis 1 is distributed: at P == 1 it is allowed to disagree only with itself.
        if (P > 1 && other == 1) {
          EXPECT_TRUE(e.problems()[0].rank == -1 || e.problems()[0].rank == bad) << e.what();
        }
      }
    }
}
