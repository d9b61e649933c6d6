// The public sparse exchange (dapetra/mpi/sparse_exchange.hpp): every
// process receives exactly what was sent to it, by source in ascending
// order, with no knowledge of its senders; rounds run back to back without
// mixing. The expected inbox is worked out on each process from the rule
// every sender follows, not from the exchange.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "dapetra/error.hpp"
#include "dapetra/mpi/sparse_exchange.hpp"
#include "mpi_test_util.hpp"

using namespace dapetra::mpi;
using dapetra::testing::world;

namespace {

// Whom `src` sends to in round `round`, and how many words (0: named, but
// nothing to send). Itself among them, and the same destination twice only
// once (a map).
std::map<int, int> sends_of(int src, int round, int P) {
  std::map<int, int> to;
  to[(src + 1 + round) % P] = 1 + (src + round) % 3;
  to[(3 * src + round) % P] = (src + 2 * round) % 4;  // sometimes 0 words
  if ((src + round) % 2 == 0) to[src] = 2;              // to itself
  return to;
}

std::int64_t word(int src, int dst, int round, int k) { return ((static_cast<std::int64_t>(round) * 1000 + src) * 1000 + dst) * 10 + k; }

Outbox outbox_of(int src, int round, int P) {
  Outbox out;
  for (const auto& [dst, n] : sends_of(src, round, P))
    for (int k = 0; k < n; ++k) out[dst].push_back(word(src, dst, round, k));
  for (const auto& [dst, n] : sends_of(src, round, P))
    if (n == 0) out[dst];  // named with an empty list: sends nothing
  return out;
}

}  // namespace

TEST(SparseExchange, EveryProcessGetsWhatWasSentToItAndNothingElse) {
  const auto comm = world();
  const int P = comm->size(), me = comm->rank();
  for (int round = 0; round < 6; ++round) {  // back to back: the rounds' tags alternate
    SCOPED_TRACE("round " + std::to_string(round));
    const Inbox in = exchange_words(outbox_of(me, round, P), comm);
    std::map<int, std::vector<std::int64_t>> expected;  // by source, ascending
    for (int src = 0; src < P; ++src) {
      const auto to = sends_of(src, round, P);
      const auto it = to.find(me);
      if (it == to.end() || it->second == 0) continue;
      for (int k = 0; k < it->second; ++k) expected[src].push_back(word(src, me, round, k));
    }
    ASSERT_EQ(in.count(), expected.size());
    std::size_t k = 0;
    for (const auto& [src, words] : expected) {
      ASSERT_EQ(in.sources[k], src);
      EXPECT_EQ(in.index_of(src), k);
      EXPECT_EQ(std::vector<std::int64_t>(in.of(k), in.of(k) + in.size(k)), words) << "from rank " << src;
      ++k;
    }
    EXPECT_EQ(in.index_of(P), in.count());  // nobody there
  }
}

TEST(SparseExchange, AProcessNamingNobodyStillReceives) {
  const auto comm = world();
  const int P = comm->size(), me = comm->rank();
  Outbox out;
  if (me != 0) out[0] = {me};  // everyone but rank 0 sends rank 0 its rank; rank 0 names nobody
  const Inbox in = exchange_words(out, comm);
  if (me == 0) {
    ASSERT_EQ(in.count(), static_cast<std::size_t>(P - 1));
    for (int src = 1; src < P; ++src) EXPECT_EQ(*in.of(static_cast<std::size_t>(src - 1)), src);
  } else {
    EXPECT_EQ(in.count(), 0U);
  }
}

// One process names a destination outside the communicator, each process in
// turn: nobody waits, and every process raises the same error naming it
// (the good messages still arrive first, so no message is left behind).
TEST(Faults, ADestinationOutsideTheCommunicatorIsRefusedOnEveryProcess) {
  const auto comm = world();
  const int P = comm->size(), me = comm->rank();
  for (int bad = 0; bad < P; ++bad) {
    SCOPED_TRACE("the fault on rank " + std::to_string(bad));
    Outbox out;
    out[(me + 1) % P] = {me};
    if (me == bad) out[bad % 2 == 0 ? P : -1] = {7};
    int rank_named = -2;
    try {
      exchange_words(out, comm);
    } catch (const dapetra::ValidationError& e) {
      rank_named = e.problems().front().rank;
    }
    EXPECT_EQ(rank_named, bad);
  }
  Outbox fine;
  fine[(me + 1) % P] = {me};
  const Inbox in = exchange_words(fine, comm);  // the communicator is still usable
  ASSERT_EQ(in.count(), 1U);
  EXPECT_EQ(*in.of(0), (me + P - 1) % P);
}
