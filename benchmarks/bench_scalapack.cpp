// 2-D redistribution rows (issue 5): RedistributionPlan versus ScaLAPACK's
// pdgemr2d (Debian's libscalapack-openmpi) on the same layouts and the same
// column-major local storage, in the same run; the results are compared
// element by element before any time is reported.
#include <cstring>

#include "bench_util.hpp"
#include "dapetra/tpetra/tpetra.hpp"

extern "C" {
void Cblacs_get(int context, int request, int* value);
void Cblacs_gridinit(int* context, const char* order, int nprow, int npcol);
void Cblacs_gridinfo(int context, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int context);
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb, const int* irsrc, const int* icsrc,
               const int* ictxt, const int* lld, int* info);
void pdgemr2d_(const int* m, const int* n, const double* a, const int* ia, const int* ja, const int* desca, double* b,
               const int* ib, const int* jb, const int* descb, const int* ictxt);
}

using namespace dapetra;
using namespace dapetra::tpetra;
using dapetra::mpi::DistributedLayout;
using dapetra::mpi::RedistributionPlan;
using bench::median_seconds;
using bench::Report;

namespace dapetra::bench {
namespace {

// One distribution of an n x n matrix over the BLACS grid: ScaLAPACK
// block-cyclic with square blocks nb (nb = n / P gives plain blocks), as DAP
// records and a column-major buffer.
struct Distributed {
  std::vector<Dim> dims;
  std::shared_ptr<std::vector<double>> data;
  DistArray array;
  int desc[9];
};

Distributed distribute(int n, int nb, int ctxt, int prow, int pcol, int myrow, int mycol) {
  Distributed d;
  const bool plain_block = nb * prow >= n && nb * pcol >= n;
  const auto axis = [&](int P, int me) {
    return plain_block ? Dim::block(n, P, me, std::min<global_index_t>(n, static_cast<global_index_t>(me) * nb),
                                    std::min<global_index_t>(n, static_cast<global_index_t>(me + 1) * nb))
                       : Dim::cyclic(n, P, me, nb);
  };
  d.dims = {axis(prow, myrow), axis(pcol, mycol)};
  const auto rows = local_extent(d.dims[0]), cols = local_extent(d.dims[1]);
  const int lld = static_cast<int>(std::max<global_index_t>(1, rows));
  d.data = std::make_shared<std::vector<double>>(static_cast<std::size_t>(rows * cols), 0.0);
  d.array.dim_data = d.dims;
  d.array.buffer = view_buffer(d.data->data(), {rows, cols}, d.data);
  d.array.buffer.strides = {8, 8 * static_cast<global_index_t>(lld)};  // column-major, as ScaLAPACK stores it
  const int zero = 0;
  int info = 0;
  descinit_(d.desc, &n, &n, &nb, &nb, &zero, &zero, &ctxt, &lld, &info);
  return d;
}

}  // namespace

void bench_scalapack(Report& report, const Teuchos::RCP<const Comm>& comm, MPI_Comm raw, bool quick) {
  const int P = comm->getSize();
  const int prow = P >= 4 ? 2 : P, pcol = P / prow;  // 2 x 1 or 2 x 2, row-major like DAP
  int ctxt = 0, nprow = 0, npcol = 0, myrow = 0, mycol = 0;
  Cblacs_get(0, 0, &ctxt);
  Cblacs_gridinit(&ctxt, "Row", prow, pcol);
  Cblacs_gridinfo(ctxt, &nprow, &npcol, &myrow, &mycol);
  const int n = quick ? 2000 : 8000;
  const int reps = quick ? 3 : 5;
  struct Case {
    const char* name;
    int from_nb, to_nb;
  };
  const int block_nb = (n + prow - 1) / prow;  // plain blocks when it covers the axis
  for (const Case& c : {Case{"block-cyclic 36x36 -> 128x128", 36, 128}, Case{"block-block -> block-cyclic 36x36", std::max(block_nb, (n + pcol - 1) / pcol), 36}}) {
    Distributed from = distribute(n, c.from_nb, ctxt, prow, pcol, myrow, mycol);
    Distributed ours = distribute(n, c.to_nb, ctxt, prow, pcol, myrow, mycol);
    Distributed theirs = distribute(n, c.to_nb, ctxt, prow, pcol, myrow, mycol);
    // Values: the global flat index of each element.
    const auto rows = local_extent(from.dims[0]), cols = local_extent(from.dims[1]);
    for (global_index_t j = 0; j < cols; ++j)
      for (global_index_t i = 0; i < rows; ++i)
        (*from.data)[static_cast<std::size_t>(j * rows + i)] =
            static_cast<double>(global_index(from.dims[0], i) * n + global_index(from.dims[1], j));
    const auto plan = RedistributionPlan::create(DistributedLayout::create(from.array, raw),
                                                 DistributedLayout::create(ours.array, raw));
    const int one = 1;
    const double t_ours = median_seconds(raw, reps, [&] { plan->apply<double>(from.array, ours.array); });
    const double t_theirs = median_seconds(raw, reps, [&] {
      pdgemr2d_(&n, &n, from.data->data(), &one, &one, from.desc, theirs.data->data(), &one, &one, theirs.desc, &ctxt);
    });
    int same = ours.data->size() == theirs.data->size() &&
               std::memcmp(ours.data->data(), theirs.data->data(), ours.data->size() * sizeof(double)) == 0;
    int all_same = 0;
    MPI_Allreduce(&same, &all_same, 1, MPI_INT, MPI_MIN, raw);
    Row row{std::string("redistribute 2-D ") + std::to_string(n) + "^2 " + c.name + " np=" + std::to_string(P), t_ours,
            "ScaLAPACK pdgemr2d", t_theirs, 1.0 / 3.0};
    row.extra["results_identical"] = all_same == 1;
    report.add(row);
    if (all_same != 1 && comm->getRank() == 0) std::printf("  ^ results DIFFER from pdgemr2d\n");
  }
  Cblacs_gridexit(ctxt);
}

}  // namespace dapetra::bench
