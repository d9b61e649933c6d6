// PETSc Mat -> CSR (csr_rows_copy) -> Tpetra (crs_matrix_copy): the Tpetra
// matrix applied to a vector gives what PETSc's MatMult gives, bit for bit
// (integer entries: every sum exact in any order), for AIJ (read block by
// block) and a dense Mat (read row by row); the system's vectors are the
// PETSc Vecs' own memory. The Mat's block size and near-nullspace
// (near_nullspace_copy) come across as PETSc holds them.
#include <gtest/gtest.h>
#include <petscmat.h>

#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_MultiVector.hpp>
#include <algorithm>
#include <functional>
#include <random>

#include "../common/seed.hpp"
#include "dapetra/petsc/mat.hpp"
#include "dapetra/petsc/vec.hpp"
#include "dapetra/tpetra/tpetra.hpp"

using namespace dapetra;

namespace {

Teuchos::RCP<const Teuchos::Comm<int>> petsc_world() {
  return Teuchos::rcp(new Teuchos::MpiComm<int>(Teuchos::opaqueWrapper(PETSC_COMM_WORLD)));
}

// A square Mat of `type`, n rows split by PETSc: each row a few integer
// entries near the diagonal and a few anywhere (so off-diagonal blocks hold
// columns of every other process), set from the owning process.
Mat random_mat(MatType type, PetscInt n, std::uint64_t seed) {
  Mat a = nullptr;
  MatCreate(PETSC_COMM_WORLD, &a);
  MatSetSizes(a, PETSC_DECIDE, PETSC_DECIDE, n, n);
  MatSetType(a, type);
  MatSetUp(a);
  PetscInt start = 0, stop = 0;
  MatGetOwnershipRange(a, &start, &stop);
  for (PetscInt r = start; r < stop; ++r) {
    std::mt19937_64 rng(seed * 7919u + static_cast<std::uint64_t>(r));
    for (int k = 0; k < 6; ++k) {
      const PetscInt c = k < 3 ? std::clamp<PetscInt>(r + k - 1, 0, n - 1) : std::uniform_int_distribution<PetscInt>(0, n - 1)(rng);
      const PetscScalar v = std::uniform_int_distribution<int>(-4, 4)(rng);
      MatSetValue(a, r, c, v, ADD_VALUES);
    }
  }
  MatAssemblyBegin(a, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(a, MAT_FINAL_ASSEMBLY);
  return a;
}

// PETSc's y = A x against Tpetra's on views of PETSc's own x and a second y.
void expect_same_products(Mat a) {
  Vec x = nullptr, y_petsc = nullptr, y_tpetra = nullptr;
  MatCreateVecs(a, &x, &y_petsc);
  VecDuplicate(y_petsc, &y_tpetra);
  PetscInt lo = 0, hi = 0;
  VecGetOwnershipRange(x, &lo, &hi);
  for (PetscInt g = lo; g < hi; ++g) VecSetValue(x, g, static_cast<PetscScalar>(g % 9 - 4), INSERT_VALUES);
  VecAssemblyBegin(x);
  VecAssemblyEnd(x);
  MatMult(a, x, y_petsc);

  const DistArray xa = petsc::vec_as_distarray(x), ya = petsc::vec_as_distarray(y_tpetra);
  const auto layout = tpetra::TpetraLayout::create(xa, petsc_world());
  const CsrRows rows = petsc::csr_rows_copy(a);
  EXPECT_EQ(rows.first_row, lo);
  const LocalCsrRows local = petsc::local_csr_rows_copy(a);
  EXPECT_EQ(local.first_row, lo);
  EXPECT_TRUE(std::is_sorted(local.ghost_columns.begin(), local.ghost_columns.end()));
  // Both forms, each on its own Tpetra matrix, holding what PETSc holds:
  // the Mat's entries, and the local form those of its AIJ conversion
  // (which keeps no zeros of a dense Mat).
  Mat aij = nullptr;
  MatConvert(a, MATAIJ, MAT_INITIAL_MATRIX, &aij);
  for (const auto& [matrix, held] : {std::pair(tpetra::crs_matrix_copy(*layout, rows.view()), a),
                                     std::pair(tpetra::crs_matrix_copy(*layout, local.view()), aij)}) {
    MatInfo info;
    MatGetInfo(held, MAT_GLOBAL_SUM, &info);
    EXPECT_EQ(matrix->getGlobalNumEntries(), static_cast<std::size_t>(info.nz_used));
    VecZeroEntries(y_tpetra);
    matrix->apply(*tpetra::owned_view<double>(*layout, xa), *tpetra::owned_view<double>(*layout, ya));
    const PetscScalar *want = nullptr, *got = nullptr;
    VecGetArrayRead(y_petsc, &want);
    VecGetArrayRead(y_tpetra, &got);
    for (PetscInt i = 0; i < hi - lo; ++i) {
      EXPECT_EQ(got[i], want[i]) << "row " << lo + i;
      if (got[i] != want[i]) break;
    }
    VecRestoreArrayRead(y_tpetra, &got);
    VecRestoreArrayRead(y_petsc, &want);
  }
  MatDestroy(&aij);
  VecDestroy(&x);
  VecDestroy(&y_petsc);
  VecDestroy(&y_tpetra);
}

}  // namespace

TEST(PetscMat, AijToTpetraAppliesAsPetsc) {
  const auto seed = dapetra::testing::test_seed(31);
  SCOPED_TRACE(seed.replay);
  for (PetscInt n : {1, 7, 50, 403}) {
    Mat a = random_mat(MATAIJ, n, seed.value + static_cast<std::uint64_t>(n));
    expect_same_products(a);
    MatDestroy(&a);
  }
}

TEST(PetscMat, DenseToTpetraAppliesAsPetsc) {  // read row by row (MatGetRow), or converted to AIJ
  Mat a = random_mat(MATDENSE, 23, 3);
  expect_same_products(a);
  MatDestroy(&a);
}

// A Mat whose rows are not the layout's owned rows: every process throws the
// same error (first_row names the first rank whose rows differ).
TEST(Faults, PetscMatRowsOtherThanTheLayoutsFailEveryRank) {
  int rank = 0, size = 1;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  if (size == 1) GTEST_SKIP() << "one process owns every row";
  Mat a = random_mat(MATAIJ, 10 * size, 5);
  const CsrRows rows = petsc::csr_rows_copy(a);
  const global_index_t n = 10 * size;
  // Each boundary in turn moved by one row: rank moved - 1 owns one row more
  // than PETSc gave it, rank `moved` one fewer; the first of them is named.
  for (int moved = 1; moved < size; ++moved) {
    SCOPED_TRACE("boundary before rank " + std::to_string(moved));
    std::vector<global_index_t> starts;
    for (int p = 0; p <= size; ++p) starts.push_back(p * n / size + (p == moved));
    const auto layout = tpetra::TpetraLayout::create(
        {Dim::block(n, size, rank, starts[static_cast<std::size_t>(rank)], starts[static_cast<std::size_t>(rank) + 1])},
        petsc_world());
    try {
      tpetra::crs_matrix_copy(*layout, rows.view());
      ADD_FAILURE() << "rows other than the layout's were accepted";
    } catch (const ValidationError& e) {
      EXPECT_EQ(e.problems().at(0).rank, moved - 1);
      EXPECT_EQ(e.problems().at(0).key, "rows");
    }
  }
  MatDestroy(&a);
}

TEST(Faults, PetscMatNotAssembledFailsEveryRank) {
  Mat a = nullptr;
  MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, 8, 8, 1, nullptr, 1, nullptr, &a);
  for (const std::function<void()>& copy : {std::function<void()>([a] { petsc::csr_rows_copy(a); }),
                                            std::function<void()>([a] { petsc::local_csr_rows_copy(a); })})
    try {
      copy();
      ADD_FAILURE() << "an unassembled Mat was read";
    } catch (const ValidationError& e) {
      EXPECT_EQ(e.problems().at(0).rank, 0);
      EXPECT_EQ(e.problems().at(0).key, "Mat");
    }
  MatDestroy(&a);
}

// Local columns need each process's columns to be its rows: a Mat whose
// column split differs from its row split on one process (one column more
// there, one fewer on the next) throws on every process, naming it.
TEST(Faults, PetscMatColumnsUnlikeRowsFailEveryRank) {
  int rank = 0, size = 1;
  MPI_Comm_rank(PETSC_COMM_WORLD, &rank);
  MPI_Comm_size(PETSC_COMM_WORLD, &size);
  if (size == 1) GTEST_SKIP() << "one process owns every column";
  for (int bad = 0; bad + 1 < size; ++bad) {
    Mat a = nullptr;
    const PetscInt columns = 4 + (rank == bad) - (rank == bad + 1);
    MatCreateAIJ(PETSC_COMM_WORLD, 4, columns, PETSC_DETERMINE, PETSC_DETERMINE, 1, nullptr, 1, nullptr, &a);
    MatAssemblyBegin(a, MAT_FINAL_ASSEMBLY);
    MatAssemblyEnd(a, MAT_FINAL_ASSEMBLY);
    try {
      petsc::local_csr_rows_copy(a);
      ADD_FAILURE() << "columns unlike the rows were accepted";
    } catch (const ValidationError& e) {
      EXPECT_EQ(e.problems().at(0).rank, bad);
      EXPECT_EQ(e.problems().at(0).key, "Mat");
    }
    MatDestroy(&a);
  }
}

// A Mat with block size 3 and a near-nullspace of the constant and two
// vectors with distinct entries: the copy has the block size, the constant
// column first, then each vector's owned entries in order; a Mat without
// one has no modes.
TEST(PetscMat, BlockSizeAndNearNullspaceComeAcross) {
  Mat a = nullptr;
  MatCreate(PETSC_COMM_WORLD, &a);
  MatSetSizes(a, 3 * 5, 3 * 5, PETSC_DETERMINE, PETSC_DETERMINE);
  MatSetBlockSize(a, 3);
  MatSetType(a, MATAIJ);
  MatSetUp(a);
  PetscInt start = 0, stop = 0;
  MatGetOwnershipRange(a, &start, &stop);
  for (PetscInt r = start; r < stop; ++r) MatSetValue(a, r, r, 1.0, INSERT_VALUES);
  MatAssemblyBegin(a, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(a, MAT_FINAL_ASSEMBLY);
  const petsc::NearNullspaceCopy none = petsc::near_nullspace_copy(a);
  EXPECT_EQ(none.block_size, 3);
  EXPECT_EQ(none.modes, 0u);
  EXPECT_TRUE(none.values.empty());

  Vec v[2];
  for (int k = 0; k < 2; ++k) {
    MatCreateVecs(a, &v[k], nullptr);
    for (PetscInt r = start; r < stop; ++r) VecSetValue(v[k], r, static_cast<PetscScalar>(1000 * k + r), INSERT_VALUES);
    VecAssemblyBegin(v[k]);
    VecAssemblyEnd(v[k]);
  }
  MatNullSpace space = nullptr;
  MatNullSpaceCreate(PETSC_COMM_WORLD, PETSC_TRUE, 2, v, &space);
  MatSetNearNullSpace(a, space);
  const petsc::NearNullspaceCopy got = petsc::near_nullspace_copy(a);
  EXPECT_EQ(got.block_size, 3);
  ASSERT_EQ(got.rows, static_cast<std::size_t>(stop - start));
  ASSERT_EQ(got.modes, 3u);
  ASSERT_EQ(got.values.size(), 3 * got.rows);
  for (std::size_t i = 0; i < got.rows; ++i) {
    EXPECT_EQ(got.values[i], 1.0);
    for (int k = 0; k < 2; ++k)
      EXPECT_EQ(got.values[(1 + static_cast<std::size_t>(k)) * got.rows + i], 1000.0 * k + static_cast<double>(start) + static_cast<double>(i));
  }
  MatNullSpaceDestroy(&space);
  for (Vec& x : v) VecDestroy(&x);
  MatDestroy(&a);
}

// A near-nullspace vector laid out unlike the Mat's rows on some processes
// (one row more on rank `bad`, one fewer on the next): every process throws
// the same ValidationError, which names `bad` among the ranks and the key;
// nobody waits in the agreement for a process that stopped.
TEST(Faults, PetscNearNullspaceOfAnotherLayoutFailsEveryRank) {
  int P = 1, r = 0;
  MPI_Comm_size(PETSC_COMM_WORLD, &P);
  MPI_Comm_rank(PETSC_COMM_WORLD, &r);
  if (P < 2) GTEST_SKIP() << "two processes must differ";
  Mat a = nullptr;
  MatCreateAIJ(PETSC_COMM_WORLD, 4, 4, PETSC_DETERMINE, PETSC_DETERMINE, 1, nullptr, 0, nullptr, &a);
  PetscInt start = 0, stop = 0;
  MatGetOwnershipRange(a, &start, &stop);
  for (PetscInt row = start; row < stop; ++row) MatSetValue(a, row, row, 1.0, INSERT_VALUES);
  MatAssemblyBegin(a, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(a, MAT_FINAL_ASSEMBLY);
  for (int bad = 0; bad < P; ++bad) {
    const PetscInt rows = 4 + (r == bad ? 1 : 0) - (r == (bad + 1) % P ? 1 : 0);
    Vec v = nullptr;
    VecCreateMPI(PETSC_COMM_WORLD, rows, PETSC_DETERMINE, &v);
    VecSet(v, 1.0);
    MatNullSpace space = nullptr;
    MatNullSpaceCreate(PETSC_COMM_WORLD, PETSC_FALSE, 1, &v, &space);
    MatSetNearNullSpace(a, space);
    try {
      petsc::near_nullspace_copy(a);
      ADD_FAILURE() << "a near-nullspace of another layout (rank " << bad << ") was taken";
    } catch (const ValidationError& e) {
      bool named = false;
      for (const Problem& p : e.problems()) named = named || (p.rank == bad && p.key == "near_nullspace");
      EXPECT_TRUE(named) << "rank " << bad << " not named";
      EXPECT_EQ(e.problems().size(), 2u);  // bad and the next rank, on every process alike
    }
    MatSetNearNullSpace(a, nullptr);
    MatNullSpaceDestroy(&space);
    VecDestroy(&v);
  }
  MatDestroy(&a);
}
