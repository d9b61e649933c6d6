/// \file
/// dapetra/tpetra/tpetra_layout.hpp: a DAP array's distribution as Tpetra Maps.
///
/// A TpetraLayout is the Tpetra face of a dapetra::mpi::DistributedLayout
/// (which gathers and checks every process's records and settles ownership;
/// see dapetra/mpi/distributed_layout.hpp). Built once, collectively, it adds
///   - the owned map: one-to-one, each global element exactly once, usable as
///     the domain and range of Tpetra operators and solvers;
///   - the buffer map: one entry per element of the local buffer, in buffer
///     memory order, communication padding and shared 'u' copies included.
/// Multi-dimensional arrays are linearised in C order over the global shape
/// (flat = sum of index times global stride); a 1-D 'u' array keeps its own
/// (possibly negative or sparse) indices. One axis may be named the column
/// axis: it becomes the MultiVector's columns and is left out of the maps.
///
/// Halo and redistribution plans need no maps: build them on distribution()
/// (or on a DistributedLayout directly, without Trilinos).
///
/// The object is immutable; share it (std::shared_ptr) between any number of
/// arrays with the same distribution and memory layout.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dapetra/dim_math.hpp"
#include "dapetra/distarray.hpp"
#include "dapetra/mpi/distributed_layout.hpp"
#include "dapetra/tpetra/types.hpp"

namespace dapetra::tpetra {

namespace detail {
struct TpetraLayoutAccess;
}  // namespace detail

/// How a TpetraLayout builds its maps from a distribution; every process must pass the same.
struct MapOptions {
  /// An axis that is not distributed and not padded, to become the columns of
  /// the MultiVector (-1: none, a single column). The memory layout must make
  /// each column contiguous: in a C-ordered buffer that is axis 0 (the
  /// slowest), in a Fortran-ordered one the last axis (also the slowest).
  int column_axis = -1;
  /// Tpetra global index of the array's flat index 0 (DAP indices are 0-based;
  /// Tpetra maps may start anywhere). GID = flat index + index_base.
  GO index_base = 0;
};

/// How a TpetraLayout is built: its maps' options, and the options of the
/// DistributedLayout it builds beneath them (who owns shared 'u' indices,
/// tuning); every process must pass the same.
struct TpetraLayoutOptions : MapOptions {
  /// The distribution's options (mpi::Ownership, mpi::LayoutTuning).
  mpi::DistributedLayoutOptions distribution;
};

/// A DAP array's distribution as Tpetra Maps (owned and buffer), built once, collectively.
class TpetraLayout {
 public:
  /// Collective over `comm`: builds the DistributedLayout (on a duplicate of
  /// comm's MPI communicator) and both maps (on `comm`). Throws
  /// ValidationError on every process, listing every process's problems, if
  /// any process's input is wrong.
  /// @param local this process's piece.
  /// @param comm the processes.
  /// @param options maps and ownership.
  static std::shared_ptr<const TpetraLayout> create(const DistArray& local, Teuchos::RCP<const Comm> comm,
                                                    const TpetraLayoutOptions& options = {});
  /// The same from dim_data alone, for a C-ordered buffer of doubles of the implied shape.
  /// @param dim_data this process's records.
  /// @param comm the processes.
  /// @param options maps and ownership.
  static std::shared_ptr<const TpetraLayout> create(const std::vector<Dim>& dim_data, Teuchos::RCP<const Comm> comm,
                                                    const TpetraLayoutOptions& options = {});
  /// Collective: the maps of an existing layout, whose ownership they follow
  /// (`comm` spans the same processes in the same order).
  /// @param layout the distribution.
  /// @param comm the same processes, as Teuchos has them.
  /// @param options the maps' column axis and index base.
  static std::shared_ptr<const TpetraLayout> create(std::shared_ptr<const mpi::DistributedLayout> layout,
                                                    Teuchos::RCP<const Comm> comm, const MapOptions& options = {});

  /// @return the distribution: ownership, records, and what halo and redistribution plans are built on.
  const std::shared_ptr<const mpi::DistributedLayout>& distribution() const { return layout_; }
  /// @return the caller's communicator.
  const Teuchos::RCP<const Comm>& comm() const { return comm_; }
  /// @name Re-exported from distribution() (deprecated: call distribution()->X(); removed in the next release)
  ///@{

  /// @return this process's rank.
  [[deprecated("call distribution()->rank()")]] int rank() const { return layout_->rank(); }
  /// @return this process's records.
  [[deprecated("call distribution()->dim_data()")]] const std::vector<Dim>& dim_data() const {
    return layout_->dim_data();
  }
  /// @return this process's buffer shape.
  [[deprecated("call distribution()->local_shape()")]] const std::vector<global_index_t>& local_shape() const {
    return layout_->local_shape();
  }
  /// @return the array's global shape.
  [[deprecated("call distribution()->global_shape()")]] const std::vector<global_index_t>& global_shape() const {
    return layout_->global_shape();
  }
  /// @return this process's axes from slowest to fastest in memory.
  [[deprecated("call distribution()->memory_order()")]] const std::vector<int>& memory_order() const {
    return layout_->memory_order();
  }
  /// @return this process's buffer strides, in bytes.
  [[deprecated("call distribution()->local_strides()")]] const std::vector<global_index_t>& local_strides() const {
    return layout_->local_strides();
  }
  /// @return bytes per element.
  [[deprecated("call distribution()->itemsize()")]] std::size_t itemsize() const { return layout_->itemsize(); }
  ///@}

  /// @return the one-to-one map of the elements this process owns.
  Teuchos::RCP<const Map> owned_map() const { return owned_map_; }
  /// @return the map of every buffer element (padding and shared copies included), in memory order.
  Teuchos::RCP<const Map> buffer_map() const { return buffer_map_; }
  /// @return whether the buffer holds owned elements only (one map serves both).
  bool buffer_map_is_owned_map() const { return buffer_map_ == owned_map_; }

  /// @return the axis made MultiVector columns, or -1.
  int column_axis() const { return column_axis_; }
  /// @return the MultiVector's columns.
  std::size_t num_vectors() const { return num_vectors_; }
  /// Whether the buffer's memory can be a MultiVector as it is (each column
  /// contiguous in memory); if not, why. Otherwise use the copying functions.
  bool buffer_viewable() const { return why_not_viewable_.empty(); }
  /// @return why the buffer cannot be viewed (empty when it can).
  const std::string& why_not_viewable() const { return why_not_viewable_; }
  /// The buffer rows that are exactly the owned vector in owned-map order,
  /// when the owned elements are contiguous in memory (e.g. 1-D padded blocks).
  /// @return the range, or nothing.
  const std::optional<LocalRange>& owned_rows() const { return owned_rows_; }
  /// @return the maps' index base.
  GO index_base() const { return index_base_; }

 private:
  TpetraLayout() = default;
  friend struct MapBuilder;
  friend struct detail::TpetraLayoutAccess;  ///< the views' and transfers' row tables

  std::shared_ptr<const mpi::DistributedLayout> layout_;
  Teuchos::RCP<const Comm> comm_;
  int column_axis_ = -1;
  std::size_t num_vectors_ = 1;
  std::size_t local_rows_ = 0;         // elements per column of the buffer
  std::size_t leading_dimension_ = 0;  // elements between columns in the buffer
  std::string why_not_viewable_;
  std::optional<LocalRange> owned_rows_;
  std::vector<local_index_t> owned_row_list_;  // each owned-map row's buffer row, when owned_rows_ is unset
  std::vector<global_index_t> map_shape_, map_strides_;  // the linearised global shape (no column axis), C order
  GO index_base_ = 0;
  Teuchos::RCP<const Map> owned_map_, buffer_map_;
};

/// Collective. The owned map of a DAP array given by its dim_data (C-ordered
/// buffer): the same Map as TpetraLayout::create(dim_data, comm)->owned_map(),
/// for callers that need no views or plans. Every process's records are still
/// gathered and every rule checked, on every process alike. A row-block
/// layout (axis 0 'b', every other axis undistributed and unpadded: 1-D
/// blocks, row-split matrices) is checked from its gathered axis-0 records
/// alone; any other layout, or a mistake to be reported, goes through a whole
/// TpetraLayout (one more small gather).
/// @param dim_data this process's records.
/// @param comm the processes.
/// @param index_base the map's index base.
Teuchos::RCP<const Map> owned_map(const std::vector<Dim>& dim_data, Teuchos::RCP<const Comm> comm, GO index_base = 0);

}  // namespace dapetra::tpetra
