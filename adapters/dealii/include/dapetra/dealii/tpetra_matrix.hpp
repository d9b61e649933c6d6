/// \file
/// dapetra/dealii/tpetra_matrix.hpp: deal.II's assembly loop writing straight into a Tpetra matrix.
///
/// deal.II assembles with AffineConstraints::distribute_local_to_global(
/// cell_matrix, cell_rhs, dof_indices, matrix, rhs), which resolves hanging
/// nodes and boundary values and then adds rows of the global matrix by
/// global dof index. TpetraSparseMatrix is a matrix type that call can write
/// into (the members it uses: m(), n(), add()), backed by Tpetra's
/// FECrsMatrix: the structure comes from deal.II's DynamicSparsityPattern
/// once; rows owned elsewhere are kept beside the owned ones and summed on
/// their owners by compress(), as deal.II's own parallel matrices do; after
/// compress() tpetra_matrix() is a fill-complete Tpetra::CrsMatrix for Belos,
/// MueLu or Ifpack2. Re-assembly (a time step, a Newton step) sets the
/// matrix to zero and adds again into the same structure.
///
/// The right-hand side stays deal.II's own LinearAlgebra::distributed::Vector
/// (compress(VectorOperation::add) sums it); dapetra/dealii/vector.hpp views
/// it, and the solution, as Tpetra vectors without a copy.
///
/// Multi-field systems (Stokes: velocity and pressure) come in deal.II's
/// block numbering (DoFRenumbering::component_wise with blocks, as step-55
/// numbers them): the block constructor takes one owned set per block and a
/// BlockDynamicSparsityPattern, and builds one Tpetra matrix whose rows on
/// each process are its rows of block 0, then of block 1, and so on;
/// tpetra::FieldSplit::in_blocks(matrix.tpetra_matrix()->getRowMap(),
/// matrix.owned_rows_per_block()) names the fields for
/// tpetra::solve_block_system. deal.II's block vectors keep each block in
/// its own memory, so the right-hand side and the solution cross with
/// copy_block_vector_to_tpetra() and copy_tpetra_to_block_vector() (O(owned
/// rows), local).
///
/// AffineConstraints::distribute_local_to_global is instantiated in the
/// library for this matrix with deal.II's Vector, distributed::Vector and
/// distributed::BlockVector as the right-hand side: no program needs
/// deal.II's affine_constraints.templates.h for it.
///
/// Faults: an index past the global size, a row this process's pattern does
/// not hold, or a column outside the pattern, is kept by add() and reported
/// by compress() as the same ValidationError on every process, before any
/// communication; the matrix is then zero, ready for a new assembly.
#pragma once

#include <deal.II/base/index_set.h>
#include <deal.II/lac/block_sparsity_pattern.h>
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/vector_operation.h>
#include <mpi.h>

#include <Teuchos_RCP.hpp>
#include <memory>
#include <vector>

#include "dapetra/dealii/vector.hpp"
#include "dapetra/error.hpp"
#include "dapetra/tpetra/types.hpp"

namespace dapetra::dealii {

/// A Tpetra matrix deal.II's assembly writes into (see the file's description).
class TpetraSparseMatrix {
 public:
  /// deal.II's index type.
  using size_type = ::dealii::types::global_dof_index;
  /// The entries' type.
  using value_type = double;

  /// Collective over `comm`. The structure: this process's rows are
  /// `owned` (its locally owned dofs, one contiguous range, in rank order
  /// as deal.II numbers them); every row of `pattern` that holds entries is
  /// one this process may add to: its owned rows, and rows owned elsewhere
  /// that its cells touch (DoFTools::make_sparsity_pattern over its cells
  /// gives both; SparsityTools::distribute_sparsity_pattern is not needed:
  /// the rows owned elsewhere reach their owners here). Columns are global
  /// dof indices. A pattern of another size than owned's, or owned sets
  /// that do not tile the rows, throw the same ValidationError on every
  /// process.
  /// @param owned this process's rows.
  /// @param pattern the entries this process adds to, by global row and column.
  /// @param comm the processes.
  TpetraSparseMatrix(const ::dealii::IndexSet& owned, const ::dealii::DynamicSparsityPattern& pattern, MPI_Comm comm);
  /// Collective over `comm`: as the constructor above, once per block (a
  /// prefix sum, a reduction and a gather of one word per process each),
  /// and one reduction more. The block form: global rows and columns are
  /// deal.II's, numbered block after block; block b's owned rows are
  /// `owned[b]`, in the block's own numbering (what IndexSet::get_view or
  /// split_by_block gives), one contiguous range tiling the block in rank
  /// order. The pattern's blocks may hold only the locally relevant rows
  /// (BlockDynamicSparsityPattern(relevant sets)); rows owned elsewhere
  /// reach their owners here. Another number of blocks than the pattern's,
  /// on any process, blocks that are not square, or a block's owned set of
  /// another size than the pattern's block, throw the same ValidationError
  /// on every process (key "blocks").
  /// @param owned this process's rows of each block, in the block's numbering.
  /// @param pattern the entries this process adds to, block by block.
  /// @param comm the processes.
  TpetraSparseMatrix(const std::vector<::dealii::IndexSet>& owned, const ::dealii::BlockDynamicSparsityPattern& pattern,
                     MPI_Comm comm);
  /// (virtual: deal.II's assembly tells matrix types apart with dynamic_cast)
  virtual ~TpetraSparseMatrix();
  TpetraSparseMatrix(const TpetraSparseMatrix&) = delete;
  TpetraSparseMatrix& operator=(const TpetraSparseMatrix&) = delete;

  /// @return the global number of rows.
  size_type m() const { return size_; }
  /// @return the global number of columns (square: m()).
  size_type n() const { return size_; }

  /// Adds `values` at (row, columns[k]): what distribute_local_to_global
  /// calls for each row it touches. Not collective. An index past the size,
  /// a row or column outside the pattern, is kept for compress() to report.
  /// @param row a global row this process's pattern holds.
  /// @param n_cols how many entries.
  /// @param columns their global columns.
  /// @param values their values.
  /// @param elide_zero_values skip zero values (deal.II's default).
  /// @param col_indices_are_sorted (unused: any order is taken).
  void add(size_type row, size_type n_cols, const size_type* columns, const double* values,
           bool elide_zero_values = true, bool col_indices_are_sorted = false);
  /// Adds one value (deal.II calls this for constrained rows' diagonals).
  /// @param row a global row.
  /// @param column a global column.
  /// @param value the value.
  void add(size_type row, size_type column, double value);

  /// Collective. Ends an assembly: every process's faults become the same
  /// ValidationError everywhere (the matrix is then zero); otherwise rows owned elsewhere are summed on their owners
  /// and the matrix is fill complete. Only VectorOperation::add is taken.
  /// @param operation VectorOperation::add.
  void compress(::dealii::VectorOperation::values operation);

  /// Not collective. Starts a new assembly into the same structure with
  /// every entry zero (deal.II's `matrix = 0`). Only 0 is taken.
  /// @param zero 0.
  TpetraSparseMatrix& operator=(double zero);

  /// The assembled matrix on the owned rows: fill complete from compress()
  /// until the next add() or `= 0` (which reopen it for assembly).
  /// @return Tpetra's matrix (its row, domain and range maps: the owned dofs).
  Teuchos::RCP<tpetra::CrsMatrix> tpetra_matrix() const;

  /// Local. This process's number of rows in each block (one block for a
  /// matrix built without blocks): the counts that
  /// tpetra::FieldSplit::in_blocks() takes, with tpetra_matrix()'s row map.
  /// @return the counts, block by block.
  const std::vector<std::size_t>& owned_rows_per_block() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  size_type size_ = 0;
};

/// Local, copies: v's owned entries, block after block, into x's rows (on
/// the row map of a block TpetraSparseMatrix over v's blocks). Throws
/// std::invalid_argument when x has another number of rows here.
/// @param v a distributed block vector (its owned entries are read).
/// @param x the Tpetra vectors (every column set to v's entries).
void copy_block_vector_to_tpetra(const BlockVector& v, tpetra::MultiVector<double>& x);

/// Local, copies: x's column 0, block after block, into v's owned entries
/// (ghosts are not updated). Throws std::invalid_argument when x has another
/// number of rows here.
/// @param x the Tpetra vector, on the row map of a block TpetraSparseMatrix.
/// @param v a distributed block vector of the same blocks.
void copy_tpetra_to_block_vector(const tpetra::MultiVector<double>& x, BlockVector& v);

}  // namespace dapetra::dealii
