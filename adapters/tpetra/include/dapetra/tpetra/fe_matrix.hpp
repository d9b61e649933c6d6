/// \file
/// dapetra/tpetra/fe_matrix.hpp: finite-element matrices on a DAP node layout, assembled by local indices.
///
/// A finite-element code holds its cells' corners as positions in a node
/// array: a 'u' layout of the nodes its cells touch, owned and shared (as
/// DOLFINx, PETSc and examples/fem number them). A scalar problem's layout is
/// 1-D; a vector-valued one's (elasticity: a displacement per node) is nodes x
/// components, [Dim::unstructured(...), Dim::undistributed(bs)], C-ordered,
/// so the unknowns are interleaved, node * bs + component, as DOLFINx's
/// block size and PETSc's Mat block size number them. Its right-hand sides
/// and solutions are arrays of that layout, which TpetraLayout views, with no
/// copy, as one Tpetra vector over the interleaved unknowns (unlike a column
/// axis, which would make the components bs separate vectors). From that
/// layout and the cells, FEGraph builds once, collectively,
///   - the Tpetra graph of the owned rows: each owned unknown's row holds
///     every unknown of every node it shares a cell with, on any process
///     (domain and range: the layout's owned map);
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
/// Dirichlet conditions are eliminated symmetrically, per unknown (one
/// component of a node may be fixed and another free), so the matrix stays
/// symmetric for CG: a constrained unknown's row and column are left out of
/// every element, its owner's diagonal is 1, and lift_element() moves the
/// known values to the right-hand side (b -= A g), as DOLFINx's
/// apply_lifting does. Right-hand sides are DAP arrays of the node layout,
/// assembled with mpi::HaloPlan::assemble.
///
/// Faults: creation checks the cells on every process (a position outside
/// the layout, a cell list whose length is no multiple of the corners, a
/// layout that is not nodes or nodes x components) and throws the same
/// ValidationError on every process; a block size that differs between
/// processes is refused when the layout is created (its global shape). add_element() never
/// throws: a cell out of range or an element matrix of the wrong shape is
/// recorded, skipped, and reported by end_assembly() on every process, so no
/// process waits for one that stopped.
///
/// Values are double (the scalar of Trilinos' solvers on Debian's build).
/// The matrix is a point CrsMatrix whose rows come in node blocks (see
/// docs/fem.md for why not Tpetra's BlockCrsMatrix); MueLu takes the block
/// size as its "number of equations" (dapetra/tpetra/solver.hpp).
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

namespace dapetra::tpetra {

namespace detail {
struct FEGraphTables;
}  // namespace detail

/// The Tpetra graph type of FE matrices.
using CrsGraph = Tpetra::CrsGraph<LO, GO, Node>;

/// An element matrix: rows x cols values, row after row (row-major), its
/// unknowns interleaved (corner * block size + component), as DOLFINx's
/// vector elements and PETSc number them.
struct ElementMatrix {
  /// rows * cols values, row after row (the caller's memory; not copied).
  const double* values = nullptr;
  /// Rows: the cell's corners times the block size.
  int rows = 0;
  /// Columns: the cell's corners times the block size.
  int cols = 0;
};

/// The structure of a finite-element matrix over one node layout and one set of cells, built once, collectively.
class FEGraph {
 public:
  /// Collective over nodes->comm(). `nodes`: a layout of the nodes this
  /// process's cells touch, 1-D, or nodes x components for bs unknowns per
  /// node (no column axis); `cells`: `corners` node positions (along axis 0)
  /// per cell, cell after cell. Throws the same ValidationError on every
  /// process when any process's layout or cells are wrong.
  /// @param nodes the nodes' layout (1-D, or nodes x components).
  /// @param cells every local cell's corners as positions in the nodes' buffer, cell after cell.
  /// @param corners corners per cell.
  static std::shared_ptr<const FEGraph> create(std::shared_ptr<const TpetraLayout> nodes,
                                               std::vector<local_index_t> cells, int corners);

  /// @return the owned rows' graph (fill complete; domain and range: the owned map).
  const Teuchos::RCP<const CrsGraph>& graph() const { return graph_; }
  /// @return the node layout (nodes, or nodes x components).
  const TpetraLayout& nodes() const { return *nodes_; }
  /// @return unknowns per node: the layout's axis 1, or 1 for a 1-D layout.
  int block_size() const { return bs_; }
  /// @return cells on this process.
  std::size_t num_cells() const { return corners_ ? cells_.size() / static_cast<std::size_t>(corners_) : 0; }
  /// @return corners per cell.
  int corners() const { return corners_; }
  /// The corners of cell c (node positions in the node layout's buffer).
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
  int bs_ = 1;
  Teuchos::RCP<const CrsGraph> graph_;
  std::size_t num_owned_entries_ = 0, num_shared_entries_ = 0;
  std::shared_ptr<detail::FEGraphTables> tables_;  // where every entry lives in FEMatrix's values
};

/// A finite-element matrix on an FEGraph, with optional Dirichlet nodes: assembled, and re-assembled, in place.
class FEMatrix {
 public:
  /// Collective over the graph's communicator. `constrained`: one flag per
  /// held unknown (the layout's buffer: node * bs + component), true for a
  /// Dirichlet unknown (every holder of a node must say the same); empty for none. Throws the same
  /// ValidationError on every process when a flag list has the wrong length.
  /// @param graph the structure.
  /// @param constrained per held unknown, whether its value is prescribed (empty: none is).
  FEMatrix(std::shared_ptr<const FEGraph> graph, std::vector<char> constrained = {});
  ~FEMatrix();
  FEMatrix(const FEMatrix&) = delete;
  FEMatrix& operator=(const FEMatrix&) = delete;

  /// Local: every value zero, and no fault recorded.
  void begin_assembly();
  /// Local: adds cell c's element matrix ((corners * bs) squared, unknowns
  /// interleaved) into the matrix, leaving out the rows and columns of
  /// constrained unknowns. Never throws; a fault is reported by end_assembly().
  /// @param c the local cell.
  /// @param k its element matrix.
  void add_element(std::size_t c, const ElementMatrix& k);
  /// Local: the right-hand side's share of cell c's constrained unknowns:
  /// for each unconstrained unknown a of the cell, rhs[a] -= sum over its
  /// constrained unknowns b of k(a, b) g[b]. `g` and `rhs` hold one value per
  /// held unknown (the layout's buffer). Faults as add_element's: recorded,
  /// reported by end_assembly().
  /// @param c the local cell.
  /// @param k its element matrix.
  /// @param g the prescribed values, per held unknown.
  /// @param rhs the right-hand side, per held unknown.
  void lift_element(std::size_t c, const ElementMatrix& k, const double* g, double* rhs);
  /// Local: rhs[i] = g[i] for every constrained held unknown i (owned or not).
  /// @param g the prescribed values, per held unknown.
  /// @param rhs the right-hand side, per held unknown.
  void set_constrained_values(const double* g, double* rhs) const;
  /// Collective over the graph's communicator: throws the same
  /// ValidationError on every process if any process recorded a fault in
  /// add_element; otherwise adds every copy of a shared row into its owner's
  /// row, and puts 1 on the diagonal of every owned constrained unknown.
  void end_assembly();

  /// @return the matrix (its values are this object's memory, kept alive with it).
  const Teuchos::RCP<CrsMatrix>& matrix() const { return matrix_; }
  /// @return the structure.
  const FEGraph& graph() const { return *graph_; }
  /// Whether held unknown i (node * bs + component) is constrained.
  /// @param i a held unknown.
  /// @return whether its value is prescribed.
  bool is_constrained(local_index_t i) const {
    return !constrained_.empty() && constrained_[static_cast<std::size_t>(i)] != 0;
  }

 private:
  // Whether cell c and k fit the graph; if not, records the fault for end_assembly().
  bool element_fits(std::size_t c, const ElementMatrix& k, const char* caller);
  // add_element's loop, for block size BS (0: the graph's, at run time).
  template <int BS>
  void add_blocks(std::size_t c, const double* k);

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
