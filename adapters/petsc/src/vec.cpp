#include "dapetra/petsc/vec.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "dapetra/dim_math.hpp"
#include "dapetra/mpi/agree.hpp"
#include "dapetra/mpi/redistribute.hpp"
#include "petsc_call.hpp"

namespace dapetra::petsc {
namespace {

// The memory of `v` (the array PETSc keeps; access returned at once) and a
// handle that holds a reference to `v` while any DistArray copy lives.
std::pair<double*, std::shared_ptr<const void>> memory_of(Vec array_holder, Vec referenced) {
  PetscScalar* access = nullptr;
  check(VecGetArray(array_holder, &access), "VecGetArray");
  double* const data = access;
  check(VecRestoreArray(array_holder, &access), "VecRestoreArray");  // (which clears `access`)
  check(PetscObjectReference(reinterpret_cast<PetscObject>(referenced)), "PetscObjectReference");
  std::shared_ptr<const void> keep(data, [referenced](const void*) mutable { VecDestroy(&referenced); });
  return {data, std::move(keep)};
}

// The number of elements of the whole (flattened) array.
global_index_t flat_size(const mpi::DistributedLayout& layout) {
  global_index_t n = 1;
  for (auto extent : layout.global_shape()) n *= extent;
  return n;
}

struct Ranks {
  int rank = 0, size = 1;
};
Ranks ranks_of(MPI_Comm comm) {
  Ranks r;
  MPI_Comm_rank(comm, &r.rank);
  MPI_Comm_size(comm, &r.size);
  return r;
}

// Why PETSc cannot hold this process's n-D array (n > 1) as one Vec of the
// flattened array in C order ("" when it can): every element owned, the
// buffer C-contiguous, and its flat global indices one consecutive run (a
// split of the leading axis, like PETSc's DMDA in one direction).
std::string unfit_flat_here(const mpi::DistributedLayout& layout, PetscInt& owned, PetscInt& first) {
  const auto& dims = layout.dim_data();
  const auto& shape = layout.local_shape();
  const std::size_t nd = dims.size();
  for (std::size_t a = 0; a < nd; ++a)
    for (global_index_t i = 0; i < shape[a]; ++i)
      if (!layout.is_owned(static_cast<int>(a), i))
        return "the buffer holds elements it does not own (padding or copies); a PETSc Vec of an n-D array holds owned elements only";
  global_index_t stride = static_cast<global_index_t>(sizeof(double));
  for (std::size_t a = nd; a-- > 0;) {
    if (shape[a] > 1 && layout.local_strides()[a] != stride) return "the buffer is not C-contiguous; PETSc flattens an n-D array in C order";
    stride *= shape[a];
  }
  // Flat global index of each local element, in C order, must step by one.
  std::vector<std::vector<global_index_t>> g(nd);
  for (std::size_t a = 0; a < nd; ++a) {
    g[a].resize(static_cast<std::size_t>(shape[a]));
    for (global_index_t i = 0; i < shape[a]; ++i) g[a][static_cast<std::size_t>(i)] = global_index(dims[a], i);
  }
  const auto& global = layout.global_shape();
  global_index_t count = 1;
  for (auto n : shape) count *= n;
  owned = static_cast<PetscInt>(count);
  first = 0;
  if (count == 0) return "";
  std::vector<global_index_t> at(nd, 0);
  for (global_index_t k = 0; k < count; ++k) {
    global_index_t flat = 0;
    for (std::size_t a = 0; a < nd; ++a) flat = flat * global[a] + g[a][static_cast<std::size_t>(at[a])];
    if (k == 0) first = static_cast<PetscInt>(flat);
    else if (flat != first + k) return "the flat global indices (C order) of the local block are not consecutive";
    for (std::size_t a = nd; a-- > 0;) {  // the next element in C order
      if (++at[a] < shape[a]) break;
      at[a] = 0;
    }
  }
  return "";
}

// Why PETSc cannot hold this process's array as it is ("" when it can).
// `owned` and `first`: the owned count and the first owned global (flat) index.
std::string unfit_here(const mpi::DistributedLayout& layout, const DistArray& array, std::vector<PetscInt>& ghosts,
                       PetscInt& owned, PetscInt& first) {
  owned = first = 0;
  try {
    layout.check_fits(array);
  } catch (const ValidationError& e) {
    return std::string("the array does not fit its layout: ") + e.what();
  }
  if (layout.format() != "d") return "PETSc vectors hold doubles";
  if (layout.dim_data().size() > 1) return unfit_flat_here(layout, owned, first);
  if (array.buffer.shape[0] > 1 && array.buffer.strides[0] != static_cast<global_index_t>(sizeof(double)))
    return "the buffer is strided; PETSc needs consecutive doubles";
  const Dim& d = layout.dim_data()[0];
  const global_index_t n = local_extent(d);
  while (owned < n && layout.is_owned(0, owned)) ++owned;  // the owned prefix
  for (global_index_t i = owned; i < n; ++i)
    if (layout.is_owned(0, i)) return "owned elements do not all come first in the buffer";
  if (d.dist_type == DistType::cyclic && d.proc_grid_size > 1) return "a cyclic distribution has no contiguous owned range";
  for (global_index_t i = 1; i < owned; ++i)
    if (global_index(d, i) != global_index(d, i - 1) + 1) return "the owned global indices are not consecutive";
  ghosts.clear();
  for (global_index_t i = owned; i < n; ++i) ghosts.push_back(static_cast<PetscInt>(global_index(d, i)));
  if (d.dist_type == DistType::block && !ghosts.empty())
    return "a 'b' array with communication padding (PETSc's ghosts come from a 'u' array holding owned entries first)";
  if (owned > 0) first = static_cast<PetscInt>(global_index(d, 0));
  return "";
}

// Every process's reason, or none: the same verdict everywhere.
void refuse_everywhere_unless_fit(const std::string& mine, PetscInt first_owned, PetscInt owned, MPI_Comm comm) {
  const Ranks r = ranks_of(comm);
  // Owned ranges must follow each other in rank order from 0.
  long long count = owned, before = 0;
  MPI_Exscan(&count, &before, 1, MPI_LONG_LONG, MPI_SUM, comm);
  if (r.rank == 0) before = 0;
  std::string reason = mine;
  if (reason.empty() && owned > 0 && first_owned != before)
    reason = "owned ranges are not consecutive in rank order (PETSc's ownership ranges)";
  std::vector<Problem> problems;
  if (!reason.empty())
    problems.push_back(Problem::of(r.rank, "dim_data", "",
                                   "PETSc holds owned elements first, consecutive and in rank order",
                                   reason + "; dapetra::petsc::copy_to_new_vec copies it into a new Vec", 0));
  mpi::agree(problems, comm);
}

}  // namespace

DistArray vec_as_distarray(Vec v) {
  PetscInt lo = 0, hi = 0, n = 0;
  check(VecGetOwnershipRange(v, &lo, &hi), "VecGetOwnershipRange");
  check(VecGetSize(v, &n), "VecGetSize");
  const Ranks r = ranks_of(comm_of(v));
  auto [data, keep] = memory_of(v, v);
  DistArray a;
  a.dim_data = {Dim::block(n, r.size, r.rank, lo, hi)};
  a.buffer = view_buffer(data, {hi - lo}, std::move(keep));
  return a;
}

DistArray ghosted_as_distarray(Vec v) {
  Vec local = nullptr;
  check(VecGhostGetLocalForm(v, &local), "VecGhostGetLocalForm");
  if (!local) throw std::invalid_argument("dapetra::petsc::ghosted_as_distarray: the Vec is not ghosted");
  PetscInt n_local = 0, n = 0;
  check(VecGetLocalSize(local, &n_local), "VecGetLocalSize");
  auto [data, keep] = memory_of(local, v);  // the local form shares the ghosted Vec's array
  check(VecGhostRestoreLocalForm(v, &local), "VecGhostRestoreLocalForm");
  check(VecGetSize(v, &n), "VecGetSize");
  ISLocalToGlobalMapping map = nullptr;
  check(VecGetLocalToGlobalMapping(v, &map), "VecGetLocalToGlobalMapping");
  const PetscInt* global = nullptr;
  check(ISLocalToGlobalMappingGetIndices(map, &global), "ISLocalToGlobalMappingGetIndices");
  std::vector<global_index_t> indices(global, global + n_local);
  check(ISLocalToGlobalMappingRestoreIndices(map, &global), "ISLocalToGlobalMappingRestoreIndices");
  const Ranks r = ranks_of(comm_of(v));
  DistArray a;
  a.dim_data = {Dim::unstructured(n, r.size, r.rank, std::move(indices), false)};
  a.buffer = view_buffer(data, {n_local}, std::move(keep));
  return a;
}

mpi::Ownership owners_of(Vec v) {
  const PetscInt* ranges = nullptr;
  check(VecGetOwnershipRanges(v, &ranges), "VecGetOwnershipRanges");
  // The layout gives a shared index to the range holding it.
  return mpi::Ownership::from_ranges(std::vector<global_index_t>(ranges, ranges + ranks_of(comm_of(v)).size + 1));
}

Vec vec_over(const mpi::DistributedLayout& layout, const DistArray& array) {
  std::vector<PetscInt> ghosts;
  PetscInt owned = 0, first = 0;
  const std::string reason = unfit_here(layout, array, ghosts, owned, first);
  refuse_everywhere_unless_fit(reason, first, owned, layout.comm());
  const auto n = static_cast<PetscInt>(flat_size(layout));
  const auto* data = static_cast<const PetscScalar*>(array.buffer.data);
  Vec v = nullptr;
  if (layout.dim_data().size() == 1 && layout.dim_data()[0].dist_type == DistType::unstructured)
    check(VecCreateGhostWithArray(layout.comm(), owned, n, static_cast<PetscInt>(ghosts.size()), ghosts.data(), data, &v),
          "VecCreateGhostWithArray");
  else
    check(VecCreateMPIWithArray(layout.comm(), 1, owned, n, data, &v), "VecCreateMPIWithArray");
  return v;
}

// Over a new Vec: the array's leading axis split as PETSc splits a length
// (PetscSplitOwnership: the first N mod P processes one more), every other
// axis whole, so the Vec holds the flattened array in C order.
Vec copy_to_new_vec(const std::shared_ptr<const mpi::DistributedLayout>& layout, const DistArray& array) {
  const Ranks r = ranks_of(layout->comm());
  const auto& shape = layout->global_shape();
  std::vector<Dim> dims{Dim::even_block(shape.at(0), r.size, r.rank)};
  std::vector<global_index_t> local{local_extent(dims[0])};
  global_index_t count = local[0];
  for (std::size_t a = 1; a < shape.size(); ++a) {
    dims.push_back(Dim::undistributed(shape[a]));
    local.push_back(shape[a]);
    count *= shape[a];
  }
  Vec v = nullptr;
  check(VecCreateMPI(layout->comm(), static_cast<PetscInt>(count), static_cast<PetscInt>(flat_size(*layout)), &v),
        "VecCreateMPI");
  try {
    DistArray target = vec_as_distarray(v);
    target.dim_data = dims;
    target.buffer = view_buffer(static_cast<double*>(target.buffer.data), local, target.buffer.keep_alive);
    const auto plan = mpi::RedistributionPlan::create(layout, mpi::DistributedLayout::create(target, layout->comm()));
    plan->apply<double>(array, target);
  } catch (...) {
    VecDestroy(&v);
    throw;
  }
  return v;
}

}  // namespace dapetra::petsc
