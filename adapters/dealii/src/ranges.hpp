// Owned ranges as deal.II numbers them (in rank order, each process's
// locally owned dofs one contiguous range), gathered and checked: shared
// by the vectors' ownership (vector.cpp) and the matrix's rows
// (tpetra_matrix.cpp).
#pragma once

#include <deal.II/base/index_set.h>
#include <mpi.h>

#include <vector>

#include "dapetra/dim.hpp"

namespace dapetra::dealii {

/// Collective over `comm` (a prefix sum, a reduction and a gather of one word per process). The P+1 boundaries of every
/// process's owned set, in rank order (an empty set repeats the boundary
/// before it). Sets that are not one range, global sizes that differ, or
/// sets that do not tile [0, size) in rank order throw the same
/// ValidationError on every process, naming the processes at fault.
/// @param owned this process's owned indices.
/// @param comm the processes.
/// @return P+1 boundaries, the same on every process.
std::vector<global_index_t> boundaries_of(const ::dealii::IndexSet& owned, MPI_Comm comm);

}  // namespace dapetra::dealii
