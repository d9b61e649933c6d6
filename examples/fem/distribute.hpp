// From mesh blocks to partitioned parts, in parallel, with no process ever
// holding the whole mesh (a file is read on one process, which holds it until
// it is distributed). Three collective steps, each with Dapetra or a
// library doing the work:
//   read_mesh_block   rank 0 reads the file; every process learns whether it could;
//   partition_cells   Zoltan2's recursive coordinate bisection of the cells' centroids;
//   distribute_mesh   the cells move to their parts by a Dapetra
//                     RedistributionPlan from their 'b' blocks to a 'u'
//                     layout; each process fetches its nodes' coordinates
//                     the same way; the layout decides who owns shared nodes
//                     (the lowest rank holding one, Dapetra's rule); owned
//                     nodes are numbered consecutively in rank order (what
//                     PETSc's ownership ranges need); one halo update gives
//                     every copy its number and owner.
// Every fault (a bad file, an empty part, a part number out of range) throws
// the same MeshError on every process: nobody waits.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "mesh.hpp"

namespace fem {

// This process's part of a partitioned mesh.
struct MeshPart {
  // This process's cells, their corners numbered locally (indices into
  // `nodes`), and every node of them, owned nodes first.
  Mesh local;
  std::vector<std::int64_t> nodes;  // each local node's global number
  std::size_t num_owned = 0;
  std::vector<int> owner;                 // each local node's owning rank
  std::vector<std::int64_t> input_nodes;  // each local node's number in the input (file or generator)
  std::vector<std::int64_t> input_cells;  // each local cell's number in the input, increasing
  std::int64_t num_nodes = 0, num_cells = 0;  // the whole mesh's
};

// Collective over `comm`. Rank 0 reads `path` (read_mesh_file) and keeps the
// whole mesh as its block; every other process gets an empty block of it.
// Throws the reader's MeshError on every process when rank 0 cannot read it.
MeshBlock read_mesh_block(const std::string& path, MPI_Comm comm);

// Collective over `comm`: Zoltan2's recursive coordinate bisection of the
// block's cell centroids into one part per process. Returns the part of each
// cell of this process's block.
std::vector<int> partition_cells(const MeshBlock& block, MPI_Comm comm);

// Collective over `comm`: every process's part, its cells those of `block`
// (all processes' blocks together) whose `cell_part` is its rank. Throws
// MeshError on every process when some part would be empty or a part number
// is not a rank.
MeshPart distribute_mesh(const MeshBlock& block, const std::vector<int>& cell_part, MPI_Comm comm);

// Collective over `comm`: throws MeshError(message) on every process when
// `fault` is not empty on any (the message of the lowest such rank).
void agree_on_fault(MPI_Comm comm, const std::string& fault);

}  // namespace fem
