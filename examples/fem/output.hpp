// Pictures and files of the example's results: a VTU file for ParaView
// (solution, exact solution, owner rank per node, partition per cell) and PNG
// images of the solution and of the partition, drawn here (PNG written with
// zlib, Debian's zlib1g).
#pragma once

#include <string>
#include <vector>

#include "mesh.hpp"

namespace fem {

void write_vtu(const std::string& path, const Mesh& mesh, const std::vector<double>& u, const std::vector<int>& node_owner,
               const std::vector<int>& cell_part);

// The solution, coloured (blue-white-red), interpolated linearly on each triangle.
void write_solution_png(const std::string& path, const Mesh& mesh, const std::vector<double>& u, int pixels = 640);

// The partition: each cell in its rank's colour, cell edges drawn darker.
void write_partition_png(const std::string& path, const Mesh& mesh, const std::vector<int>& cell_part, int pixels = 640);

}  // namespace fem
