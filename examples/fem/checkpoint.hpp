// The finite-element pipeline's checkpoint: the mesh and the solution in one
// parallel HDF5 file (Dapetra::hdf5), numbered as the input numbers them
// (the generator's or the file's node and cell numbers), which no partition
// changes. So a run on N processes writes it, and a run on M processes reads
// the mesh back in even blocks (a MeshBlock, as a generated mesh or a file
// gives one), partitions it anew, and finds every node's value by its
// number. Datasets, all plain HDF5 arrays in input order:
//   mesh/coordinates  nodes x 3 doubles (z = 0 in 2-D)
//   mesh/boundary     nodes ints (1: on the Dirichlet boundary)
//   mesh/cells        cells x (dim + 1) 64-bit node numbers
//   mesh/centroids    cells x 3 doubles (what the partitioner reads)
//   solution          nodes x components doubles
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "distribute.hpp"
#include "mesh.hpp"

namespace fem {

// Collective over `comm`: writes `part`'s mesh and `u` (its value at each
// held node of the part, `components` per node, interleaved) as a new file
// at `path` (written under a temporary name, renamed when complete).
void write_checkpoint(const std::string& path, const MeshPart& part, const std::vector<double>& u, int components,
                      MPI_Comm comm);

// Collective over `comm`, on any number of processes: this process's block
// of the checkpoint's mesh (an even split of node numbers and of cell
// numbers), ready for partition_cells and distribute_mesh. Faults (no such
// file, a dataset missing or of another shape) throw the same
// dapetra::ValidationError on every process.
MeshBlock read_checkpoint_block(const std::string& path, MPI_Comm comm);

// Collective over `comm`: the checkpoint's solution at every held node of
// `part` (found by its input number), `components` per node, interleaved;
// `components` is set from the file.
std::vector<double> read_checkpoint_solution(const std::string& path, const MeshPart& part, int& components,
                                             MPI_Comm comm);

// Local (call it on one process): an XDMF 3 file at `xdmf` that shows the
// checkpoint `h5` (its path from xdmf's folder) in ParaView or VisIt: the
// mesh of `cells` triangles (dim 2) or tetrahedra (dim 3) over `nodes`
// nodes, and the solution at the nodes ("u": a scalar, or a displacement of
// `components` values). The data stay in the HDF5 file, one for all processes.
void write_xdmf(const std::string& xdmf, const std::string& h5, int dim, std::int64_t nodes, std::int64_t cells,
                int components);

}  // namespace fem
