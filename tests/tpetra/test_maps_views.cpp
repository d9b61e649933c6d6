#include <gtest/gtest.h>

#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_Map.hpp>
#include <Tpetra_MultiVector.hpp>
#include <Tpetra_Vector.hpp>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <numeric>
#include <random>
#include <string>

#include "../core/random_layout.hpp"
#include "dapetra/mpi/adapter_access.hpp"  // white box: the gathered records
#include "dapetra/tpetra/compat.hpp"
#include "dapetra/tpetra/tpetra.hpp"
#include "tpetra_test_util.hpp"

using namespace dapetra;
using namespace dapetra::tpetra;
using dapetra::testing::owning_array;
using dapetra::testing::world;

namespace {

double sum_all(double x) {
  double s = 0;
  Teuchos::reduceAll<int, double>(*world(), Teuchos::REDUCE_SUM, x, Teuchos::outArg(s));
  return s;
}

}  // namespace

// Every chapter-2 example that runs at this process count: the buffer map's
// global index of every element equals the value the spec lists (the global
// flat index in 2.4-2.12), the owned map is one-to-one over the whole array.
TEST(SpecExamples, MapsAgreeWithTheListedBuffers) {
  const auto comm = world();
  const auto examples = dapetra::testing::spec_examples();
  int ran = 0;
  for (const auto& [id, ex] : examples.items()) {
    if (static_cast<int>(ex["ranks"].size()) != comm->getSize()) continue;
    ++ran;
    const auto& mine = ex["ranks"][comm->getRank()];
    const std::vector<global_index_t> shape = mine["buffer_shape"];
    auto values = std::make_shared<std::vector<double>>(mine["buffer"].get<std::vector<double>>());
    DistArray a;
    a.dim_data = dim_data_from_json(mine["dim_data"].dump());
    a.buffer = view_buffer(values->data(), shape, values);
    const auto layout = TpetraLayout::create(a, comm);
    const auto mv = buffer_view<double>(*layout, a);
    ASSERT_EQ(mv->getLocalLength(), values->size()) << id;
    EXPECT_EQ(mv->getLocalViewHost(Tpetra::Access::ReadOnly).data(), values->data()) << "zero copy, example " << id;
    const auto expected = dapetra::testing::global_flat_indices(a.dim_data);
    const bool values_are_indices = id != "2.1" && id != "2.2" && id != "2.3";
    for (std::size_t i = 0; i < values->size(); ++i) {
      EXPECT_EQ(layout->buffer_map()->getGlobalElement(static_cast<LO>(i)), expected[i]) << id << " element " << i;
      if (values_are_indices) {
        EXPECT_EQ(static_cast<double>(expected[i]), (*values)[i]) << id << " element " << i;
      }
    }
    global_index_t total = 1;
    for (auto s : layout->distribution()->global_shape()) total *= s;
    EXPECT_EQ(static_cast<global_index_t>(layout->owned_map()->getGlobalNumElements()), total) << id;
    EXPECT_TRUE(layout->owned_map()->isOneToOne()) << id;
    if (id == "2.2") {  // padded block: owned view is the buffer without its communication padding
      ASSERT_TRUE(layout->owned_map()->isContiguous());
      const auto owned = owned_view<double>(*layout, a);
      EXPECT_EQ(owned->getLocalLength(), 9u);
      const double* first = owned->getLocalViewHost(Tpetra::Access::ReadOnly).data();
      EXPECT_EQ(first, values->data() + (comm->getRank() == 0 ? 0 : 1));
    }
  }
  // The spec's examples run on 2, 3, 4 and 8 processes: at those counts
  // this test must not pass without checking anything.
  const int P = comm->getSize();
  if (P == 2 || P == 3 || P == 4 || P == 8) {
    EXPECT_GT(ran, 0);
  }
}

TEST(Views, WritesAreSeenBothWays) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  const DistArray a = owning_array<double>({Dim::even_block(40, P, r, 2)}, 0.0);
  const auto layout = TpetraLayout::create(a, comm);
  const auto mv = buffer_view<double>(*layout, a);
  double* buf = data_as<double>(a);
  mv->putScalar(3.5);
  for (global_index_t i = 0; i < a.buffer.shape[0]; ++i) {
    EXPECT_EQ(buf[i], 3.5);
  }
  buf[1] = -2.0;
  EXPECT_EQ(mv->getData(0)[1], -2.0);
  mv->replaceLocalValue(0, 0, 9.0);
  EXPECT_EQ(buf[0], 9.0);
}

// For each element type Tpetra objects take in floating point (float is
// instantiated by Dapetra itself on a Tpetra without it): the view is the
// buffer's memory, Tpetra's reductions and updates equal the same computed on
// the buffer and write into it, the named copy copies, another element type
// is refused, and a MultiVector exports with its format and round-trips.
template <class Scalar>
class ViewsOf : public ::testing::Test {};
using ViewElementTypes = ::testing::Types<double, float>;
TYPED_TEST_SUITE(ViewsOf, ViewElementTypes);

TYPED_TEST(ViewsOf, NormsDotsUpdatesCopiesAndExport) {
  using S = TypeParam;
  using Other = std::conditional_t<std::is_same_v<S, double>, float, double>;
  const double tol = std::is_same_v<S, double> ? 1e-12 : 1e-4;  // relative
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  const Dim d = Dim::even_block(1001, P, r, 1);
  const DistArray x = owning_array<S>({d}), y = owning_array<S>({d});
  S *xb = data_as<S>(x), *yb = data_as<S>(y);
  const auto xval = [](global_index_t g) { return static_cast<S>(std::sin(static_cast<double>(g))); };
  const auto yval = [](global_index_t g) { return static_cast<S>(1.0 + static_cast<double>(g) / 1000.0); };
  for (global_index_t i = 0; i < local_extent(d); ++i) {
    xb[i] = xval(global_index(d, i));
    yb[i] = yval(global_index(d, i));
  }
  const auto layout = TpetraLayout::create(x, comm);
  const auto whole = buffer_view<S>(*layout, x);
  EXPECT_EQ(whole->getLocalViewHost(Tpetra::Access::ReadOnly).data(), xb);
  const auto xo = owned_view<S>(*layout, x), yo = owned_view<S>(*layout, y);
  const LocalRange own = owned_local_range(d);
  double dot = 0, sq = 0;
  for (local_index_t i = own.begin; i < own.end; ++i) {
    dot += static_cast<double>(xb[i]) * static_cast<double>(yb[i]);
    sq += static_cast<double>(xb[i]) * static_cast<double>(xb[i]);
  }
  EXPECT_NEAR(xo->getVector(0)->dot(*yo->getVector(0)), sum_all(dot), tol * std::abs(sum_all(dot)) + tol);
  EXPECT_NEAR(xo->getVector(0)->norm2(), std::sqrt(sum_all(sq)), tol * std::sqrt(sum_all(sq)));
  yo->update(S(2), *xo, S(-1));  // y = 2x - y on the owned part, in the user's memory
  for (local_index_t i = own.begin; i < own.end; ++i) {
    const global_index_t g = global_index(d, i);
    EXPECT_NEAR(yb[i], S(2) * xval(g) - yval(g), 16 * std::numeric_limits<S>::epsilon()) << g;  // |values| <= 4
  }
  if (P > 1 && r > 0) {  // the communication padding is not part of the owned view
    EXPECT_EQ(yb[0], yval(global_index(d, 0)));
  }
  const auto copy = copy_buffer_to_new_vector<S>(*layout, x);
  EXPECT_NE(copy->getLocalViewHost(Tpetra::Access::ReadOnly).data(), xb);
  EXPECT_EQ(copy->getVector(0)->normInf(), whole->getVector(0)->normInf());
  EXPECT_THROW(buffer_view<Other>(*layout, x), ValidationError);  // never reinterpreted

  auto mv = Teuchos::rcp(new MultiVector<S>(layout->owned_map(), 2));
  mv->putScalar(S(1.5));
  const DistArray out = to_distarray(mv);
  EXPECT_EQ(out.buffer.format, format_of<S>());
  EXPECT_EQ(out.buffer.data, mv->getLocalViewHost(Tpetra::Access::ReadOnly).data());
  if (out.buffer.shape[0] > 0) {
    EXPECT_EQ(data_as<const S>(out)[0], S(1.5));
  }
  TpetraLayoutOptions columns;
  columns.column_axis = 1;
  EXPECT_TRUE(TpetraLayout::create(out, comm, columns)->owned_map()->isSameAs(*layout->owned_map()));
}

TEST(Views, ColumnAxisInCAndFortranOrder) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  const Dim rows = Dim::even_block(17, P, r);
  const global_index_t n = local_extent(rows), k = 3;
  // C order, shape (k, n): axis 0 is the column axis (slowest in memory).
  DistArray c = owning_array<double>({Dim::undistributed(k), rows});
  TpetraLayoutOptions opt;
  opt.column_axis = 0;
  const auto lc = TpetraLayout::create(c, comm, opt);
  const auto mvc = buffer_view<double>(*lc, c);
  EXPECT_EQ(mvc->getNumVectors(), 3u);
  EXPECT_EQ(static_cast<global_index_t>(lc->owned_map()->getGlobalNumElements()), 17);
  EXPECT_TRUE(lc->owned_map()->isContiguous());
  mvc->replaceLocalValue(0, 2, 5.0);  // row 0, column 2 -> buffer element (2, 0)
  if (n > 0) {
    EXPECT_EQ(data_as<double>(c)[2 * n], 5.0);
  }
  // Fortran order, shape (n, k): the last axis is the slowest, so the column axis.
  DistArray f = owning_array<double>({rows, Dim::undistributed(k)});
  f.buffer.strides = f_strides(f.buffer.shape, sizeof(double));
  opt.column_axis = 1;
  const auto lf = TpetraLayout::create(f, comm, opt);
  const auto mvf = buffer_view<double>(*lf, f);
  EXPECT_EQ(mvf->getStride(), static_cast<std::size_t>(n));
  mvf->replaceLocalValue(0, 1, 7.0);
  if (n > 0) {
    EXPECT_EQ(data_as<double>(f)[n], 7.0);
  }
  // A C-ordered (n, k) buffer cannot give contiguous columns along axis 1.
  DistArray bad = owning_array<double>({rows, Dim::undistributed(k)});
  EXPECT_THROW(TpetraLayout::create(bad, comm, opt), ValidationError);
}

TEST(Views, StridesThatForbidAViewAreRefusedAndCopiedOnRequest) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  const Dim d = Dim::even_block(12, P, r);
  const global_index_t n = local_extent(d);
  auto storage = std::make_shared<std::vector<double>>(static_cast<std::size_t>(2 * n + 1));
  for (global_index_t i = 0; i < n; ++i) (*storage)[2 * i] = static_cast<double>(global_index(d, i));
  DistArray a;
  a.dim_data = {d};
  a.buffer = view_buffer(storage->data(), {n}, storage);
  a.buffer.strides = {2 * static_cast<global_index_t>(sizeof(double))};  // every other double
  const auto layout = TpetraLayout::create(a, comm);
  EXPECT_FALSE(layout->buffer_viewable());
  EXPECT_THROW(buffer_view<double>(*layout, a), ValidationError);
  const auto copy = copy_buffer_to_new_vector<double>(*layout, a);
  for (global_index_t i = 0; i < n; ++i) {
    EXPECT_EQ(copy->getData(0)[i], static_cast<double>(global_index(d, i)));
  }
  copy->scale(2.0);
  copy_vector_to_buffer(*copy, *layout, a);
  for (global_index_t i = 0; i < n; ++i) {
    EXPECT_EQ((*storage)[2 * i], 2.0 * static_cast<double>(global_index(d, i)));
  }
}

TEST(Views, WrongElementTypeIsRefused) {
  const auto comm = world();
  const DistArray a = owning_array<int>({Dim::even_block(8, comm->getSize(), comm->getRank())});
  const auto layout = TpetraLayout::create(a, comm);
  EXPECT_THROW(buffer_view<double>(*layout, a), ValidationError);
  EXPECT_NO_THROW(buffer_view<int>(*layout, a));
}

TEST(Maps, BlockLayoutsUseTheContiguousConstructor) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  // 1-D with padding, and 2-D with only the slowest axis distributed.
  const auto l1 = TpetraLayout::create(std::vector<Dim>{Dim::even_block(1000, P, r, 3)}, comm);
  EXPECT_TRUE(l1->owned_map()->isContiguous());
  EXPECT_EQ(l1->buffer_map_is_owned_map(), P == 1);
  const auto l2 = TpetraLayout::create(std::vector<Dim>{Dim::even_block(50, P, r), Dim::undistributed(7)}, comm);
  EXPECT_TRUE(l2->owned_map()->isContiguous());
  EXPECT_TRUE(l2->buffer_map_is_owned_map());
  // Cyclic over several processes cannot be contiguous.
  const auto l3 = TpetraLayout::create(std::vector<Dim>{Dim::cyclic(50, P, r, 4)}, comm);
  EXPECT_EQ(l3->owned_map()->isContiguous(), P == 1);
}

// owned_map() alone gives the layout's owned map, by its row-block shortcut
// or through a whole layout, and refuses what the layout refuses, on every
// process alike.
TEST(Maps, OwnedMapAloneEqualsTheLayouts) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  // An uneven block split: rank k owns k + 1 indices more than rank 0's 2.
  const auto uneven = [&](global_index_t halo) {
    global_index_t lo = 0;
    for (int k = 0; k < r; ++k) lo += 2 + k;
    const global_index_t size = P * 2 + P * (P - 1) / 2, hi = lo + 2 + r;
    const global_index_t left = r > 0 ? halo : 0, right = r < P - 1 ? halo : 0;
    return Dim::block(size, P, r, lo - left, hi + right, {left, right});
  };
  std::vector<std::vector<Dim>> layouts;
  for (global_index_t n : {0, 1, 7, 1000})
    for (global_index_t halo : {0, 1})
      if (halo == 0 || n >= 4 * P) layouts.push_back({Dim::even_block(n, P, r, halo, halo > 0)});
  layouts.push_back({uneven(0)});
  layouts.push_back({uneven(1)});
  layouts.push_back({Dim::even_block(50, P, r, 1), Dim::undistributed(7), Dim::undistributed(3)});
  layouts.push_back({Dim::cyclic(50, P, r, 4)});                          // not a row block
  layouts.push_back({Dim::undistributed(5), Dim::even_block(40, P, r)});  // nor this
  if (P == 1) layouts.push_back({});                                       // zero-dimensional
  for (const auto& dims : layouts)
    for (GO base : {0, 1}) {
      TpetraLayoutOptions options;
      options.index_base = base;
      const auto alone = owned_map(dims, comm, base);
      const auto from_layout = TpetraLayout::create(dims, comm, options)->owned_map();
      EXPECT_TRUE(alone->isSameAs(*from_layout)) << describe(dims.empty() ? Dim{} : dims[0]) << " base " << base;
      EXPECT_EQ(alone->isContiguous(), from_layout->isContiguous());
    }
  // Mistakes are refused alike: a gap after rank 0, and a padding width only
  // one side states. Each throws on every process.
  if (P > 1) {
    Dim gap = Dim::even_block(100, P, r);
    if (r == 0) gap.stop -= 1;
    EXPECT_THROW(owned_map({gap}, comm), ValidationError);
    Dim pad = Dim::even_block(100, P, r, 1);
    if (r == 1) pad.padding[0] = 2, pad.start -= 1;
    EXPECT_THROW(owned_map({pad}, comm), ValidationError);
  }
  // A record one process finds wrong on its own (stop below start): one
  // problem, named once (not again by the gathered check), on every process.
  Dim bad = Dim::even_block(100, P, r);
  if (r == P - 1) bad.stop = bad.start - 1;
  for (const bool alone : {true, false}) {
    try {
      if (alone) owned_map({bad}, comm);
      else TpetraLayout::create(std::vector<Dim>{bad}, comm);
      ADD_FAILURE() << "stop below start was accepted";
    } catch (const ValidationError& e) {
      ASSERT_EQ(e.problems().size(), 1u) << e.what();
      EXPECT_EQ(e.problems()[0].rank, P - 1);
      EXPECT_EQ(e.problems()[0].key, "stop");
    }
  }
}

// The row-block shortcut against the whole layout on random block splits
// (padding, periodic, empty ranks, trailing whole axes), a third of them
// broken in one key on one rank: both give the same map, or both refuse, on
// every process (a process that did not would leave the others waiting).
TEST(Maps, OwnedMapAgreesWithTheLayoutOnRandomRowBlocks) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  std::mt19937_64 rng(4242);  // the same draws on every process
  const auto pick = [&](global_index_t lo, global_index_t hi) {
    return std::uniform_int_distribution<global_index_t>(lo, hi)(rng);
  };
  int refused = 0, accepted = 0;
  for (int trial = 0; trial < 150; ++trial) {
    std::vector<Dim> axis0;
    do axis0 = dapetra::testing::random_axis(rng, P, 14, false);
    while (axis0.front().dist_type != DistType::block);
    std::vector<std::vector<Dim>> all(P);
    const int trailing = static_cast<int>(pick(0, 2));
    std::vector<global_index_t> sizes;
    for (int t = 0; t < trailing; ++t) sizes.push_back(pick(0, 3));
    for (int k = 0; k < P; ++k) {
      all[k].push_back(axis0[k]);
      for (global_index_t n : sizes) all[k].push_back(Dim::undistributed(n));
    }
    if (pick(0, 2) == 0) {  // break one key on one rank
      const int victim = static_cast<int>(pick(0, P - 1));
      Dim& d = all[victim][0];
      switch (pick(0, 6)) {
        case 0: d.start += pick(0, 1) ? 1 : -1; break;
        case 1: d.stop += pick(0, 1) ? 1 : -1; break;
        case 2: d.padding[pick(0, 1)] += 1; break;
        case 3: d.periodic = !d.periodic; break;
        case 4: d.size += 1; break;
        case 5: d.proc_grid_rank = (d.proc_grid_rank + 1) % P; break;
        default:
          if (trailing > 0) all[victim][1].size += 1;
          else d.proc_grid_size += 1;
      }
    }
    const auto attempt = [&](auto&& build) -> Teuchos::RCP<const Map> {
      try {
        return build();
      } catch (const ValidationError&) {
        return Teuchos::null;
      }
    };
    const auto alone = attempt([&] { return owned_map(all[r], comm); });
    const auto whole = attempt([&] { return TpetraLayout::create(all[r], comm)->owned_map(); });
    ASSERT_EQ(alone.is_null(), whole.is_null()) << "trial " << trial << ": " << describe(all[r][0]);
    if (alone.is_null()) {
      ++refused;
      continue;
    }
    ++accepted;
    EXPECT_TRUE(alone->isSameAs(*whole)) << "trial " << trial;
  }
  EXPECT_GT(refused, 10);
  EXPECT_GT(accepted, 50);
}

TEST(Maps, UnstructuredOverlapsAndEmptyRanks) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  // Rank r holds indices r-1, r, r+1 of a ring of 2P indices, shifted by -5:
  // overlapping, negative indices, and rank P-1 holds nothing extra.
  std::vector<global_index_t> idx;
  for (int q = 0; q < 2 * P; ++q)
    if (q / 2 == r || (q + 1) / 2 == r) idx.push_back(q - 5);
  const auto layout = TpetraLayout::create(std::vector<Dim>{Dim::unstructured(2 * P, P, r, idx)}, comm);
  EXPECT_EQ(static_cast<int>(layout->owned_map()->getGlobalNumElements()), 2 * P);
  EXPECT_TRUE(layout->owned_map()->isOneToOne());
  EXPECT_EQ(compat::local_num_elements(*layout->buffer_map()), idx.size());
  for (std::size_t i = 0; i < idx.size(); ++i)
    EXPECT_EQ(layout->buffer_map()->getGlobalElement(static_cast<LO>(i)), idx[i]);
  // The lowest holder owns a shared index.
  const auto owned = layout->owned_map()->getMyGlobalIndices();
  for (std::size_t i = 0; i < owned.extent(0); ++i) {
    EXPECT_EQ(static_cast<int>((owned(i) + 5) / 2), r);
  }
}

TEST(Maps, ZeroDimensionalAndEmptyArrays) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  const auto empty = TpetraLayout::create(std::vector<Dim>{Dim::even_block(0, P, r)}, comm);
  EXPECT_EQ(empty->owned_map()->getGlobalNumElements(), 0u);
  if (P == 1) {
    const auto scalar = TpetraLayout::create(std::vector<Dim>{}, comm);
    EXPECT_EQ(scalar->owned_map()->getGlobalNumElements(), 1u);
  }
}

// This process's resident memory and its peak since the last reset, in bytes
// (Linux: /proc/self/status; writing 5 to /proc/self/clear_refs resets the peak).
std::size_t status_kib(const std::string& field) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind(field + ":", 0) == 0) return std::stoul(line.substr(field.size() + 1));
  return 0;
}
bool reset_peak_resident() { return static_cast<bool>(std::ofstream("/proc/self/clear_refs") << "5"); }

// An array one element past what a 32-bit global ordinal can number, 2^31 + 1
// elements (GIDs 0 to 2^31), on a GO = int build (Debian's Trilinos 17.0) is
// refused from its shape alone, on every process, before a map or anything
// else in proportion to the array is made: the creation's peak resident
// memory stays under 64 MiB while a process's share is 2^29 elements or
// more. (On one process its local extent is past the 32-bit local index
// first.) On a 64-bit build (Debian's 13.2 and 16.1) the same array is a
// layout like any other at 2 processes or more, also made in O(1) memory.
TEST(Faults, AnArrayPastTheGlobalOrdinalIsRefusedOnEveryProcessBeforeAnyAllocation) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  const global_index_t two31 = global_index_t{1} << 31;
  const bool go_is_32_bit = sizeof(GO) == 4;
  const std::vector<Dim> past{Dim::even_block(two31 + 1, P, r)};
  const bool can_reset = reset_peak_resident();
  const std::size_t before_kib = status_kib("VmRSS");
  int refused = 0;
  try {
    const auto layout = TpetraLayout::create(past, comm);
    EXPECT_FALSE(go_is_32_bit) << "an array past the 32-bit global ordinal was accepted";
    EXPECT_EQ(layout->owned_map()->getMaxAllGlobalIndex(), static_cast<GO>(two31));
  } catch (const ValidationError& e) {
    refused = 1;
    EXPECT_TRUE(go_is_32_bit || P == 1) << e.what();
    ASSERT_FALSE(e.problems().empty());
    EXPECT_EQ(e.problems().front().key, "size") << e.what();
    EXPECT_NE(std::string(e.what()).find(P == 1 ? "local index" : "global ordinal"), std::string::npos) << e.what();
  }
  int everywhere = 0, somewhere = 0;
  Teuchos::reduceAll<int, int>(*comm, Teuchos::REDUCE_MIN, refused, Teuchos::outArg(everywhere));
  Teuchos::reduceAll<int, int>(*comm, Teuchos::REDUCE_MAX, refused, Teuchos::outArg(somewhere));
  EXPECT_EQ(everywhere, somewhere) << "refused on some processes only";
  if (can_reset) {
    EXPECT_LT(status_kib("VmHWM") - std::min(before_kib, status_kib("VmHWM")), 64u * 1024)
        << "the creation allocated in proportion to the array";
  }
  // The largest array every build numbers is accepted everywhere, with GIDs
  // up to 2^31 - 1 (and a local extent within 32 bits on one process).
  const global_index_t largest = P == 1 ? two31 - 1 : two31;
  reset_peak_resident();
  const std::size_t before_ok_kib = status_kib("VmRSS");
  const auto fits = TpetraLayout::create(std::vector<Dim>{Dim::even_block(largest, P, r)}, comm);
  EXPECT_EQ(fits->owned_map()->getGlobalNumElements(), static_cast<Tpetra::global_size_t>(largest));
  EXPECT_EQ(fits->owned_map()->getMaxAllGlobalIndex(), static_cast<GO>(largest - 1));
  if (can_reset) {
    EXPECT_LT(status_kib("VmHWM") - std::min(before_ok_kib, status_kib("VmHWM")), 64u * 1024);
  }
}

// The finite-element layout: nodes 'u' (shared between neighbours), k values
// per node as an undistributed axis. Indices stay distributed; Tpetra's
// directory picks owners.
TEST(Maps, NodesWithValuesPerNodeAndSharedOwnerRules) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  const global_index_t nodes = 3 * P + 1, k = 2;
  std::vector<global_index_t> mine;  // a chain of nodes: rank r holds 3r .. 3r+3 (shares 3r with r-1)
  for (global_index_t g = 3 * r; g <= 3 * r + 3; ++g) mine.push_back(g);
  std::reverse(mine.begin(), mine.end());  // any order
  const std::vector<Dim> dims{Dim::unstructured(nodes, P, r, mine), Dim::undistributed(k)};
  const auto layout = TpetraLayout::create(dims, comm);
  if (P > 1) {  // the 'u' axis is distributed: its indices were not gathered
    EXPECT_EQ(mpi::adapter::gathered_records(*layout->distribution()), nullptr);
  }
  EXPECT_EQ(static_cast<global_index_t>(layout->owned_map()->getGlobalNumElements()), nodes * k);
  EXPECT_TRUE(layout->owned_map()->isOneToOne());
  // Buffer map: C order (node, value) -> flat node * k + value.
  for (std::size_t i = 0; i < mine.size(); ++i)
    for (global_index_t v = 0; v < k; ++v) {
      EXPECT_EQ(layout->buffer_map()->getGlobalElement(static_cast<LO>(i * k + v)), mine[i] * k + v);
    }
  // Lowest holder: node 3r (r > 0) belongs to r - 1.
  EXPECT_EQ(layout->owned_map()->isNodeGlobalElement(3 * r * k), r == 0);
  TpetraLayoutOptions highest;
  highest.distribution.ownership = mpi::Ownership::highest_holder();
  const auto lh = TpetraLayout::create(dims, comm, highest);
  EXPECT_EQ(lh->owned_map()->isNodeGlobalElement((3 * r + 3) * k), r == P - 1);
  EXPECT_TRUE(lh->owned_map()->isNodeGlobalElement(3 * r * k));
}

// A one_to_one flag confirmed from the summaries (no index moves) gives the
// same maps as the rendezvous over the same indices without the flag.
TEST(Maps, ConfirmedOneToOneMatchesTheGatheredCheck) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  const global_index_t n = 1000;
  std::vector<global_index_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), std::mt19937_64(7));  // same on every rank
  const std::vector<global_index_t> mine(perm.begin() + n * r / P, perm.begin() + n * (r + 1) / P);
  for (const bool with_values : {false, true}) {
    std::vector<Dim> dims{Dim::unstructured(n, P, r, mine, true)};
    if (with_values) dims.push_back(Dim::undistributed(2));
    // The same indices without the flag take the rendezvous instead of the proof.
    std::vector<Dim> not_one_to_one = dims;
    not_one_to_one[0].one_to_one = false;
    const auto fast = TpetraLayout::create(dims, comm), exact = TpetraLayout::create(not_one_to_one, comm);
    EXPECT_TRUE(fast->owned_map()->isSameAs(*exact->owned_map()));
    EXPECT_TRUE(fast->buffer_map()->isSameAs(*exact->buffer_map()));
    EXPECT_TRUE(fast->owned_map()->isOneToOne());
  }
}

// The flag is proven from the fingerprints alone, with a caller's owner rule
// too: each process owns every index it holds.
// Uneven counts per process (n prime) exercise the hash's scalar tails; a
// process holding nothing takes part too.
TEST(Maps, OneToOneClaimIsProvenWithoutMovingIndices) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  if (P < 2) GTEST_SKIP() << "an axis over one process is not scattered";
  const global_index_t n = 1009;
  std::vector<global_index_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), std::mt19937_64(11));
  // Rank 0 holds nothing; ranks 1.. split n unevenly (odd counts among them).
  std::vector<global_index_t> mine;
  if (r > 0) mine.assign(perm.begin() + n * (r - 1) / (P - 1), perm.begin() + n * r / (P - 1));
  TpetraLayoutOptions highest;
  highest.distribution.ownership = mpi::Ownership::highest_holder();
  for (const bool with_values : {false, true}) {
    std::vector<Dim> dims{Dim::unstructured(n, P, r, mine, true)};
    if (with_values) dims.push_back(Dim::undistributed(3));
    const auto layout = TpetraLayout::create(dims, comm, highest);
    for (global_index_t p = 0; p < static_cast<global_index_t>(mine.size()); ++p) {
      ASSERT_TRUE(layout->distribution()->is_owned(0, p));
    }
    EXPECT_TRUE(layout->distribution()->every_element_owned());
    EXPECT_EQ(layout->owned_map()->getGlobalNumElements(), static_cast<Tpetra::global_size_t>(n * (with_values ? 3 : 1)));
  }
}

TEST(Faults, ScatteredUnstructuredClaimsAreChecked) {
  const auto comm = world();
  const int P = comm->getSize(), r = comm->getRank();
  if (P < 2) GTEST_SKIP() << "needs two processes to overlap";
  // one_to_one set, but every rank also holds index 0.
  std::vector<global_index_t> mine{2 * r, 2 * r + 1};
  if (r > 0) mine.push_back(0);
  try {
    TpetraLayout::create(std::vector<Dim>{Dim::unstructured(2 * P, P, r, mine, true)}, comm);
    ADD_FAILURE() << "overlap not detected";
  } catch (const ValidationError& e) {
    bool named = false;
    for (const Problem& p : e.problems()) named = named || (p.key == "indices" && p.value == "0");
    EXPECT_TRUE(named) << e.what();
  }
  // size that does not match the distinct indices.
  EXPECT_THROW(TpetraLayout::create(std::vector<Dim>{Dim::unstructured(2 * P + 1, P, r, {2 * r, 2 * r + 1})}, comm),
               ValidationError);
  // The count is right (2P indices held for size 2P) but index 1 is held
  // twice and 2P - 1 by nobody: the fingerprint must not pass it, and the
  // exact check names the index. Also with a second, undistributed axis.
  std::vector<global_index_t> swapped{2 * r, 2 * r + 1};
  if (r == P - 1) swapped.back() = 1;
  for (const bool with_values : {false, true}) {
    std::vector<Dim> dims{Dim::unstructured(2 * P, P, r, swapped, true)};
    if (with_values) dims.push_back(Dim::undistributed(3));
    try {
      TpetraLayout::create(dims, comm);
      ADD_FAILURE() << "an index held twice with the count right was not detected";
    } catch (const ValidationError& e) {
      bool named = false;
      for (const Problem& p : e.problems()) named = named || (p.key == "indices" && p.value == "1");
      EXPECT_TRUE(named) << e.what();
    }
  }
  // With one_to_one set the per-index rules wait for the fingerprint;
  // when it fails they still name the fault: a repeated index on one rank
  // (count right, 2P - 1 missing), and in 2-D an index outside [0, size).
  {
    std::vector<global_index_t> repeated{2 * r, 2 * r + 1};
    if (r == P - 1) repeated.back() = 2 * r;
    const auto names = [](const ValidationError& e, const std::string& rule) {
      for (const Problem& p : e.problems())
        if (p.rule.find(rule) != std::string::npos) return true;
      return false;
    };
    try {
      TpetraLayout::create(std::vector<Dim>{Dim::unstructured(2 * P, P, r, repeated, true)}, comm);
      ADD_FAILURE() << "a locally repeated index was not detected";
    } catch (const ValidationError& e) {
      EXPECT_TRUE(names(e, "locally unique")) << e.what();
    }
    std::vector<global_index_t> outside{2 * r, 2 * r + 1};
    if (r == 0) outside.back() = 2 * P + 5;
    try {
      TpetraLayout::create(std::vector<Dim>{Dim::unstructured(2 * P, P, r, outside, true), Dim::undistributed(2)}, comm);
      ADD_FAILURE() << "an index outside [0, size) was not detected";
    } catch (const ValidationError& e) {
      EXPECT_TRUE(names(e, "lie in [0, size)")) << e.what();
    }
  }
  // a locally repeated index on one rank only.
  std::vector<global_index_t> dup{2 * r, 2 * r + 1};
  if (r == P - 1) dup.push_back(2 * r);
  EXPECT_THROW(TpetraLayout::create(std::vector<Dim>{Dim::unstructured(2 * P, P, r, dup)}, comm), ValidationError);
}
