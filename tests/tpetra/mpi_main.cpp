// GoogleTest under MPI: every rank runs every test; rank 0 prints the usual
// report, the others print only their failures (prefixed with the rank); the
// exit code is non-zero if any rank failed.
#include <gtest/gtest.h>

#include <Teuchos_CommHelpers.hpp>
#include <Tpetra_Core.hpp>
#include <iostream>

namespace {

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

}  // namespace

int main(int argc, char** argv) {
  Tpetra::ScopeGuard scope(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  const auto comm = Tpetra::getDefaultComm();
  if (comm->getRank() != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter(comm->getRank()));
  }
  const int mine = RUN_ALL_TESTS();
  int any = 0;
  Teuchos::reduceAll<int, int>(*comm, Teuchos::REDUCE_MAX, mine, Teuchos::outArg(any));
  return any;
}
