// The communication layer without Trilinos: an Eigen-backed array (column-
// major Eigen storage, exposed through the protocol) has its halo updated
// and is redistributed, checked against values computed from global indices.
#include <gtest/gtest.h>

#include "dapetra/eigen/eigen.hpp"
#include "dapetra/mpi/mpi.hpp"
#include "mpi_test_util.hpp"

using namespace dapetra;
using namespace dapetra::mpi;
using dapetra::testing::world;

namespace {

double value(global_index_t g, Eigen::Index column) { return 10.0 * static_cast<double>(g) + static_cast<double>(column); }

}  // namespace

TEST(EigenPlans, HaloUpdateOfAnEigenMatrix) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  const Dim rows = Dim::even_block(23, P, r, 2);
  eigen::EigenArray<double> a({rows, Dim::undistributed(3)});
  for (Eigen::Index i = 0; i < a.local().rows(); ++i)
    for (Eigen::Index j = 0; j < a.local().cols(); ++j)
      a.local()(i, j) = padding_kind(rows, i) == PaddingKind::none || padding_kind(rows, i) == PaddingKind::boundary
                            ? value(global_index(rows, i), j)
                            : -1.0;
  const auto plan = HaloPlan::create(DistributedLayout::create(a.distarray(), comm));
  plan->update<double>(a.distarray());
  for (Eigen::Index i = 0; i < a.local().rows(); ++i)
    for (Eigen::Index j = 0; j < a.local().cols(); ++j)
      EXPECT_EQ(a.local()(i, j), value(global_index(rows, i), j)) << "row " << i << " column " << j;
}

TEST(EigenPlans, RedistributeBlockToCyclicAndBack) {
  const auto comm = world();
  const int P = comm->size(), r = comm->rank();
  const Dim block = Dim::even_block(31, P, r), cyclic = Dim::cyclic(31, P, r, 2);
  eigen::EigenArray<double> from({block, Dim::undistributed(2)}), to({cyclic, Dim::undistributed(2)}),
      back({block, Dim::undistributed(2)});
  for (Eigen::Index i = 0; i < from.local().rows(); ++i)
    for (Eigen::Index j = 0; j < 2; ++j) from.local()(i, j) = value(global_index(block, i), j);
  const auto plan = RedistributionPlan::create(DistributedLayout::create(from.distarray(), comm),
                                               DistributedLayout::create(to.distarray(), comm));
  plan->apply<double>(from.distarray(), to.distarray());
  for (Eigen::Index i = 0; i < to.local().rows(); ++i)
    for (Eigen::Index j = 0; j < 2; ++j) EXPECT_EQ(to.local()(i, j), value(global_index(cyclic, i), j));
  plan->apply_reverse<double>(to.distarray(), back.distarray());
  EXPECT_EQ(back.local(), from.local());
}
