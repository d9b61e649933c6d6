/// \file
/// dapetra/tpetra/crs_matrix.hpp: a Tpetra CrsMatrix from another library's rows in CSR form.
///
/// Codes that assemble their own matrices (SciPy, PETSc, DOLFINx, a
/// hand-written assembly) hold each process's rows in compressed-row form
/// with global columns (dapetra/csr.hpp). crs_matrix_copy() turns them into a
/// Tpetra CrsMatrix on a DAP layout's owned rows in bulk: one pass over the
/// entries to find their local columns, no per-entry insert, no global
/// communication beyond the column map's Import (Tpetra's directory) and one
/// agreement on the input. The matrix owns its arrays: later changes to the
/// CSR arrays do not reach it (the name says it copies).
///
/// Rows with local columns (LocalCsrView, what PETSc's MPIAIJ keeps) skip
/// the lookup: their ghost list becomes the column map's tail as given.
///
/// The column map lists the owned rows first, in the owned map's order, then
/// every other column the rows name, ascending, so apply() copies the owned
/// part of x in place and fetches the rest.
#pragma once

#include <Teuchos_RCP.hpp>
#include <Tpetra_CrsMatrix_fwd.hpp>

#include "dapetra/csr.hpp"
#include "dapetra/tpetra/tpetra_layout.hpp"
#include "dapetra/tpetra/types.hpp"

namespace dapetra::tpetra {

/// Collective over rows.comm(). A fill-complete CrsMatrix whose row, domain
/// and range maps are `rows`' owned map (a 1-D layout, no column axis): row
/// r of `csr` is the owned map's r-th element (checked against
/// csr.first_row when that is given), its columns global indices of the
/// layout (0 <= c < global size). Within a row, columns may come in any
/// order and repeat (repeats are summed). Copies every entry.
///
/// Throws the same ValidationError on every process when any process's
/// input is wrong: row count other than its owned count, offsets that do
/// not start at 0, decrease, or end other than at the entry count, a column
/// outside [0, global size), rows other than first_row's range.
/// @param rows the layout whose owned elements are the rows, in order.
/// @param csr this process's owned rows with global columns.
/// @return the matrix on rows' owned map, fill complete (a copy).
Teuchos::RCP<CrsMatrix> crs_matrix_copy(const TpetraLayout& rows, const CsrView& csr);

/// Collective over rows.comm(). A rectangular block (a coupling between two
/// fields: rows in one, columns in the other): as above, with domain map
/// `columns`' owned map and columns global indices of `columns` (0 <= c <
/// its global size). The two layouts are over the same communicator (else
/// the same ValidationError on every process, key "columns"). Copies every
/// entry.
/// @param rows the layout whose owned elements are the rows, in order.
/// @param columns the layout of the vectors the matrix applies to.
/// @param csr this process's owned rows with global columns of `columns`.
/// @return the matrix, range map rows' owned map, domain map columns', fill complete (a copy).
Teuchos::RCP<CrsMatrix> crs_matrix_copy(const TpetraLayout& rows, const TpetraLayout& columns, const CsrView& csr);

/// Collective over rows.comm(). The same matrix from rows with local
/// columns: column c < csr.owned_columns is the owned map's c-th element,
/// column owned_columns + j is global index csr.ghost_columns[j]; the column
/// map is the owned elements then ghost_columns in the given order. Rows
/// whose local columns ascend are copied as they are; others are sorted and
/// their repeats summed. Copies every entry.
///
/// Throws the same ValidationError on every process when any process's
/// input is wrong: the offsets as above, owned_columns other than the owned
/// count, a ghost column outside [0, global size), owned by this process or
/// named twice, a local column past the last ghost, rows other than
/// first_row's range.
/// @param rows the layout whose owned elements are the rows, in order.
/// @param csr this process's owned rows with local columns.
/// @return the matrix on rows' owned map, fill complete (a copy).
Teuchos::RCP<CrsMatrix> crs_matrix_copy(const TpetraLayout& rows, const LocalCsrView& csr);

}  // namespace dapetra::tpetra
