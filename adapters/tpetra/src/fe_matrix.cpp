#include "dapetra/tpetra/fe_matrix.hpp"

#include <Teuchos_ArrayRCP.hpp>
#include <Tpetra_CrsGraph.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_Map.hpp>
#include <algorithm>
#include <mpi.h>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "dapetra/mpi/agree.hpp"
#include "dapetra/mpi/word_collectives.hpp"
#include "dapetra/tpetra/compat.hpp"
#include "dapetra/mpi/halo.hpp"
#include "dapetra/mpi/index_map.hpp"

namespace dapetra::tpetra {

namespace detail {

// Every held node's row as this process sees it: held nodes (ascending) and
// where each node pair's bs x bs block starts in FEMatrix's values (owned
// rows first, in the graph's order; then the copies of other owners' rows).
// Entry (i, j) of a block sits at its start + i * the row's stride + j.
struct FEGraphTables {
  std::vector<std::size_t> row_begin;
  std::vector<local_index_t> row_columns;
  std::vector<std::size_t> entry_at;
  std::vector<std::size_t> row_stride;
  // Each owned node's diagonal block in the values (-1 for a node not owned here).
  std::vector<std::ptrdiff_t> diagonal_at;
  std::shared_ptr<const mpi::HaloPlan> entries_plan;  // the copies' entries into their owners'
};

}  // namespace detail

namespace {

// A global index that came back in a sparse exchange's 64-bit words: one
// this process or a neighbour sent as a GO, so it fits GO (32-bit on Debian's
// Trilinos 17.0, where Tpetra layouts refuse arrays past it).
GO word_to_go(std::int64_t word) { return static_cast<GO>(word); }

// A row-wise list (CSR): row r's items are items[begin[r], begin[r + 1]).
template <class T>
struct Rows {
  std::vector<std::size_t> begin{0};
  std::vector<T> items;
  std::size_t size() const { return begin.size() - 1; }
  const T* first(std::size_t r) const { return items.data() + begin[r]; }
  const T* last(std::size_t r) const { return items.data() + begin[r + 1]; }
};

// Sorts each row and drops repeats, in place.
template <class T>
void sort_unique_rows(Rows<T>& rows) {
  std::size_t out = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    auto* b = rows.items.data() + rows.begin[r];
    auto* e = rows.items.data() + rows.begin[r + 1];
    std::sort(b, e);
    e = std::unique(b, e);
    rows.begin[r] = out;
    out = static_cast<std::size_t>(std::copy(b, e, rows.items.data() + out) - rows.items.data());
  }
  rows.begin.back() = out;
  rows.items.resize(out);
}

// Every held node's neighbours over this process's cells (itself included), ascending.
Rows<local_index_t> local_pattern(const std::vector<local_index_t>& cells, int corners, std::size_t held) {
  Rows<local_index_t> rows;
  rows.begin.assign(held + 1, 0);
  for (local_index_t v : cells) rows.begin[static_cast<std::size_t>(v) + 1] += static_cast<std::size_t>(corners);
  std::partial_sum(rows.begin.begin(), rows.begin.end(), rows.begin.begin());
  rows.items.resize(rows.begin.back());
  std::vector<std::size_t> at(rows.begin.begin(), rows.begin.end() - 1);
  const std::size_t n = static_cast<std::size_t>(corners);
  for (std::size_t c = 0; c + n <= cells.size(); c += n)
    for (std::size_t a = 0; a < n; ++a) {
      std::size_t& to = at[static_cast<std::size_t>(cells[c + a])];
      std::copy(cells.begin() + static_cast<std::ptrdiff_t>(c), cells.begin() + static_cast<std::ptrdiff_t>(c + n),
                rows.items.begin() + static_cast<std::ptrdiff_t>(to));
      to += n;
    }
  sort_unique_rows(rows);
  return rows;
}


}  // namespace

// Builds an FEGraph in the order of its steps; each step one function.
struct FEGraphBuilder {
  explicit FEGraphBuilder(FEGraph& graph) : g(graph) {}
  FEGraph& g;
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, nprocs = 1;
  std::size_t held = 0;     // nodes held here
  std::size_t bs = 1;       // unknowns per node
  std::vector<GO> gid;      // each held node's first unknown's global index (buffer map)
  std::vector<int> owner;   // each held node's owner
  Rows<local_index_t> pattern;  // each held node's held neighbours
  Rows<GO> owned_columns;   // each owned node's neighbours (first unknowns' global indices), in owned-map order
  mpi::detail::Outbox asked;    // per owner: the copies' rows sent (row, count, columns...)
  mpi::detail::Inbox received;  // the same, from the processes holding copies of rows owned here
  Teuchos::RCP<const Map> column_map;
  std::vector<LO> column_of;  // each held node's first unknown's column-map index: one look-up per node
  // The owned nodes' rows: neighbours as column-map indices of their first
  // unknowns, ascending. Node row R's block (R, k) is bs x bs unknowns; its
  // entry (i, c) sits at entry_base(R, k) + i * row_stride(R) + c in
  // Tpetra's local rows (unknown rows interleaved: node * bs + component).
  std::vector<std::size_t> node_ptr;
  Teuchos::ArrayRCP<LO> node_cols;  // with bs == 1, the graph's own column indices
  Teuchos::ArrayRCP<std::size_t> row_ptr;  // the owned unknowns' rows in Tpetra's local form, as the graph holds them
  Teuchos::ArrayRCP<LO> col_ind;
  std::size_t entry_base(std::size_t R, std::size_t k) const { return node_ptr[R] * bs * bs + (k - node_ptr[R]) * bs; }
  std::size_t row_stride(std::size_t R) const { return (node_ptr[R + 1] - node_ptr[R]) * bs; }
  // The node of unknown u: no division for one unknown per node (a division
  // per row was 5% of the scalar structure's time).
  std::size_t node_of(std::size_t u) const { return bs == 1 ? u : u / bs; }

  // A 1-D node layout (one unknown per node), or nodes x components: axis 1
  // not distributed, not padded, not the column axis.
  static bool takes_layout(const TpetraLayout& nodes) {
    const auto& dims = nodes.distribution()->dim_data();
    if (nodes.column_axis() >= 0 || dims.empty() || dims.size() > 2) return false;
    if (dims.size() == 1) return true;
    const Dim& c = dims[1];
    return c.dist_type == DistType::block && c.proc_grid_size == 1 && c.padding[0] == 0 && c.padding[1] == 0 && c.size > 0;
  }

  void check_input() {
    const auto& nodes = *g.nodes_;
    std::vector<Problem> problems;
    if (!takes_layout(nodes))
      problems.push_back(Problem::of(rank, "dim_data", std::to_string(nodes.distribution()->dim_data().size()) + " axes",
                                     "the layout is 1-D (nodes), or 2-D nodes x components with axis 1 neither "
                                     "distributed, padded nor the column axis",
                                     "FE matrices take a layout of nodes, or of nodes x components"));
    if (g.corners_ <= 0 || g.cells_.size() % static_cast<std::size_t>(std::max(g.corners_, 1)) != 0)
      problems.push_back(Problem::of(rank, "cells", std::to_string(g.cells_.size()),
                                     "the cell list holds `corners` positions per cell",
                                     std::to_string(g.cells_.size()) + " positions for " + std::to_string(g.corners_) +
                                         " corners per cell"));
    if (problems.empty()) {
      held = static_cast<std::size_t>(nodes.distribution()->local_shape()[0]);
      bs = nodes.distribution()->dim_data().size() == 2 ? static_cast<std::size_t>(nodes.distribution()->global_shape()[1]) : 1;
      check_interleaved(problems);
    }
    for (std::size_t i = 0; i < g.cells_.size() && problems.empty(); ++i)
      if (g.cells_[i] < 0 || static_cast<std::size_t>(g.cells_[i]) >= held)
        problems.push_back(Problem::of(rank, "cells", std::to_string(g.cells_[i]),
                                       "every corner is a position in the node layout's buffer (0 <= v < " +
                                           std::to_string(held) + ")",
                                       "cell " + std::to_string(i / static_cast<std::size_t>(g.corners_)) +
                                           " names a node this process does not hold"));
    mpi::agree(problems, comm);
    g.bs_ = static_cast<int>(bs);
  }

  // The matrix's rows, its right-hand sides' entries and the element
  // matrices' all number a node's unknowns consecutively (node * bs +
  // component): the buffer must hold them so (a C-ordered nodes x
  // components buffer does; a Fortran-ordered one does not).
  void check_interleaved(std::vector<Problem>& problems) const {
    const Map& buffer = *g.nodes_->buffer_map();
    for (std::size_t r = 0; r < held && bs > 1; ++r)
      for (std::size_t c = 1; c < bs; ++c)
        if (buffer.getGlobalElement(static_cast<LO>(r * bs + c)) != buffer.getGlobalElement(static_cast<LO>(r * bs)) + static_cast<GO>(c)) {
          problems.push_back(Problem::of(rank, "strides", "components apart in memory",
                                         "a node's components are consecutive in the buffer (C order, nodes x components)",
                                         "held node " + std::to_string(r) + "'s components are not"));
          return;
        }
  }

  void find_owners() {
    const auto index_map = mpi::IndexMap::create(g.nodes_->distribution());  // collective
    owner.resize(held);
    gid.resize(held);
    for (std::size_t i = 0; i < held; ++i) {
      owner[i] = index_map->owners()[i * bs];  // a node's components share its owner
      gid[i] = g.nodes_->buffer_map()->getGlobalElement(static_cast<LO>(i * bs));
    }
    // The owned map lists a node's unknowns together, first at a multiple of
    // bs (owned elements in C order): node rows expand to unknown rows in
    // place. Nothing to check for one unknown per node (bs is the same on
    // every process: the layout's global shape).
    if (bs == 1) return;
    const Map& owned = *g.nodes_->owned_map();
    std::vector<Problem> problems;
    for (std::size_t i = 0; i < held && problems.empty(); ++i) {
      if (owner[i] != rank) continue;
      const LO first = owned.getLocalElement(gid[i]);
      bool together = first >= 0 && static_cast<std::size_t>(first) % bs == 0;
      for (std::size_t c = 1; c < bs && together; ++c) together = owned.getLocalElement(gid[i] + static_cast<GO>(c)) == first + static_cast<LO>(c);
      if (!together)
        problems.push_back(Problem::of(rank, "owned_map", std::to_string(gid[i]), "an owned node's unknowns are consecutive in the owned map",
                                       "held node " + std::to_string(i) + "'s are not"));
    }
    mpi::agree(problems, comm);
  }

  // The copies of rows owned elsewhere go to their owners: row, column count, columns.
  void send_copied_rows() {
    asked.clear();
    for (std::size_t r = 0; r < held; ++r) {
      const int p = owner[r];
      if (p == rank) continue;
      auto& to = asked[p];
      to.push_back(gid[r]);
      to.push_back(static_cast<std::int64_t>(pattern.last(r) - pattern.first(r)));
      for (const local_index_t* c = pattern.first(r); c != pattern.last(r); ++c) to.push_back(gid[static_cast<std::size_t>(*c)]);
    }
    received = mpi::detail::exchange_words(asked, comm);  // collective: a sparse exchange
  }

  // Each owned row: its own neighbours and every column a copy of it brought.
  void collect_owned_columns() {
    const Map& owned = *g.nodes_->owned_map();
    const std::size_t n = compat::local_num_elements(owned) / bs;
    owned_columns.begin.assign(n + 1, 0);
    const auto owned_row = [&](GO row) { return node_of(static_cast<std::size_t>(owned.getLocalElement(row))); };
    // Every owned row holds its diagonal, even a node no local cell touches
    // (a constrained node's 1 goes there).
    for (std::size_t r = 0; r < held; ++r)
      if (owner[r] == rank) owned_columns.begin[owned_row(gid[r]) + 1] += 1 + static_cast<std::size_t>(pattern.last(r) - pattern.first(r));
    const std::vector<std::int64_t>& got = received.words;
    for (std::size_t k = 0; k < got.size(); k += 2 + static_cast<std::size_t>(got[k + 1]))
      owned_columns.begin[owned_row(word_to_go(got[k])) + 1] += static_cast<std::size_t>(got[k + 1]);
    std::partial_sum(owned_columns.begin.begin(), owned_columns.begin.end(), owned_columns.begin.begin());
    owned_columns.items.resize(owned_columns.begin.back());
    std::vector<std::size_t> at(owned_columns.begin.begin(), owned_columns.begin.end() - 1);
    for (std::size_t r = 0; r < held; ++r)
      if (owner[r] == rank) {
        std::size_t& to = at[owned_row(gid[r])];
        owned_columns.items[to++] = gid[r];
        for (const local_index_t* c = pattern.first(r); c != pattern.last(r); ++c)
          owned_columns.items[to++] = gid[static_cast<std::size_t>(*c)];
      }
    for (std::size_t k = 0; k < got.size(); k += 2 + static_cast<std::size_t>(got[k + 1])) {
      std::size_t& to = at[owned_row(word_to_go(got[k]))];
      for (std::int64_t j = 0; j < got[k + 1]; ++j) owned_columns.items[to++] = word_to_go(got[k + 2 + static_cast<std::size_t>(j)]);
    }
    sort_unique_rows(owned_columns);
  }

  // The column map: the owned unknowns first (as the domain map has them, so
  // Tpetra's import for apply copies them in place), then the others'
  // nodes ascending, each node's unknowns together.
  void make_column_map() {
    const Map& owned = *g.nodes_->owned_map();
    const auto owned_gids = compat::local_element_list(owned);
    std::vector<GO> columns(owned_gids.begin(), owned_gids.end());
    std::vector<GO> others;
    for (GO c : owned_columns.items)
      if (owned.getLocalElement(c) == Teuchos::OrdinalTraits<LO>::invalid()) others.push_back(c);
    std::sort(others.begin(), others.end());
    others.erase(std::unique(others.begin(), others.end()), others.end());
    for (GO node : others)
      for (std::size_t c = 0; c < bs; ++c) columns.push_back(node + static_cast<GO>(c));
    column_map = Teuchos::rcp(new Map(Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid(),
                                      Teuchos::ArrayView<const GO>(columns), owned.getIndexBase(), owned.getComm()));
    column_of.resize(held);
    for (std::size_t i = 0; i < held; ++i) column_of[i] = column_map->getLocalElement(gid[i]);
  }

  // The owned rows in Tpetra's local form (columns as column-map indices,
  // ascending in each row), and the graph: each node row and node column
  // become bs x bs unknowns.
  void make_graph() {
    const Map& cm = *column_map;
    node_ptr = owned_columns.begin;
    node_cols = Teuchos::ArrayRCP<LO>(owned_columns.items.size());
    for (std::size_t k = 0; k < owned_columns.items.size(); ++k) node_cols[k] = cm.getLocalElement(owned_columns.items[k]);
    const std::size_t rows = node_ptr.size() - 1;
    for (std::size_t r = 0; r < rows; ++r)
      std::sort(node_cols.begin() + static_cast<std::ptrdiff_t>(node_ptr[r]), node_cols.begin() + static_cast<std::ptrdiff_t>(node_ptr[r + 1]));
    row_ptr = Teuchos::ArrayRCP<std::size_t>(rows * bs + 1);
    if (bs == 1) {  // the node rows are the rows: shared, not copied
      std::copy(node_ptr.begin(), node_ptr.end(), row_ptr.begin());
      col_ind = node_cols;
    } else {
      col_ind = Teuchos::ArrayRCP<LO>(node_cols.size() * bs * bs);
      row_ptr[0] = 0;
      for (std::size_t r = 0; r < rows; ++r)
        for (std::size_t i = 0; i < bs; ++i) {
          std::size_t at = entry_base(r, node_ptr[r]) + i * row_stride(r);
          for (std::size_t k = node_ptr[r]; k < node_ptr[r + 1]; ++k)
            for (std::size_t c = 0; c < bs; ++c) col_ind[at++] = node_cols[k] + static_cast<LO>(c);
          row_ptr[r * bs + i + 1] = at;
        }
    }
    auto graph = Teuchos::rcp(new CrsGraph(g.nodes_->owned_map(), column_map, row_ptr, col_ind));
    graph->expertStaticFillComplete(g.nodes_->owned_map(), g.nodes_->owned_map());
    g.graph_ = graph;
    g.num_owned_entries_ = static_cast<std::size_t>(col_ind.size());
  }

  // Where node column c (its first unknown's column-map index) of owned
  // node row r (an owned node, in owned-map order) sits among node_cols.
  std::size_t owned_node_entry(std::size_t r, LO c) const {
    const auto b = node_cols.begin() + static_cast<std::ptrdiff_t>(node_ptr[r]);
    const auto e = node_cols.begin() + static_cast<std::ptrdiff_t>(node_ptr[r + 1]);
    return static_cast<std::size_t>(std::lower_bound(b, e, c) - node_cols.begin());
  }
  // Owned node row of a node's first unknown (global).
  std::size_t owned_node_row(GO row) const {
    return node_of(static_cast<std::size_t>(g.nodes_->owned_map()->getLocalElement(row)));
  }

  // Each held row's entries as this process adds into them: owned rows'
  // among the owned entries, copies' after them in the order they were sent.
  // The owners answer with the global number of every entry sent (offset of
  // the owner's entries plus the place in its rows), which the matrix
  // entries' halo plan is built on.
  void place_entries() {
    // This process's entries come after those of the processes before it
    // (one prefix sum, nothing per process kept).
    const std::int64_t mine = static_cast<std::int64_t>(g.num_owned_entries_);
    std::int64_t before = 0;
    MPI_Exscan(&mine, &before, 1, MPI_INT64_T, MPI_SUM, comm);
    const global_index_t offset = rank == 0 ? 0 : before;  // (MPI leaves rank 0's undefined)

    // Each copied node row comes back as its bs x bs blocks' entries, row
    // of unknowns after row (i), node column (k), component (c): the order
    // of the copy's values here and of its owner's rows.
    mpi::detail::Outbox answers;
    for (std::size_t s = 0; s < received.count(); ++s) {
      const std::int64_t* got = received.of(s);
      auto& to = answers[received.sources[s]];
      for (std::size_t k = 0; k < received.size(s);) {
        const std::size_t R = owned_node_row(word_to_go(got[k]));
        const std::size_t n = static_cast<std::size_t>(got[k + 1]);
        for (std::size_t i = 0; i < bs; ++i)
          for (std::size_t j = 0; j < n; ++j) {
            const std::size_t at = entry_base(R, owned_node_entry(R, column_map->getLocalElement(word_to_go(got[k + 2 + j])))) + i * row_stride(R);
            for (std::size_t c = 0; c < bs; ++c) to.push_back(offset + static_cast<global_index_t>(at + c));
          }
        k += 2 + n;
      }
    }
    const mpi::detail::Inbox numbers = mpi::detail::exchange_words(answers, comm);  // collective: a sparse exchange

    // The held rows' entries, in the pattern's order: each entry's block's
    // first value, and each row's stride between rows of unknowns.
    g.tables_->row_begin = pattern.begin;
    g.tables_->row_columns = pattern.items;
    g.tables_->entry_at.resize(pattern.items.size());
    g.tables_->row_stride.resize(held);
    // Copies' values follow the owned entries, owners in rank order (the
    // order the numbers arrived in): where each owner's begin, and how many
    // of them are placed already.
    std::map<int, std::size_t> first_copy, next_copy;
    for (std::size_t s = 0; s < numbers.count(); ++s) first_copy[numbers.sources[s]] = g.num_owned_entries_ + numbers.begin[s];
    std::vector<std::size_t> owned_row(held, 0);
    for (std::size_t r = 0; r < held; ++r)
      if (owner[r] == rank) owned_row[r] = owned_node_row(gid[r]);
    for (std::size_t r = 0; r < held; ++r) {
      const int p = owner[r];
      const std::size_t m = pattern.begin[r + 1] - pattern.begin[r];
      if (owner[r] == rank) {
        const std::size_t R = owned_row[r];
        g.tables_->row_stride[r] = row_stride(R);
        for (std::size_t e = pattern.begin[r]; e < pattern.begin[r + 1]; ++e)
          g.tables_->entry_at[e] =
              entry_base(R, owned_node_entry(R, column_of[static_cast<std::size_t>(pattern.items[e])]));
      } else {
        g.tables_->row_stride[r] = m * bs;
        for (std::size_t e = pattern.begin[r]; e < pattern.begin[r + 1]; ++e)
          g.tables_->entry_at[e] = first_copy[p] + next_copy[p] + (e - pattern.begin[r]) * bs;
        next_copy[p] += m * bs * bs;
      }
    }
    g.num_shared_entries_ = numbers.words.size();

    // The owned diagonal blocks, for constrained rows.
    g.tables_->diagonal_at.assign(held, -1);
    for (std::size_t r = 0; r < held; ++r)
      if (owner[r] == rank)
        g.tables_->diagonal_at[r] =
            static_cast<std::ptrdiff_t>(entry_base(owned_row[r], owned_node_entry(owned_row[r], column_of[r])));

    // The entries as a 'u' layout: the owned ones are this process's range,
    // the copies' are numbered by their owners, who are named (no process
    // needs the others' ranges); assembly is its halo's.
    std::vector<global_index_t> indices(g.num_owned_entries_);
    std::iota(indices.begin(), indices.end(), offset);
    indices.insert(indices.end(), numbers.words.begin(), numbers.words.end());
    std::vector<int> owners(g.num_owned_entries_, rank);
    for (std::size_t s = 0; s < numbers.count(); ++s) owners.insert(owners.end(), numbers.size(s), numbers.sources[s]);
    std::int64_t total = 0;
    MPI_Allreduce(&mine, &total, 1, MPI_INT64_T, MPI_SUM, comm);
    const mpi::DistributedLayoutOptions options(mpi::Ownership::from_held_owners(std::move(owners)));
    const auto entries = mpi::DistributedLayout::create(
        std::vector<Dim>{Dim::unstructured(total, nprocs, rank, std::move(indices), false)}, comm, options);
    g.tables_->entries_plan = mpi::HaloPlan::create(entries);
  }
};

std::shared_ptr<const FEGraph> FEGraph::create(std::shared_ptr<const TpetraLayout> nodes, std::vector<local_index_t> cells,
                                               int corners) {
  std::shared_ptr<FEGraph> g(new FEGraph());
  g->tables_ = std::make_shared<detail::FEGraphTables>();
  g->nodes_ = std::move(nodes);
  g->cells_ = std::move(cells);
  g->corners_ = corners;
  FEGraphBuilder b(*g);
  // The layout's communicator carries plans' messages with their own tags;
  // creation's collectives go on a duplicate of it, used once.
  MPI_Comm_dup(g->nodes_->distribution()->comm(), &b.comm);
  struct Free {
    MPI_Comm& c;
    ~Free() { MPI_Comm_free(&c); }
  } free_comm{b.comm};
  MPI_Comm_rank(b.comm, &b.rank);
  MPI_Comm_size(b.comm, &b.nprocs);
  b.check_input();
  b.pattern = local_pattern(g->cells_, corners, b.held);
  b.find_owners();
  b.send_copied_rows();
  b.collect_owned_columns();
  b.make_column_map();
  b.make_graph();
  b.place_entries();
  return g;
}

FEMatrix::FEMatrix(std::shared_ptr<const FEGraph> graph, std::vector<char> constrained)
    : graph_(std::move(graph)), constrained_(std::move(constrained)) {
  const std::size_t held = graph_->tables_->diagonal_at.size() * static_cast<std::size_t>(graph_->bs_);
  std::vector<Problem> problems;
  if (!constrained_.empty() && constrained_.size() != held)
    problems.push_back(Problem::of(graph_->nodes().distribution()->rank(), "constrained", std::to_string(constrained_.size()),
                                   "one flag per held unknown (" + std::to_string(held) + "), or none",
                                   "the Dirichlet flags do not match the layout's buffer"));
  mpi::agree(problems, graph_->nodes().distribution()->comm());
  // One managed allocation (Tpetra refuses unmanaged values) of which the
  // matrix's values are the first part: Tpetra keeps the view it is given,
  // so assembly writes straight into the matrix.
  using values_type = typename CrsMatrix::local_matrix_device_type::values_type;
  const std::size_t owned = graph_->num_owned_entries_;
  const values_type all("dapetra::FEMatrix values", owned + graph_->num_shared_entries_);
  const values_type owned_part = Kokkos::subview(all, std::make_pair(std::size_t{0}, owned));
  matrix_ = Teuchos::rcp(new CrsMatrix(graph_->graph(), owned_part));
  matrix_->fillComplete(graph_->graph()->getDomainMap(), graph_->graph()->getRangeMap());
  values_ = reinterpret_cast<double*>(all.data());
  num_values_ = all.extent(0);
  if (owned > 0 && reinterpret_cast<const double*>(matrix_->getLocalMatrixHost().values.data()) != values_)
    throw std::logic_error("FEMatrix: Tpetra copied the values it was given; assembly would not reach the matrix");
  entries_.dim_data = graph_->tables_->entries_plan->layout().dim_data();
  entries_.buffer = view_buffer(values_, {static_cast<global_index_t>(num_values_)});
}

FEMatrix::~FEMatrix() = default;

void FEMatrix::begin_assembly() {
  std::fill(values_, values_ + num_values_, 0.0);
  faults_.clear();
}

bool FEMatrix::element_fits(std::size_t c, const ElementMatrix& k, const char* caller) {
  const FEGraph& g = *graph_;
  const int size = g.corners_ * g.bs_;
  const bool known_cell = c < g.num_cells();
  if (known_cell && k.rows == size && k.cols == size && k.values != nullptr) return true;  // every call but a fault's
  const std::string n = std::to_string(size);
  list_problem(faults_,  // the first max_listed_problems name the faults, as deal.II's TpetraSparseMatrix's
               known_cell ? Problem::of(g.nodes().distribution()->rank(), "element_matrix", std::to_string(k.rows) + "x" + std::to_string(k.cols),
                                        "an element matrix is (corners * block size) squared (" + n + "x" + n + ")",
                                        std::string(caller) + " skipped it")
                          : Problem::of(g.nodes().distribution()->rank(), "cell", std::to_string(c),
                                        "a cell of the graph (0 <= c < " + std::to_string(g.num_cells()) + ")",
                                        std::string(caller) + " skipped it"));
  return false;
}

// add_element's loop for a block size known at compile time (BS > 0) or at
// run time (BS == 0): the scalar problem keeps a tight loop, and a node
// pair's block is found once for all its bs x bs entries.
template <int BS>
void FEMatrix::add_blocks(std::size_t c, const double* k) {
  const FEGraph& g = *graph_;
  const detail::FEGraphTables& t = *g.tables_;
  const int n = g.corners_, bs = BS > 0 ? BS : g.bs_, width = n * bs;
  const local_index_t* corner = g.cell(c);
  const local_index_t* columns = t.row_columns.data();
  for (int a = 0; a < n; ++a) {
    const local_index_t row = corner[a];
    if (BS == 1 && is_constrained(row)) continue;
    const std::size_t begin = t.row_begin[static_cast<std::size_t>(row)],
                      end = t.row_begin[static_cast<std::size_t>(row) + 1];
    std::size_t hint = begin;  // where the last corner was found: the next is often just after it
    for (int b = 0; b < n; ++b) {
      const local_index_t col = corner[b];
      if (BS == 1 && is_constrained(col)) continue;
      // Rows are short (a few dozen nodes at most) and hold every corner:
      // scan on from the hint, then from the row's start.
      std::size_t e = hint;
      while (e < end && columns[e] != col) ++e;
      if (e == end)
        for (e = begin; columns[e] != col;) ++e;
      hint = e + 1;
      double* block = values_ + t.entry_at[e];
      if constexpr (BS == 1) {
        *block += k[a * n + b];
      } else {
        const std::size_t stride = t.row_stride[static_cast<std::size_t>(row)];
        for (int i = 0; i < bs; ++i) {
          if (is_constrained(row * bs + i)) continue;
          const double* from = k + (a * bs + i) * width + b * bs;
          for (int j = 0; j < bs; ++j)
            if (!is_constrained(col * bs + j)) block[static_cast<std::size_t>(i) * stride + static_cast<std::size_t>(j)] += from[j];
        }
      }
    }
  }
}

void FEMatrix::add_element(std::size_t c, const ElementMatrix& k) {
  if (!element_fits(c, k, "add_element")) return;
  switch (graph_->bs_) {
    case 1: add_blocks<1>(c, k.values); break;
    case 2: add_blocks<2>(c, k.values); break;
    case 3: add_blocks<3>(c, k.values); break;
    default: add_blocks<0>(c, k.values);
  }
}

void FEMatrix::lift_element(std::size_t c, const ElementMatrix& k, const double* g, double* rhs) {
  if (!element_fits(c, k, "lift_element") || constrained_.empty()) return;
  const int n = graph_->corners_, bs = graph_->bs_, width = n * bs;
  const local_index_t* corner = graph_->cell(c);
  for (int a = 0; a < n; ++a)
    for (int i = 0; i < bs; ++i) {
      const local_index_t row = corner[a] * bs + i;
      if (is_constrained(row)) continue;
      const double* k_row = k.values + (a * bs + i) * width;
      for (int b = 0; b < n; ++b)
        for (int j = 0; j < bs; ++j) {
          const local_index_t col = corner[b] * bs + j;
          if (is_constrained(col)) rhs[row] -= k_row[b * bs + j] * g[col];
        }
    }
}

void FEMatrix::set_constrained_values(const double* g, double* rhs) const {
  for (std::size_t i = 0; i < constrained_.size(); ++i)
    if (constrained_[i]) rhs[i] = g[i];
}

void FEMatrix::end_assembly() {
  mpi::agree(faults_, graph_->nodes().distribution()->comm());
  const FEGraph& g = *graph_;
  const detail::FEGraphTables& t = *g.tables_;
  t.entries_plan->assemble<double>(entries_);
  const auto bs = static_cast<std::size_t>(g.bs_);
  for (std::size_t r = 0; r < t.diagonal_at.size() && !constrained_.empty(); ++r)
    if (t.diagonal_at[r] >= 0)
      for (std::size_t i = 0; i < bs; ++i)
        if (constrained_[r * bs + i])
          values_[static_cast<std::size_t>(t.diagonal_at[r]) + i * t.row_stride[r] + i] = 1.0;
}

}  // namespace dapetra::tpetra
