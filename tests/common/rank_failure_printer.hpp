// GoogleTest under MPI: ranks other than 0 print only their failures,
// prefixed with the rank (shared by the suites' MPI mains).
#pragma once

#include <gtest/gtest.h>

#include <iostream>

namespace dapetra::testing {

class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed())
      std::cerr << "[rank " << rank_ << "] " << (r.file_name() ? r.file_name() : "?") << ":" << r.line_number() << ": "
                << r.summary() << std::endl;
  }

 private:
  int rank_;
};

// On ranks other than 0: the failure printer instead of GoogleTest's report.
inline void print_failures_only_off_rank_0(int rank) {
  if (rank == 0) return;
  auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
  delete listeners.Release(listeners.default_result_printer());
  listeners.Append(new RankFailurePrinter(rank));
}

}  // namespace dapetra::testing
