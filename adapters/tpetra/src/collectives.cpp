#include "collectives.hpp"

#include <Teuchos_CommHelpers.hpp>
#include <Teuchos_DefaultMpiComm.hpp>
#include <mpi.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <limits>
#include <numeric>
#include <string>

#include "dapetra/validate.hpp"

namespace dapetra::tpetra::detail {
namespace {

// Thrown by every process alike (the same problem, no rank: each process
// reached the verdict from the same numbers).
void throw_if_too_large_for_mpi(long long words, const std::string& what) {
  if (words > std::numeric_limits<int>::max())
    throw ValidationError({Problem{-1, -1, "", std::to_string(words) + " words",
                                   "one MPI exchange moves fewer than 2^31 elements (MPI counts are int)",
                                   what + " are too large for one exchange"}});
}

}  // namespace

Gathered allgather_words(const std::vector<std::int64_t>& mine, const Comm& comm, std::size_t slot) {
  const int n = comm.getSize();
  Gathered out;
  out.begin.resize(static_cast<std::size_t>(n));
  out.length.resize(static_cast<std::size_t>(n));
  if (n == 1) {
    out.words = mine;
    out.length[0] = mine.size();
    return out;
  }
  const auto* mpi = dynamic_cast<const Teuchos::MpiComm<int>*>(&comm);
  if (mpi == nullptr) throw std::logic_error("dapetra: a multi-process communicator that is not MPI");
  MPI_Comm raw = *mpi->getRawMpiComm();
  // Each slot carries its record's length first; records that fit stay
  // where they landed.
  slot = std::max<std::size_t>(slot, 2);
  std::array<std::int64_t, 64> on_stack{};
  std::vector<std::int64_t> on_heap(slot > on_stack.size() ? slot : 0, 0);
  std::int64_t* fixed = slot > on_stack.size() ? on_heap.data() : on_stack.data();
  fixed[0] = static_cast<std::int64_t>(mine.size());
  std::copy_n(mine.begin(), std::min(mine.size(), slot - 1), fixed + 1);
  std::vector<std::int64_t> slots(slot * static_cast<std::size_t>(n));
  MPI_Allgather(fixed, static_cast<int>(slot), MPI_INT64_T, slots.data(), static_cast<int>(slot), MPI_INT64_T, raw);
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
                 MPI_INT64_T, raw);
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

Exchanged alltoallv_words(const std::vector<std::vector<std::int64_t>>& per_dest, const Comm& comm) {
  const int P = static_cast<int>(per_dest.size());
  const MPI_Comm raw = raw_comm(comm);
  std::vector<std::int64_t> send_counts64(P), recv_counts64(P);
  for (int p = 0; p < P; ++p) send_counts64[p] = static_cast<std::int64_t>(per_dest[p].size());
  MPI_Alltoall(send_counts64.data(), 1, MPI_INT64_T, recv_counts64.data(), 1, MPI_INT64_T, raw);
  // MPI counts and displacements are int; if any process's exchange would
  // not fit, every process learns it (one reduction) and all refuse alike.
  long long sent = 0, received = 0;
  for (int p = 0; p < P; ++p) {
    sent += send_counts64[p];
    received += recv_counts64[p];
  }
  long long largest = std::max(sent, received), largest_anywhere = 0;
  MPI_Allreduce(&largest, &largest_anywhere, 1, MPI_LONG_LONG, MPI_MAX, raw);
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
                in.displs.data(), MPI_INT64_T, raw);
  return in;
}

Holders lowest_holders(const std::vector<std::int64_t>& indices, std::int64_t size, const Comm& comm) {
  const int P = comm.getSize(), me = comm.getRank();
  Holders result;
  result.owner.resize(indices.size());
  result.position.resize(indices.size());
  if (P == 1) {
    std::iota(result.position.begin(), result.position.end(), 0);
    return result;
  }
  // Process h settles the indices in [h * chunk, (h + 1) * chunk). Indices go
  // as runs (first index, length, first position): finite-element numberings
  // are mostly runs, so the messages are far smaller than the indices (a
  // scattered numbering costs 3 words per index instead of 2). Answers come
  // back as runs too: (length, owner, owner's first position).
  const std::int64_t chunk = std::max<std::int64_t>(1, (size + P - 1) / P);
  std::vector<std::vector<std::int64_t>> pieces(P);
  for (std::size_t i = 0; i < indices.size();) {
    const std::int64_t first = indices[i];
    const int dest = static_cast<int>(first / chunk);
    const std::int64_t end_of_stretch = (dest + 1) * chunk;
    std::size_t j = i + 1;
    while (j < indices.size() && indices[j] == indices[j - 1] + 1 && indices[j] < end_of_stretch) ++j;
    pieces[dest].insert(pieces[dest].end(), {first, static_cast<std::int64_t>(j - i), static_cast<std::int64_t>(i)});
    i = j;
  }
  const Exchanged in = alltoallv_words(pieces, comm);

  // The lowest holder of each index of this process's stretch, where it keeps
  // it, and how many processes hold it (saturating). Senders come in rank
  // order, so the first one seen is the lowest.
  const std::int64_t lo = me * chunk;
  const auto stretch = static_cast<std::size_t>(std::max<std::int64_t>(0, std::min(chunk, size - lo)));
  std::vector<int> lowest(stretch, P);
  std::vector<std::int64_t> where(stretch);
  std::vector<std::uint8_t> holders(stretch, 0);
  for (int p = 0; p < P; ++p)
    for (int k = in.displs[p]; k < in.displs[p] + in.counts[p]; k += 3) {
      const std::int64_t first = in.words[k], length = in.words[k + 1], at = in.words[k + 2];
      const auto s0 = static_cast<std::size_t>(first - lo);
      for (std::size_t t = 0; t < static_cast<std::size_t>(length); ++t) {
        const std::size_t s = s0 + t;
        if (holders[s] == 0) {
          lowest[s] = p;
          where[s] = at + static_cast<std::int64_t>(t);
        }
        holders[s] = static_cast<std::uint8_t>(holders[s] + (holders[s] < 255));
      }
    }
  // A piece nobody else holds any index of (the bulk of a partition) is
  // answered with one run: its sender owns it where it keeps it.
  std::vector<std::vector<std::int64_t>> answers(P);
  for (int p = 0; p < P; ++p)
    for (int k = in.displs[p]; k < in.displs[p] + in.counts[p]; k += 3) {
      const std::int64_t first = in.words[k], length = in.words[k + 1], at = in.words[k + 2];
      std::vector<std::int64_t>& out = answers[p];
      const auto s0 = static_cast<std::size_t>(first - lo);
      const bool alone = std::all_of(holders.begin() + static_cast<std::ptrdiff_t>(s0),
                                     holders.begin() + static_cast<std::ptrdiff_t>(s0 + static_cast<std::size_t>(length)),
                                     [](std::uint8_t h) { return h == 1; });
      if (alone) {
        out.insert(out.end(), {length, p, at});
        continue;
      }
      std::size_t run = out.size();  // the answer run being extended, if any
      for (std::int64_t t = 0; t < length; ++t) {
        const std::size_t s = s0 + static_cast<std::size_t>(t);
        if (t > 0 && out[run + 1] == lowest[s] && out[run + 2] + out[run] == where[s]) {
          ++out[run];
          continue;
        }
        run = out.size();
        out.insert(out.end(), {1, lowest[s], where[s]});
      }
    }
  const Exchanged back = alltoallv_words(answers, comm);

  // The answers arrive per process in the order its pieces were sent.
  for (int p = 0; p < P; ++p) {
    int k = back.displs[p];
    for (std::size_t piece = 0; piece < pieces[p].size(); piece += 3) {
      std::int64_t pos = pieces[p][piece + 2], left = pieces[p][piece + 1];
      while (left > 0) {
        const std::int64_t length = back.words[k], owner = back.words[k + 1], at = back.words[k + 2];
        for (std::int64_t t = 0; t < length; ++t, ++pos) {
          result.owner[static_cast<std::size_t>(pos)] = static_cast<int>(owner);
          result.position[static_cast<std::size_t>(pos)] = static_cast<local_index_t>(at + t);
        }
        left -= length;
        k += 3;
      }
    }
  }
  return result;
}

}  // namespace dapetra::tpetra::detail
