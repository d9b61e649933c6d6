#include "collectives.hpp"

#include <Teuchos_CommHelpers.hpp>
#include <Teuchos_DefaultMpiComm.hpp>
#include <mpi.h>

namespace dapetra::tpetra::detail {

std::vector<std::vector<std::int64_t>> allgather_words(const std::vector<std::int64_t>& mine, const Comm& comm) {
  const int n = comm.getSize();
  if (n == 1) return {mine};
  const auto* mpi = dynamic_cast<const Teuchos::MpiComm<int>*>(&comm);
  if (mpi == nullptr) throw std::logic_error("dapetra: a multi-process communicator that is not MPI");
  MPI_Comm raw = *mpi->getRawMpiComm();
  int my_count = static_cast<int>(mine.size());
  std::vector<int> counts(n), displs(n);
  MPI_Allgather(&my_count, 1, MPI_INT, counts.data(), 1, MPI_INT, raw);
  long long total = 0;
  for (int r = 0; r < n; ++r) {
    displs[r] = static_cast<int>(total);
    total += counts[r];
  }
  std::vector<std::int64_t> all(static_cast<std::size_t>(total));
  MPI_Allgatherv(mine.data(), my_count, MPI_INT64_T, all.data(), counts.data(), displs.data(), MPI_INT64_T, raw);
  std::vector<std::vector<std::int64_t>> out(n);
  for (int r = 0; r < n; ++r) out[r].assign(all.begin() + displs[r], all.begin() + displs[r] + counts[r]);
  return out;
}

bool all_true(bool value, const Comm& comm) {
  int mine = value ? 1 : 0, all = 0;
  Teuchos::reduceAll<int, int>(comm, Teuchos::REDUCE_MIN, mine, Teuchos::outArg(all));
  return all == 1;
}

long long exclusive_sum(long long value, const Comm& comm) {
  long long inclusive = 0;
  Teuchos::scan<int, long long>(comm, Teuchos::REDUCE_SUM, value, Teuchos::outArg(inclusive));
  return inclusive - value;
}

}  // namespace dapetra::tpetra::detail
