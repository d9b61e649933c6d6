// leading_run (internal): the ascending run that starts a process's 'u'
// indices, against a plain one-by-one count, where blocks break and at the
// ends of the index range; and the uniqueness rule that relies on it.
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <vector>

#include "dapetra/validate.hpp"
#include "dapetra/wire/leading_run.hpp"

using namespace dapetra;

namespace {

// The reference: a plain count in exact arithmetic.
std::size_t counted(const std::vector<global_index_t>& v) {
  std::size_t n = v.empty() ? 0 : 1;
  while (n < v.size() && static_cast<long double>(v[n]) == static_cast<long double>(v[0]) + static_cast<long double>(n) &&
         v[n] > v[n - 1])
    ++n;
  return n;
}

std::size_t run_of(const std::vector<global_index_t>& v) { return leading_run(v.data(), v.size()); }

}  // namespace

TEST(LeadingRun, BreaksWhereTheRunBreaksAtEveryPosition) {
  for (std::size_t length : {0, 1, 2, 63, 64, 65, 127, 128, 129, 300}) {
    for (std::size_t at = 1; at <= length; ++at) {  // break the run at position `at` (length: none)
      std::vector<global_index_t> v(length);
      for (std::size_t i = 0; i < length; ++i) v[i] = -7 + static_cast<global_index_t>(i);
      if (at < length) v[at] += 2;
      EXPECT_EQ(run_of(v), at) << "length " << length << ", broken at " << at;
    }
  }
  EXPECT_EQ(run_of({}), 0u);
}

TEST(LeadingRun, NoIndexOverflowsAtTheEndsOfTheRange) {
  constexpr global_index_t max = std::numeric_limits<global_index_t>::max(), min = std::numeric_limits<global_index_t>::min();
  std::vector<global_index_t> up;
  for (global_index_t g = max - 99; g != max; ++g) up.push_back(g);
  up.push_back(max);
  up.push_back(min);  // wrapping is not a run
  for (int i = 0; i < 100; ++i) up.push_back(min + 1 + i);
  EXPECT_EQ(run_of(up), 100u);
  EXPECT_EQ(run_of(up), counted(up));
  std::vector<global_index_t> low;
  for (int i = 0; i < 200; ++i) low.push_back(min + i);
  EXPECT_EQ(run_of(low), 200u);
}

TEST(LeadingRun, AgreesWithACountOnRandomIndices) {
  std::mt19937_64 rng(61);
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t length = std::uniform_int_distribution<std::size_t>(0, 400)(rng);
    const global_index_t start = std::uniform_int_distribution<global_index_t>(-1000, 1000)(rng);
    std::vector<global_index_t> v(length);
    for (std::size_t i = 0; i < length; ++i) v[i] = start + static_cast<global_index_t>(i);
    for (int k = std::uniform_int_distribution<int>(0, 2)(rng); k > 0 && length > 0; --k)
      v[std::uniform_int_distribution<std::size_t>(0, length - 1)(rng)] = std::uniform_int_distribution<global_index_t>(-1000, 1400)(rng);
    EXPECT_EQ(run_of(v), counted(v)) << "trial " << trial;
  }
}

// Locally unique indices: after a leading run only what follows is
// checked, so a copy of a run's index after it must still be caught.
TEST(LeadingRun, UniquenessCatchesACopyOfTheRunAfterIt) {
  const auto problems = [](std::vector<global_index_t> held) {
    return check_dim(Dim::unstructured(1000, 2, 0, std::move(held), false), 0, 0).size();
  };
  std::vector<global_index_t> held(200);
  for (std::size_t i = 0; i < held.size(); ++i) held[i] = 100 + static_cast<global_index_t>(i);
  EXPECT_EQ(problems(held), 0u);
  for (global_index_t copy : {100, 177, 299}) {
    auto with = held;
    with.push_back(900);
    with.push_back(copy);
    EXPECT_EQ(problems(with), 1u) << copy;
  }
  auto twice = held;
  twice.insert(twice.end(), {5, 900, 5});
  EXPECT_EQ(problems(twice), 1u);
  twice.back() = 300;  // just past the run: fine
  EXPECT_EQ(problems(twice), 0u);
}
