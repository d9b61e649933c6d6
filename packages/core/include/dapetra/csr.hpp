/// \file
/// dapetra/csr.hpp: one process's rows of a distributed sparse matrix, in compressed-row form.
///
/// Sparse matrices travel between libraries as each process's rows in
/// compressed-row (CSR) form with global column indices: what SciPy's
/// csr_matrix holds, what PETSc's MatGetRow and petsc4py's getValuesCSR
/// give, and what Tpetra is built from (dapetra/tpetra/crs_matrix.hpp).
/// CsrView is a view of the caller's three arrays; CsrRows owns them, for a
/// producer that has to copy (dapetra/petsc/mat.hpp). Neither knows about
/// MPI: which global rows a process holds is the consumer's layout's business.
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

}  // namespace dapetra
