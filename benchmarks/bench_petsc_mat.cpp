// A PETSc Mat handed to Tpetra against PETSc's own copy of the same Mat
// (MatDuplicate with values), each result freed inside its timing, by both
// routes: local_csr_rows_copy (MPIAIJ's blocks with local columns and
// garray) + crs_matrix_copy, the recommended one, and csr_rows_copy (global
// columns, looked up again on Tpetra's side) + crs_matrix_copy. The matrix: a 9-point stencil on a square grid
// (the density of a 2-D finite-element matrix), rows split by PETSc. Both
// copies applied to one vector must agree (integer entries: exactly).
#include <petscmat.h>

#include <Teuchos_DefaultMpiComm.hpp>
#include <Tpetra_CrsMatrix.hpp>
#include <Tpetra_MultiVector.hpp>
#include <cmath>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "bench_util.hpp"
#include "dapetra/petsc/mat.hpp"
#include "dapetra/petsc/vec.hpp"
#include "dapetra/tpetra/tpetra.hpp"

namespace dapetra::bench {
namespace {

Mat nine_point(PetscInt m) {
  Mat a = nullptr;
  MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, m * m, m * m, 9, nullptr, 6, nullptr, &a);
  PetscInt start = 0, stop = 0;
  MatGetOwnershipRange(a, &start, &stop);
  for (PetscInt r = start; r < stop; ++r) {
    const PetscInt i = r / m, j = r % m;
    for (PetscInt di = -1; di <= 1; ++di)
      for (PetscInt dj = -1; dj <= 1; ++dj)
        if (i + di >= 0 && i + di < m && j + dj >= 0 && j + dj < m)
          MatSetValue(a, r, r + di * m + dj, di == 0 && dj == 0 ? 8.0 : -1.0, INSERT_VALUES);
  }
  MatAssemblyBegin(a, MAT_FINAL_ASSEMBLY);
  MatAssemblyEnd(a, MAT_FINAL_ASSEMBLY);
  return a;
}

// y = A x on both copies, x(g) = g mod 7, compared exactly.
bool same_products(Mat copy, const tpetra::CrsMatrix& ours, const tpetra::TpetraLayout& layout, MPI_Comm raw) {
  Vec x = nullptr, y = nullptr, z = nullptr;
  MatCreateVecs(copy, &x, &y);
  VecDuplicate(y, &z);
  PetscInt lo = 0, hi = 0;
  VecGetOwnershipRange(x, &lo, &hi);
  PetscScalar* xv = nullptr;
  VecGetArray(x, &xv);
  // No zero entry (a column times zero would go unchecked); small integers keep both products exact.
  for (PetscInt g = lo; g < hi; ++g) xv[g - lo] = static_cast<double>(1 + g % 7);
  VecRestoreArray(x, &xv);
  MatMult(copy, x, y);
  const DistArray xd = petsc::vec_as_distarray(x), zd = petsc::vec_as_distarray(z);
  ours.apply(*tpetra::owned_view<double>(layout, xd), *tpetra::owned_view<double>(layout, zd));
  const PetscScalar *yv = nullptr, *zv = nullptr;
  VecGetArrayRead(y, &yv);
  VecGetArrayRead(z, &zv);
  bool same = true;
  for (PetscInt i = 0; i < hi - lo && same; ++i) same = yv[i] == zv[i];
  VecRestoreArrayRead(y, &yv);
  VecRestoreArrayRead(z, &zv);
  VecDestroy(&x);
  VecDestroy(&y);
  VecDestroy(&z);
  return all_ranks(same, raw);
}

}  // namespace

void bench_petsc_mat(Report& report, MPI_Comm raw, bool quick) {
  int P = 1;
  MPI_Comm_size(raw, &P);
  const PetscInt m = quick ? 316 : 1000;
  Mat a = nine_point(m);
  Vec v = nullptr;
  MatCreateVecs(a, &v, nullptr);
  const auto layout = tpetra::TpetraLayout::create(
      petsc::vec_as_distarray(v), Teuchos::rcp(new Teuchos::MpiComm<int>(Teuchos::opaqueWrapper(raw))));
  Mat copy = nullptr;
  MatDuplicate(a, MAT_COPY_VALUES, &copy);
  const std::string size = quick ? "1e5" : "1e6";
  // The two routes, written once: a row's name suffix and how it builds Tpetra's matrix.
  const std::vector<std::pair<std::string, std::function<Teuchos::RCP<tpetra::CrsMatrix>()>>> routes = {
      {"", [&] { return tpetra::crs_matrix_copy(*layout, petsc::local_csr_rows_copy(a).view()); }},
      {" global columns", [&] { return tpetra::crs_matrix_copy(*layout, petsc::csr_rows_copy(a).view()); }},
  };
  for (const auto& [suffix, route] : routes) {
    const auto t = paired_median_seconds(raw, quick ? 5 : 9, [&] { route(); },
                                         [&] {
                                           Mat b = nullptr;
                                           MatDuplicate(a, MAT_COPY_VALUES, &b);
                                           MatDestroy(&b);
                                         });
    Row row{"petsc_mat_to_tpetra" + suffix + " 9-point N=" + size + " np=" + std::to_string(P), t.ours,
            "MatDuplicate(MAT_COPY_VALUES) of the same Mat", t.baseline, 2.0};
    row.same_result = same_products(copy, *route(), *layout, raw);
    report.add(row);
  }
  MatDestroy(&copy);
  VecDestroy(&v);
  MatDestroy(&a);
}

}  // namespace dapetra::bench
