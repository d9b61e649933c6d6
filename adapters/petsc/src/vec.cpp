#include "dapetra/petsc/vec.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "dapetra/dim_math.hpp"
#include "dapetra/mpi/redistribute.hpp"

namespace dapetra::petsc {
namespace {

void check(PetscErrorCode code, const char* call) {
  if (code != 0) throw std::runtime_error(std::string("dapetra::petsc: ") + call + " failed (PETSc error " + std::to_string(code) + ")");
}

MPI_Comm comm_of(Vec v) {
  MPI_Comm comm = MPI_COMM_NULL;
  check(PetscObjectGetComm(reinterpret_cast<PetscObject>(v), &comm), "PetscObjectGetComm");
  return comm;
}

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

struct Ranks {
  int rank = 0, size = 1;
};
Ranks ranks_of(MPI_Comm comm) {
  Ranks r;
  MPI_Comm_rank(comm, &r.rank);
  MPI_Comm_size(comm, &r.size);
  return r;
}

// Why PETSc cannot hold this process's array as it is ("" when it can).
std::string unfit_here(const mpi::DistributedLayout& layout, const DistArray& array, std::vector<PetscInt>& ghosts,
                       PetscInt& owned) {
  try {
    layout.check_fits(array);
  } catch (const ValidationError& e) {
    return std::string("the array does not fit its layout: ") + e.what();
  }
  if (layout.dim_data().size() != 1 || layout.format() != "d") return "PETSc vectors are 1-D arrays of doubles";
  if (array.buffer.shape[0] > 1 && array.buffer.strides[0] != static_cast<global_index_t>(sizeof(double)))
    return "the buffer is strided; PETSc needs consecutive doubles";
  const Dim& d = layout.dim_data()[0];
  const global_index_t n = local_extent(d);
  owned = 0;
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
  const int bad = reason.empty() ? 0 : 1;
  std::vector<int> all(static_cast<std::size_t>(r.size));
  MPI_Allgather(&bad, 1, MPI_INT, all.data(), 1, MPI_INT, comm);
  std::vector<Problem> problems;
  for (int q = 0; q < r.size; ++q)
    if (all[static_cast<std::size_t>(q)])
      problems.push_back({q, 0, "dim_data", "", "PETSc holds owned elements first, consecutive and in rank order",
                          (q == r.rank ? reason : "rank " + std::to_string(q) + "'s array cannot be a PETSc Vec as it is") +
                              "; dapetra::petsc::copy_to_new_vec copies it into a new Vec"});
  if (!problems.empty()) throw ValidationError(problems);
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

mpi::LayoutOptions owners_of(Vec v) {
  const PetscInt* ranges = nullptr;
  check(VecGetOwnershipRanges(v, &ranges), "VecGetOwnershipRanges");
  const std::vector<global_index_t> starts(ranges, ranges + ranks_of(comm_of(v)).size + 1);
  mpi::LayoutOptions options;
  options.shared_owner = [starts](global_index_t g, const std::vector<int>& holders) {
    const int owner = static_cast<int>(std::upper_bound(starts.begin(), starts.end(), g) - starts.begin()) - 1;
    return std::find(holders.begin(), holders.end(), owner) != holders.end() ? owner : holders.front();
  };
  return options;
}

Vec vec_over(const mpi::DistributedLayout& layout, const DistArray& array) {
  std::vector<PetscInt> ghosts;
  PetscInt owned = 0;
  const std::string reason = unfit_here(layout, array, ghosts, owned);
  const PetscInt first = reason.empty() && owned > 0 ? static_cast<PetscInt>(global_index(layout.dim_data()[0], 0)) : 0;
  refuse_everywhere_unless_fit(reason, first, owned, layout.comm());
  const auto n = static_cast<PetscInt>(layout.global_shape()[0]);
  const auto* data = static_cast<const PetscScalar*>(array.buffer.data);
  Vec v = nullptr;
  if (layout.dim_data()[0].dist_type == DistType::unstructured)
    check(VecCreateGhostWithArray(layout.comm(), owned, n, static_cast<PetscInt>(ghosts.size()), ghosts.data(), data, &v),
          "VecCreateGhostWithArray");
  else
    check(VecCreateMPIWithArray(layout.comm(), 1, owned, n, data, &v), "VecCreateMPIWithArray");
  return v;
}

Vec copy_to_new_vec(const std::shared_ptr<const mpi::DistributedLayout>& layout, const DistArray& array) {
  Vec v = nullptr;
  check(VecCreateMPI(layout->comm(), PETSC_DECIDE, static_cast<PetscInt>(layout->global_shape().at(0)), &v), "VecCreateMPI");
  try {
    const DistArray target = vec_as_distarray(v);
    const auto plan = mpi::RedistributionPlan::create(layout, mpi::DistributedLayout::create(target, layout->comm()));
    plan->apply<double>(array, target);
  } catch (...) {
    VecDestroy(&v);
    throw;
  }
  return v;
}

}  // namespace dapetra::petsc
