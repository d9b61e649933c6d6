// Internal: the check every exchange starts with, and what a failed check
// tells the other processes. It runs on every halo update, so it costs
// O(ndim), not O(elements), and it never throws: a process whose array is
// wrong still takes part in the exchange (see exchange.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "dapetra/distarray.hpp"
#include "dapetra/mpi/distributed_layout.hpp"

namespace dapetra::mpi::detail {

// What was wrong with a caller's array, as one word on the wire (0: nothing).
// The list is written once: the enum and the descriptions come from it.
#define DAPETRA_ARRAY_FAULTS(M)                                                                                    \
  M(version, "__version__", "the array's protocol version is one this library speaks")                            \
  M(dim_data, "dim_data", "the array's records are those the layout was built from")                              \
  M(shape, "shape", "the buffer shape is the one the layout was built for")                                       \
  M(strides, "strides", "the buffer strides are the ones the layout was built for")                               \
  M(format, "format", "the buffer's element type is the layout's and the one requested")                          \
  M(readonly, "readonly", "a buffer the operation writes is writable")                                            \
  M(message_size, "message_size", "one message is under 2^31 bytes (MPI counts are int)")                         \
  M(other_array, "buffer", "a split-phase call's end gets the arrays its begin got")

enum class Fault : std::int64_t {
  none = 0,
#define DAPETRA_FAULT_ENUM(name, key, rule) name,
  DAPETRA_ARRAY_FAULTS(DAPETRA_FAULT_ENUM)
#undef DAPETRA_FAULT_ENUM
};

// The same problem on every process, whichever found it: the faulty rank,
// the key and the rule (the message names the operation).
Problem describe_fault(Fault fault, int rank, const char* operation);

// The array must have the layout's records, shape, strides and element type.
Fault check_fit(const DistributedLayout& layout, const DistArray& array);

// The same, the element type being Scalar's (never reinterpreted); `writes`
// asks for a writable buffer.
template <class Scalar>
Fault check_array(const DistributedLayout& layout, const DistArray& array, bool writes) {
  if (const Fault f = check_fit(layout, array); f != Fault::none) return f;
  if (!dapetra::detail::format_is(layout.format(), format_of<Scalar>()) || layout.itemsize() != sizeof(Scalar))
    return Fault::format;
  if (writes && array.buffer.readonly) return Fault::readonly;
  return Fault::none;
}

}  // namespace dapetra::mpi::detail
