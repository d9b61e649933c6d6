// Pictures and files of the example's results: parallel VTU for ParaView
// (one .pvtu index and one .vtu piece per process: the solution and the
// owner rank per node, the rank per cell) and, in 2-D, PNG images of the
// solution and of the partition, drawn here (PNG written with zlib).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "mesh.hpp"

namespace fem {

// One process's piece: its `cells`, and its `nodes` (every node of those
// cells) with their values `u` and owning ranks, aligned with `nodes`.
void write_vtu_piece(const std::string& path, const Mesh& mesh, const std::vector<std::size_t>& cells,
                     const std::vector<std::int64_t>& nodes, const std::vector<double>& u, const std::vector<int>& node_owner,
                     int rank);

// ParaView's index of the pieces (file names relative to the .pvtu's directory).
void write_pvtu(const std::string& path, const std::vector<std::string>& pieces);

// The solution, coloured (blue-white-red), interpolated linearly on each
// triangle, with a colour bar and a title giving the node count and h (2-D meshes).
void write_solution_png(const std::string& path, const Mesh& mesh, const std::vector<double>& u, int pixels = 640);

// The partition: each cell in its rank's colour, cell edges drawn darker, a
// legend of the ranks and the same title.
void write_partition_png(const std::string& path, const Mesh& mesh, const std::vector<int>& cell_part, int pixels = 640);

}  // namespace fem
