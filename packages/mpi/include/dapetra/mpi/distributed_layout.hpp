/// \file
/// dapetra/mpi/distributed_layout.hpp: one DAP array's distribution over an MPI communicator.
///
/// A DistributedLayout is built once, collectively, from each process's
/// protocol object (or just its dim_data), and every process reaches the
/// same verdict (or throws the same ValidationError: nobody is left waiting).
/// One reduction first agrees on how: regular axes (even 'b' splits, 'c',
/// undistributed) follow in closed form and nothing is gathered; uneven 'b'
/// splits gather one word per process; a lone distributed 'u' axis (the
/// finite-element case) keeps its indices where they are: their summaries
/// (count, range, a fingerprint of the multiset) are combined in the same
/// reduction, and a rendezvous settles each shared index's owner (the lowest
/// holder by default, or the caller's rule). Other layouts gather every
/// process's records, or on many processes those of its grid lines (see
/// LayoutTuning), as does any layout some process finds fault with, to name
/// the problems. Cost per process: docs/scaling.md.
///
/// The layout talks on a duplicate of the caller's communicator, never on the
/// caller's own: the first layout on a communicator makes it (collectively)
/// and later ones share it, as PETSc shares its inner communicators; it is
/// freed once the caller's communicator is freed and no layout holds it.
/// Halo and redistribution plans built on the layout talk only there, with
/// their own tags, so none of their messages can match a message of the
/// caller's, or of a plan on a layout of another communicator. Creating
/// layouts and plans is collective: every process creates them in the same
/// order, and, as for any MPI collective, creations on communicators that
/// share processes come in the same order on each of those processes. Each
/// plan's creation first checks, by one reduction, that every process passed
/// the same layouts (the same collective creation made them).
///
/// The object is immutable; share it (std::shared_ptr) between any number of
/// arrays with the same distribution, element type and memory layout.
#pragma once

#include <mpi.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "dapetra/axis.hpp"
#include "dapetra/distarray.hpp"
#include "dapetra/global_layout.hpp"
#include "dapetra/mpi/ownership.hpp"
#include "dapetra/process_grid.hpp"

namespace dapetra::mpi {

/// Performance knobs of a DistributedLayout; they change cost, never the result.
struct LayoutTuning {
  /// From this many processes on, a layout with two or more distributed axes
  /// gathers only the records of each process's grid lines, O(sum of the
  /// grid's extents) words per process, instead of every process's records,
  /// O(P); it costs two small reductions more, which is more than the whole
  /// gather saves on a few processes. (128 is where every process's records
  /// pass 64 KB; it was not measured at scale.)
  int grid_lines_from = 128;
};

/// How a DistributedLayout is built; every process must pass the same kind
/// of ownership (and the same rule or ranges) and the same tuning.
struct DistributedLayoutOptions {
  /// The defaults: the lowest holder owns, default tuning.
  DistributedLayoutOptions() = default;
  /// This ownership, default tuning; implicit, so that an Ownership can be
  /// passed where options are taken (create(a, comm, Ownership::from_ranges(r))).
  /// @param how who owns shared 'u' indices.
  DistributedLayoutOptions(Ownership how) : ownership(std::move(how)) {}  // NOLINT(google-explicit-constructor)

  /// Who owns 'u' indices held by several processes (one_to_one false):
  /// the lowest holder unless told otherwise (dapetra/mpi/ownership.hpp).
  Ownership ownership;
  /// Cost knobs.
  LayoutTuning tuning;
};

namespace detail {
struct InnerComm;
struct LayoutAccess;
struct LayoutBuilder;
struct ScatteredOwners;
}  // namespace detail

/// One array's distribution over an MPI communicator, built once, collectively (see the file's description).
class DistributedLayout {
 public:
  /// Collective over `comm`. Checks `local` on every process (version,
  /// records, buffer shape and strides, element type) and all records
  /// together; throws ValidationError on every process, listing every
  /// process's problems, if any process's input is wrong.
  /// @param local this process's piece.
  /// @param comm the processes (the layout talks on its own duplicate).
  /// @param options ownership and tuning.
  static std::shared_ptr<const DistributedLayout> create(const DistArray& local, MPI_Comm comm,
                                                         const DistributedLayoutOptions& options = {});
  /// The same from dim_data alone, for a C-ordered buffer of doubles of the
  /// implied shape.
  /// @param dim_data this process's records.
  /// @param comm the processes.
  /// @param options ownership and tuning.
  static std::shared_ptr<const DistributedLayout> create(const std::vector<Dim>& dim_data, MPI_Comm comm,
                                                         const DistributedLayoutOptions& options = {});
  ~DistributedLayout();
  DistributedLayout(const DistributedLayout&) = delete;
  DistributedLayout& operator=(const DistributedLayout&) = delete;

  /// Dapetra's duplicate of the caller's communicator (same group and ranks).
  /// Plans exchange messages on it; callers should send nothing there.
  MPI_Comm comm() const { return comm_; }
  /// @return this process's rank.
  int rank() const { return rank_; }
  /// @return processes in the layout.
  int nprocs() const { return nprocs_; }

  /// @return this process's records.
  const std::vector<Dim>& dim_data() const { return dim_data_; }
  /// @return this process's buffer shape.
  const std::vector<global_index_t>& local_shape() const { return local_shape_; }
  /// @return the array's global shape.
  const std::vector<global_index_t>& global_shape() const { return global_shape_; }
  /// @return the process grid.
  const ProcessGrid& grid() const { return grid_; }
  /// The buffer the layout was built for: element type, strides (bytes) and
  /// axes from slowest to fastest in memory (every process's is known).
  /// @return the PEP-3118 element type.
  const std::string& format() const { return format_; }
  /// @return bytes per element.
  std::size_t itemsize() const { return itemsize_; }
  /// @return this process's buffer strides, in bytes.
  const std::vector<global_index_t>& local_strides() const { return local_strides_; }
  /// @return this process's axes from slowest to fastest in memory.
  const std::vector<int>& memory_order() const { return memory_order_of(rank_); }
  /// Another process's axes from slowest to fastest in memory.
  /// @param rank a process of the layout.
  /// @return its axes from slowest to fastest in memory.
  const std::vector<int>& memory_order_of(int rank) const {
    return memory_orders_[memory_orders_.size() == 1 ? 0 : static_cast<std::size_t>(rank)];
  }

  /// Whether this process owns position i along axis a of its buffer
  /// (boundary padding is owned; communication padding and copies of 'u'
  /// indices held for another process are not). An element is owned when it
  /// is owned along every axis.
  /// @param axis the axis.
  /// @param position a position of this process's buffer along it.
  /// @return whether this process owns it.
  bool is_owned(int axis, global_index_t position) const;
  /// @return elements this process owns.
  global_index_t num_owned() const { return num_owned_; }
  /// True on every process when no process holds an element it does not own
  /// (no communication padding, no shared 'u' copies).
  /// @return the same on every process.
  bool every_element_owned() const { return every_element_owned_; }
  /// Throws ValidationError unless `array` has the records, shape, strides and
  /// element type this layout was built for. Local: not collective.
  /// @param array an array meant for this layout.
  void check_fits(const DistArray& array) const;

 private:
  DistributedLayout() = default;
  friend struct detail::LayoutAccess;
  friend struct detail::LayoutBuilder;

  std::shared_ptr<detail::InnerComm> inner_;
  MPI_Comm comm_ = MPI_COMM_NULL;  ///< inner_'s
  int rank_ = 0, nprocs_ = 1;
  std::vector<Dim> dim_data_;
  std::vector<global_index_t> local_shape_, global_shape_, local_strides_;
  ProcessGrid grid_;
  std::vector<int> coords_;
  std::string format_;
  std::size_t itemsize_ = 0;
  std::vector<std::vector<int>> memory_orders_;  ///< one for all when every process's is the same
  std::unique_ptr<GlobalLayout> global_;
  int scattered_axis_ = -1;
  SharedIndexOwner shared_owner_;
  bool held_owners_given_ = false;
  std::unique_ptr<detail::ScatteredOwners> scattered_;
  global_index_t num_owned_ = 0;
  bool every_element_owned_ = false;
  global_index_t lowest_index_ = 0;
  std::int64_t number_ = 0;  ///< its creation's number on the communicator (the same on every process)
};

}  // namespace dapetra::mpi
