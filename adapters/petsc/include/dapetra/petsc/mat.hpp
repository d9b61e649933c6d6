/// \file
/// dapetra/petsc/mat.hpp: a PETSc matrix's rows in CSR form, for another library to build its own matrix from.
///
/// A PETSc Mat keeps its rows in its own formats (MPIAIJ: a diagonal and an
/// off-diagonal block with a column map), which no other library reads.
/// csr_rows_copy() writes each process's rows (its ownership range) as CSR
/// arrays with global columns (dapetra/csr.hpp), which Tpetra's adapter
/// (dapetra::tpetra::crs_matrix_copy) or any other consumer takes as they
/// are. It copies (the name says so): the result does not follow later
/// changes to the Mat.
#pragma once

#include <petscmat.h>

#include "dapetra/csr.hpp"

namespace dapetra::petsc {

/// Collective over the Mat's communicator. This process's rows of an
/// assembled Mat (real scalars; AIJ read block by block, any other type
/// row by row with MatGetRow): CsrRows::first_row is the start of its
/// ownership range, so a consumer checks that its layout owns the same rows.
/// Within a row, the diagonal block's columns come first, then the others'.
/// A Mat that is not assembled on any process, or a PETSc error on any,
/// throws the same ValidationError on every process.
/// @param a an assembled PETSc Mat.
/// @return this process's rows with global columns (a copy), first_row its ownership range's start.
CsrRows csr_rows_copy(Mat a);

}  // namespace dapetra::petsc
