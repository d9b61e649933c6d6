// 2-D redistribution rows: RedistributionPlan versus ScaLAPACK's pdgemr2d
// (Debian's libscalapack-openmpi) on the same layouts and the same
// column-major local storage, timed in alternation; both results are checked
// element by element against every element's own global index before any
// time is taken, and a row whose check fails does not hold.
#include <string>

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
using bench::Report;

namespace dapetra::bench {
namespace {

// One distribution of an n x n matrix over the BLACS grid: ScaLAPACK
// block-cyclic with blocks mb x nb (a block that covers its axis's share,
// ceil(n / P), gives plain blocks along it), as DAP records and a
// column-major buffer.
struct Distributed {
  std::vector<Dim> dims;
  std::shared_ptr<std::vector<double>> data;
  DistArray array;
  int desc[9];
};

Dim axis_of(int n, int block, int P, int me) {
  if (static_cast<long long>(block) * P < n) return Dim::cyclic(n, P, me, block);
  return Dim::block(n, P, me, std::min<global_index_t>(n, static_cast<global_index_t>(me) * block),
                    std::min<global_index_t>(n, static_cast<global_index_t>(me + 1) * block));
}

Distributed distribute(int n, int mb, int nb, int ctxt, int prow, int pcol, int myrow, int mycol) {
  Distributed d;
  d.dims = {axis_of(n, mb, prow, myrow), axis_of(n, nb, pcol, mycol)};
  const auto rows = local_extent(d.dims[0]), cols = local_extent(d.dims[1]);
  const int lld = static_cast<int>(std::max<global_index_t>(1, rows));
  d.data = std::make_shared<std::vector<double>>(static_cast<std::size_t>(rows * cols), 0.0);
  d.array.dim_data = d.dims;
  d.array.buffer = view_buffer(d.data->data(), {rows, cols}, d.data);
  d.array.buffer.strides = {8, 8 * static_cast<global_index_t>(lld)};  // column-major, as ScaLAPACK stores it
  const int zero = 0;
  int info = 0;
  descinit_(d.desc, &n, &n, &mb, &nb, &zero, &zero, &ctxt, &lld, &info);
  return d;
}

// Every element holds its global flat index.
void fill_with_global_indices(Distributed& d, int n) {
  const auto rows = local_extent(d.dims[0]), cols = local_extent(d.dims[1]);
  for (global_index_t j = 0; j < cols; ++j)
    for (global_index_t i = 0; i < rows; ++i)
      (*d.data)[static_cast<std::size_t>(j * rows + i)] =
          static_cast<double>(global_index(d.dims[0], i) * n + global_index(d.dims[1], j));
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
  const int reps = quick ? 5 : 7;
  const int rows_share = (n + prow - 1) / prow, cols_share = (n + pcol - 1) / pcol;  // plain blocks
  struct Case {
    std::string name;
    int from_mb, from_nb, to_mb, to_nb;
  };
  for (const Case& c : {Case{"block-cyclic 36x36 -> 128x128", 36, 36, 128, 128},
                        Case{"block-block -> block-cyclic 36x36", rows_share, cols_share, 36, 36}}) {
    Distributed from = distribute(n, c.from_mb, c.from_nb, ctxt, prow, pcol, myrow, mycol);
    Distributed ours = distribute(n, c.to_mb, c.to_nb, ctxt, prow, pcol, myrow, mycol);
    Distributed theirs = distribute(n, c.to_mb, c.to_nb, ctxt, prow, pcol, myrow, mycol);
    Distributed expected = distribute(n, c.to_mb, c.to_nb, ctxt, prow, pcol, myrow, mycol);
    fill_with_global_indices(from, n);
    fill_with_global_indices(expected, n);
    const auto plan = RedistributionPlan::create(DistributedLayout::create(from.array, raw),
                                                 DistributedLayout::create(ours.array, raw));
    const int one = 1;
    const auto run_ours = [&] { plan->apply<double>(from.array, ours.array); };
    const auto run_theirs = [&] {
      pdgemr2d_(&n, &n, from.data->data(), &one, &one, from.desc, theirs.data->data(), &one, &one, theirs.desc, &ctxt);
    };
    // Checked first: both sides once, each element its own global index.
    run_ours();
    run_theirs();
    const bool same = bench::all_ranks(*ours.data == *expected.data && *theirs.data == *expected.data, raw);
    const auto t = bench::paired_median_seconds(raw, reps, run_ours, run_theirs);
    Row row{std::string("redistribute 2-D ") + std::to_string(n) + "^2 " + c.name + " np=" + std::to_string(P), t.ours,
            "ScaLAPACK pdgemr2d", t.baseline, 1.0 / 3.0};
    row.same_result = same;
    row.extra["grid"] = std::to_string(prow) + "x" + std::to_string(pcol);
    report.add(row);
  }
  Cblacs_gridexit(ctxt);
}

}  // namespace dapetra::bench
