#include "dapetra/tpetra/fe_matrix.hpp"

#include <Teuchos_ArrayRCP.hpp>
#include <Tpetra_CrsGraph.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_Map.hpp>
#include <algorithm>
#include <mpi.h>
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
namespace {

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

// Collective: what each process sends to each other one, and what it
// receives, in rank order (the mpi layer's all-to-all). Used at creation only.
std::vector<std::int64_t> exchange(const std::vector<std::vector<std::int64_t>>& to, std::vector<int>& from_counts,
                                   MPI_Comm comm) {
  mpi::detail::Exchanged got = mpi::detail::alltoallv_words(to, comm);
  from_counts = std::move(got.counts);
  return std::move(got.words);
}

}  // namespace

// Builds an FEGraph in the order of its steps; each step one function.
struct FEGraphBuilder {
  explicit FEGraphBuilder(FEGraph& graph) : g(graph) {}
  FEGraph& g;
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0, nprocs = 1;
  std::size_t held = 0;
  std::vector<GO> gid;      // each held node's global index (buffer map)
  std::vector<int> owner;   // each held node's owner
  Rows<local_index_t> pattern;  // each held node's held neighbours
  Rows<GO> owned_columns;   // each owned row's columns (global), in owned-map order
  std::vector<std::vector<std::int64_t>> asked;  // per owner: the copies' rows sent (row, count, columns...)
  std::vector<std::int64_t> received;            // the same, from every process
  std::vector<int> received_counts;
  Teuchos::RCP<const Map> column_map;
  std::vector<LO> column_of;  // each held node's column-map index: one look-up per node, not per entry
  Teuchos::ArrayRCP<std::size_t> row_ptr;  // the owned rows in Tpetra's local form, as the graph holds them
  Teuchos::ArrayRCP<LO> col_ind;

  void check_input() {
    const auto& nodes = *g.nodes_;
    std::vector<Problem> problems;
    if (nodes.dim_data().size() != 1 || nodes.column_axis() >= 0)
      problems.push_back(Problem::of(rank, "dim_data", std::to_string(nodes.dim_data().size()) + " axes",
                                     "the node layout is 1-D, one value per node", "FE matrices take a 1-D node layout"));
    if (g.corners_ <= 0 || g.cells_.size() % static_cast<std::size_t>(std::max(g.corners_, 1)) != 0)
      problems.push_back(Problem::of(rank, "cells", std::to_string(g.cells_.size()),
                                     "the cell list holds `corners` positions per cell",
                                     std::to_string(g.cells_.size()) + " positions for " + std::to_string(g.corners_) +
                                         " corners per cell"));
    held = problems.empty() ? static_cast<std::size_t>(nodes.local_shape()[0]) : 0;
    for (std::size_t i = 0; i < g.cells_.size() && problems.empty(); ++i)
      if (g.cells_[i] < 0 || static_cast<std::size_t>(g.cells_[i]) >= held)
        problems.push_back(Problem::of(rank, "cells", std::to_string(g.cells_[i]),
                                       "every corner is a position in the node layout's buffer (0 <= v < " +
                                           std::to_string(held) + ")",
                                       "cell " + std::to_string(i / static_cast<std::size_t>(g.corners_)) +
                                           " names a node this process does not hold"));
    mpi::agree(problems, comm);
  }

  void find_owners() {
    const auto index_map = mpi::IndexMap::create(g.nodes_->distribution());  // collective
    owner = index_map->owners();
    gid.resize(held);
    for (std::size_t i = 0; i < held; ++i) gid[i] = g.nodes_->buffer_map()->getGlobalElement(static_cast<LO>(i));
  }

  // The copies of rows owned elsewhere go to their owners: row, column count, columns.
  void send_copied_rows() {
    asked.assign(static_cast<std::size_t>(nprocs), {});
    for (std::size_t r = 0; r < held; ++r) {
      const int p = owner[r];
      if (p == rank) continue;
      auto& to = asked[static_cast<std::size_t>(p)];
      to.push_back(gid[r]);
      to.push_back(static_cast<std::int64_t>(pattern.last(r) - pattern.first(r)));
      for (const local_index_t* c = pattern.first(r); c != pattern.last(r); ++c) to.push_back(gid[static_cast<std::size_t>(*c)]);
    }
    received = exchange(asked, received_counts, comm);
  }

  // Each owned row: its own neighbours and every column a copy of it brought.
  void collect_owned_columns() {
    const Map& owned = *g.nodes_->owned_map();
    const std::size_t n = compat::local_num_elements(owned);
    owned_columns.begin.assign(n + 1, 0);
    const auto owned_row = [&](GO row) { return static_cast<std::size_t>(owned.getLocalElement(row)); };
    // Every owned row holds its diagonal, even a node no local cell touches
    // (a constrained node's 1 goes there).
    for (std::size_t r = 0; r < held; ++r)
      if (owner[r] == rank) owned_columns.begin[owned_row(gid[r]) + 1] += 1 + static_cast<std::size_t>(pattern.last(r) - pattern.first(r));
    for (std::size_t k = 0; k < received.size(); k += 2 + static_cast<std::size_t>(received[k + 1]))
      owned_columns.begin[owned_row(received[k]) + 1] += static_cast<std::size_t>(received[k + 1]);
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
    for (std::size_t k = 0; k < received.size(); k += 2 + static_cast<std::size_t>(received[k + 1])) {
      std::size_t& to = at[owned_row(received[k])];
      for (std::int64_t j = 0; j < received[k + 1]; ++j) owned_columns.items[to++] = received[k + 2 + static_cast<std::size_t>(j)];
    }
    sort_unique_rows(owned_columns);
  }

  // The column map: the owned nodes first (as the domain map has them, so
  // Tpetra's import for apply copies them in place), then the others ascending.
  void make_column_map() {
    const Map& owned = *g.nodes_->owned_map();
    const auto owned_gids = compat::local_element_list(owned);
    std::vector<GO> columns(owned_gids.begin(), owned_gids.end());
    std::vector<GO> others;
    for (GO c : owned_columns.items)
      if (owned.getLocalElement(c) == Teuchos::OrdinalTraits<LO>::invalid()) others.push_back(c);
    std::sort(others.begin(), others.end());
    others.erase(std::unique(others.begin(), others.end()), others.end());
    columns.insert(columns.end(), others.begin(), others.end());
    column_map = Teuchos::rcp(new Map(Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid(),
                                      Teuchos::ArrayView<const GO>(columns), owned.getIndexBase(), owned.getComm()));
    column_of.resize(held);
    for (std::size_t i = 0; i < held; ++i) column_of[i] = column_map->getLocalElement(gid[i]);
  }

  // The owned rows in Tpetra's local form (columns as column-map indices,
  // ascending in each row), and the graph.
  void make_graph() {
    const Map& cm = *column_map;
    row_ptr = Teuchos::ArrayRCP<std::size_t>(owned_columns.begin.size());
    std::copy(owned_columns.begin.begin(), owned_columns.begin.end(), row_ptr.begin());
    col_ind = Teuchos::ArrayRCP<LO>(owned_columns.items.size());
    for (std::size_t k = 0; k < owned_columns.items.size(); ++k) col_ind[k] = cm.getLocalElement(owned_columns.items[k]);
    for (std::size_t r = 0; r + 1 < owned_columns.begin.size(); ++r)
      std::sort(col_ind.begin() + static_cast<std::ptrdiff_t>(row_ptr[r]), col_ind.begin() + static_cast<std::ptrdiff_t>(row_ptr[r + 1]));
    auto graph = Teuchos::rcp(new CrsGraph(g.nodes_->owned_map(), column_map, row_ptr, col_ind));
    graph->expertStaticFillComplete(g.nodes_->owned_map(), g.nodes_->owned_map());
    g.graph_ = graph;
    g.num_owned_entries_ = static_cast<std::size_t>(col_ind.size());
  }

  // Where column c (a column-map index) of owned row r (an owned-map
  // index) sits among the owned entries.
  std::size_t owned_entry(LO r, LO c) const {
    const auto b = col_ind.begin() + static_cast<std::ptrdiff_t>(row_ptr[static_cast<std::size_t>(r)]);
    const auto e = col_ind.begin() + static_cast<std::ptrdiff_t>(row_ptr[static_cast<std::size_t>(r) + 1]);
    return static_cast<std::size_t>(std::lower_bound(b, e, c) - col_ind.begin());
  }
  // The same, by global row and column (for the rows other processes sent).
  std::size_t owned_entry_of_global(GO row, GO column) const {
    return owned_entry(g.nodes_->owned_map()->getLocalElement(row), column_map->getLocalElement(column));
  }

  // Each held row's entries as this process adds into them: owned rows'
  // among the owned entries, copies' after them in the order they were sent.
  // The owners answer with the global number of every entry sent (offset of
  // the owner's entries plus the place in its rows), which the matrix
  // entries' halo plan is built on.
  void place_entries() {
    std::vector<std::int64_t> counts(static_cast<std::size_t>(nprocs));
    const std::int64_t mine = static_cast<std::int64_t>(g.num_owned_entries_);
    MPI_Allgather(&mine, 1, MPI_INT64_T, counts.data(), 1, MPI_INT64_T, comm);
    std::vector<global_index_t> ranges(static_cast<std::size_t>(nprocs) + 1, 0);
    for (int p = 0; p < nprocs; ++p) ranges[static_cast<std::size_t>(p) + 1] = ranges[static_cast<std::size_t>(p)] + counts[static_cast<std::size_t>(p)];
    const global_index_t offset = ranges[static_cast<std::size_t>(rank)];

    std::vector<std::vector<std::int64_t>> answers(static_cast<std::size_t>(nprocs));
    std::size_t k = 0;
    for (int p = 0; p < nprocs; ++p)
      for (const std::size_t end = k + static_cast<std::size_t>(received_counts[static_cast<std::size_t>(p)]); k < end;) {
        const GO row = received[k];
        const std::size_t n = static_cast<std::size_t>(received[k + 1]);
        for (std::size_t j = 0; j < n; ++j)
          answers[static_cast<std::size_t>(p)].push_back(offset +
                                                         static_cast<global_index_t>(owned_entry_of_global(row, received[k + 2 + j])));
        k += 2 + n;
      }
    std::vector<int> answer_counts;
    const std::vector<std::int64_t> numbers = exchange(answers, answer_counts, comm);

    // The held rows' entries, in the pattern's order.
    g.row_begin_ = pattern.begin;
    g.row_columns_ = pattern.items;
    g.entry_at_.resize(pattern.items.size());
    std::vector<std::size_t> next_copy(static_cast<std::size_t>(nprocs), 0);  // copies' entries already placed, per owner
    std::vector<std::size_t> first_copy(static_cast<std::size_t>(nprocs), g.num_owned_entries_);
    for (int p = 1; p < nprocs; ++p)
      first_copy[static_cast<std::size_t>(p)] = first_copy[static_cast<std::size_t>(p - 1)] +
                                                static_cast<std::size_t>(answer_counts[static_cast<std::size_t>(p - 1)]);
    const Map& owned = *g.nodes_->owned_map();
    std::vector<LO> owned_row(held, Teuchos::OrdinalTraits<LO>::invalid());
    for (std::size_t r = 0; r < held; ++r)
      if (owner[r] == rank) owned_row[r] = owned.getLocalElement(gid[r]);
    for (std::size_t r = 0; r < held; ++r) {
      const int p = owner[r];
      for (std::size_t e = pattern.begin[r]; e < pattern.begin[r + 1]; ++e)
        g.entry_at_[e] = p == rank ? owned_entry(owned_row[r], column_of[static_cast<std::size_t>(pattern.items[e])])
                                   : first_copy[static_cast<std::size_t>(p)] + next_copy[static_cast<std::size_t>(p)]++;
    }
    g.num_shared_entries_ = numbers.size();

    // The owned diagonals, for constrained rows.
    g.diagonal_at_.assign(held, -1);
    for (std::size_t r = 0; r < held; ++r)
      if (owner[r] == rank) g.diagonal_at_[r] = static_cast<std::ptrdiff_t>(owned_entry(owned_row[r], column_of[r]));

    // The entries as a 'u' layout: the owned ones are this process's range,
    // the copies' are numbered by their owners; assembly is its halo's.
    std::vector<global_index_t> indices(g.num_owned_entries_);
    std::iota(indices.begin(), indices.end(), offset);
    indices.insert(indices.end(), numbers.begin(), numbers.end());
    mpi::DistributedLayoutOptions options;
    options.ownership = mpi::Ownership::from_ranges(ranges);
    const auto entries = mpi::DistributedLayout::create(
        std::vector<Dim>{Dim::unstructured(ranges.back(), nprocs, rank, std::move(indices), false)}, comm, options);
    g.entries_plan_ = mpi::HaloPlan::create(entries);
  }
};

std::shared_ptr<const FEGraph> FEGraph::create(std::shared_ptr<const TpetraLayout> nodes, std::vector<local_index_t> cells,
                                               int corners) {
  std::shared_ptr<FEGraph> g(new FEGraph());
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
  const std::size_t held = graph_->diagonal_at_.size();
  std::vector<Problem> problems;
  if (!constrained_.empty() && constrained_.size() != held)
    problems.push_back(Problem::of(graph_->nodes().rank(), "constrained", std::to_string(constrained_.size()),
                                   "one flag per held node (" + std::to_string(held) + "), or none",
                                   "the Dirichlet flags do not match the node layout"));
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
  entries_.dim_data = graph_->entries_plan_->layout().dim_data();
  entries_.buffer = view_buffer(values_, {static_cast<global_index_t>(num_values_)});
}

FEMatrix::~FEMatrix() = default;

void FEMatrix::begin_assembly() {
  std::fill(values_, values_ + num_values_, 0.0);
  faults_.clear();
}

bool FEMatrix::element_fits(std::size_t c, const ElementMatrix& k, const char* caller) {
  const FEGraph& g = *graph_;
  const std::string n = std::to_string(g.corners_);
  Problem fault;
  if (c >= g.num_cells())
    fault = Problem::of(g.nodes().rank(), "cell", std::to_string(c),
                        "a cell of the graph (0 <= c < " + std::to_string(g.num_cells()) + ")",
                        std::string(caller) + " skipped it");
  else if (k.rows != g.corners_ || k.cols != g.corners_ || k.values == nullptr)
    fault = Problem::of(g.nodes().rank(), "element_matrix", std::to_string(k.rows) + "x" + std::to_string(k.cols),
                        "an element matrix is corners x corners (" + n + "x" + n + ")", std::string(caller) + " skipped it");
  else
    return true;
  list_problem(faults_, std::move(fault));  // the first few name the fault; the count does not matter
  return false;
}

void FEMatrix::add_element(std::size_t c, const ElementMatrix& k) {
  if (!element_fits(c, k, "add_element")) return;
  const FEGraph& g = *graph_;
  const int n = g.corners_;
  const local_index_t* corner = g.cell(c);
  double* values = values_;
  for (int a = 0; a < n; ++a) {
    const local_index_t row = corner[a];
    if (is_constrained(row)) continue;
    const local_index_t* columns = g.row_columns_.data();
    const std::size_t begin = g.row_begin_[static_cast<std::size_t>(row)], end = g.row_begin_[static_cast<std::size_t>(row) + 1];
    for (int b = 0; b < n; ++b) {
      const local_index_t col = corner[b];
      if (is_constrained(col)) continue;
      std::size_t e = begin;
      while (e < end && columns[e] != col) ++e;  // rows are short: a few dozen entries at most
      values[g.entry_at_[e]] += k.values[a * n + b];
    }
  }
}

void FEMatrix::lift_element(std::size_t c, const ElementMatrix& k, const double* g, double* rhs) {
  if (!element_fits(c, k, "lift_element") || constrained_.empty()) return;
  const int n = graph_->corners_;
  const local_index_t* corner = graph_->cell(c);
  for (int a = 0; a < n; ++a) {
    if (is_constrained(corner[a])) continue;
    for (int b = 0; b < n; ++b)
      if (is_constrained(corner[b])) rhs[corner[a]] -= k.values[a * n + b] * g[corner[b]];
  }
}

void FEMatrix::set_constrained_values(const double* g, double* rhs) const {
  for (std::size_t i = 0; i < constrained_.size(); ++i)
    if (constrained_[i]) rhs[i] = g[i];
}

void FEMatrix::end_assembly() {
  mpi::agree(faults_, graph_->nodes().distribution()->comm());
  const FEGraph& g = *graph_;
  g.entries_plan_->assemble<double>(entries_);
  for (std::size_t i = 0; i < constrained_.size(); ++i)
    if (constrained_[i] && g.diagonal_at_[i] >= 0) values_[g.diagonal_at_[i]] = 1.0;
}

}  // namespace dapetra::tpetra
