// GoogleTest under MPI: ranks other than 0 print only their failures,
// prefixed with the rank (shared by the suites' MPI mains).
#pragma once

#include <gtest/gtest.h>
#include <mpi.h>

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

// Every test on every rank of `comm` (MPI initialised); rank 0 reports, the
// others print their failures. Collective: non-zero on every rank if any failed.
inline int run_all_tests_on_every_rank(MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  print_failures_only_off_rank_0(rank);
  const int mine = RUN_ALL_TESTS();
  int any = 0;
  MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, comm);
  return any;
}

}  // namespace dapetra::testing
