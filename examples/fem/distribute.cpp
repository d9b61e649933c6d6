#include "distribute.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "dapetra/distarray.hpp"
#include "dapetra/mpi/agree.hpp"
#include "dapetra/mpi/halo.hpp"
#include "dapetra/mpi/distributed_layout.hpp"
#include "dapetra/mpi/redistribute.hpp"
#include "dapetra/mpi/sparse_exchange.hpp"
#include "tables.hpp"

namespace fem {
namespace {

using dapetra::DistArray;
using dapetra::Dim;
using dapetra::global_index_t;

// The numbers of the cells each process is to receive: every process sends
// each part it has cells for their numbers, by the sparse exchange (no
// process learns who sends until the numbers arrive; nothing the size of the
// communicator). Sorted: the order of the cells in the part.
std::vector<global_index_t> cells_received(const MeshBlock& block, const std::vector<int>& cell_part, MPI_Comm comm) {
  dapetra::mpi::Outbox to_part;
  for (std::size_t c = 0; c < cell_part.size(); ++c) to_part[cell_part[c]].push_back(block.first_cell + static_cast<std::int64_t>(c));
  const dapetra::mpi::Inbox received = dapetra::mpi::exchange_words(to_part, comm);
  std::vector<global_index_t> cells(received.words.begin(), received.words.end());
  std::sort(cells.begin(), cells.end());
  return cells;
}

// The part numbers must be ranks, and every part must get a cell.
void check_parts(const MeshBlock& block, const std::vector<int>& cell_part, MPI_Comm comm) {
  const Ranks r(comm);
  std::string fault;
  if (cell_part.size() != block.cells.size())
    fault = "rank " + std::to_string(r.rank) + ": " + std::to_string(cell_part.size()) + " part numbers for " +
            std::to_string(block.cells.size()) + " cells";
  for (std::size_t c = 0; c < cell_part.size() && fault.empty(); ++c)
    if (cell_part[c] < 0 || cell_part[c] >= r.size)
      fault = "cell " + std::to_string(block.first_cell + static_cast<std::int64_t>(c)) + " has part " +
              std::to_string(cell_part[c]) + ", not a rank in 0.." + std::to_string(r.size - 1);
  agree_on_fault(comm, fault);
}

// Node fields moved and updated together, one row per node.
enum NodeField { fx, fy, fz, on_boundary, number, owner_rank, node_fields };

}  // namespace

void agree_on_fault(MPI_Comm comm, const std::string& fault) {
  std::vector<dapetra::Problem> mine;
  if (!fault.empty()) mine.push_back(dapetra::Problem::of(Ranks(comm).rank, "", "", "", fault));
  try {
    dapetra::mpi::agree(mine, comm);
  } catch (const dapetra::ValidationError& e) {
    throw MeshError(e.problems().front().message);  // the lowest faulty rank's
  }
}

MeshBlock read_mesh_block(const std::string& path, MPI_Comm comm) {
  const Ranks r(comm);
  MeshBlock block;
  std::string fault;
  if (r.rank == 0) try {
      block = block_of(read_mesh_file(path));
    } catch (const std::exception& e) {
      fault = e.what();
    }
  agree_on_fault(comm, fault);
  long long sizes[3] = {block.dim, block.num_nodes, block.num_cells};
  MPI_Bcast(sizes, 3, MPI_LONG_LONG, 0, comm);
  if (r.rank == 0) return block;
  block.dim = static_cast<int>(sizes[0]);
  block.num_nodes = sizes[1];
  block.num_cells = sizes[2];
  return empty_block_like(block);
}

MeshPart distribute_mesh(const MeshBlock& block, const std::vector<int>& cell_part, MPI_Comm comm) {
  const Ranks r(comm);
  const int corners = block.dim + 1;
  check_parts(block, cell_part, comm);
  const std::vector<global_index_t> my_cells = cells_received(block, cell_part, comm);
  agree_on_fault(comm, my_cells.empty() ? "the mesh: " + std::to_string(block.num_cells) + " cells left part " +
                                              std::to_string(r.rank) + " empty (use fewer processes)"
                                        : std::string());

  // The cells, from their blocks to their parts.
  const auto nb = static_cast<global_index_t>(block.cells.size());
  std::vector<long long> from(block.cells.size() * static_cast<std::size_t>(corners));
  for (std::size_t c = 0; c < block.cells.size(); ++c)
    for (int k = 0; k < corners; ++k) from[c * static_cast<std::size_t>(corners) + static_cast<std::size_t>(k)] = block.cells[c][static_cast<std::size_t>(k)];
  std::vector<long long> cells(my_cells.size() * static_cast<std::size_t>(corners));
  const DistArray cells_from = table_view(from, Dim::block(block.num_cells, r.size, r.rank, block.first_cell, block.first_cell + nb), corners);
  const DistArray cells_to = table_view(cells, Dim::unstructured(block.num_cells, r.size, r.rank, my_cells, true), corners);
  dapetra::mpi::RedistributionPlan::create(dapetra::mpi::DistributedLayout::create(cells_from, comm),
                                           dapetra::mpi::DistributedLayout::create(cells_to, comm))
      ->apply<long long>(cells_from, cells_to);

  // The nodes of those cells, with their fields from the node blocks.
  std::vector<global_index_t> held(cells.begin(), cells.end());
  std::sort(held.begin(), held.end());
  held.erase(std::unique(held.begin(), held.end()), held.end());
  std::vector<double> node_from(block.x.size() * node_fields, 0.0), fields(held.size() * node_fields, 0.0);
  for (std::size_t v = 0; v < block.x.size(); ++v) {
    for (int d = 0; d < 3; ++d) node_from[v * node_fields + static_cast<std::size_t>(d)] = block.x[v][static_cast<std::size_t>(d)];
    node_from[v * node_fields + on_boundary] = block.boundary[v];
  }
  const auto nbn = static_cast<global_index_t>(block.x.size());
  const DistArray nodes_from =
      table_view(node_from, Dim::block(block.num_nodes, r.size, r.rank, block.first_node, block.first_node + nbn), node_fields);
  const DistArray nodes_held = table_view(fields, Dim::unstructured(block.num_nodes, r.size, r.rank, held, false), node_fields);
  const auto held_layout = dapetra::mpi::DistributedLayout::create(nodes_held, comm);  // settles the owners
  dapetra::mpi::RedistributionPlan::create(dapetra::mpi::DistributedLayout::create(nodes_from, comm), held_layout)
      ->apply<double>(nodes_from, nodes_held);

  // Owned nodes numbered consecutively in rank order; copies learn number and owner.
  long long owned = 0, first = 0;
  for (std::size_t i = 0; i < held.size(); ++i) owned += held_layout->is_owned(0, static_cast<global_index_t>(i));
  MPI_Exscan(&owned, &first, 1, MPI_LONG_LONG, MPI_SUM, comm);
  if (r.rank == 0) first = 0;  // MPI_Exscan leaves rank 0's result undefined
  for (std::size_t i = 0, k = 0; i < held.size(); ++i)
    if (held_layout->is_owned(0, static_cast<global_index_t>(i))) {
      fields[i * node_fields + number] = static_cast<double>(first + static_cast<long long>(k++));
      fields[i * node_fields + owner_rank] = r.rank;
    }
  dapetra::mpi::HaloPlan::create(held_layout)->update<double>(nodes_held);

  // The part: owned nodes first, each group in increasing input number.
  MeshPart part;
  part.num_nodes = block.num_nodes;
  part.num_cells = block.num_cells;
  part.local.dim = block.dim;
  std::vector<std::size_t> local_of(held.size());
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t i = 0; i < held.size(); ++i) {
      if (held_layout->is_owned(0, static_cast<global_index_t>(i)) != (pass == 0)) continue;
      const double* f = &fields[i * node_fields];
      local_of[i] = part.nodes.size();
      part.nodes.push_back(std::llround(f[number]));
      part.owner.push_back(static_cast<int>(f[owner_rank]));
      part.input_nodes.push_back(held[i]);
      part.local.x.push_back({f[fx], f[fy], f[fz]});
      part.local.boundary.push_back(f[on_boundary] != 0);
    }
  part.num_owned = static_cast<std::size_t>(owned);
  part.input_cells.assign(my_cells.begin(), my_cells.end());
  part.local.cells.resize(my_cells.size());
  for (std::size_t c = 0; c < my_cells.size(); ++c)
    for (int k = 0; k < corners; ++k) {
      const long long v = cells[c * static_cast<std::size_t>(corners) + static_cast<std::size_t>(k)];
      const auto at = static_cast<std::size_t>(std::lower_bound(held.begin(), held.end(), v) - held.begin());
      part.local.cells[c][static_cast<std::size_t>(k)] = static_cast<std::int64_t>(local_of[at]);
    }
  return part;
}

}  // namespace fem
