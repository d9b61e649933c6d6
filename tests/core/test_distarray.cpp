#include <gtest/gtest.h>

#include <complex>
#include <memory>
#include <vector>

#include "dapetra/distarray.hpp"

using namespace dapetra;

namespace {

// A minimal producer: a padded 1-D block piece of a distributed vector.
class PaddedVector {
 public:
  PaddedVector(int nprocs, int rank, global_index_t n) : dim_(Dim::even_block(n, nprocs, rank, 1)) {
    data_ = std::make_shared<std::vector<double>>(static_cast<std::size_t>(local_extent(dim_)));
  }
  DistArray distarray() const {
    DistArray a;
    a.buffer = view_buffer(data_->data(), {static_cast<global_index_t>(data_->size())}, data_);
    a.dim_data = {dim_};
    return a;
  }
  std::vector<double>& values() { return *data_; }

 private:
  Dim dim_;
  std::shared_ptr<std::vector<double>> data_;
};

struct NotAProducer {
  int distarray() const { return 0; }
};

}  // namespace

static_assert(is_producer_v<PaddedVector>);
static_assert(!is_producer_v<NotAProducer>);
static_assert(!is_producer_v<int>);

TEST(DistArray, ConsumeSharesMemoryWithoutCopying) {
  PaddedVector v(2, 1, 18);
  const DistArray a = consume(v, 1);
  double* p = data_as<double>(a);
  EXPECT_EQ(p, v.values().data());
  p[3] = 42.0;
  EXPECT_EQ(v.values()[3], 42.0);
  EXPECT_EQ(a.buffer.shape, (std::vector<global_index_t>{10}));
}

TEST(DistArray, KeepAliveOutlivesTheProducer) {
  DistArray a;
  {
    PaddedVector v(1, 0, 5);
    v.values()[2] = 7.0;
    a = v.distarray();
  }
  EXPECT_EQ(data_as<double>(a)[2], 7.0);  // still valid: the buffer is shared, not copied
}

TEST(DistArray, TypeMismatchIsRefusedNeverReinterpreted) {
  PaddedVector v(1, 0, 5);
  const DistArray a = v.distarray();
  EXPECT_THROW(data_as<float>(a), ValidationError);
  EXPECT_THROW(data_as<std::int64_t>(a), ValidationError);  // same itemsize, different format
  EXPECT_NO_THROW(data_as<const double>(a));
  std::vector<double> ro(3);
  DistArray c;
  c.buffer = view_buffer(static_cast<const double*>(ro.data()), {3});
  c.dim_data = {Dim::undistributed(3)};
  EXPECT_TRUE(c.buffer.readonly);
  EXPECT_THROW(data_as<double>(c), ValidationError);
  EXPECT_NO_THROW(data_as<const double>(c));
}

TEST(DistArray, FormatsOfCommonTypes) {
  EXPECT_STREQ(format_of<double>(), "d");
  EXPECT_STREQ(format_of<float>(), "f");
  EXPECT_STREQ(format_of<int>(), "i");
  EXPECT_STREQ(format_of<long long>(), "q");
  EXPECT_STREQ(format_of<std::complex<double>>(), "Zd");
  EXPECT_STREQ(format_of<char*>(), "");
}

TEST(DistArray, CheckLocalCatchesBufferMismatches) {
  std::vector<double> mem(15);
  DistArray a;
  a.buffer = view_buffer(mem.data(), {3, 5});
  a.dim_data = {Dim::block(5, 2, 0, 0, 3), Dim::cyclic(9, 2, 0)};
  EXPECT_TRUE(check_local(a, 0).empty());
  EXPECT_TRUE(a.buffer.is_c_contiguous());
  EXPECT_FALSE(a.buffer.is_f_contiguous());

  DistArray bad_shape = a;
  bad_shape.buffer.shape = {3, 4};
  bad_shape.buffer.strides = c_strides({3, 4}, 8);
  auto ps = check_local(bad_shape, 0);
  ASSERT_FALSE(ps.empty());
  EXPECT_EQ(ps.front().dim, 1);

  DistArray bad_item = a;
  bad_item.buffer.itemsize = 4;
  ps = check_local(bad_item, 2);
  ASSERT_FALSE(ps.empty());
  EXPECT_EQ(ps.front().key, "itemsize");
  EXPECT_EQ(ps.front().rank, 2);

  DistArray overlap = a;
  overlap.buffer.strides = {8, 8};
  EXPECT_FALSE(check_local(overlap, 0).empty());

  DistArray fortran = a;
  fortran.buffer.strides = f_strides({3, 5}, 8);
  EXPECT_TRUE(check_local(fortran, 0).empty());
  EXPECT_TRUE(fortran.buffer.is_f_contiguous());

  DistArray wrong_ndim = a;
  wrong_ndim.dim_data.pop_back();
  EXPECT_FALSE(check_local(wrong_ndim, 0).empty());

  DistArray null_data = a;
  null_data.buffer.data = nullptr;
  EXPECT_FALSE(check_local(null_data, 0).empty());

  DistArray bad_version = a;
  bad_version.version = "1.0.0";
  EXPECT_FALSE(check_local(bad_version, 0).empty());
}

TEST(DistArray, ZeroDimensionalArray) {
  double x = 3.0;
  DistArray a;
  a.buffer = view_buffer(&x, {});
  EXPECT_EQ(a.buffer.num_elements(), 1);
  EXPECT_TRUE(check_local(a, 0).empty());
}
