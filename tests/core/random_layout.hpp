// Random valid DAP layouts for property tests: every dist_type, irregular and
// empty blocks, padding of every kind, periodic axes, overlapping 'u'.
#pragma once

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "../common/seed.hpp"
#include "dapetra/global_layout.hpp"
#include "dapetra/process_grid.hpp"

namespace dapetra::testing {

struct RandomLayoutOptions {
  int max_ndim = 3;
  int max_grid = 3;  // processes per axis
  global_index_t max_size = 12;
  int nprocs = 0;  // when > 0, the grid holds exactly this many processes
  bool sparse_1d_indices = true;  // 1-D 'u' may use negative and sparse indices
};

// Records of every grid rank along one axis.
inline std::vector<Dim> random_axis(std::mt19937_64& rng, int P, global_index_t max_size, bool multi_dim,
                                    global_index_t fixed_size = -1) {
  auto pick = [&](global_index_t lo, global_index_t hi) {
    return std::uniform_int_distribution<global_index_t>(lo, hi)(rng);
  };
  const global_index_t size = fixed_size >= 0 ? fixed_size : pick(0, max_size);
  std::vector<Dim> dims;
  switch (pick(0, 2)) {
    case 0: {  // 'b': random cuts (equal cuts make empty ranks), then padding
      std::vector<global_index_t> cut(P + 1);
      cut[0] = 0;
      cut[P] = size;
      for (int k = 1; k < P; ++k) cut[k] = pick(0, size);
      std::sort(cut.begin(), cut.end());
      const bool periodic = pick(0, 1) == 1;
      std::vector<global_index_t> comm(P + 1, 0);  // comm[k]: width shared by ranks k-1 and k
      for (int k = 1; k < P; ++k) {
        const global_index_t cap = std::min(cut[k] - cut[k - 1], cut[k + 1] - cut[k]);
        comm[k] = pick(0, std::min<global_index_t>(cap, 2));
      }
      global_index_t left_edge = pick(0, std::min<global_index_t>(cut[1] - cut[0], 2));
      global_index_t right_edge = pick(0, std::min<global_index_t>(cut[P] - cut[P - 1], 2));
      if (P == 1) right_edge = std::min(right_edge, size - left_edge);
      if (periodic) {  // the interior must be able to fill both edges
        while (size - left_edge - right_edge < std::max(left_edge, right_edge)) {
          if (left_edge > 0) --left_edge;
          else --right_edge;
        }
      }
      for (int k = 0; k < P; ++k) {
        const global_index_t lp = k == 0 ? left_edge : comm[k];
        const global_index_t rp = k == P - 1 ? right_edge : comm[k + 1];
        const global_index_t start = k == 0 ? cut[k] : cut[k] - lp;
        const global_index_t stop = k == P - 1 ? cut[k + 1] : cut[k + 1] + rp;
        dims.push_back(Dim::block(size, P, k, start, stop, {lp, rp}, periodic));
      }
      break;
    }
    case 1: {
      const global_index_t b = pick(1, 4);
      for (int k = 0; k < P; ++k) dims.push_back(Dim::cyclic(size, P, k, b));
      break;
    }
    default: {
      std::vector<global_index_t> perm(size);
      std::iota(perm.begin(), perm.end(), 0);
      std::shuffle(perm.begin(), perm.end(), rng);
      // 1-D 'u' indices may be any distinct integers: shift and spread them.
      if (!multi_dim && pick(0, 1))
        for (auto& g : perm) g = g * 3 - 7;
      std::vector<std::vector<global_index_t>> held(P);
      for (global_index_t g : perm) held[pick(0, P - 1)].push_back(g);
      const bool one_to_one = pick(0, 1) == 1;
      if (!one_to_one)  // add copies of other ranks' indices
        for (int k = 0; k < P; ++k)
          for (global_index_t g : perm)
            if (pick(0, 4) == 0 && std::find(held[k].begin(), held[k].end(), g) == held[k].end())
              held[k].push_back(g);
      for (int k = 0; k < P; ++k) {
        std::shuffle(held[k].begin(), held[k].end(), rng);
        dims.push_back(Dim::unstructured(size, P, k, held[k], one_to_one));
      }
    }
  }
  return dims;
}

// `sizes`, when given, fixes the number of axes and their global sizes.
inline LayoutRecords random_layout(std::mt19937_64& rng, const RandomLayoutOptions& opt = {},
                            const std::vector<global_index_t>* sizes = nullptr) {
  const int min_ndim = opt.nprocs > 1 ? 1 : 0;
  const int ndim = sizes ? static_cast<int>(sizes->size())
                         : std::uniform_int_distribution<int>(min_ndim, std::max(opt.max_ndim, min_ndim))(rng);
  std::vector<int> shape(ndim, 1);
  if (opt.nprocs > 0) {  // deal the prime factors of nprocs to random axes
    int rest = opt.nprocs;
    for (int f = 2; rest > 1; ++f)
      while (rest % f == 0) {
        shape[std::uniform_int_distribution<int>(0, ndim - 1)(rng)] *= f;
        rest /= f;
      }
  } else {
    for (int& s : shape) s = std::uniform_int_distribution<int>(1, opt.max_grid)(rng);
  }
  std::vector<std::vector<Dim>> axes(ndim);
  for (int d = 0; d < ndim; ++d)
    axes[d] = random_axis(rng, shape[d], opt.max_size, ndim > 1 || !opt.sparse_1d_indices, sizes ? (*sizes)[d] : -1);
  const ProcessGrid grid(shape);
  LayoutRecords layout;
  for (int r = 0; r < grid.size(); ++r) {
    const std::vector<int> c = grid.coords_of(r);
    RankEntry e;
    for (int d = 0; d < ndim; ++d) e.dim_data.push_back(axes[d][c[d]]);
    e.local_shape = local_shape_of(e.dim_data);
    layout.ranks.push_back(std::move(e));
  }
  return layout;
}

// The random layouts of one test for `nprocs` processes, drawn alike on every
// rank from the test's fixed seed (with DAPETRA_TEST_SEED mixed in; `seed.replay`
// says how to draw them again). `rng` and `options` stay open for tests that
// draw other things or vary the options between trials.
struct RandomLayouts {
  RandomLayouts(std::uint64_t fixed_seed, int nprocs) : seed(test_seed(fixed_seed)), rng(seed.value) {
    options.nprocs = nprocs;
  }
  // `sizes`, when given, fixes the number of axes and their global sizes.
  LayoutRecords next(const std::vector<global_index_t>* sizes = nullptr) { return random_layout(rng, options, sizes); }

  Seed seed;
  std::mt19937_64 rng;
  RandomLayoutOptions options;
};

}  // namespace dapetra::testing
