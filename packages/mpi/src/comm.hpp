// Internal: Dapetra's own communicator beside each of the caller's.
//
// Every layout talks on a duplicate of the caller's communicator, never on
// the caller's own, so no message of Dapetra's can match one of the
// caller's. The duplicate is made once per caller communicator (the first
// layout's creation, collectively) and kept as an MPI attribute of that
// communicator, as PETSc keeps its inner communicators: later layouts on the
// same communicator share it (MPI_Comm_dup costs 10-500 us, more than a
// small layout's whole creation). It is freed when the caller's
// communicator is freed and no layout uses it any more.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace dapetra::mpi::detail {

struct InnerComm {
  MPI_Comm comm = MPI_COMM_NULL;
  // Plans take their message tags from here. Creating a layout or a plan is
  // collective over the communicator, so every process numbers them alike.
  std::atomic<int> plans_created{0};
  // Each layout's number among those created on `comm`: the same on every
  // process for the layouts one collective creation made, so plans can
  // check with one reduction that every process passed the same layouts.
  std::atomic<std::int64_t> layouts_created{0};
  explicit InnerComm(MPI_Comm c) : comm(c) {}
  InnerComm(const InnerComm&) = delete;
  InnerComm& operator=(const InnerComm&) = delete;
  ~InnerComm();

  // The processes of `comm` on this process's grid line along `axis` of a
  // process grid of `shape` (C-order ranks: those whose coordinates differ
  // from this one's only along `axis`), ranked by their coordinate along it.
  // Collective over `comm` the first time a shape and axis are asked for
  // (MPI_Comm_split), local after: layouts on the same grid share the lines,
  // as they share `comm`, and are freed with it.
  MPI_Comm grid_line(const std::vector<int>& shape, int axis);

 private:
  std::mutex lines_mutex_;
  std::map<std::pair<std::vector<int>, int>, MPI_Comm> lines_;
};

// Collective the first time for a given communicator (MPI_Comm_dup), local after.
std::shared_ptr<InnerComm> inner_comm(MPI_Comm user);

}  // namespace dapetra::mpi::detail
