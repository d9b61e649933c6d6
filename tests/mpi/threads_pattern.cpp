// The message pattern of test_threads.cpp in plain MPI, with no Dapetra in
// it: to tell a fault of Dapetra's from one of the MPI library when the
// threaded-plans test hangs (docs/packaging.md).
//
// MPI_THREAD_MULTIPLE; three threads at once, each with its own tag, for
// `rounds` rounds:
//   - "blocking": a halo exchange with the left and right neighbours
//     (Irecv both, Isend both, Waitall);
//   - "split": two such exchanges in flight at once on one tag, begun in
//     order and completed in reverse (Waitall of the second, then the first);
//   - "moving": an exchange with every other process (a redistribution from
//     blocks to a cyclic layout talks to all of them at a few processes).
// Every payload carries its round, thread and sender, and every one is
// checked. Exit status 0 when all arrive right, 1 otherwise; a hang is the
// failure this program exists to show. On an MPI library known to hang so
// (../common/thread_faults.hpp) it runs clear of the fault, as the threaded
// test does, unless told --as-is: the test suite checks the way around, and
// `--as-is` in a loop shows the fault.
//
//   mpirun -n 3 threads_pattern [--as-is] [rounds]
#include <mpi.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <string>
#include <vector>

#include "../common/thread_faults.hpp"

namespace {

constexpr int words = 512;  // 4 KiB messages, as the test's halos and blocks

int P = 1, r = 0;
std::atomic<int> wrong{0};

// The value of word w of the message from `from` to `to` in round k on `tag`.
long long value(int k, int tag, int from, int to, int w) {
  return ((static_cast<long long>(k) * 64 + tag) * 4096 + from * 64 + to) * 1024 + w;
}

// One exchange with `peers` on `tag`: receives posted first, then sends.
struct Exchange {
  std::vector<std::vector<long long>> in, out;
  std::vector<MPI_Request> requests;
  std::vector<int> peers;
  int tag = 0, round = 0;

  void begin(const std::vector<int>& to, int t, int k) {
    peers = to, tag = t, round = k;
    in.assign(peers.size(), std::vector<long long>(words, -1));
    out.assign(peers.size(), std::vector<long long>(words));
    requests.assign(2 * peers.size(), MPI_REQUEST_NULL);
    for (std::size_t i = 0; i < peers.size(); ++i)
      MPI_Irecv(in[i].data(), words, MPI_LONG_LONG, peers[i], tag, MPI_COMM_WORLD, &requests[i]);
    for (std::size_t i = 0; i < peers.size(); ++i) {
      for (int w = 0; w < words; ++w) out[i][static_cast<std::size_t>(w)] = value(k, tag, r, peers[i], w);
      MPI_Isend(out[i].data(), words, MPI_LONG_LONG, peers[i], tag, MPI_COMM_WORLD, &requests[peers.size() + i]);
    }
  }
  void end() {
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    for (std::size_t i = 0; i < peers.size(); ++i)
      for (int w = 0; w < words; ++w) wrong += in[i][static_cast<std::size_t>(w)] != value(round, tag, peers[i], r, w);
  }
};

std::vector<int> neighbours() {
  std::vector<int> out;
  if (r > 0) out.push_back(r - 1);
  if (r + 1 < P) out.push_back(r + 1);
  return out;
}

std::vector<int> everyone_else() {
  std::vector<int> out;
  for (int q = 0; q < P; ++q)
    if (q != r) out.push_back(q);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const bool as_is = argc > 1 && std::string(argv[1]) == "--as-is";
  const dapetra::testing::ThreadFault fault = dapetra::testing::known_thread_fault();
  if (!fault.version.empty() && !as_is) setenv("OMPI_MCA_btl", fault.avoided.c_str(), 1);
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (provided < MPI_THREAD_MULTIPLE) {
    if (r == 0) std::printf("threads_pattern: this MPI does not provide MPI_THREAD_MULTIPLE (skipped)\n");
    MPI_Finalize();
    return 0;
  }
  if (r == 0 && !fault.version.empty())
    std::printf("threads_pattern: %s: %s; %s\n", fault.version.c_str(), fault.what.c_str(),
                as_is ? "run as it is (--as-is)" : ("run with btl " + fault.avoided).c_str());
  const int rounds = argc > 1 + as_is ? std::atoi(argv[1 + as_is]) : 300;
  std::thread blocking([&] {
    for (int k = 0; k < rounds; ++k) {
      Exchange x;
      x.begin(neighbours(), 1, k);
      x.end();
    }
  });
  std::thread split([&] {
    for (int k = 0; k < rounds; ++k) {
      Exchange first, second;
      first.begin(neighbours(), 2, k);
      second.begin(neighbours(), 2, k);
      second.end();
      first.end();
    }
  });
  std::thread moving([&] {
    for (int k = 0; k < rounds; ++k) {
      Exchange x;
      x.begin(everyone_else(), 3, k);
      x.end();
    }
  });
  blocking.join();
  split.join();
  moving.join();
  int all = 0, mine = wrong.load();
  MPI_Reduce(&mine, &all, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (r == 0) std::printf("threads_pattern: %d rounds on %d processes, %d wrong words\n", rounds, P, all);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
