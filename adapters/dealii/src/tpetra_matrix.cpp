#include "dapetra/dealii/tpetra_matrix.hpp"

#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_FECrsGraph.hpp>
#include <Tpetra_FECrsMatrix.hpp>
#include <Tpetra_Map.hpp>
#include <Tpetra_MultiVector.hpp>
#include <algorithm>
#include <stdexcept>
#include <string>

#include "dapetra/mpi/agree.hpp"
#include "dapetra/tpetra/compat.hpp"
#include "ranges.hpp"

namespace dapetra::dealii {

using tpetra::GO;
using tpetra::LO;
using tpetra::Map;
using FEGraph = Tpetra::FECrsGraph<LO, GO, tpetra::Node>;
using FEMatrix = Tpetra::FECrsMatrix<double, LO, GO, tpetra::Node>;

namespace {

// The structure a process adds to, by global index: its owned rows first
// (in the order the row map numbers them), then the rows owned elsewhere,
// each row's columns in `columns` from `begin[i]` to `begin[i + 1]`.
struct Structure {
  std::vector<GO> rows;
  std::size_t owned = 0;
  bool owned_contiguous = false;  // the owned rows are one range (Tpetra's contiguous map then)
  std::vector<std::size_t> begin{0};
  std::vector<GO> columns;

  void add_row(GO row) {
    rows.push_back(row);
    begin.push_back(columns.size());
  }
  // Ends the last row added: its columns are those pushed since.
  void close_row() { begin.back() = columns.size(); }
};

// Calls visit(r) for every row the pattern holds (its row index set, or
// every row when it holds them all).
template <class Visit>
void for_each_held_row(const ::dealii::DynamicSparsityPattern& pattern, Visit&& visit) {
  const ::dealii::IndexSet& rows = pattern.row_index_set();
  if (rows.size() == 0)
    for (::dealii::types::global_dof_index r = 0; r < pattern.n_rows(); ++r) visit(r);
  else
    for (const auto r : rows) visit(r);
}

// Pushes row r's columns of `pattern`, shifted by `offset`, onto `out`.
void push_columns(const ::dealii::DynamicSparsityPattern& pattern, ::dealii::types::global_dof_index r, GO offset,
                  std::vector<GO>& out) {
  for (auto e = pattern.begin(r); e != pattern.end(r); ++e) out.push_back(offset + static_cast<GO>(e->column()));
}

Structure structure_of(const ::dealii::IndexSet& owned, const ::dealii::DynamicSparsityPattern& pattern) {
  Structure s;
  const auto add = [&](::dealii::types::global_dof_index r) {
    s.add_row(static_cast<GO>(r));
    push_columns(pattern, r, 0, s.columns);
    s.close_row();
  };
  for (const auto r : owned) add(r);
  s.owned = s.rows.size();
  s.owned_contiguous = true;  // (boundaries_of() has checked it)
  for_each_held_row(pattern, [&](::dealii::types::global_dof_index r) {
    if (!owned.is_element(r) && pattern.row_length(r) > 0) add(r);
  });
  return s;
}

// The block form: block after block, rows and columns shifted by their blocks' starts.
Structure structure_of(const std::vector<::dealii::IndexSet>& owned, const ::dealii::BlockDynamicSparsityPattern& pattern) {
  Structure s;
  const auto& starts = pattern.get_row_indices();
  const auto add = [&](unsigned b, ::dealii::types::global_dof_index r) {
    s.add_row(static_cast<GO>(starts.block_start(b) + r));
    for (unsigned c = 0; c < pattern.n_block_cols(); ++c)
      push_columns(pattern.block(b, c), r, static_cast<GO>(starts.block_start(c)), s.columns);
    s.close_row();
  };
  for (unsigned b = 0; b < pattern.n_block_rows(); ++b)
    for (const auto r : owned[b]) add(b, r);
  s.owned = s.rows.size();
  for (unsigned b = 0; b < pattern.n_block_rows(); ++b)
    for_each_held_row(pattern.block(b, 0), [&](::dealii::types::global_dof_index r) {
      if (owned[b].is_element(r)) return;
      std::size_t length = 0;
      for (unsigned c = 0; c < pattern.n_block_cols(); ++c) length += pattern.block(b, c).row_length(r);
      if (length > 0) add(b, r);
    });
  return s;
}

// Collective: the graph of `s`, its rows owned elsewhere summed onto their owners, fill complete.
Teuchos::RCP<FEGraph> graph_of(const Structure& s, Tpetra::global_size_t size,
                               const Teuchos::RCP<const Teuchos::Comm<int>>& comm) {
  const auto invalid = Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid();
  auto owned_map = s.owned_contiguous
                       ? Teuchos::rcp(new Map(size, s.owned, 0, comm))
                       : Teuchos::rcp(new Map(size, Teuchos::ArrayView<const GO>(s.rows.data(), s.owned), 0, comm));
  auto all_map = Teuchos::rcp(new Map(invalid, Teuchos::ArrayView<const GO>(s.rows), 0, comm));
  Kokkos::DualView<std::size_t*, FEGraph::device_type> lengths("row lengths", s.rows.size());
  auto host = lengths.view_host();
  for (std::size_t i = 0; i < s.rows.size(); ++i) host(i) = s.begin[i + 1] - s.begin[i];
  lengths.modify_host();
  lengths.sync_device();
  auto graph = Teuchos::rcp(new FEGraph(owned_map, all_map, lengths));
  graph->beginAssembly();
  for (std::size_t i = 0; i < s.rows.size(); ++i)
    graph->insertGlobalIndices(s.rows[i], static_cast<LO>(s.begin[i + 1] - s.begin[i]), s.columns.data() + s.begin[i]);
  graph->endAssembly();  // collective: shared rows' structure to their owners, fill complete
  return graph;
}

// Collective: the same number of blocks on every process, square blocks,
// owned sets of the blocks' sizes; otherwise the same ValidationError everywhere.
void check_blocks(const std::vector<::dealii::IndexSet>& owned, const ::dealii::BlockDynamicSparsityPattern& pattern,
                  MPI_Comm comm, int rank) {
  int count[2] = {static_cast<int>(owned.size()), -static_cast<int>(owned.size())}, least[2];
  MPI_Allreduce(count, least, 2, MPI_INT, MPI_MIN, comm);
  mpi::agree_on(comm, [&] {
    const auto fault = [&](const std::string& value, const std::string& rule, const std::string& message) {
      throw ValidationError({Problem::of(rank, "blocks", value, rule, message)});
    };
    if (least[0] != -least[1] && static_cast<int>(owned.size()) != least[0])  // (the processes above the least)
      fault(std::to_string(owned.size()), "every process names the same number of blocks",
            "between " + std::to_string(least[0]) + " and " + std::to_string(-least[1]));
    if (owned.size() != pattern.n_block_rows() || owned.size() != pattern.n_block_cols())
      fault(std::to_string(owned.size()),
            "one owned set per block of the pattern (" + std::to_string(pattern.n_block_rows()) + " x " +
                std::to_string(pattern.n_block_cols()) + ")",
            "the owned sets and the pattern's blocks differ");
    for (unsigned b = 0; b < owned.size(); ++b) {
      const auto rows = pattern.get_row_indices().block_size(b), columns = pattern.get_column_indices().block_size(b);
      if (rows != columns || owned[b].size() != rows)
        fault("block " + std::to_string(b) + ": " + std::to_string(owned[b].size()) + " owned-set size, " +
                  std::to_string(rows) + " x " + std::to_string(columns),
              "square diagonal blocks, each of its owned set's size", "block " + std::to_string(b) + " does not fit");
    }
  });
}

}  // namespace

struct TpetraSparseMatrix::Impl {
  MPI_Comm comm = MPI_COMM_NULL;
  int rank = 0;
  Teuchos::RCP<FEMatrix> matrix;
  bool assembling = true;             // owned-plus-shared mode: add() goes there
  LO owned_rows = 0;                  // the first rows of the owned-plus-shared matrix
  // The owned-plus-shared matrix's local arrays while assembling: add()
  // sums straight into its values (Tpetra's sumIntoGlobalValues costs a
  // view per call); rows and columns are found through its maps, whose
  // contiguous leading parts Tpetra looks up by arithmetic.
  Teuchos::RCP<const Map> rows, columns;
  const std::size_t* row_begin = nullptr;
  const LO* row_columns = nullptr;
  double* values = nullptr;
  std::vector<std::size_t> owned_per_block;
  std::vector<Problem> faults;  // add()'s, reported by compress()

  // Records a fault for compress(), as FEMatrix records add_element's: the
  // first max_listed_problems name the faults (list_problem), the rest are dropped.
  void fault(const std::string& key, std::size_t value, const std::string& rule, const std::string& message) {
    list_problem(faults, Problem::of(rank, key, std::to_string(value), rule, message));
  }

  // Collective: the matrix over `s`, open for assembly.
  void start(const Structure& s, std::size_t size, std::vector<std::size_t> counts) {
    const auto graph = graph_of(s, size, Teuchos::rcp(new Teuchos::MpiComm<int>(comm)));
    owned_rows = static_cast<LO>(s.owned);
    owned_per_block = std::move(counts);
    matrix = Teuchos::rcp(new FEMatrix(graph));
    matrix->beginAssembly();
    take_arrays();
  }

  // The active (owned-plus-shared) matrix's arrays, for add().
  void take_arrays() {
    const auto local = matrix->getLocalMatrixHost();
    row_begin = local.graph.row_map.data();
    row_columns = local.graph.entries.data();
    values = local.values.data();
    rows = matrix->getRowMap();
    columns = matrix->getColMap();
  }

  // Owned-plus-shared mode again after compress(). The shared rows' values
  // were added on their owners already: zero them, so that they are not
  // sent twice; the owned rows go on from the assembled values.
  void resume() {
    if (assembling) return;
    matrix->beginAssembly();
    assembling = true;
    take_arrays();
    const std::size_t end = row_begin[tpetra::compat::local_num_elements(*rows)];
    std::fill(values + row_begin[static_cast<std::size_t>(owned_rows)], values + end, 0.0);
  }

  // Adds `value` at local column `c` of the row whose entries are [b, e), at or after `hint`
  // (deal.II passes a row's columns ascending, so the search goes on from the last one);
  // false when the row has no such column.
  bool sum_into(std::size_t b, std::size_t e, std::size_t& hint, LO c, double value) {
    std::size_t k = hint < e && row_columns[hint] <= c ? hint : b;
    const LO* found = std::lower_bound(row_columns + k, row_columns + e, c);
    if (found == row_columns + e || *found != c) return false;
    hint = static_cast<std::size_t>(found - row_columns);
    values[hint] += value;
    return true;
  }
};

TpetraSparseMatrix::TpetraSparseMatrix(const ::dealii::IndexSet& owned, const ::dealii::DynamicSparsityPattern& pattern,
                                       MPI_Comm comm)
    : impl_(std::make_unique<Impl>()), size_(pattern.n_rows()) {
  impl_->comm = comm;
  MPI_Comm_rank(comm, &impl_->rank);
  mpi::agree_on(comm, [&] {
    if (pattern.n_rows() != owned.size() || pattern.n_cols() != owned.size())
      throw ValidationError({Problem::of(impl_->rank, "pattern", std::to_string(pattern.n_rows()) + " x " + std::to_string(pattern.n_cols()),
                                         "the pattern is square, of the owned set's size (" + std::to_string(owned.size()) + ")",
                                         "the pattern and the rows differ")});
  });
  boundaries_of(owned, comm);  // collective: the owned sets tile the rows in rank order, or every process throws
  impl_->start(structure_of(owned, pattern), size_, {owned.n_elements()});
}

TpetraSparseMatrix::TpetraSparseMatrix(const std::vector<::dealii::IndexSet>& owned,
                                       const ::dealii::BlockDynamicSparsityPattern& pattern, MPI_Comm comm)
    : impl_(std::make_unique<Impl>()), size_(pattern.n_rows()) {
  impl_->comm = comm;
  MPI_Comm_rank(comm, &impl_->rank);
  check_blocks(owned, pattern, comm, impl_->rank);
  std::vector<std::size_t> counts;
  for (const auto& block : owned) {
    boundaries_of(block, comm);  // collective, as above, block by block
    counts.push_back(block.n_elements());
  }
  impl_->start(structure_of(owned, pattern), size_, std::move(counts));
}

TpetraSparseMatrix::~TpetraSparseMatrix() = default;

void TpetraSparseMatrix::add(size_type row, size_type n_cols, const size_type* columns, const double* values,
                             bool elide_zero_values, bool /*col_indices_are_sorted*/) {
  Impl& m = *impl_;
  m.resume();
  if (row >= size_) return m.fault("row", row, "rows are below the size (" + std::to_string(size_) + ")", "a row past the matrix");
  const LO r = m.rows->getLocalElement(static_cast<GO>(row));
  if (r == Teuchos::OrdinalTraits<LO>::invalid())
    return m.fault("row", row, "rows added to are in this process's pattern", "the pattern does not hold this row here");
  const std::size_t b = m.row_begin[r], e = m.row_begin[r + 1];
  std::size_t hint = b;
  for (size_type k = 0; k < n_cols; ++k) {
    if (columns[k] >= size_)
      return m.fault("column", columns[k], "columns are below the size (" + std::to_string(size_) + ")", "a column past the matrix");
    if (elide_zero_values && values[k] == 0.0) continue;
    const LO c = m.columns->getLocalElement(static_cast<GO>(columns[k]));
    if (c == Teuchos::OrdinalTraits<LO>::invalid() || !m.sum_into(b, e, hint, c, values[k]))
      return m.fault("column", columns[k], "columns added to are in the pattern's row " + std::to_string(row),
                     "a column outside the pattern in this row");
  }
}

void TpetraSparseMatrix::add(size_type row, size_type column, double value) { add(row, 1, &column, &value, false, true); }

void TpetraSparseMatrix::compress(::dealii::VectorOperation::values operation) {
  Impl& m = *impl_;
  if (operation != ::dealii::VectorOperation::add)
    m.fault("operation", static_cast<std::size_t>(operation), "compress(VectorOperation::add)", "a matrix is assembled by adding");
  std::vector<Problem> faults;
  faults.swap(m.faults);
  m.resume();
  try {
    mpi::agree(faults, m.comm);  // before any communication of values
  } catch (...) {
    m.matrix->setAllToScalar(0.0);  // nothing of this assembly stays
    throw;
  }
  m.matrix->endAssembly();  // collective: shared rows summed on their owners, fill complete
  m.assembling = false;
}

TpetraSparseMatrix& TpetraSparseMatrix::operator=(double zero) {
  if (zero != 0.0) throw std::invalid_argument("dapetra::dealii::TpetraSparseMatrix: only 0 can be assigned (a new assembly)");
  impl_->resume();
  impl_->matrix->setAllToScalar(0.0);
  return *this;
}

Teuchos::RCP<tpetra::CrsMatrix> TpetraSparseMatrix::tpetra_matrix() const { return impl_->matrix; }

const std::vector<std::size_t>& TpetraSparseMatrix::owned_rows_per_block() const { return impl_->owned_per_block; }

namespace {

// Throws unless x has as many rows here as v owns.
void check_rows(const BlockVector& v, const tpetra::MultiVector<double>& x, const char* function) {
  std::size_t owned = 0;
  for (unsigned b = 0; b < v.n_blocks(); ++b) owned += v.block(b).locally_owned_size();
  if (owned != x.getLocalLength())
    throw std::invalid_argument(std::string("dapetra::dealii::") + function + ": the block vector owns " +
                                std::to_string(owned) + " entries here, the Tpetra vector has " +
                                std::to_string(x.getLocalLength()) + " rows");
}

}  // namespace

void copy_block_vector_to_tpetra(const BlockVector& v, tpetra::MultiVector<double>& x) {
  check_rows(v, x, "copy_block_vector_to_tpetra");
  auto host = x.getLocalViewHost(Tpetra::Access::OverwriteAll);
  for (std::size_t j = 0; j < x.getNumVectors(); ++j) {
    std::size_t i = 0;
    for (unsigned b = 0; b < v.n_blocks(); ++b)
      for (std::size_t k = 0; k < v.block(b).locally_owned_size(); ++k) host(i++, j) = v.block(b).local_element(static_cast<Vector::size_type>(k));
  }
}

void copy_tpetra_to_block_vector(const tpetra::MultiVector<double>& x, BlockVector& v) {
  check_rows(v, x, "copy_tpetra_to_block_vector");
  const auto host = x.getLocalViewHost(Tpetra::Access::ReadOnly);
  std::size_t i = 0;
  for (unsigned b = 0; b < v.n_blocks(); ++b)
    for (std::size_t k = 0; k < v.block(b).locally_owned_size(); ++k) v.block(b).local_element(static_cast<Vector::size_type>(k)) = host(i++, 0);
}

}  // namespace dapetra::dealii
