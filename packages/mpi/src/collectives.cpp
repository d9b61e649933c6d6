#include "collectives.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include "dapetra/error.hpp"

namespace dapetra::mpi::detail {

int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

int size_of(MPI_Comm comm) {
  int n = 1;
  MPI_Comm_size(comm, &n);
  return n;
}

void throw_if_too_large_for_mpi(long long words, const std::string& what) {
  if (words > std::numeric_limits<int>::max())
    throw ValidationError({Problem{-1, -1, "", std::to_string(words) + " words",
                                   "one MPI exchange moves fewer than 2^31 elements (MPI counts are int)",
                                   what + " are too large for one exchange"}});
}

Gathered allgather_words(const std::vector<std::int64_t>& mine, MPI_Comm comm, std::size_t slot) {
  const int n = size_of(comm);
  Gathered out;
  out.begin.resize(static_cast<std::size_t>(n));
  out.length.resize(static_cast<std::size_t>(n));
  if (n == 1) {
    out.words = mine;
    out.length[0] = mine.size();
    return out;
  }
  // Each slot carries its record's length first; records that fit stay
  // where they landed.
  slot = std::max<std::size_t>(slot, 2);
  std::array<std::int64_t, 64> on_stack{};
  std::vector<std::int64_t> on_heap(slot > on_stack.size() ? slot : 0, 0);
  std::int64_t* fixed = slot > on_stack.size() ? on_heap.data() : on_stack.data();
  fixed[0] = static_cast<std::int64_t>(mine.size());
  std::copy_n(mine.begin(), std::min(mine.size(), slot - 1), fixed + 1);
  std::vector<std::int64_t> slots(slot * static_cast<std::size_t>(n));
  MPI_Allgather(fixed, static_cast<int>(slot), MPI_INT64_T, slots.data(), static_cast<int>(slot), MPI_INT64_T, comm);
  long long total = 0;
  bool all_fit = true;
  for (int r = 0; r < n; ++r) {
    total += slots[slot * r];
    all_fit = all_fit && static_cast<std::size_t>(slots[slot * r]) < slot;
  }
  // MPI counts are int: every process sees every length, so all refuse alike.
  throw_if_too_large_for_mpi(total, "gathered records");
  if (all_fit) {
    for (int r = 0; r < n; ++r) {
      out.begin[r] = slot * static_cast<std::size_t>(r) + 1;
      out.length[r] = static_cast<std::size_t>(slots[slot * r]);
    }
    out.words = std::move(slots);
    return out;
  }
  std::vector<int> counts(n), displs(n);
  int offset = 0;
  for (int r = 0; r < n; ++r) {
    counts[r] = static_cast<int>(slots[slot * r]);
    displs[r] = offset;
    out.begin[r] = static_cast<std::size_t>(offset);
    out.length[r] = static_cast<std::size_t>(counts[r]);
    offset += counts[r];
  }
  out.words.resize(static_cast<std::size_t>(total));
  MPI_Allgatherv(mine.data(), static_cast<int>(mine.size()), MPI_INT64_T, out.words.data(), counts.data(), displs.data(),
                 MPI_INT64_T, comm);
  return out;
}

long long sum_all(long long value, MPI_Comm comm) {
  long long total = 0;
  MPI_Allreduce(&value, &total, 1, MPI_LONG_LONG, MPI_SUM, comm);
  return total;
}

Exchanged alltoallv_words(const std::vector<std::vector<std::int64_t>>& per_dest, MPI_Comm comm) {
  const int P = static_cast<int>(per_dest.size());
  std::vector<std::int64_t> send_counts64(P), recv_counts64(P);
  for (int p = 0; p < P; ++p) send_counts64[p] = static_cast<std::int64_t>(per_dest[p].size());
  MPI_Alltoall(send_counts64.data(), 1, MPI_INT64_T, recv_counts64.data(), 1, MPI_INT64_T, comm);
  // MPI counts and displacements are int; if any process's exchange would
  // not fit, every process learns it (one reduction) and all refuse alike.
  long long sent = 0, received = 0;
  for (int p = 0; p < P; ++p) {
    sent += send_counts64[p];
    received += recv_counts64[p];
  }
  long long largest = std::max(sent, received), largest_anywhere = 0;
  MPI_Allreduce(&largest, &largest_anywhere, 1, MPI_LONG_LONG, MPI_MAX, comm);
  throw_if_too_large_for_mpi(largest_anywhere, "the words one process exchanges with the others");
  std::vector<int> send_counts(P), send_displs(P, 0);
  std::vector<std::int64_t> out;
  out.reserve(static_cast<std::size_t>(sent));
  for (int p = 0; p < P; ++p) {
    send_counts[p] = static_cast<int>(send_counts64[p]);
    send_displs[p] = static_cast<int>(out.size());
    out.insert(out.end(), per_dest[p].begin(), per_dest[p].end());
  }
  Exchanged in;
  in.counts.resize(P);
  in.displs.assign(P, 0);
  for (int p = 0; p < P; ++p) in.counts[p] = static_cast<int>(recv_counts64[p]);
  for (int p = 1; p < P; ++p) in.displs[p] = in.displs[p - 1] + in.counts[p - 1];
  in.words.resize(static_cast<std::size_t>(received));
  MPI_Alltoallv(out.data(), send_counts.data(), send_displs.data(), MPI_INT64_T, in.words.data(), in.counts.data(),
                in.displs.data(), MPI_INT64_T, comm);
  return in;
}

}  // namespace dapetra::mpi::detail
