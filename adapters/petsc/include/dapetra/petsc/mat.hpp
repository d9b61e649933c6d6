/// \file
/// dapetra/petsc/mat.hpp: a PETSc matrix's rows in CSR form, for another library to build its own matrix from.
///
/// A PETSc Mat keeps its rows in its own formats (MPIAIJ: a diagonal and an
/// off-diagonal block with a column map), which no other library reads.
/// csr_rows_copy() writes each process's rows (its ownership range) as CSR
/// arrays with global columns (dapetra/csr.hpp), which Tpetra's adapter
/// (dapetra::tpetra::crs_matrix_copy) or any other consumer takes as they
/// are. local_csr_rows_copy() writes the same rows the way MPIAIJ keeps
/// them, with local columns and a ghost list (PETSc's garray), which Tpetra
/// takes with no column lookup: the faster path for a square Mat. Both
/// copy (the names say so): the result does not follow later changes to the
/// Mat. near_nullspace_copy() hands on what PETSc's own
/// multigrid (GAMG) would read beside the rows: the Mat's block size and
/// its near-nullspace (rigid-body modes for elasticity), for MueLu.
#pragma once

#include <petscmat.h>

#include <cstddef>
#include <vector>

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

/// Collective over the Mat's communicator. This process's rows of an
/// assembled square Mat with local columns (dapetra/csr.hpp's LocalCsrRows):
/// the diagonal block's columns (owned_columns, the ownership range) first,
/// then the off-diagonal block's, numbered after them in the order of
/// ghost_columns (ascending global indices). A type other than AIJ goes
/// through PETSc's MatConvert to AIJ first. A Mat that is not assembled, or
/// whose column ownership differs from its row ownership, or a PETSc error,
/// on any process throws the same ValidationError on every process.
/// @param a an assembled square PETSc Mat (real scalars).
/// @return this process's rows with local columns (a copy), first_row its ownership range's start.
LocalCsrRows local_csr_rows_copy(Mat a);

/// A Mat's block size and near-nullspace on this process's rows (a copy).
struct NearNullspaceCopy {
  /// MatGetBlockSize: unknowns per node, interleaved (node * block_size + component).
  int block_size = 1;
  /// This process's rows (its ownership range).
  std::size_t rows = 0;
  /// Columns of `values`: the near-nullspace's vectors, with a constant
  /// one first when the null space has the constant; 0 when the Mat has no
  /// near-nullspace (MatSetNearNullSpace was not called).
  std::size_t modes = 0;
  /// rows * modes values, column after column.
  std::vector<double> values;
};

/// Collective over the Mat's communicator. The block size and the
/// near-nullspace (MatGetNearNullSpace) of `a`, for a multigrid other than
/// PETSc's: dapetra::tpetra::SolverOptions' equations_per_node and
/// near_nullspace take them. A PETSc error on any process throws the same
/// ValidationError on every process.
/// @param a a PETSc Mat (real scalars).
/// @return the block size and this process's rows of the modes (a copy).
NearNullspaceCopy near_nullspace_copy(Mat a);

}  // namespace dapetra::petsc
