#include "exchange.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

#include "dapetra/error.hpp"

namespace dapetra::mpi::detail {

namespace {
// Returned by leases, taken by the next; grown buffers stay grown.
thread_local std::vector<std::unique_ptr<Round>> free_rounds;
}  // namespace

ScratchLease::ScratchLease() {
  if (free_rounds.empty()) {
    round_ = std::make_unique<Round>();
  } else {
    round_ = std::move(free_rounds.back());
    free_rounds.pop_back();
  }
}

ScratchLease::~ScratchLease() {
  try {
    free_rounds.push_back(std::move(round_));
  } catch (const std::bad_alloc&) {  // the buffers are freed instead of kept
  }
}

std::size_t Round::staged_bytes(std::size_t payload) {
  return (bare(payload) ? 0 : header) + (payload + 15) / 16 * 16;
}

void Round::reset(std::size_t in_bytes, std::size_t out_bytes) {
  if (in_bytes > in_capacity_) in_.reset(new char[in_capacity_ = in_bytes]);
  if (out_bytes > out_capacity_) out_.reset(new char[out_capacity_ = out_bytes]);
  in_used_ = out_used_ = 0;
  incoming_.clear();
  requests_.clear();
}

void Round::receive(int peer, std::size_t payload, int tag, MPI_Comm comm, char* in_place) {
  // A message too large for MPI's int count is known as such to both ends
  // (the call's checks flag it), so its sender sends a fault note alone.
  const bool too_large = !fits_one_message(payload, 1);
  const std::size_t bytes = too_large ? header : bare(payload) ? payload : header + payload;
  char* at = in_place;
  if (at == nullptr) {
    at = in_.get() + in_used_;
    in_used_ += too_large ? header : staged_bytes(payload);
  }
  incoming_.push_back({at, payload, requests_.size(), in_place != nullptr});
  requests_.emplace_back();
  MPI_Irecv(at, static_cast<int>(bytes), MPI_BYTE, peer, tag, comm, &requests_.back());
}

char* Round::stage(std::size_t bytes) {
  char* slot = out_.get() + out_used_;
  out_used_ += bytes;
  return slot;
}

void Round::write_note(char* slot, const FaultNote& note) {
  const std::int64_t words[2] = {static_cast<std::int64_t>(note.fault), note.rank};
  std::memcpy(slot, words, sizeof words);
}

void Round::send_note(int peer, int tag, MPI_Comm comm, const FaultNote& note) {
  char* slot = stage(header);
  write_note(slot, note);
  post_send(slot, header, peer, tag, comm);
}

void Round::post_send(const char* from, std::size_t bytes, int peer, int tag, MPI_Comm comm) {
  requests_.emplace_back();
  MPI_Isend(from, static_cast<int>(bytes), MPI_BYTE, peer, tag, comm, &requests_.back());
}

FaultNote Round::read(const Incoming& m) const {
  std::int64_t words[2];
  std::memcpy(words, m.at, sizeof words);
  return {static_cast<Fault>(words[0]), words[1]};
}

FaultNote Round::wait(FaultNote note) {
  statuses_.resize(requests_.size());
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), statuses_.data());
  for (const Incoming& m : incoming_) {
    if (!note.ok()) break;
    if (bare(m.payload)) {
      int got = 0;
      MPI_Get_count(&statuses_[m.request], MPI_BYTE, &got);
      // Anything but the whole payload is a fault note (section above).
      if (static_cast<std::size_t>(got) != m.payload) note = read(m);
    } else {
      note = read(m);
    }
  }
  return note;
}

void throw_fault(const FaultNote& note, const char* operation) {
  throw ValidationError({describe_fault(note.fault, static_cast<int>(note.rank), operation)});
}

}  // namespace dapetra::mpi::detail

namespace dapetra::mpi {

PlanExchange::PlanExchange() : state_(std::make_unique<State>()) {}
PlanExchange::~PlanExchange() = default;
PlanExchange::PlanExchange(PlanExchange&&) noexcept = default;
PlanExchange& PlanExchange::operator=(PlanExchange&&) noexcept = default;
bool PlanExchange::in_flight() const { return state_ && state_->in_flight; }

PlanExchange::State& PlanExchange::state() {
  if (!state_) state_ = std::make_unique<State>();
  return *state_;
}

void PlanExchange::State::begin(const void* plan_, detail::SplitCall call_, const void* from_, const void* to_,
                                const char* operation) {
  if (in_flight)
    throw std::logic_error(std::string("dapetra::mpi::") + operation + ": this PlanExchange is already in flight");
  plan = plan_;
  call = call_;
  from = from_;
  to = to_;
  apart = true;
  in_flight = true;
}

detail::FaultNote PlanExchange::State::end(const void* plan_, detail::SplitCall call_, const void* from_,
                                           const void* to_, int rank, const char* operation) {
  if (!in_flight || plan != plan_ || call != call_)
    throw std::logic_error(std::string("dapetra::mpi::") + operation +
                           ": no such call of this plan is in flight on this PlanExchange");
  in_flight = false;
  detail::FaultNote first = round.wait(note);
  if (first.ok() && (from_ != from || to_ != to)) first = {detail::Fault::other_array, rank};
  return first;
}

}  // namespace dapetra::mpi
