// Property test: random layouts (every dist_type, padding of every kind,
// periodic axes, empty ranks, overlapping 'u', 1-3 dimensions) through map
// building and halo updates, checked element by element against a serial
// reference: after update(), every element holds the value of the global
// element it stands for (its own, or for periodic edge padding the wrapped
// one), and owned elements are untouched. Which elements are owned, and the
// global index each stands for, come from the test oracle (spec_oracle.hpp),
// not from the layout under test.
#include <gtest/gtest.h>


#include "../common/spec_oracle.hpp"
#include "../core/random_layout.hpp"
#include "dapetra/mpi/mpi.hpp"
#include "mpi_test_util.hpp"

using namespace dapetra;
using namespace dapetra::mpi;
using dapetra::testing::owning_array;
using dapetra::testing::world;

namespace {

// The reference value of global multi-index g: distinct for distinct elements.
double reference(const std::vector<global_index_t>& g, const std::vector<global_index_t>& sizes) {
  double v = 0.5;
  for (std::size_t d = 0; d < g.size(); ++d) v = v * static_cast<double>(sizes[d] + 7) + static_cast<double>(g[d] + 3);
  return v;
}

}  // namespace

TEST(HaloProperties, RandomLayoutsFillEveryGhostWithItsSource) {
  const auto comm = world();
  dapetra::testing::RandomLayouts draws(31337, comm->size());  // the same layouts on every rank
  SCOPED_TRACE(draws.seed.replay);
  int checked_ghosts = 0;
  for (int trial = 0; trial < 120; ++trial) {
    // Mostly small arrays; every third trial larger ones, past the plan's
    // thresholds (runs of more than 8 elements are copied by memmove, records
    // longer than 63 words are gathered by MPI_Allgatherv).
    draws.options.max_size = trial % 3 == 2 ? 70 : 9;
    const LayoutRecords layout = draws.next();
    const auto& dims = layout.ranks[comm->rank()].dim_data;
    const int nd = static_cast<int>(dims.size());
    std::vector<global_index_t> sizes;
    for (const Dim& d : dims) sizes.push_back(d.size);
    // Processes may differ in memory order (odd trials: odd ranks Fortran),
    // which the plan must follow on both sides of every message.
    DistArray a = owning_array<double>(dims);
    const bool fortran = trial % 2 == 1 && comm->rank() % 2 == 1;
    if (fortran) a.buffer.strides = f_strides(a.buffer.shape, sizeof(double));
    const auto tl = DistributedLayout::create(a, comm);
    const auto plan = HaloPlan::create(tl);
    const GlobalLayout gl(layout);
    // Wrapped source of a global index along a periodic 'b' axis (Domi's
    // rule): the edge padding, wherever a copy of it sits, stands for the
    // opposite end of the interior.
    const auto source = [&](int d, global_index_t i) {
      const Dim& dim = dims[d];
      const global_index_t g = dapetra::testing::oracle::spec_index(dim, i);
      if (dim.dist_type != DistType::block || !dim.periodic) return g;
      const global_index_t left = gl.axis(d).dim(0).padding[0];
      const global_index_t right = gl.axis(d).dim(dim.proc_grid_size - 1).padding[1];
      const global_index_t period = dim.size - left - right;
      if (g < left) return g + period;
      if (g >= dim.size - right) return g - period;
      return g;
    };
    const auto shape = local_shape_of(dims);
    global_index_t n = 1;
    for (auto s : shape) n *= s;
    double* x = data_as<double>(a);
    std::vector<global_index_t> loc(nd), g(nd), s(nd);
    const auto visit = [&](auto&& f) {
      for (global_index_t flat = 0; flat < n; ++flat) {
        global_index_t rest = flat, offset = 0;
        bool owned = false, self_source = true;
        for (int d = nd - 1; d >= 0; --d) {
          loc[d] = rest % shape[d];
          rest /= shape[d];
          offset += loc[d] * a.buffer.strides[d] / static_cast<global_index_t>(sizeof(double));
          g[d] = dapetra::testing::oracle::spec_index(dims[d], loc[d]);
          s[d] = source(d, loc[d]);
          self_source = self_source && s[d] == g[d];
        }
        owned = dapetra::testing::oracle::owns_element(layout, comm->rank(), loc);
        f(offset, owned && self_source);
      }
    };
    // Owned elements hold their reference value, everything else a sentinel.
    visit([&](global_index_t i, bool kept) { x[i] = kept ? reference(g, sizes) : -1.0; });
    plan->update<double>(a);
    visit([&](global_index_t i, bool kept) {
      ASSERT_EQ(x[i], reference(s, sizes)) << "trial " << trial << " element " << i << " of " << describe(dims[0]);
      checked_ghosts += !kept;
    });
  }
  if (comm->size() > 1) {
    EXPECT_GT(checked_ghosts, 50);
  }
}
