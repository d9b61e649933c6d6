/// \file
/// dapetra/dealii/vector.hpp: deal.II's distributed vectors as DAP arrays, over their own memory.
///
/// A `LinearAlgebra::distributed::Vector<double>` keeps this process's owned
/// entries (one contiguous range of global indices, its partitioner's
/// local_range()) followed by its ghosts (ghost_indices(), ascending): a 1-D
/// 'u' record, owned indices first. vector_as_distarray() hands out that
/// memory as a DAP array; owners_of() says who owns a shared index the way
/// deal.II does (the range that holds it), from the gathered ranges with no
/// rendezvous. From there a halo plan (mpi::HaloPlan: its update is deal.II's
/// update_ghost_values(), its assemble compress(VectorOperation::add)),
/// Tpetra's owned view and Tpetra's transfers work as for any DAP array, on
/// deal.II's own entries.
///
/// Lifetime: the array views the vector's memory and holds no reference to
/// it. It stays valid while the vector lives and is neither reinit()ed nor
/// swapped; the caller keeps the vector alive.
///
/// What does not fit: a partitioner built with a larger ghost set
/// (Partitioner::set_ghost_indices with its second argument) keeps its
/// ghosts at scattered places of a larger ghost region, which no 'u' record
/// over these indices describes; it is refused on every process. Vectors of
/// other scalar types or memory spaces have no overload. For
/// PETScWrappers::MPI::Vector use dapetra/petsc/vec.hpp on its Vec.
#pragma once

#include <deal.II/lac/la_parallel_block_vector.h>
#include <deal.II/lac/la_parallel_vector.h>

#include <vector>

#include "dapetra/distarray.hpp"
#include "dapetra/mpi/ownership.hpp"

namespace dapetra::dealii {

/// The deal.II vector this adapter takes.
using Vector = ::dealii::LinearAlgebra::distributed::Vector<double, ::dealii::MemorySpace::Host>;
/// Its block form: one layout per block.
using BlockVector = ::dealii::LinearAlgebra::distributed::BlockVector<double>;

/// Collective over v's communicator. v's owned entries, then its ghosts, as
/// a 1-D 'u' array (one_to_one false) over v's own memory: element i of the
/// buffer is v.local_element(i). A vector that does not fit (see above) on
/// any process throws the same ValidationError on every process.
/// @param v a deal.II distributed vector.
/// @return a 'u' array over v's memory (a view; v must outlive it).
DistArray vector_as_distarray(Vector& v);

/// Collective over each block's communicator: vector_as_distarray() of every block, in order.
/// @param v a deal.II distributed block vector.
/// @return one array per block, each over that block's memory.
std::vector<DistArray> block_vector_as_distarrays(BlockVector& v);

/// Collective over v's communicator (one gather of every process's range).
/// The ownership deal.II's partitioner has: a shared index belongs to the
/// process whose owned range holds it; the ranges, in rank order as deal.II
/// numbers them, become mpi::Ownership::from_ranges, owners in closed form
/// with no rendezvous. Processes that pass vectors of different partitioners
/// throw the same ValidationError on every process: a global size other than
/// most processes' names each process that has it; ranges that overlap,
/// leave a gap, or do not start at 0 or end at the size name the processes
/// on both sides of each broken boundary.
/// @param v a deal.II distributed vector.
/// @return the ownership, for mpi::DistributedLayoutOptions::ownership.
mpi::Ownership owners_of(const Vector& v);

}  // namespace dapetra::dealii
