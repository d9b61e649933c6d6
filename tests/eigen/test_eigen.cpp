#include <gtest/gtest.h>

#include "dapetra/eigen/eigen.hpp"

using namespace dapetra;
using namespace dapetra::eigen;

TEST(Eigen, VectorViewIsTheBuffer) {
  std::vector<double> mem{1, 2, 3, 4, 5, 6};
  DistArray a;
  a.dim_data = {Dim::block(12, 2, 1, 6, 12)};
  a.buffer = view_buffer(mem.data(), {6});
  auto v = vector_view<double>(a);
  EXPECT_EQ(v.data(), mem.data());
  EXPECT_DOUBLE_EQ(v.sum(), 21.0);
  v *= 2.0;
  EXPECT_EQ(mem[5], 12.0);
  a.buffer.shape = {3};
  a.buffer.strides = {16};  // every other element
  EXPECT_DOUBLE_EQ(vector_view<double>(a).sum(), 2.0 + 6.0 + 10.0);
}

TEST(Eigen, MatrixViewsInCAndFortranOrderWithPadding) {
  // C order, shape (2, 3): row-major; the matrix is [[0 1 2] [3 4 5]].
  std::vector<double> c{0, 1, 2, 3, 4, 5};
  DistArray a;
  a.buffer = view_buffer(c.data(), {2, 3});
  auto m = matrix_view<double>(a);
  EXPECT_EQ(m.rows(), 2);
  EXPECT_EQ(m(1, 2), 5.0);
  EXPECT_EQ(m(0, 1), 1.0);
  // Fortran order, shape (2, 3), columns 4 apart (padded leading dimension).
  std::vector<double> f(12, -1.0);
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 2; ++i) f[j * 4 + i] = 10.0 * i + j;
  DistArray b;
  b.buffer = view_buffer(f.data(), {2, 3});
  b.buffer.strides = {8, 32};
  auto n = matrix_view<double>(b);
  EXPECT_EQ(n(1, 2), 12.0);
  n(0, 0) = 99.0;
  EXPECT_EQ(f[0], 99.0);
  // k values per node: n x k, and its transpose k x n.
  EXPECT_EQ(n.transpose()(2, 1), 12.0);
}

TEST(Eigen, WrongRankTypeOrStridesAreRefused) {
  std::vector<double> mem(6);
  DistArray a;
  a.buffer = view_buffer(mem.data(), {2, 3});
  EXPECT_THROW(vector_view<double>(a), ValidationError);
  EXPECT_THROW(matrix_view<float>(a), ValidationError);
  a.buffer.strides = {12, 4};
  EXPECT_THROW(matrix_view<double>(a), ValidationError);
}

TEST(Eigen, EigenArrayIsAProducer) {
  static_assert(is_producer_v<EigenArray<double>>);
  EigenArray<double> x({Dim::even_block(10, 2, 0), Dim::undistributed(3)});  // 5 nodes x 3 values
  x.local()(4, 2) = 7.5;
  const DistArray a = consume(x, 0);
  EXPECT_EQ(data_as<double>(a), x.local().data());
  EXPECT_EQ(matrix_view<double>(a)(4, 2), 7.5);
  EXPECT_TRUE(a.buffer.is_f_contiguous());
  DistArray kept;
  {
    EigenArray<double> y({Dim::undistributed(4)});
    y.local()(3, 0) = 2.0;
    kept = y.distarray();
  }
  EXPECT_EQ(data_as<double>(kept)[3], 2.0);  // the storage outlives the producer object
}
