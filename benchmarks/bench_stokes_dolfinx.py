"""Benchmark rows for a multi-field system: DOLFINx's Stokes (Taylor-Hood
P2-P1 on the unit square, examples/python/stokes_dolfinx.py) solved through
Dapetra against PETSc as DOLFINx's demo solves it (run under mpirun by
scripts/bench; rows appended to the results file).

    mpirun -n 2 python3 benchmarks/bench_stokes_dolfinx.py --out build/bench/results.json [--quick] [--check]

Rows, each checking that both solves converged (|b - K x| / |b| under ten
times the tolerance for Dapetra's, a hundred times for PETSc's, which stops
on its preconditioned residual; the tolerance 1e-10 as deal.II's step-55
solves: the example's 1e-12 is out of Belos MINRES's reach at 1.5e5
unknowns) and that the solutions agree within 1e-6, velocities and
pressures less their means apart (Stokes.differences):
  - time: K and P handed to Tpetra (CrsMatrix.from_csr on the Mats' CSR
    rows) and Belos MINRES with Dapetra's block diagonal preconditioner
    (one MueLu V-cycle on A, Jacobi sweeps on Mp; set-up included),
    against PETSc MINRES with an additive field split (GAMG with block
    size 2 on A, Jacobi on Mp; set-up included). Target 1.0.
  - MINRES iterations against PETSc's. Target 1.0.
Full: 128 cells a side (1.5e5 unknowns); --quick: 32 (9.5e3).
"""
import os
import sys

from mpi4py import MPI

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "python"))
import stokes_dolfinx as stokes  # noqa: E402
from bench_rows import finish_mpi_rows, mpi_driver_arguments  # noqa: E402

comm = MPI.COMM_WORLD


def timed(f):
    comm.Barrier()
    t0 = MPI.Wtime()
    out = f()
    return comm.allreduce(MPI.Wtime() - t0, op=MPI.MAX), out


def row(name, ours, baseline_name, baseline, target, same, **extra):
    r = {"name": name, "ours_s": ours, "baseline": baseline_name, "baseline_s": baseline,
         "ratio": ours / baseline if baseline > 0 else 0.0, "target": target, "same_result": bool(same), **extra}
    r["holds"] = bool(same) and baseline > 0 and r["ratio"] <= target
    if comm.rank == 0:
        verdict = "WRONG" if not same else ("ok  " if r["holds"] else "MISS")
        print(f"{name:<66s} {ours:11.3e} {baseline:11.3e} {r['ratio']:8.3f} {target:7.2f}  {verdict}", flush=True)
    return r


def main():
    args = mpi_driver_arguments()
    n = 32 if args.quick else 128
    s = stokes.Stokes(n)
    tol = 1e-10
    petsc_s, (x_petsc, petsc_iterations, petsc_converged) = timed(lambda: stokes.solve_petsc(s, tol))
    ours_s, (x, iterations) = timed(lambda: stokes.solve_dapetra(s, "diagonal", tol))
    difference = max(s.differences(x, x_petsc))
    # (PETSc's MINRES stops on its preconditioned residual: its true one was 1.4e-9 here at 1e-10.
    # Velocities and pressures less their means differed by at most 7.4e-8 over 14 runs; the whole
    # vector by up to 2.3e-6, nearly all in the pressure constant that the one pinned corner fixes.)
    same = petsc_converged and s.residual(x_petsc) < 100 * tol and s.residual(x) < 10 * tol and difference < 1e-6
    label = f"P2-P1 2-D N={s.size:.1e} np={comm.size}".replace("e+0", "e")
    extra = {"iterations": iterations, "baseline_iterations": petsc_iterations, "solution_difference": difference,
             "unknowns": s.size}
    rows = [row(f"dolfinx_stokes MINRES + block diagonal (set-up included) {label}", ours_s,
                "PETSc MINRES + fieldsplit (GAMG on A, Jacobi on Mp), set-up included", petsc_s, 1.0, same,
                unit="s", **extra),
            row(f"dolfinx_stokes MINRES iterations {label}", iterations, "PETSc MINRES + fieldsplit's iterations",
                petsc_iterations, 1.0, same, unit="iterations", **extra)]
    return finish_mpi_rows(rows, args, comm)


if __name__ == "__main__":
    sys.exit(main())
