// GoogleTest under MPI with deal.II's MPI set-up (MPI_InitFinalize, one
// thread per process): every rank runs every test; the exit code is
// non-zero if any rank failed.
#include <deal.II/base/mpi.h>
#include <gtest/gtest.h>

#include "../common/rank_failure_printer.hpp"

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  return dapetra::testing::run_all_tests_on_every_rank(MPI_COMM_WORLD);
}
