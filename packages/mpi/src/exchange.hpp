// Internal: one round of point-to-point messages, the sequence every plan
// uses (post the receives, pack and send, wait, read every sender's status).
//
// Every message starts with a status header. A process whose array is wrong
// (or that learned of another process's fault earlier in the same call)
// still posts its receives and sends a header without data, so each peer
// gets the message it waits for and learns of the fault from it: nobody
// waits forever, and no collective is added to the call.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "checked.hpp"
#include "runs.hpp"

namespace dapetra::mpi::detail {

// The first fault this process knows of in the current call: its kind and
// the rank whose array caused it.
struct FaultNote {
  Fault fault = Fault::none;
  std::int64_t rank = -1;
  bool ok() const { return fault == Fault::none; }
};

// Message buffers and requests of one round; reused across calls (never
// zero-filled, grown only).
class Round {
 public:
  static constexpr std::size_t header = 16;  // bytes; keeps every payload 16-byte aligned

  // Posts a receive of `payload` bytes from `peer`.
  void receive(int peer, std::size_t payload, int tag, MPI_Comm comm);
  // Sends `payload` bytes from `peer`'s slot, written by pack(char*) unless
  // `note` carries a fault (then the header alone goes).
  template <class Pack>
  void send(int peer, std::size_t payload, int tag, MPI_Comm comm, const FaultNote& note, Pack&& pack) {
    char* slot = out_slot(payload);
    write_header(slot, note);
    if (note.ok()) pack(slot + header);
    post_send(slot, note.ok() ? header + payload : header, peer, tag, comm);
  }
  // Waits for every message; returns `note`, or the first fault a sender reported.
  FaultNote wait(FaultNote note);
  // The payload of the k-th receive posted.
  const char* payload(std::size_t k) const { return in_.get() + in_at_[k] + header; }
  // Sizes the buffers for a round of at most `in_bytes` / `out_bytes` payload
  // over `messages` messages each way, and forgets the previous round.
  void reset(std::size_t in_bytes, std::size_t out_bytes, std::size_t messages);

 private:
  char* out_slot(std::size_t payload);
  static void write_header(char* slot, const FaultNote& note);
  void post_send(char* slot, std::size_t bytes, int peer, int tag, MPI_Comm comm);

  std::unique_ptr<char[]> in_, out_;
  std::size_t in_capacity_ = 0, out_capacity_ = 0, in_used_ = 0, out_used_ = 0;
  std::vector<std::size_t> in_at_;
  std::vector<MPI_Request> requests_;
};

// MPI counts are int: a call whose plan has a larger message is refused
// (Fault::message_size) before anything is sent.
inline constexpr long long max_message_bytes = 2147483647LL - 64;

// Rounds a payload up so the next header stays 16-byte aligned.
inline std::size_t slot_bytes(std::size_t payload) { return Round::header + (payload + 15) / 16 * 16; }

// Whether a message of `count` elements of `item` bytes fits one MPI call.
inline bool fits_one_message(std::size_t count, std::size_t item) {
  return count <= static_cast<std::size_t>(max_message_bytes) / std::max<std::size_t>(item, 1) &&
         static_cast<long long>(slot_bytes(count * item)) <= max_message_bytes;
}

// Message buffers for a blocking call, kept per thread and reused by every
// plan's calls on it, so a plan holds no mutable state and threads never
// share buffers. A call made while the thread holds a lease (a
// redistribution's padding fill) takes a second set.
class ScratchLease {
 public:
  ScratchLease();
  ~ScratchLease();
  ScratchLease(const ScratchLease&) = delete;
  ScratchLease& operator=(const ScratchLease&) = delete;
  Round& round() { return *round_; }

 private:
  std::unique_ptr<Round> round_;
};

// One round over a plan's peers. Forward, each peer's `send` runs go out
// and its `recv` runs are filled; backward, the reverse (a halo plan's
// assembly, a redistribution's apply_reverse). Message sizes come from
// `item` (the layout's element size), so a process whose array is wrong
// still posts receives its peers' messages fit; it packs nothing.
template <class Scalar>
void post_round(Round& round, const std::vector<PlanPeer>& peers, bool forward, std::size_t item, int tag,
                MPI_Comm comm, const FaultNote& note, const char* base) {
  std::size_t in = 0, out = 0;
  for (const PlanPeer& p : peers) {
    in += forward ? p.recv_count : p.send_count;
    out += forward ? p.send_count : p.recv_count;
  }
  round.reset(in * item, out * item, peers.size());
  for (const PlanPeer& p : peers)
    if (const std::size_t n = forward ? p.recv_count : p.send_count; n > 0) round.receive(p.rank, n * item, tag, comm);
  for (const PlanPeer& p : peers)
    if (const std::size_t n = forward ? p.send_count : p.recv_count; n > 0)
      round.send(p.rank, n * item, tag, comm, note,
                 [&](char* to) { pack_runs<Scalar>(forward ? p.send : p.recv, base, 1, 0, to); });
}

// The received payloads into the runs they fill (after a fault-free wait).
template <class Scalar>
void unpack_round(const Round& round, const std::vector<PlanPeer>& peers, bool forward, char* base) {
  std::size_t k = 0;
  for (const PlanPeer& p : peers)
    if ((forward ? p.recv_count : p.send_count) > 0)
      unpack_runs<Scalar>(forward ? p.recv : p.send, base, 1, 0, round.payload(k++));
}

// Throws the fault `note` names, the same problem on every process that
// knows of it.
void throw_fault(const FaultNote& note, const char* operation);

}  // namespace dapetra::mpi::detail
