// Pictures and files of the example's results: parallel VTU for ParaView
// (one .pvtu index and one .vtu piece per process: the solution and the
// owner rank per node, the rank per cell) and, in 2-D, PNG images of the
// solution and of the partition, drawn here (PNG written with zlib). No MPI
// here: the caller combines the processes' pixels.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "mesh.hpp"

namespace fem {

// One process's piece: its part's cells and nodes (local numbering) with
// the nodes' values `u` and owning ranks. `components` values per node,
// interleaved: 1 for a scalar; 2 or 3 for a displacement, written as a
// 3-component vector "u" (z = 0 in 2-D), so ParaView's "Warp By Vector" takes it.
void write_vtu_piece(const std::string& path, const Mesh& local, const std::vector<double>& u, int components,
                     const std::vector<int>& node_owner, int rank);

// ParaView's index of the pieces (file names relative to the .pvtu's
// directory), whose "u" has `components` values per node as the pieces have.
void write_pvtu(const std::string& path, const std::vector<std::string>& pieces, int components);

// 2-D pictures drawn in parallel without gathering the mesh: every process
// draws its own triangles into the same square frame (the whole mesh's
// bounding box), as packed pixels (0 where it has no triangle, else
// 1 << 24 | rgb), so the processes' pictures combine into the whole one by
// an elementwise maximum (MPI_MAX), and one process writes the PNG.
struct Frame {
  std::array<double, 2> lo;  // the mesh's lowest corner
  double scale;              // pixels per unit length
  int pixels;                // the frame's width and height
};
using Pixels = std::vector<int>;
Frame frame_of(const std::array<double, 2>& lo, const std::array<double, 2>& hi, int pixels = 640);

// The solution, coloured blue-white-red from `lo` to `hi`, linear on each
// triangle; with `edges`, the cells' edges drawn darker (a deformed mesh).
Pixels solution_pixels(const Frame& frame, const Mesh& local, const std::vector<double>& u, double lo, double hi,
                       bool edges = false);
// Every triangle in the colour of `rank`, cell edges darker.
Pixels partition_pixels(const Frame& frame, const Mesh& local, int rank);

// The PNGs from combined pixels: the solution's with its `title` and a
// colour bar from `lo` to `hi`; the partition's with a title ("partition, "
// and `caption`: node count and h) and a legend of the ranks.
void write_solution_png(const std::string& path, const Frame& frame, const Pixels& pixels, const std::string& title, double lo,
                        double hi);
void write_partition_png(const std::string& path, const Frame& frame, const Pixels& pixels, const std::string& caption, int ranks);

}  // namespace fem
