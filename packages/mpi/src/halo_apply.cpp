// Applying a HaloPlan: updates (blocking and split phase) and assemblies,
// as rounds of messages over the plan's runs. Building it: halo_plan.cpp.
#include "dapetra/mpi/halo.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>

#include "exchange.hpp"
#include "layout_access.hpp"
#include "plan_parts.hpp"
#include "runs.hpp"

namespace dapetra::mpi {

using detail::StridedRun;

namespace {

template <class Scalar>
Scalar& at(char* base, std::ptrdiff_t offset) {
  return *reinterpret_cast<Scalar*>(base + offset);
}

// Tpetra's ABSMAX: the larger magnitude (for complex values, as a real number).
template <class Scalar>
Scalar larger_magnitude(Scalar a, Scalar b) {
  using std::abs;
  return Scalar(std::max(abs(a), abs(b)));
}

template <class Scalar>
void combine(Scalar& into, Scalar value, CombineMode mode) {
  switch (mode) {
    case CombineMode::add: into += value; break;
    case CombineMode::insert: into = value; break;
    case CombineMode::absmax: into = larger_magnitude(into, value); break;
  }
}

}  // namespace

namespace {

// to[i] += from[i]; the two never overlap (from is the message buffer). Four
// independent additions per step and __restrict let the compiler use vector
// instructions at -O2 (whose vectoriser leaves the plain loop scalar).
template <class Scalar>
void add_into(Scalar* __restrict to, const Scalar* __restrict from, std::size_t n) {
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    to[i] += from[i];
    to[i + 1] += from[i + 1];
    to[i + 2] += from[i + 2];
    to[i + 3] += from[i + 3];
  }
  for (; i < n; ++i) to[i] += from[i];
}

// Combines a message into the runs, one(to, value) per element; packed runs
// go through bulk(to, from, count) when given (add: add_into). The mode is
// chosen once per message, not per element: scattered ghosts make runs of
// one or two elements. (Plain loops: the message cursor stays in a register.)
template <class Scalar, class One, class Bulk>
void combine_runs(const std::vector<StridedRun>& runs, char* base, const char* in, One one, Bulk bulk) {
  for (const StridedRun& r : runs) {
    const auto* from = reinterpret_cast<const Scalar*>(in);  // message payloads are 16-byte aligned
    char* first = base + r.offset;
    if (r.count > 2 && r.step == static_cast<std::ptrdiff_t>(sizeof(Scalar)))
      bulk(reinterpret_cast<Scalar*>(first), from, r.count);
    else
      for (std::size_t i = 0; i < r.count; ++i) one(at<Scalar>(first, static_cast<std::ptrdiff_t>(i) * r.step), from[i]);
    in += r.count * sizeof(Scalar);
  }
}

template <class Scalar>
void unpack_combine(const std::vector<StridedRun>& runs, char* base, const char* in, CombineMode mode) {
  const auto larger = [](Scalar& to, Scalar value) { to = larger_magnitude(to, value); };
  switch (mode) {
    case CombineMode::add:
      combine_runs<Scalar>(runs, base, in, [](Scalar& to, Scalar value) { to += value; }, add_into<Scalar>);
      break;
    case CombineMode::insert: detail::unpack_runs<Scalar>(runs, base, 1, 0, in); break;
    case CombineMode::absmax:
      combine_runs<Scalar>(runs, base, in, larger, [&](Scalar* to, const Scalar* from, std::size_t n) {
        for (std::size_t i = 0; i < n; ++i) larger(to[i], from[i]);
      });
      break;
  }
}

}  // namespace

namespace detail {

template <class Scalar>
FaultNote HaloParts::check(const DistributedLayout& layout, const DistArray& array) const {
  const Fault fault = check_array<Scalar>(layout, array, true);
  if (fault != Fault::none) return {fault, layout.rank()};
  if (!messages_fit) return {Fault::message_size, layout.rank()};
  return {};
}

template <class Scalar>
void HaloParts::finish_update(const Round& round, char* base) const {
  unpack_round<Scalar>(round, peers, true, base);
  for (const auto& [from, to] : local_copies) at<Scalar>(base, to) = at<Scalar>(base, from);
}

template <class Scalar>
void HaloParts::post_assemble(Round& round, const DistributedLayout& layout, char* base, const FaultNote& note) const {
  // Received contributions are combined, so they are staged; the ghosts go
  // out in place.
  post_round<Scalar>(round, peers, false, layout.itemsize(), tag + 1, layout.comm(), note, base, nullptr);
}

template <class Scalar>
void HaloParts::finish_assemble(const Round& round, char* base, CombineMode mode) const {
  std::size_t k = 0;
  for (const PlanPeer& peer : peers)
    if (peer.send_count > 0) unpack_combine<Scalar>(peer.send, base, round.payload(k++), mode);
  for (const auto& [from, to] : local_copies) combine(at<Scalar>(base, from), at<Scalar>(base, to), mode);
}

template <class Scalar>
FaultNote HaloParts::run_update(const DistributedLayout& layout, char* base, FaultNote note) const {
  ScratchLease lease;
  post_round<Scalar>(lease.round(), peers, true, layout.itemsize(), tag, layout.comm(), note, base, base);
  note = lease.round().wait(note);
  if (note.ok()) finish_update<Scalar>(lease.round(), base);
  return note;
}

}  // namespace detail

template <class Scalar>
void HaloPlan::update_impl(const DistArray& array) const {
  const detail::FaultNote note =
      parts_->run_update<Scalar>(*layout_, static_cast<char*>(array.buffer.data), parts_->check<Scalar>(*layout_, array));
  if (!note.ok()) detail::throw_fault(note, "HaloPlan::update");
}

template <class Scalar>
void HaloPlan::begin_update_impl(const DistArray& array, PlanExchange& exchange) const {
  PlanExchange::State& x = exchange.state();
  x.begin(this, detail::SplitCall::update, array.buffer.data, array.buffer.data, "HaloPlan::begin_update");
  x.note = parts_->check<Scalar>(*layout_, array);
  char* base = static_cast<char*>(array.buffer.data);
  detail::post_round<Scalar>(x.round, parts_->peers, true, layout_->itemsize(), parts_->tag, layout_->comm(), x.note,
                             base, base);
}

template <class Scalar>
void HaloPlan::end_update_impl(const DistArray& array, PlanExchange& exchange) const {
  PlanExchange::State& x = exchange.state();
  detail::FaultNote note =
      x.end(this, detail::SplitCall::update, array.buffer.data, array.buffer.data, layout_->rank(), "HaloPlan::end_update");
  if (note.ok()) note = parts_->check<Scalar>(*layout_, array);
  if (!note.ok()) detail::throw_fault(note, "HaloPlan::end_update");
  parts_->finish_update<Scalar>(x.round, static_cast<char*>(array.buffer.data));
}

template <class Scalar>
void HaloPlan::begin_assemble_impl(const DistArray& array, PlanExchange& exchange) const {
  PlanExchange::State& x = exchange.state();
  x.begin(this, detail::SplitCall::assemble, array.buffer.data, array.buffer.data, "HaloPlan::begin_assemble");
  x.note = parts_->check<Scalar>(*layout_, array);
  parts_->post_assemble<Scalar>(x.round, *layout_, static_cast<char*>(array.buffer.data), x.note);
}

template <class Scalar>
void HaloPlan::end_assemble_impl(const DistArray& array, PlanExchange& exchange, CombineMode mode) const {
  PlanExchange::State& x = exchange.state();
  detail::FaultNote note = x.end(this, detail::SplitCall::assemble, array.buffer.data, array.buffer.data,
                                 layout_->rank(), "HaloPlan::end_assemble");
  if (note.ok()) note = parts_->check<Scalar>(*layout_, array);
  if (!note.ok()) detail::throw_fault(note, "HaloPlan::end_assemble");
  parts_->finish_assemble<Scalar>(x.round, static_cast<char*>(array.buffer.data), mode);
}

template <class Scalar>
void HaloPlan::assemble_impl(const DistArray& array, CombineMode mode, bool then_update) const {
  const detail::HaloParts& parts = *parts_;
  char* base = static_cast<char*>(array.buffer.data);
  detail::FaultNote note = parts.check<Scalar>(*layout_, array);
  {
    detail::ScratchLease lease;
    parts.post_assemble<Scalar>(lease.round(), *layout_, base, note);
    note = lease.round().wait(note);
    if (note.ok()) parts.finish_assemble<Scalar>(lease.round(), base, mode);
  }
  // The second round runs whatever happened in the first, so a process that
  // learned of a fault passes it on instead of leaving its peers waiting.
  if (then_update) note = parts.run_update<Scalar>(*layout_, base, note);
  if (!note.ok()) detail::throw_fault(note, "HaloPlan::assemble");
}

#define DAPETRA_INSTANTIATE_HALO(S)                                                            \
  template void HaloPlan::update_impl<S>(const DistArray&) const;                              \
  template void HaloPlan::begin_update_impl<S>(const DistArray&, PlanExchange&) const;         \
  template void HaloPlan::end_update_impl<S>(const DistArray&, PlanExchange&) const;           \
  template void HaloPlan::begin_assemble_impl<S>(const DistArray&, PlanExchange&) const;       \
  template void HaloPlan::end_assemble_impl<S>(const DistArray&, PlanExchange&, CombineMode) const; \
  template void HaloPlan::assemble_impl<S>(const DistArray&, CombineMode, bool) const;         \
  template detail::FaultNote detail::HaloParts::run_update<S>(const DistributedLayout&, char*, detail::FaultNote) const;

DAPETRA_FOR_EACH_PLAN_SCALAR(DAPETRA_INSTANTIATE_HALO)

}  // namespace dapetra::mpi
