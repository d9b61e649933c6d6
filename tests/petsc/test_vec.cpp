// PETSc vectors and DAP arrays on one memory, with PETSc's own operations as
// the reference: VecNorm, VecGhostUpdateBegin/End in both directions.
#include <gtest/gtest.h>
#include <petscvec.h>

#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>

#include "../common/arrays.hpp"
#include "../common/outcome.hpp"
#include "../common/spec_oracle.hpp"
#include "dapetra/json.hpp"
#include "dapetra/dim_math.hpp"
#include "../common/world.hpp"
#include "dapetra/mpi/mpi.hpp"
#include "dapetra/petsc/vec.hpp"

using namespace dapetra;

namespace {

// PETSc's world (MPI_COMM_WORLD unless PETSc was told otherwise).
struct World : dapetra::testing::World {
  World() : dapetra::testing::World(PETSC_COMM_WORLD) {}
};

// Strips of a 1-D chain of N nodes: each process owns a block and holds the
// node on each side of it as a ghost (a finite-element partition).
struct Strip {
  PetscInt lo = 0, hi = 0, n = 0;
  std::vector<PetscInt> ghosts;
};
Strip strip(PetscInt n, const World& w) {
  Strip s;
  s.n = n;
  s.lo = n * w.rank / w.size;
  s.hi = n * (w.rank + 1) / w.size;
  if (s.lo > 0) s.ghosts.push_back(s.lo - 1);
  if (s.hi < n) s.ghosts.push_back(s.hi);
  return s;
}

Vec ghosted(const Strip& s) {
  Vec v = nullptr;
  VecCreateGhost(PETSC_COMM_WORLD, s.hi - s.lo, s.n, static_cast<PetscInt>(s.ghosts.size()), s.ghosts.data(), &v);
  return v;
}


}  // namespace

TEST(PetscVec, AVecIsADapArrayOverItsOwnMemory) {
  const World w;
  Vec v = nullptr;
  VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, 100, &v);
  VecSet(v, 2.0);
  DistArray a = petsc::vec_as_distarray(v);
  PetscScalar* mine = nullptr;
  VecGetArray(v, &mine);
  EXPECT_EQ(a.buffer.data, static_cast<void*>(mine));
  VecRestoreArray(v, &mine);
  data_as<double>(a)[0] = 5.0;  // a write through DAP is PETSc's
  PetscReal norm = 0;
  VecNorm(v, NORM_1, &norm);
  EXPECT_EQ(norm, 2.0 * 100 + 3.0 * w.size);
  VecScale(v, 2.0);  // and the reverse
  EXPECT_EQ(data_as<double>(a)[0], 10.0);
  VecDestroy(&v);  // the DistArray's reference keeps the memory
  EXPECT_EQ(data_as<double>(a)[1], 4.0);
  const auto layout = mpi::DistributedLayout::create(a, PETSC_COMM_WORLD);
  EXPECT_EQ(layout->global_shape()[0], 100);
  EXPECT_TRUE(layout->every_element_owned());
}

// A halo update and an assembly through Dapetra over the ghosted Vec's local
// form, each against PETSc's own ghost update on a second ghosted Vec.
TEST(PetscVec, GhostedVecsUpdateAndAssembleAsPetscDoes) {
  const World w;
  const Strip s = strip(40, w);
  Vec ours = ghosted(s), theirs = ghosted(s);
  const DistArray a = petsc::ghosted_as_distarray(ours);
  ASSERT_EQ(a.dim_data[0].indices.size(), static_cast<std::size_t>(s.hi - s.lo) + s.ghosts.size());
  const auto plan = mpi::HaloPlan::create(mpi::DistributedLayout::create(a, PETSC_COMM_WORLD, petsc::owners_of(ours)));
  const auto fill = [&](Vec v) {  // owned: global index + 0.5; ghosts: -1
    Vec local = nullptr;
    VecGhostGetLocalForm(v, &local);
    PetscScalar* x = nullptr;
    VecGetArray(local, &x);
    for (PetscInt i = 0; i < s.hi - s.lo; ++i) x[i] = static_cast<double>(s.lo + i) + 0.5;
    for (std::size_t k = 0; k < s.ghosts.size(); ++k) x[s.hi - s.lo + static_cast<PetscInt>(k)] = -1.0;
    VecRestoreArray(local, &x);
    VecGhostRestoreLocalForm(v, &local);
  };
  const auto local_values = [&](Vec v) {
    Vec local = nullptr;
    VecGhostGetLocalForm(v, &local);
    const PetscScalar* x = nullptr;
    PetscInt n = 0;
    VecGetLocalSize(local, &n);
    VecGetArrayRead(local, &x);
    std::vector<double> out(x, x + n);
    VecRestoreArrayRead(local, &x);
    VecGhostRestoreLocalForm(v, &local);
    return out;
  };
  fill(ours);
  fill(theirs);
  plan->update<double>(a);
  VecGhostUpdateBegin(theirs, INSERT_VALUES, SCATTER_FORWARD);
  VecGhostUpdateEnd(theirs, INSERT_VALUES, SCATTER_FORWARD);
  EXPECT_EQ(local_values(ours), local_values(theirs));
  fill(ours);
  fill(theirs);
  plan->assemble<double>(a);
  VecGhostUpdateBegin(theirs, ADD_VALUES, SCATTER_REVERSE);
  VecGhostUpdateEnd(theirs, ADD_VALUES, SCATTER_REVERSE);
  const auto o = local_values(ours), t = local_values(theirs);
  for (PetscInt i = 0; i < s.hi - s.lo; ++i) EXPECT_EQ(o[static_cast<std::size_t>(i)], t[static_cast<std::size_t>(i)]) << i;
  VecDestroy(&ours);
  VecDestroy(&theirs);
}

TEST(PetscVec, ADapArrayBecomesAVecWithoutACopy) {
  const World w;
  const Dim d = Dim::even_block(30, w.size, w.rank);
  DistArray a = dapetra::testing::owning_array<double>({d});
  for (global_index_t i = 0; i < local_extent(d); ++i) data_as<double>(a)[i] = static_cast<double>(global_index(d, i));
  const auto layout = mpi::DistributedLayout::create(a, PETSC_COMM_WORLD);
  Vec v = petsc::vec_over(*layout, a);
  PetscScalar* x = nullptr;
  VecGetArray(v, &x);
  EXPECT_EQ(static_cast<void*>(x), a.buffer.data);
  VecRestoreArray(v, &x);
  PetscReal norm = 0;
  VecNorm(v, NORM_1, &norm);
  EXPECT_EQ(norm, 29.0 * 30 / 2);
  VecShift(v, 1.0);
  EXPECT_EQ(data_as<double>(a)[0], static_cast<double>(global_index(d, 0)) + 1.0);
  VecDestroy(&v);
}

// A 'u' array holding its owned strip first, then copies: a ghosted Vec over
// it, whose ghost update PETSc does in the DAP buffer.
TEST(PetscVec, AUnstructuredArrayBecomesAGhostedVec) {
  const World w;
  const Strip s = strip(24, w);
  std::vector<global_index_t> held;
  for (PetscInt g = s.lo; g < s.hi; ++g) held.push_back(g);
  held.insert(held.end(), s.ghosts.begin(), s.ghosts.end());
  DistArray a = dapetra::testing::owning_array<double>({Dim::unstructured(24, w.size, w.rank, held, false)}, -1.0);
  for (PetscInt i = 0; i < s.hi - s.lo; ++i) data_as<double>(a)[i] = 2.0 * (s.lo + i);
  Vec probe = ghosted(s);  // for the ownership ranges of the same split
  const auto layout = mpi::DistributedLayout::create(a, PETSC_COMM_WORLD, petsc::owners_of(probe));
  VecDestroy(&probe);
  Vec v = petsc::vec_over(*layout, a);
  VecGhostUpdateBegin(v, INSERT_VALUES, SCATTER_FORWARD);
  VecGhostUpdateEnd(v, INSERT_VALUES, SCATTER_FORWARD);
  for (std::size_t k = 0; k < s.ghosts.size(); ++k)
    EXPECT_EQ(data_as<double>(a)[static_cast<std::size_t>(s.hi - s.lo) + k], 2.0 * s.ghosts[k]);
  VecDestroy(&v);
}

// Layouts PETSc cannot hold are refused on every process, naming the copy.
TEST(PetscVec, WhatPetscCannotHoldIsRefusedEverywhere) {
  const World w;
  if (w.size < 2) GTEST_SKIP() << "refusals need two processes";
  for (const auto& dims : {std::vector<Dim>{Dim::even_block(20, w.size, w.rank, 1)},  // communication padding
                           std::vector<Dim>{Dim::cyclic(20, w.size, w.rank, 2)}}) {
    DistArray a = dapetra::testing::owning_array<double>(dims);
    const auto layout = mpi::DistributedLayout::create(a, PETSC_COMM_WORLD);
    const auto e = dapetra::testing::outcome([&] { petsc::vec_over(*layout, a); });
    ASSERT_TRUE(e.has_value()) << describe(dims[0]);
    EXPECT_NE(std::string(e->what()).find("copy_to_new_vec"), std::string::npos);
  }
  // Owned ranges out of rank order (rank 0 owns the end): refused by all.
  const global_index_t n = 10 * w.size, q = (w.rank + 1) % w.size;
  std::vector<global_index_t> mine(10);
  std::iota(mine.begin(), mine.end(), 10 * q);
  DistArray a = dapetra::testing::owning_array<double>({Dim::unstructured(n, w.size, w.rank, mine, true)});
  const auto layout = mpi::DistributedLayout::create(a, PETSC_COMM_WORLD);
  EXPECT_TRUE(dapetra::testing::outcome([&] { petsc::vec_over(*layout, a); }).has_value());
}

TEST(PetscVec, ACopyTakesAnyLayoutIntoANewVec) {
  const World w;
  const Dim d = Dim::cyclic(25, w.size, w.rank, 3);
  DistArray a = dapetra::testing::owning_array<double>({d});
  for (global_index_t i = 0; i < local_extent(d); ++i) data_as<double>(a)[i] = static_cast<double>(global_index(d, i));
  Vec v = petsc::copy_to_new_vec(mpi::DistributedLayout::create(a, PETSC_COMM_WORLD), a);
  PetscInt lo = 0, hi = 0;
  VecGetOwnershipRange(v, &lo, &hi);
  const PetscScalar* x = nullptr;
  VecGetArrayRead(v, &x);
  for (PetscInt g = lo; g < hi; ++g) EXPECT_EQ(x[g - lo], static_cast<double>(g));
  VecRestoreArrayRead(v, &x);
  VecDestroy(&v);
}

// Every worked example of the spec's chapter 2 run at its own process count.
// PETSc holds an array as one Vec of the array flattened in C order when
// every process's block is one consecutive run of flat indices, in rank
// order, with no padding or copies: of the chapter's examples, 2.1 (rows of
// a 2 x 10 array) and 2.4 (row blocks of 5 x 9). Those become Vecs over the
// listed buffers themselves; every other example is refused on every process
// and copy_to_new_vec() puts each owned value at its flat index. Values are
// checked against the spec's listing read with the test oracle.
TEST(PetscVec, EverySpecExampleIsHeldOrRefusedThenCopied) {
  const World w;
  const std::set<std::string> petsc_holds{"2.1", "2.4"};
  int ran = 0;
  const nlohmann::json examples = dapetra::testing::spec_examples();
  for (const auto& [id, ex] : examples.items()) {
    if (static_cast<int>(ex["ranks"].size()) != w.size) continue;
    ++ran;
    LayoutRecords all;
    for (const auto& entry : ex["ranks"]) all.ranks.push_back({dim_data_from_json(entry["dim_data"].dump()), std::nullopt});
    std::map<global_index_t, double> value_of;  // every owned element's listed value, by flat index
    for (int q = 0; q < w.size; ++q) {
      const auto& dims = all.ranks[static_cast<std::size_t>(q)].dim_data;
      const auto values = ex["ranks"][q]["buffer"].get<std::vector<double>>();
      const auto flat = dapetra::testing::oracle::global_flat_indices(dims);
      for (std::size_t k = 0; k < values.size(); ++k) {
        std::vector<global_index_t> at(dims.size());
        global_index_t rest = static_cast<global_index_t>(k);
        for (std::size_t a = dims.size(); a-- > 0;) {
          const global_index_t extent = local_extent(dims[a]);
          at[a] = rest % extent;
          rest /= extent;
        }
        if (dapetra::testing::oracle::owns_element(all, q, at)) value_of[flat[k]] = values[k];
      }
    }
    auto storage = std::make_shared<std::vector<double>>(ex["ranks"][w.rank]["buffer"].get<std::vector<double>>());
    DistArray a;
    a.dim_data = all.ranks[static_cast<std::size_t>(w.rank)].dim_data;
    std::vector<global_index_t> shape;
    for (const Dim& d : a.dim_data) shape.push_back(local_extent(d));
    a.buffer = view_buffer(storage->data(), shape, storage);
    const auto layout = mpi::DistributedLayout::create(a, PETSC_COMM_WORLD);
    Vec v = nullptr;
    if (petsc_holds.count(id)) {
      v = petsc::vec_over(*layout, a);
      PetscScalar* x = nullptr;
      VecGetArray(v, &x);
      EXPECT_EQ(x, storage->data()) << id << ": the Vec is a view of the listed buffer";
      VecRestoreArray(v, &x);
    } else {
      const auto refusal = dapetra::testing::outcome([&] { petsc::vec_over(*layout, a); });
      ASSERT_TRUE(refusal.has_value()) << id;
      EXPECT_NE(std::string(refusal->what()).find("copy_to_new_vec"), std::string::npos) << id << ": " << refusal->what();
      v = petsc::copy_to_new_vec(layout, a);
    }
    PetscInt lo = 0, hi = 0, n = 0;
    VecGetSize(v, &n);
    EXPECT_EQ(static_cast<std::size_t>(n), value_of.size()) << id;
    VecGetOwnershipRange(v, &lo, &hi);
    const PetscScalar* x = nullptr;
    VecGetArrayRead(v, &x);
    for (PetscInt g = lo; g < hi; ++g) EXPECT_EQ(x[g - lo], value_of.at(g)) << id << " flat index " << g;
    VecRestoreArrayRead(v, &x);
    VecDestroy(&v);
  }
  if (w.size >= 2 && w.size <= 4) {
    EXPECT_GT(ran, 0);
  }
}
