/// \file
/// dapetra/csr.hpp: one process's rows of a distributed sparse matrix, in compressed-row form.
///
/// Sparse matrices travel between libraries as each process's rows in
/// compressed-row (CSR) form with global column indices: what SciPy's
/// csr_matrix holds, what PETSc's MatGetRow and petsc4py's getValuesCSR
/// give, and what Tpetra is built from (dapetra/tpetra/crs_matrix.hpp).
/// CsrView is a view of the caller's three arrays; CsrRows owns them, for a
/// producer that has to copy (dapetra/petsc/mat.hpp). LocalCsrView and
/// LocalCsrRows are the same rows with process-local columns, the way
/// PETSc's MPIAIJ (diagonal block + garray) and DOLFINx's MatrixCSR keep
/// them: the owned columns first, then a list of the others' global
/// indices. A consumer builds its column map from that list instead of
/// looking every entry's global column up. None knows about MPI: which
/// global rows a process holds is the consumer's layout's business.
#pragma once

#include <cstddef>
#include <vector>

#include "dapetra/dim.hpp"

namespace dapetra {

/// This process's rows in CSR form, in the caller's memory (a view; nothing is copied).
struct CsrView {
  /// num_rows + 1 offsets: row r's entries are [row_offsets[r], row_offsets[r + 1]).
  const global_index_t* row_offsets = nullptr;
  /// Rows on this process.
  std::size_t num_rows = 0;
  /// Each entry's global column index (in any order within a row; repeats are summed).
  const global_index_t* columns = nullptr;
  /// Each entry's value.
  const double* values = nullptr;
  /// Entries (the length of columns and of values).
  std::size_t num_entries = 0;
  /// When >= 0: row r is global row first_row + r, which the consumer checks
  /// against its layout (PETSc's ownership range). When < 0: row r is the
  /// consumer layout's r-th owned element, unchecked.
  global_index_t first_row = -1;
};

/// This process's rows in CSR form, owning its arrays (what a producer that copies returns).
struct CsrRows {
  /// Rows + 1 offsets (see CsrView::row_offsets).
  std::vector<global_index_t> row_offsets{0};
  /// Each entry's global column index.
  std::vector<global_index_t> columns;
  /// Each entry's value.
  std::vector<double> values;
  /// See CsrView::first_row.
  global_index_t first_row = -1;

  /// @return a view of these arrays (valid while they are neither changed nor destroyed).
  CsrView view() const {
    return CsrView{row_offsets.data(), row_offsets.empty() ? 0 : row_offsets.size() - 1, columns.data(), values.data(),
                   columns.size(), first_row};
  }
};

/// This process's rows in CSR form with local columns (a view; nothing is copied).
/// Column c < owned_columns is the consumer layout's c-th owned element (the
/// rows' own elements, so owned_columns is the owned count); column
/// owned_columns + j is global index ghost_columns[j], an element another
/// process owns. Ascending ghost_columns and ascending columns within each
/// row let a consumer such as Tpetra take the rows without sorting.
struct LocalCsrView {
  /// num_rows + 1 offsets: row r's entries are [row_offsets[r], row_offsets[r + 1]).
  const global_index_t* row_offsets = nullptr;
  /// Rows on this process.
  std::size_t num_rows = 0;
  /// Each entry's local column: < owned_columns an owned element, else owned_columns + its place in ghost_columns.
  const local_index_t* columns = nullptr;
  /// Each entry's value.
  const double* values = nullptr;
  /// Entries (the length of columns and of values).
  std::size_t num_entries = 0;
  /// Columns that are this process's owned elements (its owned count).
  std::size_t owned_columns = 0;
  /// The global index of each other column, each once.
  const global_index_t* ghost_columns = nullptr;
  /// Length of ghost_columns.
  std::size_t num_ghost_columns = 0;
  /// See CsrView::first_row.
  global_index_t first_row = -1;
};

/// LocalCsrView's arrays, owned (what a producer that copies returns).
struct LocalCsrRows {
  /// Rows + 1 offsets.
  std::vector<global_index_t> row_offsets{0};
  /// Each entry's local column.
  std::vector<local_index_t> columns;
  /// Each entry's value.
  std::vector<double> values;
  /// See LocalCsrView::owned_columns.
  std::size_t owned_columns = 0;
  /// See LocalCsrView::ghost_columns.
  std::vector<global_index_t> ghost_columns;
  /// See CsrView::first_row.
  global_index_t first_row = -1;

  /// @return a view of these arrays (valid while they are neither changed nor destroyed).
  LocalCsrView view() const {
    return LocalCsrView{row_offsets.data(), row_offsets.empty() ? 0 : row_offsets.size() - 1, columns.data(),
                        values.data(), columns.size(), owned_columns, ghost_columns.data(), ghost_columns.size(),
                        first_row};
  }
};

}  // namespace dapetra
