"""Benchmark rows for calls from Python (run under mpirun by scripts/bench).

    mpirun -n 2 python3 benchmarks/bench_python.py --out build/bench/results.json [--quick] [--check]

Rows, each timed in alternation with its baseline in the same run and
checked for the same result afterwards (rows appended to the JSON file):
  - tpetra_view at N = 10^8 against N = 10^3: a view costs the same at any size;
  - tpetra_view from Python against the same work from a C++ loop: at most a
    few (3) microseconds more;
  - a 1-D halo update from Python against the same plan's update from a C++
    loop: at most 2 microseconds more;
  - the builders (dapetra.empty, zeros; 1-D block and 2-D block-cyclic) at
    10^7 elements per process against numpy.empty (numpy.zeros) of the
    same local shape plus one small collective: at most 1.2.
"""
import sys

import numpy as np
from mpi4py import MPI

import dapetra
from dapetra import _dapetra

from bench_rows import finish_mpi_rows, mpi_driver_arguments

comm = MPI.COMM_WORLD
P, rank = comm.size, comm.rank


def slowest(seconds):
    return comm.allreduce(seconds, op=MPI.MAX)


def timed(work, calls):
    """Seconds per call of `work` (a loop of `calls`), the slowest process's."""
    comm.Barrier()
    t0 = MPI.Wtime()
    work(calls)
    return slowest((MPI.Wtime() - t0) / calls)


def paired(ours, baseline, repetitions):
    """Ours and the baseline in alternation; the pair with the median ratio."""
    pairs = sorted(((ours(), baseline()) for _ in range(repetitions)), key=lambda p: p[0] / p[1])
    return pairs[len(pairs) // 2]


def block(n, halo=0):
    lo = rank * (n // P) + min(rank, n % P)
    hi = lo + n // P + (rank < n % P)
    left, right = (halo if rank > 0 else 0), (halo if rank < P - 1 else 0)
    return {"__version__": "0.10.0", "buffer": np.zeros(hi - lo + left + right),
            "dim_data": ({"dist_type": "b", "size": n, "proc_grid_size": P, "proc_grid_rank": rank,
                          "start": lo - left, "stop": hi + right, "padding": (left, right)},)}


def global_indices(d):
    """The global index of every element of a 1-D block array's buffer."""
    rec = d["dim_data"][0]
    return np.arange(rec["start"], rec["stop"], dtype=float)


def row(name, ours, baseline_name, baseline, target, same, note=""):
    r = {"name": name, "ours_s": ours, "baseline": baseline_name, "baseline_s": baseline,
         "ratio": ours / baseline if baseline > 0 else 0.0, "target": target, "same_result": bool(same)}
    r["holds"] = bool(same) and baseline > 0 and r["ratio"] <= target
    if note:
        r["target_note"] = note
    if rank == 0:
        verdict = "WRONG" if not same else ("ok  " if r["holds"] else "MISS")
        print(f"{name:<52s} {ours:11.3e} {baseline:11.3e} {r['ratio']:8.3f} {target:7.2f}  {verdict}  (vs {baseline_name})")
    return r


def bench_views(quick):
    small, large = block(1000), block(10 ** 7 if quick else 10 ** 8)
    for d in (small, large):
        d["buffer"][:] = global_indices(d)  # distinct values, so a view of other memory shows
    calls = 50
    view = lambda d: (lambda k: [dapetra.tpetra_view(d, comm) for _ in range(k)])
    t = paired(lambda: timed(view(large), calls), lambda: timed(view(small), calls), 7)
    n = "1e7" if quick else "1e8"
    flat = all(np.shares_memory(dapetra.tpetra_view(d, comm).__distarray__()["buffer"], d["buffer"]) for d in (small, large))
    rows = [row(f"python tpetra_view N={n} np={P}", t[0], "python tpetra_view N=1e3 (alternated)", t[1], 1.5,
                comm.allreduce(flat, op=MPI.LAND))]
    cpp = lambda: slowest(_dapetra._views_timed_in_cpp(small, comm, calls)[0])
    t = paired(lambda: timed(view(small), calls), cpp, 7)
    target = (t[1] + 3e-6) / t[1]
    # The C++ loop's last view: the buffer's memory, holding the buffer's values.
    _, cpp_same_memory, cpp_sum = _dapetra._views_timed_in_cpp(small, comm, 1)
    cpp_right = cpp_same_memory and cpp_sum == small["buffer"].sum()
    rows.append(row(f"python tpetra_view N=1e3 np={P}", t[0], "TpetraLayout::create + buffer_view from C++", t[1],
                    target, comm.allreduce(flat and cpp_right, op=MPI.LAND), "C++ time + 3 us"))
    return rows


def bench_update(quick):
    d = block(2 * 10 ** 4, halo=2)
    plan = dapetra.HaloPlan(dapetra.Layout(d, comm))
    calls = 2000 if quick else 20000
    python = lambda k: [plan.update(d) for _ in range(k)]
    t = paired(lambda: timed(python, calls), lambda: slowest(plan._update_timed_in_cpp(d, calls)), 9)
    # The same values from both: every element its global index after an update from each.
    want = global_indices(d)
    left, right = d["dim_data"][0]["padding"]
    results = []
    for update in (lambda: plan.update(d), lambda: plan._update_timed_in_cpp(d, 1)):
        d["buffer"][:] = want
        d["buffer"][:left] = -1.0
        if right:
            d["buffer"][-right:] = -1.0
        update()
        results.append(d["buffer"].copy())
    same = comm.allreduce(bool(np.array_equal(results[0], want) and np.array_equal(results[1], want)), op=MPI.LAND)
    target = (t[1] + 2e-6) / t[1]
    return [row(f"python halo_update 1-D w=2 np={P}", t[0], "the same plan's update from C++", t[1], target, same,
                "C++ time + 2 us")]


def piece_as_rules_give(records, shape):
    """Whether a builder's piece is this process's share by its records'
    rules, worked out here: 'b' as numpy.array_split cuts range(size) (the
    first size % g pieces one longer), 'c' every block of block_size whose
    number is this rank modulo the grid."""
    for rec, extent in zip(records, shape):
        size, g, r = rec["size"], rec["proc_grid_size"], rec["proc_grid_rank"]
        if rec["dist_type"] == "b":
            q, m = divmod(size, g)
            start = r * q + min(r, m)
            if (rec["start"], rec["stop"], extent) != (start, start + q + (r < m), q + (r < m)):
                return False
        elif rec["dist_type"] == "c":
            bs = rec.get("block_size", 1)
            if extent != np.count_nonzero((np.arange(size) // bs) % g == r):
                return False
        else:
            return False
    return True


def bench_builders(quick):
    n = 10 ** 6 if quick else 10 ** 7
    side = int(round((n * P) ** 0.5))
    cases = [("empty 1-D", lambda: dapetra.empty(n * P, comm), np.empty, "numpy.empty"),
             ("zeros 1-D", lambda: dapetra.zeros(n * P, comm), np.zeros, "numpy.zeros"),
             ("empty 2-D block-cyclic(64)", lambda: dapetra.empty((side, side), comm, dist="c", block_size=64), np.empty,
              "numpy.empty")]
    rows = []
    for label, build, numpy_call, numpy_name in cases:
        shape = build().buffer.shape  # this process's piece, as the builder makes it
        ours = lambda k: [build() for _ in range(k)]
        theirs = lambda k: [(numpy_call(shape), comm.allreduce(0)) for _ in range(k)]
        t = paired(lambda: timed(ours, 20), lambda: timed(theirs, 20), 7)
        # Each piece is the one its records' rules give, the pieces tile the
        # process grid once and cover the global array, and zeros are zeros.
        a = build()
        records = a.__distarray__()["dim_data"]
        grid = tuple(rec["proc_grid_rank"] for rec in records)
        tiled = len(set(comm.allgather(grid))) == P == int(np.prod([rec["proc_grid_size"] for rec in records]))
        covered = comm.allreduce(dapetra.owned_view(a).size) == int(np.prod(a.global_shape))
        zero = not label.startswith("zeros") or not a.buffer.any()
        right = tiled and covered and zero and piece_as_rules_give(records, a.buffer.shape)
        rows.append(row(f"python builder {label} {int(np.prod(shape)):.0e}/rank np={P}", t[0],
                        f"{numpy_name} of the same local shape + allreduce(0)", t[1], 1.2,
                        comm.allreduce(bool(right), op=MPI.LAND)))
    return rows


def main():
    args = mpi_driver_arguments()
    rows = bench_update(args.quick) + bench_builders(args.quick)
    if hasattr(dapetra, "tpetra_view"):
        rows += bench_views(args.quick)
    return finish_mpi_rows(rows, args, comm)


if __name__ == "__main__":
    sys.exit(main())
