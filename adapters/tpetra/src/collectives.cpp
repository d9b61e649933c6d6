#include "collectives.hpp"

#include <Teuchos_CommHelpers.hpp>
#include <Teuchos_DefaultMpiComm.hpp>
#include <mpi.h>

#include <algorithm>
#include <atomic>

namespace dapetra::tpetra::detail {

std::vector<std::vector<std::int64_t>> allgather_words(const std::vector<std::int64_t>& mine, const Comm& comm) {
  const int n = comm.getSize();
  if (n == 1) return {mine};
  const auto* mpi = dynamic_cast<const Teuchos::MpiComm<int>*>(&comm);
  if (mpi == nullptr) throw std::logic_error("dapetra: a multi-process communicator that is not MPI");
  MPI_Comm raw = *mpi->getRawMpiComm();
  // Small records (the usual case) travel in one fixed-size MPI_Allgather,
  // each slot carrying its length first; larger ones take an Allgatherv too.
  constexpr std::size_t slot = 64;
  std::vector<std::int64_t> fixed(slot, 0), slots(slot * static_cast<std::size_t>(n));
  fixed[0] = static_cast<std::int64_t>(mine.size());
  std::copy_n(mine.begin(), std::min(mine.size(), slot - 1), fixed.begin() + 1);
  MPI_Allgather(fixed.data(), static_cast<int>(slot), MPI_INT64_T, slots.data(), static_cast<int>(slot), MPI_INT64_T, raw);
  std::vector<std::vector<std::int64_t>> out(n);
  std::vector<int> counts(n), displs(n);
  long long total = 0;
  bool all_fit = true;
  for (int r = 0; r < n; ++r) {
    counts[r] = static_cast<int>(slots[slot * r]);
    displs[r] = static_cast<int>(total);
    total += counts[r];
    all_fit = all_fit && static_cast<std::size_t>(counts[r]) < slot;
  }
  if (all_fit) {
    for (int r = 0; r < n; ++r)
      out[r].assign(slots.begin() + static_cast<std::ptrdiff_t>(slot * r + 1),
                    slots.begin() + static_cast<std::ptrdiff_t>(slot * r + 1 + counts[r]));
    return out;
  }
  std::vector<std::int64_t> all(static_cast<std::size_t>(total));
  MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), MPI_INT64_T, all.data(), counts.data(), displs.data(),
                 MPI_INT64_T, raw);
  for (int r = 0; r < n; ++r) out[r].assign(all.begin() + displs[r], all.begin() + displs[r] + counts[r]);
  return out;
}

bool all_true(bool value, const Comm& comm) {
  int mine = value ? 1 : 0, all = 0;
  Teuchos::reduceAll<int, int>(comm, Teuchos::REDUCE_MIN, mine, Teuchos::outArg(all));
  return all == 1;
}

MPI_Comm raw_comm(const Comm& comm) {
  const auto* mpi = dynamic_cast<const Teuchos::MpiComm<int>*>(&comm);
  return mpi ? static_cast<MPI_Comm>(*mpi->getRawMpiComm()) : MPI_COMM_SELF;
}

int next_plan_tag() {
  static std::atomic<int> created{0};
  return 7000 + (created++ % 20000) * 2;  // each plan uses tag and tag + 1
}

}  // namespace dapetra::tpetra::detail

namespace dapetra::tpetra::detail {

std::vector<int> lowest_holders(const std::vector<std::int64_t>& indices, std::int64_t size, const Comm& comm) {
  const int P = comm.getSize(), me = comm.getRank();
  if (P == 1) return std::vector<int>(indices.size(), 0);
  const MPI_Comm raw = raw_comm(comm);
  // Process h settles the indices in [h * chunk, (h + 1) * chunk).
  const std::int64_t chunk = std::max<std::int64_t>(1, (size + P - 1) / P);
  std::vector<int> send_counts(P, 0), recv_counts(P), send_displs(P, 0), recv_displs(P, 0);
  for (std::int64_t g : indices) ++send_counts[static_cast<int>(g / chunk)];
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, raw);
  for (int p = 1; p < P; ++p) {
    send_displs[p] = send_displs[p - 1] + send_counts[p - 1];
    recv_displs[p] = recv_displs[p - 1] + recv_counts[p - 1];
  }
  std::vector<std::int64_t> out(indices.size());
  std::vector<std::size_t> slot(indices.size());  // where each index went in `out`
  {
    std::vector<int> next(send_displs);
    for (std::size_t i = 0; i < indices.size(); ++i) {
      slot[i] = static_cast<std::size_t>(next[static_cast<int>(indices[i] / chunk)]++);
      out[slot[i]] = indices[i];
    }
  }
  const std::size_t total_in = static_cast<std::size_t>(recv_displs[P - 1] + recv_counts[P - 1]);
  std::vector<std::int64_t> in(total_in);
  MPI_Alltoallv(out.data(), send_counts.data(), send_displs.data(), MPI_INT64_T, in.data(), recv_counts.data(),
                recv_displs.data(), MPI_INT64_T, raw);
  // The lowest holder of each index of this process's stretch.
  const std::int64_t lo = me * chunk;
  std::vector<int> lowest(static_cast<std::size_t>(std::max<std::int64_t>(0, std::min(chunk, size - lo))), P);
  for (int p = 0; p < P; ++p)
    for (int k = recv_displs[p]; k < recv_displs[p] + recv_counts[p]; ++k) {
      int& o = lowest[static_cast<std::size_t>(in[k] - lo)];
      o = std::min(o, p);
    }
  std::vector<int> answer(total_in), owners_sent(indices.size());
  for (std::size_t k = 0; k < total_in; ++k) answer[k] = lowest[static_cast<std::size_t>(in[k] - lo)];
  MPI_Alltoallv(answer.data(), recv_counts.data(), recv_displs.data(), MPI_INT, owners_sent.data(), send_counts.data(),
                send_displs.data(), MPI_INT, raw);
  std::vector<int> owner(indices.size());
  for (std::size_t i = 0; i < indices.size(); ++i) owner[i] = owners_sent[slot[i]];
  return owner;
}

}  // namespace dapetra::tpetra::detail
