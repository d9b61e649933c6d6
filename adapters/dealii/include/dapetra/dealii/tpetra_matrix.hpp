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
/// Faults: an index past the global size, a row this process's pattern does
/// not hold, or a column outside the pattern, is kept by add() and reported
/// by compress() as the same ValidationError on every process, before any
/// communication; the matrix is then zero, ready for a new assembly.
#pragma once

#include <deal.II/base/index_set.h>
#include <deal.II/lac/dynamic_sparsity_pattern.h>
#include <deal.II/lac/vector_operation.h>
#include <mpi.h>

#include <Teuchos_RCP.hpp>
#include <memory>

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
  /// @return this matrix.
  TpetraSparseMatrix& operator=(double zero);

  /// The assembled matrix on the owned rows: fill complete from compress()
  /// until the next add() or `= 0` (which reopen it for assembly).
  /// @return Tpetra's matrix (its row, domain and range maps: the owned dofs).
  Teuchos::RCP<tpetra::CrsMatrix> tpetra_matrix() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  size_type size_ = 0;
};

}  // namespace dapetra::dealii
