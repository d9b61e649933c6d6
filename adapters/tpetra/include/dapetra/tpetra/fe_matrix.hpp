/// \file
/// dapetra/tpetra/fe_matrix.hpp: finite-element matrices on a DAP node layout, assembled by local indices.
///
/// A finite-element code holds its cells' corners as positions in a 1-D
/// node array: a 'u' layout of the nodes its cells touch, owned and shared
/// (as DOLFINx, PETSc and examples/fem number them). From that layout and
/// the cells, FEGraph builds once, collectively,
///   - the Tpetra graph of the owned rows: each owned node's row holds every
///     node it shares a cell with, on any process (domain and range: the
///     layout's owned map);
///   - where each element entry lands: in an owned row, or in a copy of a
///     row owned elsewhere, kept here until assembly ends;
///   - the plan that sums those copies into their owners' rows: a Dapetra
///     HaloPlan over the matrix entries, whose owners follow from ranges.
/// FEMatrix holds the values: a Tpetra CrsMatrix on that graph whose values
/// are FEMatrix's own memory, so assembly writes straight into the matrix
/// and re-assembly (time steps, Newton iterations) reuses every structure:
/// begin_assembly(), add_element() per cell, end_assembly() (collective:
/// the copies of shared rows travel to their owners and are added there,
/// values only).
///
/// Dirichlet conditions are eliminated symmetrically, so the matrix stays
/// symmetric for CG: a constrained node's row and column are left out of
/// every element, its owner's diagonal is 1, and lift_element() moves the
/// known values to the right-hand side (b -= A g), as DOLFINx's
/// apply_lifting does. Right-hand sides are DAP arrays of the node layout,
/// assembled with mpi::HaloPlan::assemble.
///
/// Faults: creation checks the cells on every process (a position outside
/// the layout, a cell list whose length is no multiple of the corners) and
/// throws the same ValidationError on every process. add_element() never
/// throws: a cell out of range or an element matrix of the wrong shape is
/// recorded, skipped, and reported by end_assembly() on every process, so no
/// process waits for one that stopped.
///
/// Values are double (the scalar of Trilinos' solvers on Debian's build);
/// one value per node (several components per node: not yet).
#pragma once

#include <Teuchos_RCP.hpp>
#include <Tpetra_CrsGraph_fwd.hpp>
#include <Tpetra_CrsMatrix_fwd.hpp>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "dapetra/dim.hpp"
#include "dapetra/distarray.hpp"
#include "dapetra/error.hpp"
#include "dapetra/tpetra/tpetra_layout.hpp"
#include "dapetra/tpetra/types.hpp"

namespace dapetra::mpi {
class HaloPlan;
}

namespace dapetra::tpetra {

/// The Tpetra graph type of FE matrices.
using CrsGraph = Tpetra::CrsGraph<LO, GO, Node>;

/// An element matrix: rows x cols values, row after row (row-major).
struct ElementMatrix {
  /// rows * cols values, row after row (the caller's memory; not copied).
  const double* values = nullptr;
  /// Rows: the cell's corners.
  int rows = 0;
  /// Columns: the cell's corners.
  int cols = 0;
};

/// The structure of a finite-element matrix over one node layout and one set of cells, built once, collectively.
class FEGraph {
 public:
  /// Collective over nodes->comm(). `nodes`: a 1-D layout of the nodes this
  /// process's cells touch (no column axis); `cells`: `corners` positions in
  /// that layout's buffer per cell, cell after cell. Throws the same
  /// ValidationError on every process when any process's cells are wrong.
  /// @param nodes the nodes' layout (1-D).
  /// @param cells every local cell's corners as positions in the nodes' buffer, cell after cell.
  /// @param corners corners per cell.
  /// @return the graph.
  static std::shared_ptr<const FEGraph> create(std::shared_ptr<const TpetraLayout> nodes,
                                               std::vector<local_index_t> cells, int corners);

  /// @return the owned rows' graph (fill complete; domain and range: the owned map).
  const Teuchos::RCP<const CrsGraph>& graph() const { return graph_; }
  /// @return the node layout.
  const TpetraLayout& nodes() const { return *nodes_; }
  /// @return cells on this process.
  std::size_t num_cells() const { return corners_ ? cells_.size() / static_cast<std::size_t>(corners_) : 0; }
  /// @return corners per cell.
  int corners() const { return corners_; }
  /// The corners of cell c (positions in the node layout's buffer).
  /// @param c a local cell.
  /// @return its corners (positions in the nodes' buffer).
  const local_index_t* cell(std::size_t c) const { return cells_.data() + c * static_cast<std::size_t>(corners_); }
  /// @return entries of this process's owned rows (the matrix's local entries).
  std::size_t num_owned_entries() const { return num_owned_entries_; }
  /// @return entries of this process's copies of rows owned elsewhere.
  std::size_t num_shared_entries() const { return num_shared_entries_; }

 private:
  FEGraph() = default;
  friend struct FEGraphBuilder;
  friend class FEMatrix;

  std::shared_ptr<const TpetraLayout> nodes_;
  std::vector<local_index_t> cells_;
  int corners_ = 0;
  Teuchos::RCP<const CrsGraph> graph_;
  std::size_t num_owned_entries_ = 0, num_shared_entries_ = 0;
  // Every held node's row as this process sees it: held columns (ascending)
  // and where each entry's value lives in FEMatrix's values (owned rows
  // first, in the graph's order; then the copies of other owners' rows).
  std::vector<std::size_t> row_begin_;
  std::vector<local_index_t> row_columns_;
  std::vector<std::size_t> entry_at_;
  // Each owned node's diagonal entry in the values (-1 for a node not owned here).
  std::vector<std::ptrdiff_t> diagonal_at_;
  std::shared_ptr<const mpi::HaloPlan> entries_plan_;
};

/// A finite-element matrix on an FEGraph, with optional Dirichlet nodes: assembled, and re-assembled, in place.
class FEMatrix {
 public:
  /// Collective over the graph's communicator. `constrained`: one flag per
  /// held node (the node layout's buffer), true for a Dirichlet node (every
  /// holder of a node must say the same); empty for none. Throws the same
  /// ValidationError on every process when a flag list has the wrong length.
  /// @param graph the structure.
  /// @param constrained per held node, whether its value is prescribed (empty: none is).
  FEMatrix(std::shared_ptr<const FEGraph> graph, std::vector<char> constrained = {});
  ~FEMatrix();
  FEMatrix(const FEMatrix&) = delete;
  FEMatrix& operator=(const FEMatrix&) = delete;

  /// Local: every value zero, and no fault recorded.
  void begin_assembly();
  /// Local: adds cell c's element matrix (corners x corners) into the
  /// matrix, leaving out the rows and columns of constrained nodes. Never
  /// throws; a fault is reported by end_assembly().
  /// @param c the local cell.
  /// @param k its element matrix, corners x corners.
  void add_element(std::size_t c, const ElementMatrix& k);
  /// Local: the right-hand side's share of cell c's constrained nodes: for
  /// each unconstrained corner a, rhs[a] -= sum over constrained corners b
  /// of k(a, b) g[b]. `g` and `rhs` hold one value per held node. Faults
  /// as add_element's: recorded, reported by end_assembly().
  /// @param c the local cell.
  /// @param k its element matrix.
  /// @param g the prescribed values, per held node.
  /// @param rhs the right-hand side, per held node.
  void lift_element(std::size_t c, const ElementMatrix& k, const double* g, double* rhs);
  /// Local: rhs[i] = g[i] for every constrained held node i (owned or not).
  /// @param g the prescribed values, per held node.
  /// @param rhs the right-hand side, per held node.
  void set_constrained_values(const double* g, double* rhs) const;
  /// Collective over the graph's communicator: throws the same
  /// ValidationError on every process if any process recorded a fault in
  /// add_element; otherwise adds every copy of a shared row into its owner's
  /// row, and puts 1 on the diagonal of every owned constrained node.
  void end_assembly();

  /// @return the matrix (its values are this object's memory, kept alive with it).
  const Teuchos::RCP<CrsMatrix>& matrix() const { return matrix_; }
  /// @return the structure.
  const FEGraph& graph() const { return *graph_; }
  /// Whether held node i is constrained.
  /// @param i a held node.
  /// @return whether its value is prescribed.
  bool is_constrained(local_index_t i) const {
    return !constrained_.empty() && constrained_[static_cast<std::size_t>(i)] != 0;
  }

 private:
  // Whether cell c and k fit the graph; if not, records the fault for end_assembly().
  bool element_fits(std::size_t c, const ElementMatrix& k, const char* caller);

  std::shared_ptr<const FEGraph> graph_;
  std::vector<char> constrained_;
  // Owned rows' entries, then the copies': one allocation, of which the
  // matrix holds (and keeps alive) the first part as its values.
  double* values_ = nullptr;
  std::size_t num_values_ = 0;
  DistArray entries_;  // values_ as an array of the entries' layout
  Teuchos::RCP<CrsMatrix> matrix_;
  std::vector<Problem> faults_;
};

}  // namespace dapetra::tpetra
