#include "dapetra/petsc/mat.hpp"

#include <memory>
#include <optional>
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

// AIJ with local columns: the diagonal block's as they are, the
// off-diagonal block's after them (garray, ascending, is the ghost list), so
// rows stay ascending when PETSc's are.
void copy_aij_local(Mat diagonal, Mat off_diagonal, const PetscInt* garray, LocalCsrRows& out) {
  const AijBlock d(diagonal);
  std::unique_ptr<AijBlock> o = off_diagonal ? std::make_unique<AijBlock>(off_diagonal) : nullptr;
  const std::size_t all = static_cast<std::size_t>(d.offsets[d.rows]) + (o ? static_cast<std::size_t>(o->offsets[o->rows]) : 0);
  PetscInt ghosts = 0;
  if (o) check(MatGetSize(off_diagonal, nullptr, &ghosts), "MatGetSize");
  out.owned_columns = static_cast<std::size_t>(d.rows);
  out.ghost_columns.assign(garray, garray + ghosts);
  out.row_offsets.resize(static_cast<std::size_t>(d.rows) + 1);
  out.columns.resize(all);
  out.values.resize(all);
  const local_index_t shift = static_cast<local_index_t>(d.rows);
  std::size_t at = 0;
  for (PetscInt r = 0; r < d.rows; ++r) {
    for (PetscInt k = d.offsets[r]; k < d.offsets[r + 1]; ++k, ++at) {
      out.columns[at] = static_cast<local_index_t>(d.columns[k]);
      out.values[at] = d.values[k];
    }
    if (o)
      for (PetscInt k = o->offsets[r]; k < o->offsets[r + 1]; ++k, ++at) {
        out.columns[at] = shift + static_cast<local_index_t>(o->columns[k]);
        out.values[at] = o->values[k];
      }
    out.row_offsets[static_cast<std::size_t>(r) + 1] = static_cast<global_index_t>(at);
  }
}

// An AIJ Mat's blocks: MPIAIJ's diagonal and off-diagonal ones and the
// latter's column map (garray: its columns' global indices, ascending), or
// a SEQAIJ Mat as its own diagonal block; none for any other type.
struct AijBlocks {
  Mat diagonal = nullptr, off_diagonal = nullptr;
  const PetscInt* column_map = nullptr;
};
std::optional<AijBlocks> aij_blocks(Mat a) {
  AijBlocks b;
  if (is_type(a, MATMPIAIJ)) {
    check(MatMPIAIJGetSeqAIJ(a, &b.diagonal, &b.off_diagonal, &b.column_map), "MatMPIAIJGetSeqAIJ");
    return b;
  }
  if (!is_type(a, MATSEQAIJ)) return std::nullopt;
  b.diagonal = a;
  return b;
}

struct Ownership {
  int rank = 0;
  PetscInt start = 0, stop = 0, column_start = 0, column_stop = 0;
};

// What both copies check first: the Mat is assembled; where its rows and columns are.
Ownership assembled_ownership(Mat a) {
  Ownership out;
  MPI_Comm_rank(comm_of(a), &out.rank);
  PetscBool assembled = PETSC_FALSE;
  check(MatAssembled(a, &assembled), "MatAssembled");
  if (assembled != PETSC_TRUE)
    throw ValidationError({Problem::of(out.rank, "Mat", "not assembled", "the Mat is assembled (MatAssemblyEnd)",
                                       "PETSc's rows are final only after assembly")});
  check(MatGetOwnershipRange(a, &out.start, &out.stop), "MatGetOwnershipRange");
  check(MatGetOwnershipRangeColumn(a, &out.column_start, &out.column_stop), "MatGetOwnershipRangeColumn");
  return out;
}

}  // namespace

LocalCsrRows local_csr_rows_copy(Mat a) {
  const MPI_Comm comm = comm_of(a);
  LocalCsrRows out;
  mpi::agree_on(comm, [&] {  // first, so that every process or none goes on to MatConvert (collective)
    const Ownership own = assembled_ownership(a);
    if (own.column_start != own.start || own.column_stop != own.stop)
      throw ValidationError(
          {Problem::of(own.rank, "Mat",
                       "columns [" + std::to_string(own.column_start) + ", " + std::to_string(own.column_stop) + ")",
                       "each process owns the same columns as rows (a square Mat on one layout)",
                       "rows [" + std::to_string(own.start) + ", " + std::to_string(own.stop) + ")")});
    out.first_row = own.start;
  });
  struct Converted {  // PETSc's own conversion, for a type other than AIJ
    Mat aij = nullptr;
    ~Converted() { MatDestroy(&aij); }
  } converted;
  mpi::agree_on(comm, [&] {
    std::optional<AijBlocks> blocks = aij_blocks(a);
    if (!blocks) {
      check(MatConvert(a, MATAIJ, MAT_INITIAL_MATRIX, &converted.aij), "MatConvert");
      blocks = aij_blocks(converted.aij);
    }
    copy_aij_local(blocks->diagonal, blocks->off_diagonal, blocks->column_map, out);
  });
  return out;
}

CsrRows csr_rows_copy(Mat a) {
  CsrRows out;
  mpi::agree_on(comm_of(a), [&] {
    const Ownership own = assembled_ownership(a);
    const PetscInt start = own.start, stop = own.stop, column_start = own.column_start;
    out.first_row = start;
    if (const auto blocks = aij_blocks(a))
      copy_aij(blocks->diagonal, blocks->off_diagonal, column_start, blocks->column_map, out);
    else
      copy_rows(a, start, stop, out);
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
        throw ValidationError(
            {Problem::of(rank, "near_nullspace", std::to_string(length) + " rows in vector " + std::to_string(k),
                         "each near-nullspace vector has the Mat's " + std::to_string(out.rows) + " rows here",
                         "MatSetNearNullSpace was given vectors of another layout")});
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
