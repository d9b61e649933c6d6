#include "dapetra/petsc/mat.hpp"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "dapetra/mpi/agree.hpp"
#include "petsc_call.hpp"

namespace dapetra::petsc {
namespace {

bool is_type(Mat a, const char* type) {
  PetscBool same = PETSC_FALSE;
  check(PetscObjectTypeCompare(reinterpret_cast<PetscObject>(a), type, &same), "PetscObjectTypeCompare");
  return same == PETSC_TRUE;
}

// One sequential AIJ block's rows, its columns mapped to global ones by
// `global_of`, appended to `out`'s rows (row offsets already counted).
struct AijBlock {
  Mat block = nullptr;
  PetscInt rows = 0;
  const PetscInt* offsets = nullptr;
  const PetscInt* columns = nullptr;
  const PetscScalar* values = nullptr;

  explicit AijBlock(Mat b) : block(b) {
    PetscBool done = PETSC_FALSE;
    check(MatGetRowIJ(block, 0, PETSC_FALSE, PETSC_FALSE, &rows, &offsets, &columns, &done), "MatGetRowIJ");
    if (done != PETSC_TRUE) throw std::runtime_error("dapetra::petsc: MatGetRowIJ gave no rows");
    check(MatSeqAIJGetArrayRead(block, &values), "MatSeqAIJGetArrayRead");
  }
  ~AijBlock() {
    PetscBool done = PETSC_FALSE;
    MatSeqAIJRestoreArrayRead(block, &values);
    MatRestoreRowIJ(block, 0, PETSC_FALSE, PETSC_FALSE, &rows, &offsets, &columns, &done);
  }
  AijBlock(const AijBlock&) = delete;
  AijBlock& operator=(const AijBlock&) = delete;
  PetscInt length(PetscInt r) const { return offsets[r + 1] - offsets[r]; }
};

// AIJ: the diagonal block (columns offset by the column ownership start),
// then the off-diagonal one (columns through its column map), row by row.
void copy_aij(Mat diagonal, Mat off_diagonal, PetscInt column_start, const PetscInt* column_map, CsrRows& out) {
  const AijBlock d(diagonal);
  const std::size_t entries = static_cast<std::size_t>(d.offsets[d.rows]);
  std::unique_ptr<AijBlock> o = off_diagonal ? std::make_unique<AijBlock>(off_diagonal) : nullptr;
  const std::size_t all = entries + (o ? static_cast<std::size_t>(o->offsets[o->rows]) : 0);
  // Appended, not resized first: zeroing the arrays would cost as much as filling them.
  out.row_offsets.reserve(static_cast<std::size_t>(d.rows) + 1);
  out.columns.reserve(all);
  out.values.reserve(all);
  for (PetscInt r = 0; r < d.rows; ++r) {
    for (PetscInt k = d.offsets[r]; k < d.offsets[r + 1]; ++k) out.columns.push_back(column_start + d.columns[k]);
    out.values.insert(out.values.end(), d.values + d.offsets[r], d.values + d.offsets[r + 1]);
    if (o) {
      for (PetscInt k = o->offsets[r]; k < o->offsets[r + 1]; ++k) out.columns.push_back(column_map[o->columns[k]]);
      out.values.insert(out.values.end(), o->values + o->offsets[r], o->values + o->offsets[r + 1]);
    }
    out.row_offsets.push_back(static_cast<global_index_t>(out.columns.size()));
  }
}

// Any other type, row by row through MatGetRow (global columns already).
void copy_rows(Mat a, PetscInt start, PetscInt stop, CsrRows& out) {
  for (PetscInt r = start; r < stop; ++r) {
    PetscInt n = 0;
    const PetscInt* cols = nullptr;
    const PetscScalar* vals = nullptr;
    check(MatGetRow(a, r, &n, &cols, &vals), "MatGetRow");
    out.columns.insert(out.columns.end(), cols, cols + n);
    out.values.insert(out.values.end(), vals, vals + n);
    check(MatRestoreRow(a, r, &n, &cols, &vals), "MatRestoreRow");
    out.row_offsets.push_back(static_cast<global_index_t>(out.columns.size()));
  }
}

}  // namespace

CsrRows csr_rows_copy(Mat a) {
  const MPI_Comm comm = comm_of(a);
  CsrRows out;
  mpi::agree_on(comm, [&] {
    PetscBool assembled = PETSC_FALSE;
    check(MatAssembled(a, &assembled), "MatAssembled");
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    if (assembled != PETSC_TRUE)
      throw ValidationError({Problem{rank, -1, "Mat", "not assembled", "the Mat is assembled (MatAssemblyEnd)",
                                     "PETSc's rows are final only after assembly"}});
    PetscInt start = 0, stop = 0, column_start = 0, column_stop = 0;
    check(MatGetOwnershipRange(a, &start, &stop), "MatGetOwnershipRange");
    check(MatGetOwnershipRangeColumn(a, &column_start, &column_stop), "MatGetOwnershipRangeColumn");
    out.first_row = start;
    if (is_type(a, MATMPIAIJ)) {
      Mat diagonal = nullptr, off_diagonal = nullptr;
      const PetscInt* column_map = nullptr;
      check(MatMPIAIJGetSeqAIJ(a, &diagonal, &off_diagonal, &column_map), "MatMPIAIJGetSeqAIJ");
      copy_aij(diagonal, off_diagonal, column_start, column_map, out);
    } else if (is_type(a, MATSEQAIJ)) {
      copy_aij(a, nullptr, 0, nullptr, out);
    } else {
      copy_rows(a, start, stop, out);
    }
  });
  return out;
}

NearNullspaceCopy near_nullspace_copy(Mat a) {
  NearNullspaceCopy out;
  mpi::agree_on(comm_of(a), [&] {
    PetscInt bs = 1, start = 0, stop = 0;
    check(MatGetBlockSize(a, &bs), "MatGetBlockSize");
    check(MatGetOwnershipRange(a, &start, &stop), "MatGetOwnershipRange");
    out.block_size = static_cast<int>(bs);
    out.rows = static_cast<std::size_t>(stop - start);
    MatNullSpace space = nullptr;
    check(MatGetNearNullSpace(a, &space), "MatGetNearNullSpace");
    if (space == nullptr) return;
    PetscBool has_constant = PETSC_FALSE;
    PetscInt n = 0;
    const Vec* vectors = nullptr;
    check(MatNullSpaceGetVecs(space, &has_constant, &n, &vectors), "MatNullSpaceGetVecs");
    if (has_constant == PETSC_TRUE) out.values.assign(out.rows, 1.0);
    for (PetscInt k = 0; k < n; ++k) {
      PetscInt length = 0;
      check(VecGetLocalSize(vectors[k], &length), "VecGetLocalSize");
      if (static_cast<std::size_t>(length) != out.rows) {
        int rank = 0;
        MPI_Comm_rank(comm_of(a), &rank);
        throw ValidationError({Problem{rank, -1, "near_nullspace", std::to_string(length) + " rows in vector " + std::to_string(k),
                                       "each near-nullspace vector has the Mat's " + std::to_string(out.rows) + " rows here",
                                       "MatSetNearNullSpace was given vectors of another layout"}});
      }
      const PetscScalar* v = nullptr;
      check(VecGetArrayRead(vectors[k], &v), "VecGetArrayRead");
      out.values.insert(out.values.end(), v, v + out.rows);
      check(VecRestoreArrayRead(vectors[k], &v), "VecRestoreArrayRead");
    }
    out.modes = static_cast<std::size_t>(n) + (has_constant == PETSC_TRUE ? 1 : 0);
  });
  return out;
}

}  // namespace dapetra::petsc
