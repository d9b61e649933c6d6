// DAP -> PETSc: a producer's distributed array (owned entries, then a copy of
// the previous process's last) becomes a ghosted PETSc Vec over the same memory.
//   mpirun -n 3 dap_to_petsc          (prints the norm PETSc computes, and "ghosts ok")
#include <petscvec.h>

#include <cmath>
#include <dapetra/petsc/vec.hpp>
#include <vector>

int main(int argc, char** argv) {
  PetscInitialize(&argc, &argv, nullptr, nullptr);
  int P = 1, r = 0, bad = 0;
  MPI_Comm_size(PETSC_COMM_WORLD, &P);
  MPI_Comm_rank(PETSC_COMM_WORLD, &r);
  const dapetra::global_index_t n = 4, N = n * P;
  std::vector<dapetra::global_index_t> indices{r * n, r * n + 1, r * n + 2, r * n + 3};
  std::vector<double> memory{1, 1, 1, 1};  // the producer's buffer
  if (r > 0) {
    indices.push_back(r * n - 1);  // held by two processes, owned by the lower (DAP's default rule)
    memory.push_back(0);           // not yet current
  }
  dapetra::DistArray a;
  a.dim_data = {dapetra::Dim::unstructured(N, P, r, indices, /*one_to_one=*/false)};
  a.buffer = dapetra::view_buffer(memory.data(), {static_cast<dapetra::global_index_t>(memory.size())});
  const auto layout = dapetra::mpi::DistributedLayout::create(a, PETSC_COMM_WORLD);  // collective

  Vec v = dapetra::petsc::vec_over(*layout, a);  // collective; no copy
  PetscReal norm = 0;
  VecScale(v, 2.0);  // PETSc writes the producer's memory
  VecNorm(v, NORM_2, &norm);
  VecGhostUpdateBegin(v, INSERT_VALUES, SCATTER_FORWARD);  // the ghost slot gets its owner's value
  VecGhostUpdateEnd(v, INSERT_VALUES, SCATTER_FORWARD);
  VecDestroy(&v);  // the memory stays the producer's
  for (double x : memory) bad += x != 2.0;

  PetscPrintf(PETSC_COMM_WORLD, "norm computed by PETSc on the producer's memory: %g\n", static_cast<double>(norm));
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_SUM, PETSC_COMM_WORLD);
  PetscPrintf(PETSC_COMM_WORLD, bad == 0 ? "ghosts ok\n" : "ghosts WRONG\n");
  PetscFinalize();
  return bad == 0 && std::abs(norm - 4.0 * std::sqrt(static_cast<double>(P))) < 1e-12 ? 0 : 1;
}
