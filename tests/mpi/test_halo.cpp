// Halo exchange and assembly, checked against serial computations: stencil
// steps bit-identical to a single-process run, every padding element written
// with its owner's value, owned and boundary elements never touched, and
// exact integer assembly on an unstructured partition.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <type_traits>
#include <functional>
#include <limits>

#include "dapetra/mpi/mpi.hpp"
#include "mpi_test_util.hpp"

using namespace dapetra;
using namespace dapetra::mpi;
using dapetra::testing::owning_array;
using dapetra::testing::world;

namespace {

// Grid shape for `nprocs` over `ndim` axes (largest factors first, like MPI_Dims_create).
std::vector<int> grid_shape(int nprocs, int ndim) {
  std::vector<int> shape(ndim, 1);
  int rest = nprocs;
  for (int f = 2; rest > 1; ++f)
    while (rest % f == 0) {
      *std::min_element(shape.begin(), shape.end()) *= f;
      rest /= f;
    }
  return shape;
}

// A 'b' record with per-boundary widths: comm[k] is the width shared by grid
// ranks k-1 and k (k = 1 .. P-1); the edges carry boundary widths edge[0], edge[1].
Dim padded(global_index_t size, int P, int k, const std::vector<global_index_t>& comm, std::array<global_index_t, 2> edge,
           bool periodic) {
  const global_index_t lo = size * k / P, hi = size * (k + 1) / P;
  const global_index_t left = k == 0 ? edge[0] : comm[k], right = k == P - 1 ? edge[1] : comm[k + 1];
  return Dim::block(size, P, k, k == 0 ? lo : lo - left, k == P - 1 ? hi : hi + right, {left, right}, periodic);
}

// dims for this rank: every axis even, halo w, optionally periodic.
std::vector<Dim> even_dims(const std::vector<global_index_t>& sizes, global_index_t w, bool periodic) {
  const auto comm = world();
  const auto shape = grid_shape(comm->size(), static_cast<int>(sizes.size()));
  const auto coords = ProcessGrid(shape).coords_of(comm->rank());
  std::vector<Dim> dims;
  for (std::size_t a = 0; a < sizes.size(); ++a) {
    std::vector<global_index_t> cw(shape[a] + 1, w);
    dims.push_back(padded(sizes[a], shape[a], coords[a], cw, {w, w}, periodic));
  }
  return dims;
}

// Visits every local element (C order) with its local and global multi-index.
void for_each_local(const std::vector<Dim>& dims,
                    const std::function<void(global_index_t, const std::vector<global_index_t>&,
                                             const std::vector<global_index_t>&)>& f) {
  const auto shape = local_shape_of(dims);
  global_index_t n = 1;
  for (auto s : shape) n *= s;
  std::vector<global_index_t> loc(dims.size()), glob(dims.size());
  for (global_index_t flat = 0; flat < n; ++flat) {
    global_index_t rest = flat;
    for (int d = static_cast<int>(dims.size()) - 1; d >= 0; --d) {
      loc[d] = rest % shape[d];
      glob[d] = global_index(dims[d], loc[d]);
      rest /= shape[d];
    }
    f(flat, loc, glob);
  }
}

global_index_t flat_of(const std::vector<global_index_t>& g, const std::vector<global_index_t>& sizes) {
  global_index_t f = 0;
  for (std::size_t d = 0; d < g.size(); ++d) f = f * sizes[d] + g[d];
  return f;
}

// The stencil: all 3^d neighbours (box) or only the 2d face neighbours (star).
std::vector<std::vector<int>> stencil(int ndim, bool box) {
  std::vector<std::vector<int>> out;
  const int n = static_cast<int>(std::pow(3, ndim));
  for (int c = 0; c < n; ++c) {
    std::vector<int> off(ndim);
    int rest = c, nonzero = 0;
    for (int d = 0; d < ndim; ++d) {
      off[d] = rest % 3 - 1;
      rest /= 3;
      nonzero += off[d] != 0;
    }
    if (nonzero > 0 && (box || nonzero == 1)) out.push_back(off);
  }
  return out;
}

// One explicit heat step on the interior [1, size-1) of every axis; boundary
// cells (width 1) are fixed, or on periodic axes refilled from the opposite end.
std::vector<double> serial_steps(std::vector<double> u, const std::vector<global_index_t>& sizes, bool periodic, bool box,
                                 int steps) {
  const int nd = static_cast<int>(sizes.size());
  const auto st = stencil(nd, box);
  const double c = 0.5 / static_cast<double>(st.size());
  global_index_t n = 1;
  for (auto s : sizes) n *= s;
  std::vector<global_index_t> g(nd);
  const auto unflat = [&](global_index_t f) {
    for (int d = nd - 1; d >= 0; --d) {
      g[d] = f % sizes[d];
      f /= sizes[d];
    }
  };
  for (int s = 0; s < steps; ++s) {
    if (periodic)  // edge cells take the opposite interior cell, period size - 2
      for (global_index_t f = 0; f < n; ++f) {
        unflat(f);
        std::vector<global_index_t> src = g;
        bool edge = false;
        for (int d = 0; d < nd; ++d) {
          if (g[d] == 0) src[d] = sizes[d] - 2, edge = true;
          if (g[d] == sizes[d] - 1) src[d] = 1, edge = true;
        }
        if (edge) u[f] = u[flat_of(src, sizes)];
      }
    std::vector<double> next = u;
    for (global_index_t f = 0; f < n; ++f) {
      unflat(f);
      bool interior = true;
      for (int d = 0; d < nd; ++d) interior = interior && g[d] > 0 && g[d] < sizes[d] - 1;
      if (!interior) continue;
      double sum = 0;
      for (const auto& off : st) {
        std::vector<global_index_t> h = g;
        for (int d = 0; d < nd; ++d) h[d] += off[d];
        sum += u[flat_of(h, sizes)];
      }
      next[f] = u[f] + c * (sum - static_cast<double>(st.size()) * u[f]);
    }
    u.swap(next);
  }
  return u;
}

double initial(const std::vector<global_index_t>& g) {
  double v = 0.25;
  for (std::size_t d = 0; d < g.size(); ++d) v += std::sin(0.7 * static_cast<double>(g[d]) + 0.3 * static_cast<double>(d));
  return v;
}

void run_heat(const std::vector<global_index_t>& sizes, bool periodic, bool box) {
  const auto comm = world();
  const auto dims = even_dims(sizes, 1, periodic);
  DistArray u = owning_array<double>(dims), next = owning_array<double>(dims);
  const auto layout = DistributedLayout::create(u, comm);
  const auto plan = HaloPlan::create(layout);
  global_index_t n = 1;
  for (auto s : sizes) n *= s;
  std::vector<double> global_u(static_cast<std::size_t>(n));
  std::vector<global_index_t> g(sizes.size());
  for (global_index_t f = 0; f < n; ++f) {
    global_index_t rest = f;
    for (int d = static_cast<int>(sizes.size()) - 1; d >= 0; --d) {
      g[d] = rest % sizes[d];
      rest /= sizes[d];
    }
    global_u[f] = initial(g);
  }
  double* ub = data_as<double>(u);
  for_each_local(dims, [&](global_index_t i, const auto&, const auto& gl) { ub[i] = global_u[flat_of(gl, sizes)]; });

  const int nd = static_cast<int>(sizes.size());
  const auto st = stencil(nd, box);
  const double c = 0.5 / static_cast<double>(st.size());
  const auto shape = local_shape_of(dims);
  std::vector<global_index_t> lstride(nd, 1);
  for (int d = nd - 2; d >= 0; --d) lstride[d] = lstride[d + 1] * shape[d + 1];
  const int steps = 4;
  for (int s = 0; s < steps; ++s) {
    plan->update<double>(u);
    double* a = data_as<double>(u);
    double* b = data_as<double>(next);
    for_each_local(dims, [&](global_index_t i, const auto& loc, const auto& gl) {
      b[i] = a[i];
      bool interior = true, owned = true;
      for (int d = 0; d < nd; ++d) {
        interior = interior && gl[d] > 0 && gl[d] < sizes[d] - 1;
        owned = owned && layout->is_owned(d, loc[d]);
      }
      if (!interior || !owned) return;
      double sum = 0;
      for (const auto& off : st) {
        global_index_t j = i;
        for (int d = 0; d < nd; ++d) j += off[d] * lstride[d];
        sum += a[j];
      }
      b[i] = a[i] + c * (sum - static_cast<double>(st.size()) * a[i]);
    });
    std::swap(u, next);
  }
  const auto reference = serial_steps(global_u, sizes, periodic, box, steps);
  const double* a = data_as<double>(u);
  std::size_t checked = 0;
  for_each_local(dims, [&](global_index_t i, const auto& loc, const auto& gl) {
    bool owned = true, interior = true;
    for (int d = 0; d < nd; ++d) {
      owned = owned && layout->is_owned(d, loc[d]);
      interior = interior && gl[d] > 0 && gl[d] < sizes[d] - 1;
    }
    if (!owned || (periodic && !interior)) return;  // periodic edges are refilled lazily in the distributed run
    ++checked;
    EXPECT_EQ(a[i], reference[flat_of(gl, sizes)]) << "element " << flat_of(gl, sizes);
  });
  EXPECT_GT(checked, 0u);
}

}  // namespace

TEST(Heat, TwoDimensionsFivePoint) { run_heat({13, 11}, false, false); }
TEST(Heat, TwoDimensionsNinePoint) { run_heat({13, 11}, false, true); }
TEST(Heat, TwoDimensionsNinePointPeriodic) { run_heat({12, 10}, true, true); }
TEST(Heat, TwoDimensionsFivePointPeriodic) { run_heat({9, 14}, true, false); }
TEST(Heat, ThreeDimensionsSevenPoint) { run_heat({7, 6, 8}, false, false); }
TEST(Heat, ThreeDimensionsTwentySevenPointPeriodic) { run_heat({8, 7, 6}, true, true); }

// Unequal widths per boundary, corners included: every padding element gets
// its owner's value; owned and boundary elements keep theirs.
// A periodic axis whose first grid rank owns nothing but its edge padding:
// the second grid rank's copy of an edge index is filled from the opposite
// end too, by a process that is neither its neighbour nor an edge (the plan
// finds those senders by walking in from each end; with neighbours and edges
// alone this update waited forever). Size 37 over 4, owned [0,2) [2,7)
// [7,35) [35,37), edge widths 2 and 1: the copy of index 1 on grid rank 1
// comes from 35, on grid rank 3; index 36 on grid rank 3 from 2, on grid rank 1.
TEST(Halo, CopiesOfAPeriodicEdgeAwayFromTheEdgeAreFilledFromTheOppositeEnd) {
  if (world()->size() != 4) GTEST_SKIP() << "the layout is one of 4 processes";
  const int r = world()->rank();
  const std::array<Dim, 4> records{Dim::block(37, 4, 0, 0, 3, {2, 1}, true), Dim::block(37, 4, 1, 1, 8, {1, 1}, true),
                                   Dim::block(37, 4, 2, 6, 36, {1, 1}, true), Dim::block(37, 4, 3, 34, 37, {1, 1}, true)};
  const Dim& mine = records[static_cast<std::size_t>(r)];
  DistArray a = owning_array<double>({mine});
  const auto layout = DistributedLayout::create(a, world());
  const auto value = [](global_index_t g) { return 10.0 * static_cast<double>(g) + 1; };
  const auto source = [](global_index_t g) { return g < 2 ? g + 34 : g >= 36 ? g - 34 : g; };  // period 37 - 2 - 1
  double* v = data_as<double>(a);
  for (global_index_t i = 0; i < local_extent(mine); ++i) v[i] = layout->is_owned(0, i) ? value(mine.start + i) : -1.0;
  HaloPlan::create(layout)->update<double>(a);
  for (global_index_t i = 0; i < local_extent(mine); ++i)
    EXPECT_EQ(v[i], value(source(mine.start + i))) << "rank " << r << ", global index " << mine.start + i;
}

TEST(Halo, UnequalWidthsFillEveryPaddingElementAndNothingElse) {
  const auto comm = world();
  const std::vector<global_index_t> sizes{17, 15};
  const auto shape = grid_shape(comm->size(), 2);
  const auto coords = ProcessGrid(shape).coords_of(comm->rank());
  std::vector<Dim> dims;
  for (int a = 0; a < 2; ++a) {
    std::vector<global_index_t> cw(shape[a] + 1);
    for (int k = 1; k < shape[a]; ++k) cw[k] = 1 + (k + a) % 2;  // 1 or 2, differing per boundary
    dims.push_back(padded(sizes[a], shape[a], coords[a], cw, {a == 0 ? 2 : 0, 1}, false));
  }
  DistArray x = owning_array<double>(dims);
  const auto layout = DistributedLayout::create(x, comm);
  const auto plan = HaloPlan::create(layout);
  const double sentinel = -12345.0;
  double* xb = data_as<double>(x);
  for_each_local(dims, [&](global_index_t i, const auto& loc, const auto& gl) {
    const bool owned = layout->is_owned(0, loc[0]) && layout->is_owned(1, loc[1]);
    xb[i] = owned ? static_cast<double>(flat_of(gl, sizes)) : sentinel;
  });
  plan->update<double>(x);
  std::size_t written = 0;
  for_each_local(dims, [&](global_index_t i, const auto& loc, const auto& gl) {
    EXPECT_EQ(xb[i], static_cast<double>(flat_of(gl, sizes))) << "local " << loc[0] << "," << loc[1];
    written += !(layout->is_owned(0, loc[0]) && layout->is_owned(1, loc[1]));
  });
  EXPECT_EQ(written, plan->num_ghosts());
  // What all processes send, all receive; and a process receives at most
  // the ghosts it writes (the rest are copies of its own elements).
  unsigned long long counts[2] = {plan->num_sent(), plan->num_received()}, totals[2] = {0, 0};
  MPI_Allreduce(counts, totals, 2, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(totals[0], totals[1]);
  EXPECT_LE(plan->num_received(), plan->num_ghosts());
  if (comm->size() > 1) {
    EXPECT_GT(totals[0], 0u);
  }
}

TEST(Halo, WidthEqualToTheNeighboursOwnedCountWorksAndWiderIsRefused) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  if (P < 2) GTEST_SKIP() << "needs a neighbour";
  const global_index_t per = 3, size = per * P;
  std::vector<global_index_t> cw(P + 1, per);
  const Dim d = padded(size, P, r, cw, {0, 0}, false);
  DistArray x = owning_array<double>({d});
  const auto plan = HaloPlan::create(DistributedLayout::create(x, comm));
  double* xb = data_as<double>(x);
  for (global_index_t i = 0; i < local_extent(d); ++i)
    xb[i] = padding_kind(d, i) == PaddingKind::none ? static_cast<double>(global_index(d, i)) : -1.0;
  plan->update<double>(x);
  for (global_index_t i = 0; i < local_extent(d); ++i) EXPECT_EQ(xb[i], static_cast<double>(global_index(d, i)));
  std::vector<global_index_t> too_wide(P + 1, per + 1);
  const Dim bad = padded(size, P, r, too_wide, {0, 0}, false);
  EXPECT_THROW(DistributedLayout::create(std::vector<Dim>{bad}, comm), ValidationError);
}

TEST(Halo, SplitPhaseEqualsUpdateAndPeriodicWrapOnOneAxis) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  // 1-D periodic, halo 2: left pad g takes g + M, right pad g - M, M = size - 4.
  const Dim d = Dim::even_block(20, P, r, 2, true);
  DistArray x = owning_array<double>({d});
  const auto plan = HaloPlan::create(DistributedLayout::create(x, comm));
  double* xb = data_as<double>(x);
  const auto interior_value = [](global_index_t g) { return 100.0 + static_cast<double>(g); };
  for (global_index_t i = 0; i < local_extent(d); ++i) {
    const global_index_t g = global_index(d, i);
    xb[i] = padding_kind(d, i) == PaddingKind::none ? interior_value(g) : -1.0;
  }
  PlanExchange exchange;
  plan->begin_update<double>(x, exchange);
  EXPECT_THROW(plan->begin_update<double>(x, exchange), std::logic_error);
  plan->end_update<double>(x, exchange);
  EXPECT_THROW(plan->end_update<double>(x, exchange), std::logic_error);
  const global_index_t M = 16;
  for (global_index_t i = 0; i < local_extent(d); ++i) {
    const global_index_t g = global_index(d, i);
    const global_index_t src = g < 2 ? g + M : g >= 18 ? g - M : g;
    EXPECT_EQ(xb[i], interior_value(src)) << "global " << g;
  }
}

// The split-phase contract (halo.hpp): between begin_update and end_update
// the caller reads every owned element and writes the interior away from the
// halo, while the messages (sent from and received into the array itself:
// a halo 6 wide is 48 bytes) travel. The ghosts get the values sent at
// begin_update; the interior keeps what the caller wrote.
TEST(Halo, SplitPhaseLeavesTheInteriorToTheCaller) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  const global_index_t w = 6, n = 30 * P;
  const Dim d = Dim::even_block(n, P, r, w, true);
  DistArray x = owning_array<double>({d});
  const auto plan = HaloPlan::create(DistributedLayout::create(x, comm));
  double* xb = data_as<double>(x);
  const global_index_t M = n - 2 * w;  // the periodic wrap
  const auto value = [](global_index_t g) { return 0.5 + static_cast<double>(g); };
  for (int step = 0; step < 3; ++step) {
    for (global_index_t i = 0; i < local_extent(d); ++i)
      xb[i] = padding_kind(d, i) == PaddingKind::none ? value(global_index(d, i)) * (step + 1) : -1.0;
    PlanExchange exchange;
    plan->begin_update<double>(x, exchange);
    // Interior: owned positions at least w from either end of the buffer's
    // owned part; they are neither sent nor filled.
    double owned_sum = 0.0;
    for (global_index_t i = w; i < local_extent(d) - w; ++i) owned_sum += xb[i];
    for (global_index_t i = 2 * w; i < local_extent(d) - 2 * w; ++i) xb[i] = -static_cast<double>(i);
    plan->end_update<double>(x, exchange);
    double expected_sum = 0.0;
    for (global_index_t i = w; i < local_extent(d) - w; ++i) expected_sum += value(global_index(d, i)) * (step + 1);
    EXPECT_EQ(owned_sum, expected_sum) << "owned values read in flight";
    for (global_index_t i = 0; i < local_extent(d); ++i) {
      const global_index_t g = global_index(d, i);
      const global_index_t src = g < w ? g + M : g >= n - w ? g - M : g;
      const bool interior = i >= 2 * w && i < local_extent(d) - 2 * w;
      EXPECT_EQ(xb[i], interior ? -static_cast<double>(i) : value(src) * (step + 1)) << "position " << i << " step " << step;
    }
  }
}

// Several vectors in one buffer: a periodic padded 1-D block with a column
// axis, in a C-ordered buffer (columns slowest, axis 0) and a Fortran-ordered
// one (columns are then the last axis). Every column's padding takes its own
// column's source value; ranks may differ in memory order.
TEST(Halo, ColumnAxisUpdatesEveryColumn) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  const global_index_t ncols = 3, w = 2;
  const Dim d = Dim::even_block(17, P, r, w, true);
  const global_index_t M = 17 - 2 * w;
  for (const bool fortran : {false, true}) {
    const std::vector<Dim> dims = fortran ? std::vector<Dim>{d, Dim::undistributed(ncols)}
                                          : std::vector<Dim>{Dim::undistributed(ncols), d};
    const int col = fortran ? 1 : 0, ax = 1 - col;
    DistArray x = owning_array<double>(dims);
    if (fortran) x.buffer.strides = f_strides(x.buffer.shape, sizeof(double));
    (void)col;  // the undistributed axis is an ordinary axis of the plan
    const auto plan = HaloPlan::create(DistributedLayout::create(x, comm));
    double* xb = data_as<double>(x);
    const auto at = [&](global_index_t i, global_index_t j) -> double& {
      global_index_t pos[2];
      pos[ax] = i;
      pos[col] = j;
      return xb[(pos[0] * x.buffer.strides[0] + pos[1] * x.buffer.strides[1]) / static_cast<global_index_t>(sizeof(double))];
    };
    const auto value = [](global_index_t g, global_index_t j) { return 1000.0 * static_cast<double>(j) + static_cast<double>(g); };
    for (global_index_t i = 0; i < local_extent(d); ++i)
      for (global_index_t j = 0; j < ncols; ++j)
        at(i, j) = padding_kind(d, i) == PaddingKind::none ? value(global_index(d, i), j) : -1.0;
    plan->update<double>(x);
    for (global_index_t i = 0; i < local_extent(d); ++i) {
      const global_index_t g = global_index(d, i);
      const global_index_t src = g < w ? g + M : g >= 17 - w ? g - M : g;
      for (global_index_t j = 0; j < ncols; ++j)
        EXPECT_EQ(at(i, j), value(src, j)) << (fortran ? "F" : "C") << " order, global " << g << " column " << j;
    }
  }
}

// A 1-D chain mesh partition: rank r holds nodes 3r .. 3r+3 (node 3r shared
// with r-1), k values per node. Each rank adds integer element contributions
// to its local copies; assemble() must give the serial sums exactly.
// Element values for the typed tests: integers (exact in every type); complex
// ones get an imaginary part too, so both halves travel and add.
template <class T>
T value_of(double re) {
  if constexpr (std::is_same_v<T, std::complex<double>> || std::is_same_v<T, std::complex<float>>)
    return T(static_cast<typename T::value_type>(re), static_cast<typename T::value_type>(-2 * re));
  else
    return static_cast<T>(re);
}

// Elements (g, g+1) for g = 3r .. 3r+2 live on rank r; each adds (e+1)*(v+1)
// to both its nodes' k values, at xb[i * k + v] for node mine[i].
template <class T>
void add_chain_contributions(T* xb, const std::vector<global_index_t>& mine, int r, global_index_t k) {
  for (std::size_t i = 0; i < mine.size(); ++i)
    for (global_index_t v = 0; v < k; ++v) {
      double contribution = 0;
      for (global_index_t e = 3 * r; e < 3 * r + 3; ++e)
        if (mine[i] == e || mine[i] == e + 1) contribution += static_cast<double>((e + 1) * (v + 1));
      xb[i * k + v] = value_of<T>(contribution);
    }
}

// Rank r's nodes of the chain, 3r .. 3r+3 (in descending order when
// `reversed`), and their records: a 'u' axis of 3P + 1 nodes, k values each.
struct ChainNodes {
  std::vector<global_index_t> mine;
  std::vector<Dim> dims;
};
ChainNodes chain_nodes(int P, int r, global_index_t k, bool reversed) {
  ChainNodes c;
  for (global_index_t g = 3 * r; g <= 3 * r + 3; ++g) c.mine.push_back(g);
  if (reversed) std::reverse(c.mine.begin(), c.mine.end());
  c.dims = {Dim::unstructured(3 * P + 1, P, r, c.mine), Dim::undistributed(k)};
  return c;
}

template <class T>
class Assembly : public ::testing::Test {};
using PlanElementTypes = ::testing::Types<double, int, long long, float, std::complex<float>, std::complex<double>>;
TYPED_TEST_SUITE(Assembly, PlanElementTypes);

TYPED_TEST(Assembly, UnstructuredNodesWithValuesPerNode) {
  using T = TypeParam;
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  const global_index_t nodes = 3 * P + 1, k = 2;
  const ChainNodes chain = chain_nodes(P, r, k, true);  // reversed on purpose
  const std::vector<global_index_t>& mine = chain.mine;
  DistArray x = owning_array<T>(chain.dims);
  const auto plan = HaloPlan::create(DistributedLayout::create(x, comm));
  T* xb = data_as<T>(x);
  add_chain_contributions(xb, mine, r, k);
  plan->template assemble<T>(x, CombineMode::add, true);
  for (std::size_t i = 0; i < mine.size(); ++i)
    for (global_index_t v = 0; v < k; ++v) {
      const global_index_t g = mine[i];
      double expected = 0;  // serial: elements g-1 and g touch node g
      if (g >= 1) expected += static_cast<double>(g * (v + 1));
      if (g + 1 <= nodes - 1) expected += static_cast<double>((g + 1) * (v + 1));
      EXPECT_EQ(xb[i * k + v], value_of<T>(expected)) << "node " << g << " value " << v;
    }
  // update alone makes every copy equal to the owner's value. Owner of node n:
  // the lowest rank holding it.
  const auto owner = [&](global_index_t n) { return n == 0 ? 0 : static_cast<int>(n % 3 == 0 ? n / 3 - 1 : n / 3); };
  for (std::size_t i = 0; i < mine.size(); ++i) xb[i * k] = value_of<T>(static_cast<double>(r * 1000 + mine[i]));
  plan->template update<T>(x);
  for (std::size_t i = 0; i < mine.size(); ++i)
    EXPECT_EQ(xb[i * k], value_of<T>(static_cast<double>(owner(mine[i]) * 1000 + mine[i]))) << "node " << mine[i];
  // absmax combines as Tpetra's ABSMAX (the larger magnitude, as a real
  // number): a shared node owned by r (node 3r+3) takes the larger magnitude
  // of ranks r's and r+1's values; unshared nodes keep their value.
  for (std::size_t i = 0; i < mine.size(); ++i) xb[i * k + 1] = value_of<T>(-static_cast<double>(r + 1));
  plan->template assemble<T>(x, CombineMode::absmax);
  using std::abs;
  for (std::size_t i = 0; i < mine.size(); ++i) {
    const global_index_t n = mine[i];
    if (owner(n) != r) continue;
    const bool shared = n == 3 * r + 3 && r < P - 1;
    const T expected = shared ? T(abs(value_of<T>(-static_cast<double>(r + 2)))) : value_of<T>(-static_cast<double>(r + 1));
    EXPECT_EQ(xb[i * k + 1], expected) << "node " << n;
  }
}

// The split phase gives the blocking call's sums. Contributions are staged,
// so owned elements may be written while they travel: end_assemble combines
// into what the owners then hold (halo.hpp).
TYPED_TEST(Assembly, SplitPhaseCombinesIntoWhatOwnersHoldAtTheEnd) {
  using T = TypeParam;
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  const global_index_t k = 2;
  const ChainNodes chain = chain_nodes(P, r, k, false);
  const std::vector<global_index_t>& mine = chain.mine;
  DistArray x = owning_array<T>(chain.dims), y = owning_array<T>(chain.dims);
  const auto plan = HaloPlan::create(DistributedLayout::create(x, comm));
  T* xb = data_as<T>(x);
  T* yb = data_as<T>(y);
  add_chain_contributions(xb, mine, r, k);
  add_chain_contributions(yb, mine, r, k);
  plan->template assemble<T>(x, CombineMode::add);
  const auto owned_here = [&](std::size_t i) { return mine[i] != 3 * r || r == 0; };  // the lowest holder owns
  PlanExchange exchange;
  plan->template begin_assemble<T>(y, exchange);
  EXPECT_TRUE(exchange.in_flight());
  EXPECT_THROW(plan->template begin_assemble<T>(y, exchange), std::logic_error);
  EXPECT_THROW(plan->template end_update<T>(y, exchange), std::logic_error);  // not this call
  for (std::size_t i = 0; i < mine.size(); ++i)
    if (owned_here(i)) yb[i * k] += value_of<T>(1000.0);
  plan->template end_assemble<T>(y, exchange);
  EXPECT_FALSE(exchange.in_flight());
  for (std::size_t i = 0; i < mine.size(); ++i)
    for (global_index_t v = 0; v < k; ++v) {
      const T extra = owned_here(i) && v == 0 ? value_of<T>(1000.0) : T(0);
      EXPECT_EQ(yb[i * k + v], xb[i * k + v] + extra) << "node " << mine[i] << " value " << v;
    }
}
