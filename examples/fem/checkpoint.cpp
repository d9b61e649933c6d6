// write_checkpoint, read_checkpoint_block, read_checkpoint_solution
// (checkpoint.hpp): each dataset one save() or load() of a DAP array whose
// first axis is a 'u' record of input numbers (writing) or an even 'b'
// block (reading back the mesh), so that Dapetra's redistribution plans do
// the moving in both directions.
#include "checkpoint.hpp"

#include <array>
#include <cstdint>
#include <fstream>
#include <stdexcept>

#include "dapetra/dim_math.hpp"
#include "dapetra/hdf5/checkpoint.hpp"
#include "dapetra/mpi/distributed_layout.hpp"
#include "tables.hpp"

namespace fem {
namespace {

using dapetra::DistArray;
using dapetra::Dim;
using dapetra::global_index_t;
namespace hdf5 = dapetra::hdf5;

template <class T>
void save_rows(std::vector<T>& values, const Dim& first, global_index_t width, const std::string& path,
               const std::string& name, MPI_Comm comm, hdf5::SaveMode mode) {
  const DistArray a = table_view(values, first, static_cast<int>(width));
  hdf5::save<T>(a, dapetra::mpi::DistributedLayout::create(a, comm), path, name, mode);
}

template <class T>
void load_rows(std::vector<T>& values, const Dim& first, global_index_t width, const std::string& path,
               const std::string& name, MPI_Comm comm) {
  values.assign(static_cast<std::size_t>(dapetra::local_extent(first) * width), T{});
  const DistArray a = table_view(values, first, static_cast<int>(width));
  hdf5::load<T>(path, name, dapetra::mpi::DistributedLayout::create(a, comm), a);
}

// The extent of `name`'s axis `axis`, the same on every process.
global_index_t extent(const std::string& path, const std::string& name, std::size_t axis, MPI_Comm comm) {
  const auto shape = hdf5::dataset_shape(path, name, comm);
  if (shape.size() != 2)
    throw dapetra::ValidationError({dapetra::Problem::of(0, "shape", std::to_string(shape.size()) + " axes",
                                                         "a dataset of two axes", name + " is not a checkpoint's")});
  return shape[axis];
}

}  // namespace

void write_checkpoint(const std::string& path, const MeshPart& part, const std::vector<double>& u, int components,
                      MPI_Comm comm) {
  const Ranks p(comm);
  const Mesh& mesh = part.local;
  // Nodes: every held node, by its input number (copies agree: the lowest
  // holder owns each and writes it).
  const Dim nodes = Dim::unstructured(part.num_nodes, p.size, p.rank,
                                      std::vector<global_index_t>(part.input_nodes.begin(), part.input_nodes.end()));
  std::vector<double> x;
  std::vector<int> boundary;
  for (std::size_t v = 0; v < mesh.num_nodes(); ++v) {
    x.insert(x.end(), mesh.x[v].begin(), mesh.x[v].end());
    boundary.push_back(mesh.boundary[v] ? 1 : 0);
  }
  // Cells: each on one process, by its input number, corners as input node numbers.
  const Dim cells = Dim::unstructured(part.num_cells, p.size, p.rank,
                                      std::vector<global_index_t>(part.input_cells.begin(), part.input_cells.end()),
                                      true);
  const auto corners = static_cast<std::size_t>(mesh.corners());
  std::vector<long long> corner_numbers;
  std::vector<double> centroids;
  for (std::size_t c = 0; c < mesh.num_cells(); ++c) {
    std::array<double, 3> mid{0, 0, 0};
    for (std::size_t k = 0; k < corners; ++k) {
      const auto v = static_cast<std::size_t>(mesh.cells[c][k]);
      corner_numbers.push_back(static_cast<long long>(part.input_nodes[v]));
      for (std::size_t d = 0; d < 3; ++d) mid[d] += mesh.x[v][d] / static_cast<double>(corners);
    }
    centroids.insert(centroids.end(), mid.begin(), mid.end());
  }
  std::vector<double> values(u);
  save_rows(x, nodes, 3, path, "mesh/coordinates", comm, hdf5::SaveMode::create);
  save_rows(boundary, nodes, 1, path, "mesh/boundary", comm, hdf5::SaveMode::append);
  save_rows(corner_numbers, cells, static_cast<global_index_t>(corners), path, "mesh/cells", comm, hdf5::SaveMode::append);
  save_rows(centroids, cells, 3, path, "mesh/centroids", comm, hdf5::SaveMode::append);
  save_rows(values, nodes, components, path, "solution", comm, hdf5::SaveMode::append);
}

MeshBlock read_checkpoint_block(const std::string& path, MPI_Comm comm) {
  const Ranks p(comm);
  MeshBlock b;
  b.num_nodes = extent(path, "mesh/coordinates", 0, comm);
  b.num_cells = extent(path, "mesh/cells", 0, comm);
  b.dim = static_cast<int>(extent(path, "mesh/cells", 1, comm)) - 1;
  const Dim nodes = Dim::even_block(b.num_nodes, p.size, p.rank), cells = Dim::even_block(b.num_cells, p.size, p.rank);
  b.first_node = nodes.start;
  b.first_cell = cells.start;
  std::vector<double> x, centroids;
  std::vector<int> boundary;
  std::vector<long long> corner_numbers;
  const auto corners = static_cast<std::size_t>(b.dim + 1);
  load_rows(x, nodes, 3, path, "mesh/coordinates", comm);
  load_rows(boundary, nodes, 1, path, "mesh/boundary", comm);
  load_rows(corner_numbers, cells, static_cast<global_index_t>(corners), path, "mesh/cells", comm);
  load_rows(centroids, cells, 3, path, "mesh/centroids", comm);
  for (std::size_t v = 0; v < boundary.size(); ++v) {
    b.x.push_back({x[3 * v], x[3 * v + 1], x[3 * v + 2]});
    b.boundary.push_back(static_cast<char>(boundary[v] != 0));
  }
  for (std::size_t c = 0; c * corners < corner_numbers.size(); ++c) {
    std::array<std::int64_t, 4> cell{0, 0, 0, 0};
    for (std::size_t k = 0; k < corners; ++k) cell[k] = corner_numbers[c * corners + k];
    b.cells.push_back(cell);
    b.centroid.push_back({centroids[3 * c], centroids[3 * c + 1], centroids[3 * c + 2]});
  }
  return b;
}

std::vector<double> read_checkpoint_solution(const std::string& path, const MeshPart& part, int& components,
                                             MPI_Comm comm) {
  const Ranks p(comm);
  components = static_cast<int>(extent(path, "solution", 1, comm));
  const Dim nodes = Dim::unstructured(part.num_nodes, p.size, p.rank,
                                      std::vector<global_index_t>(part.input_nodes.begin(), part.input_nodes.end()));
  std::vector<double> u;
  load_rows(u, nodes, components, path, "solution", comm);
  return u;
}

void write_xdmf(const std::string& xdmf, const std::string& h5, int dim, std::int64_t nodes, std::int64_t cells,
                int components) {
  const auto item = [&](const std::string& dims, const char* type, const std::string& dataset) {
    return "<DataItem Dimensions=\"" + dims + "\" NumberType=\"" + type + "\" Precision=\"8\" Format=\"HDF\">" +
           h5 + ":/" + dataset + "</DataItem>";
  };
  const std::string n = std::to_string(nodes), c = std::to_string(cells), corners = std::to_string(dim + 1);
  std::ofstream os(xdmf);
  os << "<?xml version=\"1.0\"?>\n<Xdmf Version=\"3.0\">\n <Domain>\n  <Grid Name=\"mesh\" GridType=\"Uniform\">\n"
     << "   <Topology TopologyType=\"" << (dim == 2 ? "Triangle" : "Tetrahedron") << "\" NumberOfElements=\"" << c
     << "\" NodesPerElement=\"" << corners << "\">\n    " << item(c + " " + corners, "Int", "mesh/cells")
     << "\n   </Topology>\n   <Geometry GeometryType=\"XYZ\">\n    " << item(n + " 3", "Float", "mesh/coordinates")
     << "\n   </Geometry>\n   <Attribute Name=\"u\" AttributeType=\"" << (components == 1 ? "Scalar" : "Vector")
     << "\" Center=\"Node\">\n    " << item(n + " " + std::to_string(components), "Float", "solution")
     << "\n   </Attribute>\n  </Grid>\n </Domain>\n</Xdmf>\n";
  if (!os) throw std::runtime_error("cannot write " + xdmf);
}

}  // namespace fem
