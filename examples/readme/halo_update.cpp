// A halo update with Dapetra's communication layer alone (MPI, no Trilinos):
// the plan is built once and fills each ghost cell from its owner.
#include <mpi.h>

#include <cstdio>
#include <dapetra/mpi/mpi.hpp>
#include <vector>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int P = 1, r = 0, wrong = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  {
    using namespace dapetra;
    const global_index_t lo = 10 * r, hi = lo + 10;  // owned [lo, hi), held [start, stop)
    const global_index_t start = r > 0 ? lo - 1 : lo, stop = r + 1 < P ? hi + 1 : hi;
    std::vector<double> u;
    for (global_index_t g = start; g < stop; ++g) u.push_back(g >= lo && g < hi ? double(g) : -1.0);  // ghosts -1
    DistArray a;
    a.buffer = view_buffer(u.data(), {stop - start});
    a.dim_data = {Dim::block(10 * P, P, r, start, stop, {lo - start, stop - hi})};

    auto plan = mpi::HaloPlan::create(mpi::DistributedLayout::create(a, MPI_COMM_WORLD));  // collective, once
    plan->update<double>(a);                                  // every ghost now holds its owner's value
    for (global_index_t g = start; g < stop; ++g) wrong += u[static_cast<std::size_t>(g - start)] != double(g);
    std::printf("rank %d: held [%lld, %lld), ghosts %g and %g\n", r, static_cast<long long>(start),
                static_cast<long long>(stop), u.front(), u.back());
  }  // plans and layouts go before MPI_Finalize
  MPI_Finalize();
  return wrong;
}
