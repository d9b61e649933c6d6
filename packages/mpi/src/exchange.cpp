#include "exchange.hpp"

#include <cstring>

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

void Round::reset(std::size_t in_bytes, std::size_t out_bytes, std::size_t messages) {
  const std::size_t in_need = in_bytes + messages * (Round::header + 16);
  const std::size_t out_need = out_bytes + messages * (Round::header + 16);
  if (in_need > in_capacity_) in_.reset(new char[in_capacity_ = in_need]);
  if (out_need > out_capacity_) out_.reset(new char[out_capacity_ = out_need]);
  in_used_ = out_used_ = 0;
  in_at_.clear();
  requests_.clear();
}

void Round::receive(int peer, std::size_t payload, int tag, MPI_Comm comm) {
  // A message too large for MPI's int count is known as such to both ends
  // (the call's checks flag it), so its sender sends the header alone.
  std::size_t bytes = slot_bytes(payload);
  if (bytes > static_cast<std::size_t>(max_message_bytes)) bytes = Round::header;
  in_at_.push_back(in_used_);
  requests_.emplace_back();
  MPI_Irecv(in_.get() + in_used_, static_cast<int>(bytes), MPI_BYTE, peer, tag, comm, &requests_.back());
  in_used_ += bytes;
}

char* Round::out_slot(std::size_t payload) {
  char* slot = out_.get() + out_used_;
  out_used_ += slot_bytes(payload);
  return slot;
}

void Round::write_header(char* slot, const FaultNote& note) {
  const std::int64_t words[2] = {static_cast<std::int64_t>(note.fault), note.rank};
  std::memcpy(slot, words, sizeof words);
}

void Round::post_send(char* slot, std::size_t bytes, int peer, int tag, MPI_Comm comm) {
  requests_.emplace_back();
  MPI_Isend(slot, static_cast<int>(bytes), MPI_BYTE, peer, tag, comm, &requests_.back());
}

FaultNote Round::wait(FaultNote note) {
  MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  for (std::size_t at : in_at_) {
    if (!note.ok()) break;
    std::int64_t words[2];
    std::memcpy(words, in_.get() + at, sizeof words);
    if (words[0] != 0) note = FaultNote{static_cast<Fault>(words[0]), words[1]};
  }
  return note;
}

void throw_fault(const FaultNote& note, const char* operation) {
  throw ValidationError({describe_fault(note.fault, static_cast<int>(note.rank), operation)});
}

}  // namespace dapetra::mpi::detail
