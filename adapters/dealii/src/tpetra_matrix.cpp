#include "dapetra/dealii/tpetra_matrix.hpp"

#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_FECrsGraph.hpp>
#include <Tpetra_FECrsMatrix.hpp>
#include <Tpetra_Map.hpp>
#include <algorithm>
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
  std::vector<Problem> faults;        // add()'s, reported by compress()
  std::size_t more_faults = 0;        // beyond the first one kept

  void fault(const std::string& key, std::size_t value, const std::string& rule, const std::string& message) {
    if (faults.empty()) faults.push_back(Problem::of(rank, key, std::to_string(value), rule, message));
    else ++more_faults;
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

namespace {

// The pattern's rows this process adds to, other than its owned ones.
std::vector<GO> shared_rows(const ::dealii::IndexSet& owned, const ::dealii::DynamicSparsityPattern& pattern) {
  std::vector<GO> out;
  const ::dealii::IndexSet& rows = pattern.row_index_set();
  const auto add_if_shared = [&](::dealii::types::global_dof_index r) {
    if (!owned.is_element(r) && pattern.row_length(r) > 0) out.push_back(static_cast<GO>(r));
  };
  if (rows.size() == 0)  // the pattern holds every row
    for (::dealii::types::global_dof_index r = 0; r < pattern.n_rows(); ++r) add_if_shared(r);
  else
    for (const auto r : rows) add_if_shared(r);
  return out;
}

Teuchos::RCP<FEGraph> graph_of(const ::dealii::IndexSet& owned, const ::dealii::DynamicSparsityPattern& pattern,
                               const Teuchos::RCP<const Teuchos::Comm<int>>& comm) {
  const auto invalid = Teuchos::OrdinalTraits<Tpetra::global_size_t>::invalid();
  auto owned_map = Teuchos::rcp(new Map(pattern.n_rows(), owned.n_elements(), 0, comm));
  std::vector<GO> rows;
  for (const auto r : owned) rows.push_back(static_cast<GO>(r));
  const std::vector<GO> shared = shared_rows(owned, pattern);
  rows.insert(rows.end(), shared.begin(), shared.end());
  auto all_map = Teuchos::rcp(new Map(invalid, Teuchos::ArrayView<const GO>(rows), 0, comm));
  Kokkos::DualView<std::size_t*, FEGraph::device_type> lengths("row lengths", rows.size());
  auto host = lengths.view_host();
  for (std::size_t i = 0; i < rows.size(); ++i) host(i) = pattern.row_length(static_cast<::dealii::types::global_dof_index>(rows[i]));
  lengths.modify_host();
  lengths.sync_device();
  auto graph = Teuchos::rcp(new FEGraph(owned_map, all_map, lengths));
  graph->beginAssembly();
  std::vector<GO> columns;
  for (const GO r : rows) {
    columns.clear();
    for (auto e = pattern.begin(static_cast<::dealii::types::global_dof_index>(r)); e != pattern.end(static_cast<::dealii::types::global_dof_index>(r)); ++e)
      columns.push_back(static_cast<GO>(e->column()));
    graph->insertGlobalIndices(r, static_cast<LO>(columns.size()), columns.data());
  }
  graph->endAssembly();  // collective: shared rows' structure to their owners, fill complete
  return graph;
}

}  // namespace

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
  const auto teuchos_comm = Teuchos::rcp(new Teuchos::MpiComm<int>(comm));
  const auto graph = graph_of(owned, pattern, teuchos_comm);
  impl_->owned_rows = static_cast<LO>(owned.n_elements());
  impl_->matrix = Teuchos::rcp(new FEMatrix(graph));
  impl_->matrix->beginAssembly();
  impl_->take_arrays();
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
  if (m.more_faults > 0) m.faults[0].message += " (and " + std::to_string(m.more_faults) + " more faults here)";
  std::vector<Problem> faults;
  faults.swap(m.faults);
  m.more_faults = 0;
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

}  // namespace dapetra::dealii
