// Redistribution: the spec's chapter-2 arrays from every listed distribution
// to every other (the results must be the spec's listed buffers exactly), and
// random pairs of layouts (each element a value of its global index, which
// elements are owned decided by the test oracle), round trips bit-exact,
// blocking and split phase.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <stdexcept>
#include <type_traits>

#include "../core/random_layout.hpp"
#include "dapetra/mpi/mpi.hpp"
#include "../common/spec_oracle.hpp"
#include "mpi_test_util.hpp"

using namespace dapetra;
using namespace dapetra::mpi;
using dapetra::testing::owning_array;
using dapetra::testing::world;

namespace {

DistArray spec_array(const nlohmann::json& rank_entry, bool with_values) {
  const std::vector<global_index_t> shape = rank_entry["buffer_shape"];
  auto values = std::make_shared<std::vector<double>>(rank_entry["buffer"].get<std::vector<double>>());
  if (!with_values) std::fill(values->begin(), values->end(), -1.0);
  DistArray a;
  a.dim_data = dim_data_from_json(rank_entry["dim_data"].dump());
  a.buffer = view_buffer(values->data(), shape, values);
  return a;
}

}  // namespace

TEST(Redistribute, SpecExamplesEachToEach) {
  const auto comm = world();
  const auto examples = dapetra::testing::spec_examples();
  std::vector<std::string> ids;  // the 5 x 9 arrays at this process count
  for (const auto& [id, ex] : examples.items())
    if (static_cast<int>(ex["ranks"].size()) == comm->size() && ex["ranks"][0]["dim_data"].size() == 2 &&
        ex["ranks"][0]["dim_data"][0]["size"] == 5 && ex["ranks"][0]["dim_data"][1]["size"] == 9)
      ids.push_back(id);
  if (comm->size() == 4) {
    EXPECT_EQ(ids.size(), 6u);  // 2.6 - 2.11
  }
  if (comm->size() == 3) {
    EXPECT_EQ(ids.size(), 2u);  // 2.4, 2.5
  }
  for (const auto& from : ids)
    for (const auto& to : ids) {
      const auto& fr = examples[from]["ranks"][comm->rank()];
      const auto& tr = examples[to]["ranks"][comm->rank()];
      const DistArray src = spec_array(fr, true), dst = spec_array(tr, false);
      const auto plan = RedistributionPlan::create(DistributedLayout::create(src, comm),
                                                   DistributedLayout::create(dst, comm));
      plan->apply<double>(src, dst);
      const auto listed = tr["buffer"].get<std::vector<double>>();
      const double* got = data_as<const double>(dst);
      for (std::size_t i = 0; i < listed.size(); ++i)
        EXPECT_EQ(got[i], listed[i]) << from << " -> " << to << " element " << i;
    }
}

TEST(Redistribute, GatherToOneAndScatterBack) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  const global_index_t n = 23;
  const Dim spread = Dim::cyclic(n, P, r, 3);
  const Dim one = Dim::block(n, P, r, r == 0 ? 0 : n, n);  // rank 0 holds everything
  const DistArray a = owning_array<double>({spread}), b = owning_array<double>({one}, -1.0);
  for (global_index_t i = 0; i < local_extent(spread); ++i) data_as<double>(a)[i] = static_cast<double>(global_index(spread, i));
  const auto plan = RedistributionPlan::create(DistributedLayout::create(a, comm), DistributedLayout::create(b, comm));
  plan->apply<double>(a, b);
  if (r == 0) {
    for (global_index_t g = 0; g < n; ++g) EXPECT_EQ(data_as<double>(b)[g], static_cast<double>(g));
  }
  std::fill(data_as<double>(a), data_as<double>(a) + local_extent(spread), 0.0);
  plan->apply_reverse<double>(b, a);
  for (global_index_t i = 0; i < local_extent(spread); ++i)
    EXPECT_EQ(data_as<double>(a)[i], static_cast<double>(global_index(spread, i)));
}

TEST(Redistribute, RandomPairsRoundTripBitExact) {
  const auto comm = world();
  dapetra::testing::RandomLayouts draws(4242, comm->size());  // the same layouts on every rank
  SCOPED_TRACE(draws.seed.replay);
  draws.options.sparse_1d_indices = false;
  std::size_t moved = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const LayoutRecords ls = draws.next();
    std::vector<global_index_t> sizes;
    if (!ls.ranks[0].dim_data.empty())
      for (const Dim& d : ls.ranks[0].dim_data) sizes.push_back(d.size);
    const LayoutRecords lt = draws.next(&sizes);
    const auto& ds = ls.ranks[comm->rank()].dim_data;
    const auto& dt = lt.ranks[comm->rank()].dim_data;
    DistArray s = owning_array<double>(ds, -7.0), t = owning_array<double>(dt, -5.0), back = owning_array<double>(ds, -3.0);
    // Column-major buffers too (the plan walks axes in the source's memory order).
    const bool fortran_source = trial % 3 == 1, fortran_target = trial % 4 == 2;
    if (fortran_source) s.buffer.strides = back.buffer.strides = f_strides(s.buffer.shape, sizeof(double));
    if (fortran_target) t.buffer.strides = f_strides(t.buffer.shape, sizeof(double));
    const auto flat_s = dapetra::testing::global_flat_indices(ds);
    const auto flat_t = dapetra::testing::global_flat_indices(dt);
    const auto value = [](global_index_t g) { return 0.125 + static_cast<double>(g) * 1.5; };
    const auto sl = DistributedLayout::create(s, comm), tl = DistributedLayout::create(t, comm);
    // Ownership from the test oracle, not from the layouts under test.
    const auto owned = [&](const LayoutRecords& l, const std::vector<Dim>& dims, std::size_t flat) {
      const auto shape = local_shape_of(dims);
      std::vector<global_index_t> at(dims.size());
      for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
        at[static_cast<std::size_t>(d)] = static_cast<global_index_t>(flat) % shape[d];
        flat /= static_cast<std::size_t>(shape[d]);
      }
      return dapetra::testing::oracle::owns_element(l, comm->rank(), at);
    };
    // Element i in local C order sits at this offset (in doubles) in a buffer.
    const auto at = [](const DistArray& a, std::size_t i) {
      global_index_t off = 0;
      for (int d = static_cast<int>(a.buffer.shape.size()) - 1; d >= 0; --d) {
        off += static_cast<global_index_t>(i % static_cast<std::size_t>(a.buffer.shape[d])) * a.buffer.strides[d] / 8;
        i /= static_cast<std::size_t>(a.buffer.shape[d]);
      }
      return off;
    };
    double* sb = data_as<double>(s);
    for (std::size_t i = 0; i < flat_s.size(); ++i)
      if (owned(ls, ds, i)) sb[at(s, i)] = value(flat_s[i]);
    const auto plan = RedistributionPlan::create(sl, tl);
    if (trial % 2 == 0) {
      plan->apply<double>(s, t);
      plan->apply_reverse<double>(t, back);
    } else {  // the split phases, with a second call in flight beside the first
      PlanExchange forward, reverse;
      plan->begin_apply<double>(s, t, forward);
      EXPECT_THROW(plan->begin_apply<double>(s, t, forward), std::logic_error);
      EXPECT_THROW(plan->end_apply_reverse<double>(s, t, forward), std::logic_error);  // not this call
      plan->end_apply<double>(s, t, forward);
      plan->begin_apply_reverse<double>(t, back, reverse);
      plan->end_apply_reverse<double>(t, back, reverse);
    }
    const double* tb = data_as<const double>(t);
    const double* bb = data_as<const double>(back);
    for (std::size_t i = 0; i < flat_t.size(); ++i) {
      ASSERT_EQ(tb[at(t, i)], owned(lt, dt, i) ? value(flat_t[i]) : -5.0) << "trial " << trial << " target element " << i;
    }
    for (std::size_t i = 0; i < flat_s.size(); ++i) {
      ASSERT_EQ(bb[at(back, i)], owned(ls, ds, i) ? value(flat_s[i]) : -3.0) << "trial " << trial << " round trip element " << i;
    }
    moved += plan->num_sent() + plan->num_local();
  }
  EXPECT_GT(moved, 100u);
}

TEST(Redistribute, FillTargetPaddingOnRequest) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  const Dim from = Dim::cyclic(30, P, r, 2), to = Dim::even_block(30, P, r, 2);
  const DistArray a = owning_array<double>({from}), b = owning_array<double>({to}, -1.0);
  for (global_index_t i = 0; i < local_extent(from); ++i) data_as<double>(a)[i] = static_cast<double>(global_index(from, i));
  RedistributionOptions opt;
  opt.fill_target_padding = true;
  const auto plan = RedistributionPlan::create(DistributedLayout::create(a, comm), DistributedLayout::create(b, comm), opt);
  plan->apply<double>(a, b);
  for (global_index_t i = 0; i < local_extent(to); ++i)
    EXPECT_EQ(data_as<double>(b)[i], static_cast<double>(global_index(to, i)));  // padding included
}

// Plans move memory, so they carry every element type the core knows: a
// 2-D block-cyclic -> padded block redistribution (target padding filled)
// and back, bit-exact, in float and complex.
template <class T>
class RedistributeTyped : public ::testing::Test {};
using MovedTypes = ::testing::Types<float, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(RedistributeTyped, MovedTypes);

TYPED_TEST(RedistributeTyped, RoundTripAndPaddingFill) {
  using T = TypeParam;
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  const std::vector<Dim> from{Dim::cyclic(11, P, r, 2), Dim::undistributed(3)};
  const std::vector<Dim> to{Dim::even_block(11, P, r, 1), Dim::undistributed(3)};
  const auto value = [](global_index_t g, global_index_t j) {
    const double re = static_cast<double>(10 * g + j);
    if constexpr (std::is_same_v<T, float>) return static_cast<T>(re);
    else return T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(0.5 * re));
  };
  DistArray a = owning_array<T>(from), b = owning_array<T>(to, T(-1)), back = owning_array<T>(from);
  for (global_index_t i = 0; i < local_extent(from[0]); ++i)
    for (global_index_t j = 0; j < 3; ++j) data_as<T>(a)[i * 3 + j] = value(global_index(from[0], i), j);
  RedistributionOptions opt;
  opt.fill_target_padding = true;
  const auto plan = RedistributionPlan::create(DistributedLayout::create(a, comm), DistributedLayout::create(b, comm), opt);
  plan->template apply<T>(a, b);
  for (global_index_t i = 0; i < local_extent(to[0]); ++i)
    for (global_index_t j = 0; j < 3; ++j)
      EXPECT_EQ(data_as<T>(b)[i * 3 + j], value(global_index(to[0], i), j)) << "position " << i << ", " << j;
  plan->template apply_reverse<T>(b, back);
  for (global_index_t i = 0; i < local_extent(from[0]) * 3; ++i) EXPECT_EQ(data_as<T>(back)[i], data_as<T>(a)[i]);
}

// Section 2.12 (5 x 9 x 3 over a 2 x 2 x 2 grid, 8 processes): scatter the
// whole array from rank 0 into the spec's distribution, and gather it back.
TEST(Redistribute, SpecExample2_12FromAndToOneProcess) {
  const auto comm = world();
  if (comm->size() != 8) GTEST_SKIP() << "section 2.12 runs on 8 processes";
  const int r = comm->rank();
  const nlohmann::json examples = dapetra::testing::spec_examples();
  const nlohmann::json& entry = examples["2.12"]["ranks"][r];
  const DistArray spec = spec_array(entry, false);
  // Rank 0 holds the whole array on a 2 x 2 x 2 grid of 'b' records (others empty).
  const std::vector<int> c = ProcessGrid({2, 2, 2}).coords_of(r);
  const std::vector<global_index_t> sizes{5, 9, 3};
  std::vector<Dim> all;
  for (int d = 0; d < 3; ++d) all.push_back(Dim::block(sizes[d], 2, c[d], c[d] == 0 ? 0 : sizes[d], sizes[d]));
  const DistArray whole = owning_array<double>(all);
  double* w = data_as<double>(whole);
  for (global_index_t i = 0; i < whole.buffer.num_elements(); ++i) w[i] = static_cast<double>(i);  // rank 0: flat index
  const auto plan = RedistributionPlan::create(DistributedLayout::create(whole, comm), DistributedLayout::create(spec, comm));
  plan->apply<double>(whole, spec);
  const auto listed = entry["buffer"].get<std::vector<double>>();
  for (std::size_t i = 0; i < listed.size(); ++i) EXPECT_EQ(data_as<const double>(spec)[i], listed[i]) << "element " << i;
  std::fill(w, w + whole.buffer.num_elements(), -1.0);
  plan->apply_reverse<double>(spec, whole);
  for (global_index_t i = 0; i < whole.buffer.num_elements(); ++i) EXPECT_EQ(w[i], static_cast<double>(i));
}

// A 'u' layout whose indices stay on their processes (the finite-element
// case: nodes with copies, a few values per node) against blocks, cyclic
// blocks and one process holding everything, both ways, with and without the
// copies filled; the plan learns the 'u' owners from an all-to-all, not from
// a gather. Owners here are worked out by the test (the lowest holder), and
// each value names its element.
TEST(Redistribute, ScatteredUnstructuredNodesAgainstClosedFormLayouts) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  const global_index_t n = 97, width = 3;
  // Index g is held by g % P, and also by (3g + 1) % P when g % 4 == 0 (a copy
  // when that is another rank). Held in decreasing order, to show order is free.
  const auto holders = [&](global_index_t g) {
    std::vector<int> h{static_cast<int>(g % P)};
    if (g % 4 == 0) h.push_back(static_cast<int>((3 * g + 1) % P));
    return h;
  };
  std::vector<global_index_t> held;
  for (global_index_t g = n - 1; g >= 0; --g) {
    const auto h = holders(g);
    if (std::find(h.begin(), h.end(), r) != h.end()) held.push_back(g);
  }
  const auto owner = [&](global_index_t g) {
    const auto h = holders(g);
    return *std::min_element(h.begin(), h.end());
  };
  const auto value = [](global_index_t g, global_index_t j) { return static_cast<double>(100 * g + j); };
  const std::vector<Dim> nodes{Dim::unstructured(n, P, r, held, false), Dim::undistributed(width)};
  const std::vector<std::pair<const char*, Dim>> sources{{"even blocks", Dim::even_block(n, P, r)},
                                                         {"cyclic blocks of 5", Dim::cyclic(n, P, r, 5)},
                                                         {"all on rank 0", Dim::block(n, P, r, r == 0 ? 0 : n, n)}};
  for (const auto& [name, source_dim] : sources)
    for (bool fill_copies : {false, true}) {
      const std::vector<Dim> from{source_dim, Dim::undistributed(width)};
      const DistArray a = owning_array<double>(from), u = owning_array<double>(nodes, -5.0), back = owning_array<double>(from, -3.0);
      for (global_index_t i = 0; i < local_extent(source_dim); ++i)
        for (global_index_t j = 0; j < width; ++j) data_as<double>(a)[i * width + j] = value(global_index(source_dim, i), j);
      RedistributionOptions opt;
      opt.fill_target_padding = fill_copies;
      const auto plan =
          RedistributionPlan::create(DistributedLayout::create(a, comm), DistributedLayout::create(u, comm), opt);
      plan->apply<double>(a, u);
      for (std::size_t i = 0; i < held.size(); ++i)
        for (global_index_t j = 0; j < width; ++j)
          ASSERT_EQ(data_as<double>(u)[static_cast<global_index_t>(i) * width + j],
                    owner(held[i]) == r || fill_copies ? value(held[i], j) : -5.0)
              << name << (fill_copies ? ", copies filled" : "") << ": index " << held[i];
      plan->apply_reverse<double>(u, back);
      for (global_index_t i = 0; i < local_extent(source_dim) * width; ++i)
        ASSERT_EQ(data_as<double>(back)[i], data_as<double>(a)[i]) << name << ": round trip element " << i;
    }
}

// One buffer as both source and target (the blocks of a 1-D array handed
// round in reverse rank order, so every element changes process): the
// result is the same as with two buffers, although contiguous messages
// would otherwise be sent from and received into the arrays themselves.
TEST(Redistribute, OverlappingBuffersGiveWhatSeparateOnesGive) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  const global_index_t per = 5000, n = per * P;  // 40 KB: rendezvous messages, read where they lie
  const int mirror = P - 1 - r;
  std::vector<global_index_t> theirs(static_cast<std::size_t>(per));
  for (global_index_t k = 0; k < per; ++k) theirs[static_cast<std::size_t>(k)] = mirror * per + k;
  const Dim from_dim = Dim::even_block(n, P, r);
  const Dim to_dim = Dim::unstructured(n, P, r, theirs, true);
  DistArray from = owning_array<double>({from_dim});
  for (global_index_t i = 0; i < per; ++i) data_as<double>(from)[i] = 0.25 + static_cast<double>(r * per + i);
  const auto plan = RedistributionPlan::create(DistributedLayout::create(from, comm), DistributedLayout::create(std::vector<Dim>{to_dim}, comm));
  DistArray apart = owning_array<double>({to_dim}, -1.0);
  plan->apply<double>(from, apart);
  DistArray same = from;  // the same memory, seen with the target's records
  same.dim_data = {to_dim};
  plan->apply<double>(from, same);
  for (global_index_t i = 0; i < per; ++i) {
    EXPECT_EQ(data_as<double>(apart)[i], 0.25 + static_cast<double>(theirs[static_cast<std::size_t>(i)])) << i;
    EXPECT_EQ(data_as<double>(same)[i], data_as<double>(apart)[i]) << i;
  }
}
