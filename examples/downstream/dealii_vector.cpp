// A downstream deal.II program: its distributed vector handed out as a DAP
// array (deal.II's own memory), the ghosts refreshed by Dapetra's halo plan
// and compared, entry by entry, with deal.II's update_ghost_values() on a
// second vector. Built when the Dapetra found has Dapetra::dealii.
#include <deal.II/base/index_set.h>
#include <deal.II/base/mpi.h>
#include <deal.II/lac/la_parallel_vector.h>

#include <dapetra/dealii/vector.hpp>
#include <dapetra/mpi/mpi.hpp>
#include <iostream>

int main(int argc, char** argv) {
  const dealii::Utilities::MPI::MPI_InitFinalize mpi(argc, argv, 1);
  const unsigned p = dealii::Utilities::MPI::n_mpi_processes(MPI_COMM_WORLD);
  const unsigned r = dealii::Utilities::MPI::this_mpi_process(MPI_COMM_WORLD);
  const dealii::types::global_dof_index n = 10 * p, first = 10 * r;
  // Ten owned entries each; the ghosts are the neighbours' nearest entries, around a ring.
  dealii::IndexSet owned(n), relevant(n);
  owned.add_range(first, first + 10);
  relevant.add_indices(owned);
  relevant.add_index((first + 10) % n);
  relevant.add_index((first + n - 1) % n);
  dealii::LinearAlgebra::distributed::Vector<double> ours(owned, relevant, MPI_COMM_WORLD), theirs(ours);
  for (const auto g : owned) ours(g) = theirs(g) = 0.5 * static_cast<double>(g * g);

  const dapetra::DistArray a = dapetra::dealii::vector_as_distarray(ours);  // collective; no copy
  const auto plan = dapetra::mpi::HaloPlan::create(
      dapetra::mpi::DistributedLayout::create(a, MPI_COMM_WORLD, dapetra::dealii::owners_of(ours)));
  plan->update<double>(a);
  theirs.update_ghost_values();

  const unsigned held = ours.get_partitioner()->locally_owned_size() + ours.get_partitioner()->n_ghost_indices();
  int bad = 0;
  for (unsigned i = 0; i < held; ++i) bad += ours.local_element(i) != theirs.local_element(i);
  bad = static_cast<int>(dealii::Utilities::MPI::sum(bad, MPI_COMM_WORLD));
  if (r == 0) std::cout << "deal.II vector as a DAP array: ghosts " << (bad == 0 ? "match" : "DIFFER FROM") << " update_ghost_values()\n";
  return bad == 0 ? 0 : 1;
}
