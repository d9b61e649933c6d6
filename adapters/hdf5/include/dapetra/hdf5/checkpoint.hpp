/// \file
/// dapetra/hdf5/checkpoint.hpp: any DAP array saved to parallel HDF5 and
/// loaded back on any number of processes, into any layout of its shape.
///
/// A checkpoint is one dataset per array in a plain HDF5 file: the global
/// array in global index order, n-D for an n-D array, of the element type's
/// HDF5 type, with a few attributes (the DAP version, each axis's dist_type
/// and the writers' process count). h5py and h5dump read it as it is.
///
/// save() moves the array into slabs, an even split of the first axis over
/// the processes (one redistribution plan), and each process writes its slab
/// with one collective hyperslab write. load() is the reverse on whatever
/// processes load: each reads an even slab, and one redistribution plan puts
/// every element where the target layout wants it; the target's padding
/// (ghosts) is filled by a halo update. So an array written by N processes
/// in one layout comes back on M processes in another: block, cyclic,
/// block-cyclic, padded, 'u' one-to-one or with overlap.
///
/// A save never leaves a file that reads as a valid checkpoint if it fails
/// part way: a new file is written under a temporary name and renamed once
/// every process has closed it; a dataset added to an existing file is
/// written under a temporary link and moved to its name when complete.
///
/// Faults: a missing file or dataset, a dataset of another shape or element
/// type than the target layout's, a file that is not HDF5, or different file
/// or dataset names on different processes, throw the same ValidationError
/// on every process (key "file", "dataset", "shape", "type" or "name"),
/// before any collective read or write. The file's sizes are never trusted
/// beyond what the layout says: a dataset is read only when its shape is the
/// target's.
#pragma once

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

#include "dapetra/distarray.hpp"
#include "dapetra/mpi/distributed_layout.hpp"
#include "dapetra/mpi/scalar.hpp"

namespace dapetra::hdf5 {

/// How save() treats the file.
enum class SaveMode {
  /// A new file (replacing one of that name once complete).
  create,
  /// A dataset added to an existing file (a time step, another field).
  append,
};

/// Collective over the layout's communicator: writes `array`'s owned
/// elements (each once, by its owner) as dataset `name` of `file`. Costs per
/// process: a redistribution plan's creation and one apply (its part of the
/// array, moved once), one collective hyperslab write of its slab (about
/// N / P elements), and HDF5's collective metadata operations.
/// @param array an array of `layout` (its owned elements are read).
/// @param layout the array's layout.
/// @param file the file's path (the same on every process).
/// @param name the dataset's name (the same on every process; "/" makes groups).
/// @param mode create a new file, or append to an existing one.
template <class Scalar>
void save(const DistArray& array, const std::shared_ptr<const mpi::DistributedLayout>& layout, const std::string& file,
          const std::string& name, SaveMode mode = SaveMode::create);

/// Collective over the target layout's communicator, on any number of
/// processes: reads dataset `name` of `file` into `array`, every owned
/// element from the file and the padding filled by a halo update. Costs per
/// process: one collective hyperslab read of an even slab (about N / P
/// elements), a redistribution plan's creation and one apply.
/// @param file the file's path (the same on every process).
/// @param name the dataset's name (the same on every process).
/// @param target the layout to load into (of the dataset's global shape).
/// @param array an array of `target` (its elements are written).
template <class Scalar>
void load(const std::string& file, const std::string& name, const std::shared_ptr<const mpi::DistributedLayout>& target,
          const DistArray& array);

/// Collective over `comm`: the global shape of dataset `name` of `file`,
/// to make a target layout for load(). Rank 0 reads the file's metadata
/// and broadcasts it: per process, two small broadcasts and an agreement.
/// A missing file or dataset, or names that differ between processes,
/// throw the same ValidationError on every process (key "file", "dataset"
/// or "name").
/// @param file the file's path (the same on every process).
/// @param name the dataset's name (the same on every process).
/// @param comm the processes.
/// @return the dataset's extent along each axis.
std::vector<global_index_t> dataset_shape(const std::string& file, const std::string& name, MPI_Comm comm);

}  // namespace dapetra::hdf5
