// Internal: one round of point-to-point messages, the sequence every plan
// uses (post the receives, pack and send, wait, read every sender's status).
//
// Nobody waits forever: a process whose array is wrong (or that learned of
// another process's fault earlier in the same call) still posts its receives
// and sends each peer a message, a 16-byte fault note (the fault and the
// faulty rank) in place of the data, so every peer learns of the fault from
// the message it waits for, and no collective is added to the call.
//
// Two wire forms, chosen by the payload size alone so both ends agree
// without asking:
//   - bare (payload longer than a note): the data and nothing else. When a
//     peer's elements are one contiguous stretch of the caller's array it is
//     sent straight from it, or received straight into it, with no copy (as
//     PETSc's star forest does); otherwise packed as below. A fault note is
//     shorter than any bare payload, so the receiver tells the two apart by
//     the received size.
//   - with a header (payloads of 16 bytes or less): the 16-byte note, then
//     the data, packed; the header says whether the data is valid.
#pragma once

#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "checked.hpp"
#include "dapetra/mpi/plan_exchange.hpp"
#include "runs.hpp"

namespace dapetra::mpi::detail {

// The first fault this process knows of in the current call: its kind and
// the rank whose array caused it.
struct FaultNote {
  Fault fault = Fault::none;
  std::int64_t rank = -1;
  bool ok() const { return fault == Fault::none; }
};

// Message buffers, requests and statuses of one round; reused across calls
// (never zero-filled, grown only).
class Round {
 public:
  static constexpr std::size_t header = 16;  // bytes of a fault note; keeps payloads 16-byte aligned

  // Whether a payload of this many bytes travels bare (see the file's description).
  static bool bare(std::size_t payload) { return payload > header; }
  // Staging bytes of a message of `payload` bytes, rounded up so the next
  // message stays 16-byte aligned.
  static std::size_t staged_bytes(std::size_t payload);

  // Posts a receive of `payload` bytes from `peer`: straight into
  // `in_place` (the caller's array; bare messages only), or into staging.
  void receive(int peer, std::size_t payload, int tag, MPI_Comm comm, char* in_place = nullptr);
  // Sends `payload` bytes to `peer`: straight from `in_place` (bare messages
  // only), or packed into staging by pack(char*); a fault note alone when
  // `note` carries a fault.
  template <class Pack>
  void send(int peer, std::size_t payload, int tag, MPI_Comm comm, const FaultNote& note, const char* in_place,
            Pack&& pack) {
    if (!note.ok()) return send_note(peer, tag, comm, note);
    if (bare(payload) && in_place != nullptr) return post_send(in_place, payload, peer, tag, comm);
    char* slot = stage(staged_bytes(payload));
    char* data = slot;
    if (!bare(payload)) {
      write_note(slot, note);
      data += header;
    }
    pack(data);
    post_send(slot, bare(payload) ? payload : header + payload, peer, tag, comm);
  }
  // Waits for every message; returns `note`, or the first fault a sender reported.
  FaultNote wait(FaultNote note);
  // Whether the k-th receive posted landed in the caller's array.
  bool received_in_place(std::size_t k) const { return incoming_[k].in_place; }
  // The payload of the k-th receive posted (staged or in place).
  const char* payload(std::size_t k) const { return incoming_[k].at + (bare(incoming_[k].payload) ? 0 : header); }
  // Sizes the staging for a round of `in_bytes` / `out_bytes` (sums of
  // staged_bytes) and forgets the previous round.
  void reset(std::size_t in_bytes, std::size_t out_bytes);

 private:
  struct Incoming {
    char* at;             // where the message lands
    std::size_t payload;  // bytes the sender sends when it knows of no fault
    std::size_t request;  // its index in requests_
    bool in_place;
  };
  char* stage(std::size_t bytes);
  static void write_note(char* slot, const FaultNote& note);
  void send_note(int peer, int tag, MPI_Comm comm, const FaultNote& note);
  void post_send(const char* from, std::size_t bytes, int peer, int tag, MPI_Comm comm);
  FaultNote read(const Incoming& m) const;

  std::unique_ptr<char[]> in_, out_;
  std::size_t in_capacity_ = 0, out_capacity_ = 0, in_used_ = 0, out_used_ = 0;
  std::vector<Incoming> incoming_;
  std::vector<MPI_Request> requests_;
  std::vector<MPI_Status> statuses_;
};

// MPI counts are int: a call whose plan has a larger message is refused
// (Fault::message_size) before anything is sent.
inline constexpr long long max_message_bytes = 2147483647LL - 64;

// Whether a message of `count` elements of `item` bytes fits one MPI call.
inline bool fits_one_message(std::size_t count, std::size_t item) {
  return count <= static_cast<std::size_t>(max_message_bytes) / std::max<std::size_t>(item, 1) &&
         static_cast<long long>(Round::staged_bytes(count * item)) <= max_message_bytes;
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

// Where `runs` start when they are one contiguous stretch of
// `item`-byte elements (then a message needs no packing): its byte offset,
// else -1.
inline std::ptrdiff_t contiguous_offset(const std::vector<StridedRun>& runs, std::size_t item) {
  if (runs.size() != 1) return -1;
  const StridedRun& r = runs.front();
  return r.count == 1 || r.step == static_cast<std::ptrdiff_t>(item) ? r.offset : -1;
}

// One round over a plan's peers. Forward, each peer's `send` runs go out
// and its `recv` runs are filled; backward, the reverse (a halo plan's
// assembly, a redistribution's apply_reverse). Message sizes come from
// `item` (the layout's element size), so a process whose array is wrong
// still posts receives its peers' messages fit; it sends fault notes.
// Contiguous peers are sent from `send_base` and received into `recv_base`
// directly, when this process knows of no fault (its arrays were checked);
// a null `recv_base` stages every receive (assembly combines them).
template <class Scalar>
void post_round(Round& round, const std::vector<PlanPeer>& peers, bool forward, std::size_t item, int tag,
                MPI_Comm comm, const FaultNote& note, const char* send_base, char* recv_base) {
  const auto sends_of = [&](const PlanPeer& p) -> const std::vector<StridedRun>& { return forward ? p.send : p.recv; };
  const auto recvs_of = [&](const PlanPeer& p) -> const std::vector<StridedRun>& { return forward ? p.recv : p.send; };
  // Where a message goes straight from or into the caller's array, else nullptr (staged).
  const auto direct = [&](const std::vector<StridedRun>& runs, std::size_t bytes, auto* base) -> decltype(base) {
    const std::ptrdiff_t at = contiguous_offset(runs, item);
    return note.ok() && base != nullptr && Round::bare(bytes) && at >= 0 ? base + at : nullptr;
  };
  std::size_t in = 0, out = 0;
  for (const PlanPeer& p : peers) {
    const std::size_t in_bytes = (forward ? p.recv_count : p.send_count) * item;
    const std::size_t out_bytes = (forward ? p.send_count : p.recv_count) * item;
    if (in_bytes > 0 && !direct(recvs_of(p), in_bytes, recv_base))
      in += fits_one_message(in_bytes, 1) ? Round::staged_bytes(in_bytes) : Round::header;
    if (out_bytes > 0 && !direct(sends_of(p), out_bytes, send_base))
      out += note.ok() ? Round::staged_bytes(out_bytes) : Round::header;
  }
  round.reset(in, out);
  for (const PlanPeer& p : peers)
    if (const std::size_t bytes = (forward ? p.recv_count : p.send_count) * item; bytes > 0)
      round.receive(p.rank, bytes, tag, comm, direct(recvs_of(p), bytes, recv_base));
  for (const PlanPeer& p : peers)
    if (const std::size_t bytes = (forward ? p.send_count : p.recv_count) * item; bytes > 0)
      round.send(p.rank, bytes, tag, comm, note, direct(sends_of(p), bytes, send_base),
                 [&](char* to) { pack_runs<Scalar>(sends_of(p), send_base, 1, 0, to); });
}

// The staged payloads into the runs they fill (after a fault-free wait).
template <class Scalar>
void unpack_round(const Round& round, const std::vector<PlanPeer>& peers, bool forward, char* base) {
  std::size_t k = 0;
  for (const PlanPeer& p : peers)
    if ((forward ? p.recv_count : p.send_count) > 0) {
      if (!round.received_in_place(k)) unpack_runs<Scalar>(forward ? p.recv : p.send, base, 1, 0, round.payload(k));
      ++k;
    }
}

// Throws the fault `note` names, the same problem on every process that
// knows of it.
void throw_fault(const FaultNote& note, const char* operation);

// The plan calls that have a split phase.
enum class SplitCall { update, assemble, apply, apply_reverse };

}  // namespace dapetra::mpi::detail

namespace dapetra::mpi {

// What a PlanExchange holds while a split-phase call is in flight: its
// round, the fault this process knew of when it began, and what it began
// on, so that an end on another plan, call or array is caught.
struct PlanExchange::State {
  detail::Round round;
  detail::FaultNote note;
  const void* plan = nullptr;
  detail::SplitCall call = detail::SplitCall::update;
  const void* from = nullptr;  // the arrays' memory (one array: both the same)
  const void* to = nullptr;
  bool apart = true;  // a redistribution's two buffers do not overlap
  bool in_flight = false;

  // Starts `call` of `plan` on the arrays at `from` and `to`; throws
  // std::logic_error naming `operation` when a call is already in flight.
  void begin(const void* plan_, detail::SplitCall call_, const void* from_, const void* to_, const char* operation);
  // Waits for its messages and returns the first fault anyone knew of, or
  // Fault::other_array (naming `rank`) when the end got other arrays than
  // the begin. Throws std::logic_error naming `operation`, before waiting,
  // when no such call of `plan_` is in flight.
  detail::FaultNote end(const void* plan_, detail::SplitCall call_, const void* from_, const void* to_, int rank,
                        const char* operation);
};

}  // namespace dapetra::mpi
