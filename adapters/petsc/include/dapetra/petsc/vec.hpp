/// \file
/// dapetra/petsc/vec.hpp: PETSc vectors as DAP arrays, and DAP arrays as PETSc
/// vectors, over one memory.
///
/// A PETSc MPI vector's owned part is a 'b' record (its ownership range); the
/// local form of a ghosted vector (owned entries, then ghosts) is a 'u' record
/// with one_to_one false, whose owners are the ownership ranges (not the
/// lowest holder: owners_of() gives the layout that rule). Neither direction
/// copies: vec_as_distarray() hands out the Vec's own array, vec_over() makes
/// a Vec over the producer's buffer.
///
/// Lifetime: a DistArray made from a Vec holds a reference to the Vec (its
/// keep_alive), so the memory is valid as long as the DistArray or any copy
/// of it lives, provided nobody replaces the Vec's array (VecPlaceArray,
/// VecReplaceArray) meanwhile. PETSc's array access (VecGetArray) is
/// returned at once; the address stays the Vec's. A Vec made by vec_over()
/// never frees the producer's memory, which must outlive it: the caller
/// destroys the Vec (VecDestroy) before the producer's memory goes.
#pragma once

#include <petscvec.h>

#include <memory>

#include "dapetra/distarray.hpp"
#include "dapetra/mpi/distributed_layout.hpp"

namespace dapetra::petsc {

/// A Vec (sequential or MPI, real scalars) as a 1-D DAP array over its own
/// memory: one 'b' record, its ownership range. Not collective.
/// @param v a PETSc Vec (MPI or sequential).
/// @return a 'b' array over v's memory (it holds a reference to v).
DistArray vec_as_distarray(Vec v);

/// The local form of a ghosted Vec (VecCreateGhost...) as a 1-D DAP array: a
/// 'u' record of the global indices of the owned entries, then of the ghosts.
/// Not collective.
/// @param v a ghosted PETSc Vec.
/// @return a 'u' array over the local form's memory: owned entries, then the ghosts.
DistArray ghosted_as_distarray(Vec v);

/// The ownership PETSc's ghost updates have: a shared index belongs to the
/// process whose ownership range holds it, given as ranges
/// (mpi::Ownership::from_ranges), so the layout finds its owners in closed
/// form with no rendezvous: for a layout of ghosted_as_distarray(v), or of
/// any 1-D 'u' array over v's ownership ranges that holds its owned range
/// first, in order (the layout's creation checks it). Not collective.
/// @param v a PETSc Vec (ghosted or not).
/// @return the ownership, for mpi::DistributedLayoutOptions::ownership.
mpi::Ownership owners_of(Vec v);

/// A Vec over `array`'s memory, no copy. Collective over the layout's
/// communicator. PETSc can hold an array of doubles whose owned elements, in
/// rank order, are the consecutive global indices:
///   - 1-D: a 'b' record without communication padding (an MPI Vec), or a
///     'u' record holding its owned indices first and in increasing order,
///     then copies of others' (a ghosted Vec: the result is the global Vec,
///     its local form is `array`'s buffer);
///   - n-D: the array flattened in C order, when every process's buffer is
///     C-contiguous, holds only elements it owns, and its flat global indices
///     are one run (a split of the leading axis: the spec's examples 2.1, 2.4).
/// Anything else is refused on every process alike (ValidationError, saying
/// why); copy_to_new_vec() then moves the values into a new Vec. The caller
/// destroys the Vec; `array`'s memory must outlive it.
/// @param layout the array's layout.
/// @param array a 1-D array PETSc can hold as it is.
/// @return a new Vec over the array's memory (the caller destroys it; the memory stays the array's).
Vec vec_over(const mpi::DistributedLayout& layout, const DistArray& array);

/// A new MPI Vec (PETSc's own memory) holding `array` flattened in C order:
/// element g of a 1-D array at index g, split as PETSc splits a length; an
/// n-D array's leading axis split that way, the other axes whole. A
/// redistribution, so it copies. For layouts vec_over() refuses. Collective.
/// @param layout the array's layout.
/// @param array any array of doubles of that layout.
/// @return a new Vec holding a copy of the owned values (the caller destroys it).
Vec copy_to_new_vec(const std::shared_ptr<const mpi::DistributedLayout>& layout, const DistArray& array);

}  // namespace dapetra::petsc
