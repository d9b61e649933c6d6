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
    throw ValidationError({Problem::of(-1, "", std::to_string(words) + " words",
                                       "one MPI exchange moves fewer than 2^31 elements (MPI counts are int)",
                                       what + " are too large for one exchange")});
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

namespace {

// The ballot's reduction: the first word counts the values combined by
// their lowest; the rest are summed, wrapping (fingerprints are sums
// modulo 2^64).
void lowest_then_sum(void* in, void* inout, int* length, MPI_Datatype*) {
  const auto* a = static_cast<const std::int64_t*>(in);
  auto* b = static_cast<std::int64_t*>(inout);
  const std::int64_t n = b[0];
  for (std::int64_t i = 1; i <= n; ++i) b[i] = std::min(a[i], b[i]);
  for (std::int64_t i = n + 1; i < *length; ++i)
    b[i] = static_cast<std::int64_t>(static_cast<std::uint64_t>(a[i]) + static_cast<std::uint64_t>(b[i]));
}

MPI_Op ballot_op() {
  static const MPI_Op op = [] {
    MPI_Op o = MPI_OP_NULL;
    MPI_Op_create(lowest_then_sum, 1, &o);
    return o;
  }();
  return op;
}

}  // namespace

std::size_t Ballot::lowest(std::int64_t value) {
  low_.push_back(value);
  return low_.size() - 1;
}

// (The highest is the lowest of the complements, which, unlike negation,
// never overflows.)
std::size_t Ballot::highest(std::int64_t value) { return lowest(~value); }

std::size_t Ballot::same(std::int64_t value) {
  low_.insert(low_.end(), {value, ~value});
  return low_.size() - 2;
}

std::size_t Ballot::sum(std::int64_t value) {
  sums_.push_back(value);
  return sums_.size() - 1;
}

void Ballot::cast(MPI_Comm comm) {
  std::vector<std::int64_t> words{static_cast<std::int64_t>(low_.size())};
  words.insert(words.end(), low_.begin(), low_.end());
  words.insert(words.end(), sums_.begin(), sums_.end());
  MPI_Allreduce(MPI_IN_PLACE, words.data(), static_cast<int>(words.size()), MPI_INT64_T, ballot_op(), comm);
  std::copy_n(words.begin() + 1, low_.size(), low_.begin());
  std::copy(words.begin() + 1 + static_cast<std::ptrdiff_t>(low_.size()), words.end(), sums_.begin());
}

}  // namespace dapetra::mpi::detail

namespace dapetra::mpi {

using detail::rank_of;
using detail::size_of;
using detail::throw_if_too_large_for_mpi;

std::size_t Inbox::index_of(int p) const {
  const auto it = std::lower_bound(sources.begin(), sources.end(), p);
  return it == sources.end() || *it != p ? count() : static_cast<std::size_t>(it - sources.begin());
}

namespace {

// Two tags, used in turn by consecutive exchanges on a communicator: a
// process that has left one exchange may already send for the next while a
// slower one still receives for this one, but cannot get two ahead (the
// next exchange's reduction waits for the slower one). Above the plans'
// tags (LayoutAccess::next_tag) and below 32767, MPI's least upper bound.
constexpr int exchange_tags = 32000;

int free_counter(MPI_Comm, int, void* value, void*) {
  delete static_cast<int*>(value);
  return MPI_SUCCESS;
}

int exchange_keyval() {
  static const int keyval = [] {
    int k = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, free_counter, &k, nullptr);
    return k;
  }();
  return keyval;
}

// This exchange's tag: every process counts the exchanges on `comm` alike
// (they are collective, in the same order everywhere).
int next_exchange_tag(MPI_Comm comm) {
  void* value = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, exchange_keyval(), &value, &found);
  if (!found) {
    value = new int(0);
    MPI_Comm_set_attr(comm, exchange_keyval(), value);
  }
  int& count = *static_cast<int*>(value);
  return exchange_tags + (count++ & 1);
}

}  // namespace

Inbox exchange_words(const Outbox& out, MPI_Comm comm) {
  const int me = rank_of(comm);
  const int tag = next_exchange_tag(comm);
  std::vector<std::pair<int, std::vector<std::int64_t>>> got;
  // This process's verdict, combined by the reduction below (the lowest
  // code, then the lowest rank): 0 a destination outside the communicator,
  // 1 a message too large for MPI's int counts, 2 all well. Nothing faulty
  // is sent, so every process still completes the exchange, then throws.
  enum : int { bad_destination = 0, too_large = 1, fine = 2 };
  struct {
    int code, rank;
  } mine{fine, me}, all{fine, me};
  std::vector<MPI_Request> sends;
  for (const auto& [dest, words] : out) {
    if (words.empty()) continue;
    if (dest < 0 || dest >= size_of(comm)) {
      mine.code = bad_destination;
      continue;
    }
    if (dest == me) {
      got.emplace_back(me, words);
      continue;
    }
    if (words.size() > static_cast<std::size_t>(std::numeric_limits<int>::max())) {
      mine.code = std::min<int>(mine.code, too_large);
      continue;
    }
    sends.emplace_back();
    MPI_Issend(words.data(), static_cast<int>(words.size()), MPI_INT64_T, dest, tag, comm, &sends.back());
  }
  int sent = 0, done = 0;
  MPI_Request everyone = MPI_REQUEST_NULL;
  while (!done) {
    int arrived = 0;
    MPI_Status status;
    MPI_Iprobe(MPI_ANY_SOURCE, tag, comm, &arrived, &status);
    if (arrived) {
      int n = 0;
      MPI_Get_count(&status, MPI_INT64_T, &n);
      got.emplace_back(status.MPI_SOURCE, std::vector<std::int64_t>(static_cast<std::size_t>(n)));
      MPI_Recv(got.back().second.data(), n, MPI_INT64_T, status.MPI_SOURCE, tag, comm, MPI_STATUS_IGNORE);
      continue;
    }
    if (!sent) {
      MPI_Testall(static_cast<int>(sends.size()), sends.data(), &sent, MPI_STATUSES_IGNORE);
      // Every message of this process is matched: join the reduction.
      if (sent) MPI_Iallreduce(&mine, &all, 1, MPI_2INT, MPI_MINLOC, comm, &everyone);
    } else {
      MPI_Test(&everyone, &done, MPI_STATUS_IGNORE);
    }
  }
  if (all.code == bad_destination)
    throw ValidationError({Problem::of(
        all.rank, "destination", "", "every destination is a rank of the communicator",
        "rank " + std::to_string(all.rank) + " named a destination outside 0.." + std::to_string(size_of(comm) - 1))});
  if (all.code == too_large) throw_if_too_large_for_mpi(static_cast<long long>(std::numeric_limits<int>::max()) + 1,
                                                        "the words one process sends to another");
  std::sort(got.begin(), got.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  Inbox in;
  std::size_t total = 0;
  for (const auto& g : got) total += g.second.size();
  in.words.reserve(total);
  for (auto& [source, words] : got) {
    in.sources.push_back(source);
    in.words.insert(in.words.end(), words.begin(), words.end());
    in.begin.push_back(in.words.size());
  }
  return in;
}

}  // namespace dapetra::mpi
