/// \file
/// dapetra/mpi/agree.hpp: one process's fault becomes every process's error.
///
/// A collective call (creating a layout, a matrix, a solve) must not leave a
/// process waiting inside MPI for a peer that stopped on a fault of its own
/// input. Before the collective part, every process states what it found
/// wrong with its own input; agree() then makes every process throw the same
/// ValidationError, listing every process's problems, or lets every process
/// go on. Adapters, the Python module and the examples use this one helper.
#pragma once

#include <mpi.h>

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "dapetra/error.hpp"

namespace dapetra::mpi {

/// Collective over `comm`: every process calls it, with its own problems
/// (empty when its input is fine). When no process has any, it returns on
/// every process after one reduction of a flag. Otherwise every process
/// throws the same ValidationError listing every process's problems (each
/// distinct problem once, in rank order); only then are problems gathered.
/// @param mine this process's problems.
/// @param comm the processes.
void agree(const std::vector<Problem>& mine, MPI_Comm comm);

/// The problem an exception other than ValidationError stands for: this
/// rank, its what() as the message (no dimension, key or rule is known).
/// @param e the exception.
/// @param comm the processes (for this rank).
Problem problem_from(const std::exception& e, MPI_Comm comm);

/// Collective over `comm`: runs `step` on this process, then agree()s on how
/// it went. A ValidationError thrown by `step` contributes its problems; any
/// other std::exception one problem with its message (problem_from). So
/// either every process throws the same ValidationError or none does.
/// @param comm the processes.
/// @param step the work.
template <class Step>
void agree_on(MPI_Comm comm, Step&& step) {
  std::vector<Problem> mine;
  try {
    std::forward<Step>(step)();
  } catch (const ValidationError& e) {
    mine = e.problems();
  } catch (const std::exception& e) {
    mine.push_back(problem_from(e, comm));
  }
  agree(mine, comm);
}

/// Collective over `comm` (one reduction of two 64-bit words): whether this
/// process's `arguments` (a call's collective arguments written out as
/// text) are every process's. False only on the processes whose text
/// differs from the one that hashes least, so that exactly those report a
/// problem (a hash collision can let a difference pass: 2^-64). For calls
/// that must refuse arguments differing between processes before going
/// into collectives with them.
/// @param arguments this process's arguments, written out.
/// @param comm the processes.
/// @return whether they are the least-hashed process's.
bool same_as_every_process(const std::string& arguments, MPI_Comm comm);

/// Collective over `comm`: true on every process when `value` is true on
/// every process (one reduction). For decisions every process must take
/// alike, such as choosing a faster path only when all can.
/// @param value this process's flag.
/// @param comm the processes.
/// @return whether every process's flag is true.
bool all_true(bool value, MPI_Comm comm);

}  // namespace dapetra::mpi
