// PETSc -> DAP -> Tpetra -> DAP -> PETSc on one memory: every step a view,
// the values bit-exact, a write at either end seen at the other.
#include <gtest/gtest.h>
#include <petscvec.h>

#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_MultiVector.hpp>

#include "dapetra/petsc/vec.hpp"
#include "dapetra/tpetra/tpetra.hpp"

using namespace dapetra;

TEST(PetscTpetra, ARoundTripCopiesNothingAndChangesNothing) {
  Vec v = nullptr;
  VecCreateMPI(PETSC_COMM_WORLD, PETSC_DECIDE, 53, &v);
  PetscInt lo = 0, hi = 0;
  VecGetOwnershipRange(v, &lo, &hi);
  PetscScalar* x = nullptr;
  VecGetArray(v, &x);
  for (PetscInt g = lo; g < hi; ++g) x[g - lo] = 1.5 * static_cast<double>(g) + 0.25;
  double* const memory = x;
  VecRestoreArray(v, &x);

  const DistArray a = petsc::vec_as_distarray(v);  // PETSc -> DAP
  const auto comm = Teuchos::rcp(new Teuchos::MpiComm<int>(Teuchos::opaqueWrapper(PETSC_COMM_WORLD)));
  const auto layout = tpetra::TpetraLayout::create(a, comm);
  const auto mv = tpetra::buffer_view<double>(*layout, a);  // DAP -> Tpetra
  EXPECT_EQ(mv->getLocalViewHost(Tpetra::Access::ReadOnly).data(), memory);
  const DistArray b = tpetra::to_distarray<double>(mv, *layout);  // Tpetra -> DAP
  EXPECT_EQ(b.buffer.data, static_cast<void*>(memory));
  EXPECT_EQ(b.dim_data, a.dim_data);
  Vec w = petsc::vec_over(*layout->distribution(), b);  // DAP -> PETSc
  const PetscScalar* y = nullptr;
  VecGetArrayRead(w, &y);
  EXPECT_EQ(y, memory);
  for (PetscInt g = lo; g < hi; ++g) EXPECT_EQ(y[g - lo], 1.5 * static_cast<double>(g) + 0.25);
  VecRestoreArrayRead(w, &y);
  mv->scale(2.0);  // Tpetra writes; both PETSc Vecs see it
  PetscReal nv = 0, nw = 0;
  VecNorm(v, NORM_1, &nv);
  VecNorm(w, NORM_1, &nw);
  double expected = 0;
  for (PetscInt g = 0; g < 53; ++g) expected += 2.0 * (1.5 * static_cast<double>(g) + 0.25);
  EXPECT_DOUBLE_EQ(nv, expected);
  EXPECT_DOUBLE_EQ(nw, expected);
  VecDestroy(&w);
  VecDestroy(&v);
}
