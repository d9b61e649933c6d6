// dapetra/tpetra/layout.hpp: a DAP array's distribution as Tpetra Maps.
//
// A TpetraLayout is built once, collectively, from each process's protocol
// object (or just its dim_data): it gathers every process's records, checks
// them all with the core's rules (so every process reaches the same verdict
// and throws the same ValidationError: no process is left waiting in MPI),
// and builds
//   - the owned map: one-to-one, each global element exactly once, usable as
//     the domain and range of Tpetra operators and solvers;
//   - the buffer map: one entry per element of the local buffer, in buffer
//     memory order, communication padding and shared 'u' copies included.
// Multi-dimensional arrays are linearised in C order over the global shape
// (flat = sum of index times global stride); a 1-D 'u' array keeps its own
// (possibly negative or sparse) indices. One axis may be named the column
// axis: it becomes the MultiVector's columns and is left out of the maps.
//
// Scalability: records are gathered to every process, except the indices of
// a layout whose only distributed axis is unstructured (the finite-element
// case): those stay where they are. A one_to_one claim is then confirmed from
// small per-process summaries sent with the records (count, range, and a
// fingerprint of the multiset of indices; see dapetra/index_fingerprint.hpp), with no index
// moving; otherwise (or if the fingerprint disagrees) a rendezvous settles
// ownership: runs of indices go to the process owning their stretch of
// [0, size), which answers with the lowest holder and where that holder keeps
// each index, so halo plans can name elements by the owner's own position.
// Tpetra's directory does it instead for a caller's owner rule or for 1-D
// indices outside [0, size). Layouts with other distributed 'u' axes (e.g.
// 'u' x 'u') gather their indices.
//
// The object is immutable; share it (std::shared_ptr) between any number of
// arrays with the same distribution and memory layout.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dapetra/axis.hpp"
#include "dapetra/dim_math.hpp"
#include "dapetra/distarray.hpp"
#include "dapetra/layout.hpp"
#include "dapetra/process_grid.hpp"
#include "dapetra/tpetra/types.hpp"

namespace dapetra::tpetra {

struct LayoutOptions {
  // An axis that is not distributed and not padded, to become the columns of
  // the MultiVector (-1: none, a single column). The memory layout must make
  // each column contiguous: in a C-ordered buffer that is axis 0 (the
  // slowest), in a Fortran-ordered one the last axis (also the slowest).
  int column_axis = -1;
  // Owner of a 'u' index held by several processes (one_to_one false).
  SharedIndexOwner shared_owner = lowest_holder;
  // Keep the indices of a lone distributed 'u' axis where they are (the
  // default; see the class comment). False gathers them like every other
  // record, which redistribution plans need.
  bool scatter_unstructured = true;
  // Build the Tpetra maps (the default). Halo and redistribution plans need
  // neither (they work from the records), and a map that is not contiguous
  // lists every element's index, so codes that only exchange halos or
  // redistribute may skip them; owned_map() / buffer_map() are then null
  // (a 1-D 'u' array whose owners come from Tpetra's directory keeps its
  // buffer map, which that needs).
  bool owned_map = true;
  bool buffer_map = true;
  // Tpetra global index of the array's flat index 0 (DAP indices are 0-based;
  // Tpetra maps may start anywhere). GID = flat index + index_base.
  GO index_base = 0;
};

class TpetraLayout {
 public:
  // Collective over `comm`. Checks `local` on every process (version,
  // records, buffer shape and strides) and all records together; throws
  // ValidationError on every process, listing every process's problems, if
  // any process's input is wrong.
  static std::shared_ptr<const TpetraLayout> create(const DistArray& local, Teuchos::RCP<const Comm> comm,
                                                    const LayoutOptions& options = {});
  // The same from dim_data alone, for a C-ordered buffer of the implied shape.
  static std::shared_ptr<const TpetraLayout> create(const std::vector<Dim>& dim_data, Teuchos::RCP<const Comm> comm,
                                                    const LayoutOptions& options = {});

  const Teuchos::RCP<const Comm>& comm() const { return comm_; }
  int rank() const { return rank_; }
  const std::vector<Dim>& dim_data() const { return dim_data_; }
  const std::vector<global_index_t>& local_shape() const { return local_shape_; }
  const std::vector<global_index_t>& global_shape() const { return global_shape_; }
  const ProcessGrid& grid() const { return grid_; }
  // Every process's records with closed-form owners, when they were gathered
  // (not for a layout whose only distributed axis is 'u'); throws otherwise.
  bool has_global_layout() const { return global_ != nullptr; }
  const GlobalLayout& global() const;

  // Null when built with LayoutOptions::owned_map false.
  Teuchos::RCP<const Map> owned_map() const { return owned_map_; }
  // Null when built with LayoutOptions::buffer_map false.
  Teuchos::RCP<const Map> buffer_map() const { return buffer_map_; }
  bool buffer_map_is_owned_map() const { return buffer_map_ == owned_map_; }

  int column_axis() const { return column_axis_; }
  std::size_t num_vectors() const { return num_vectors_; }
  // Rows of this process's buffer (elements per column), and the distance
  // between columns in elements.
  std::size_t local_rows() const { return local_rows_; }
  std::size_t leading_dimension() const { return leading_dimension_; }
  // Buffer axes from slowest to fastest in memory, and the strides (bytes)
  // the layout was built for.
  const std::vector<int>& memory_order() const { return memory_orders_[rank_]; }
  // Another process's memory order (gathered with the records).
  const std::vector<int>& memory_order_of(int rank) const { return memory_orders_[rank]; }
  const std::vector<global_index_t>& local_strides() const { return local_strides_; }
  std::size_t itemsize() const { return itemsize_; }

  // Whether the buffer's memory can be a MultiVector as it is (each column
  // contiguous in memory); if not, why. Otherwise use the copying functions.
  bool buffer_viewable() const { return why_not_viewable_.empty(); }
  const std::string& why_not_viewable() const { return why_not_viewable_; }
  // The buffer rows that are exactly the owned vector in owned-map order,
  // when the owned elements are contiguous in memory (e.g. 1-D padded blocks).
  const std::optional<LocalRange>& owned_rows() const { return owned_rows_; }

  // Whether this process owns position i along axis a of its buffer (boundary
  // padding is owned; communication padding and shared copies held for
  // another process are not).
  // (Inline: halo plans ask it once per position of every axis.)
  bool is_owned_position(int axis, global_index_t i) const {
    if (axis == scattered_axis_) return scattered_owned_here_ || scattered_owner_[static_cast<std::size_t>(i)] == rank_;
    if (!global_) return true;  // an undistributed axis beside a scattered one
    return global_->axis(axis).is_owned(coords_[axis], i);
  }
  // Grid rank along `axis` owning global index g of that axis (gathered
  // records only: closed form for 'b' and 'c', a table for 'u').
  int owner_along(int axis, global_index_t g) const { return global().axis(axis).owner(g); }
  // Which axis kept its 'u' indices distributed (-1: none); see the class
  // comment. Along it, the rank owning the index at each position is known.
  int scattered_axis() const { return scattered_axis_; }
  int scattered_owner(global_index_t position) const {
    return scattered_owned_here_ ? rank_ : scattered_owner_[static_cast<std::size_t>(position)];
  }
  // Where that owner keeps the index along the scattered axis, when known
  // (owners found by the rendezvous, or one-to-one); -1 otherwise (owners
  // found through Tpetra's directory, for a caller's rule or 1-D indices
  // outside [0, size)).
  bool has_scattered_owner_positions() const { return owner_positions_known_; }
  local_index_t scattered_owner_position(global_index_t position) const {
    if (scattered_owned_here_) return static_cast<local_index_t>(position);
    return owner_positions_known_ ? scattered_owner_position_[static_cast<std::size_t>(position)] : -1;
  }

  // Global shape and C-order strides of the linearised array (column axis left out).
  const std::vector<global_index_t>& map_shape() const { return map_shape_; }
  const std::vector<global_index_t>& map_strides() const { return map_strides_; }
  GO index_base() const { return index_base_; }

 private:
  TpetraLayout() = default;
  static std::shared_ptr<const TpetraLayout> create_from(const std::string& version, const BufferView& buffer,
                                                         const std::vector<Dim>& dim_data, Teuchos::RCP<const Comm> comm,
                                                         const LayoutOptions& options);
  // What the gathered summaries say about the scattered 'u' axis's indices.
  struct ScatteredSummary {
    bool default_rule = true;   // every process uses lowest_holder
    bool in_range = true;       // every index in [0, size)
    std::int64_t lowest_negative = 0;  // the lowest index held below 0, else 0
    std::int64_t held = 0;      // indices held, summed over processes
    bool fingerprint_matches = false;  // the fingerprints prove every index of [0, size) held once
  };
  void build_maps(const ScatteredSummary& scattered);

  Teuchos::RCP<const Comm> comm_;
  int rank_ = 0;
  std::vector<Dim> dim_data_;
  std::vector<global_index_t> local_shape_;
  std::vector<global_index_t> global_shape_;
  ProcessGrid grid_;
  std::vector<int> coords_;  // this process's grid coordinates
  int scattered_axis_ = -1;  // the 'u' axis whose indices were not gathered, if any
  SharedIndexOwner shared_owner_;
  bool want_buffer_map_ = true, want_owned_map_ = true;
  std::vector<int> scattered_owner_;  // owning rank per position of the scattered axis
  std::vector<local_index_t> scattered_owner_position_;  // and the owner's position of it ...
  bool owner_positions_known_ = false;                    // ... when known
  bool scattered_owned_here_ = false;  // proven one-to-one: every position is owned here, at itself (no tables)
  std::unique_ptr<GlobalLayout> global_;
  std::vector<std::vector<int>> memory_orders_;  // every process's
  std::vector<global_index_t> local_strides_;
  std::size_t itemsize_ = 0;
  int column_axis_ = -1;
  std::size_t num_vectors_ = 1;
  std::size_t local_rows_ = 0;
  std::size_t leading_dimension_ = 0;
  std::string why_not_viewable_;
  std::optional<LocalRange> owned_rows_;
  std::vector<global_index_t> map_shape_, map_strides_;
  GO index_base_ = 0;
  Teuchos::RCP<const Map> owned_map_, buffer_map_;
};

// Collective. The owned map of a DAP array given by its dim_data (C-ordered
// buffer): the same Map as TpetraLayout::create(dim_data, comm)->owned_map(),
// for callers that need no views or plans. Every process's records are still
// gathered and every rule checked, on every process alike. A row-block
// layout (axis 0 'b', every other axis undistributed and unpadded: 1-D
// blocks, row-split matrices) is checked from its gathered axis-0 records
// alone; any other layout, or a mistake to be reported, goes through a whole
// TpetraLayout (one more small gather).
Teuchos::RCP<const Map> owned_map(const std::vector<Dim>& dim_data, Teuchos::RCP<const Comm> comm, GO index_base = 0);

}  // namespace dapetra::tpetra
