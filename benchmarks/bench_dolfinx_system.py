"""Benchmark rows for another library's linear system in Tpetra: DOLFINx
(0.5.2 to 0.11) assembles P1 Poisson on the unit square (its documented way, a PETSc
Mat), Dapetra hands it to Tpetra and solves with MueLu (run under mpirun by
scripts/bench; rows appended to the results file).

    mpirun -n 2 python3 benchmarks/bench_dolfinx_system.py --out build/bench/results.json [--quick] [--check]

Rows, each side timed in alternation with the other in the same run, and
checked for the same result:
  - CSR to Tpetra: dapetra.CrsMatrix.from_csr on the Mat's own CSR rows
    (getValuesCSR, read before timing: the arrays another library hands
    over) against DOLFINx assembling that matrix (assemble_matrix + the
    Mat's assembly); the two matrices applied to one vector agree. Target 1.0.
  - PETSc Mat to Tpetra from petsc4py: getValuesCSR + from_csr against
    PETSc's MatDuplicate with values (Mat.duplicate(copy=True)); both
    applied to one vector agree. Target 2.0.
  - the DOLFINx system solved through Dapetra (Belos CG + MueLu, set-up
    included) against PETSc CG + GAMG (set-up included; and the residual
    recomputed after the solve, as dapetra.solve does), both to the same
    relative residual in the unpreconditioned norm from zero; both
    residuals recomputed below the tolerance and the solutions within it.
    Target 1.0. The iterations go in the row, at each size (10^4, 10^5 and
    10^6 unknowns in full runs), so their growth shows.
"""
import sys
import time

import numpy as np
import ufl
from dolfinx import fem, mesh
from dolfinx.fem.petsc import apply_lifting, assemble_matrix, assemble_vector, set_bc
from mpi4py import MPI
from petsc4py import PETSc

import dapetra
from bench_rows import finish_mpi_rows, mpi_driver_arguments
from dolfinx_compat import lagrange_space

comm = MPI.COMM_WORLD
P, rank = comm.size, comm.rank


def slowest(seconds):
    return comm.allreduce(seconds, op=MPI.MAX)


def timed(work):
    """(seconds of the slowest process, what `work` returned)."""
    comm.Barrier()
    t0 = time.perf_counter()
    out = work()
    return slowest(time.perf_counter() - t0), out


def paired(ours, baseline, repetitions):
    """Ours and the baseline in alternation; the pair with the median ratio,
    with each side's last result."""
    pairs = []
    for _ in range(repetitions):
        (t_ours, r_ours), (t_base, r_base) = timed(ours), timed(baseline)
        pairs.append((t_ours, t_base, r_ours, r_base))
    pairs.sort(key=lambda p: p[0] / p[1])
    return pairs[len(pairs) // 2]


def row(name, ours, baseline_name, baseline, target, same, **extra):
    r = {"name": name, "ours_s": ours, "baseline": baseline_name, "baseline_s": baseline,
         "ratio": ours / baseline if baseline > 0 else 0.0, "target": target, "same_result": bool(same), **extra}
    r["holds"] = bool(same) and baseline > 0 and r["ratio"] <= target
    if rank == 0:
        verdict = "WRONG" if not same else ("ok  " if r["holds"] else "MISS")
        print(f"{name:<52s} {ours:11.3e} {baseline:11.3e} {r['ratio']:8.3f} {target:7.2f}  {verdict}  (vs {baseline_name})",
              flush=True)
    return r


class System:
    """P1 Poisson on an n x n unit square, assembled by DOLFINx: -div(grad u)
    = 1, u = 0 on the boundary."""

    def __init__(self, n):
        self.msh = mesh.create_unit_square(comm, n, n, mesh.CellType.triangle)
        V = lagrange_space(self.msh)
        u, v = ufl.TrialFunction(V), ufl.TestFunction(V)
        self.a = fem.form(ufl.inner(ufl.grad(u), ufl.grad(v)) * ufl.dx)
        L = fem.form(fem.Constant(self.msh, PETSc.ScalarType(1.0)) * v * ufl.dx)
        fdim = self.msh.topology.dim - 1
        self.msh.topology.create_connectivity(fdim, self.msh.topology.dim)
        facets = mesh.exterior_facet_indices(self.msh.topology)
        self.bc = fem.dirichletbc(PETSc.ScalarType(0), fem.locate_dofs_topological(V, fdim, facets), V)
        self.A = self.assemble_matrix()
        self.b = assemble_vector(L)
        apply_lifting(self.b, [self.a], bcs=[[self.bc]])
        self.b.ghostUpdate(addv=PETSc.InsertMode.ADD, mode=PETSc.ScatterMode.REVERSE)
        set_bc(self.b, [self.bc])
        self.unknowns = V.dofmap.index_map.size_global
        self.lo, self.hi = self.A.getOwnershipRange()

    def assemble_matrix(self):
        A = assemble_matrix(self.a, bcs=[self.bc])
        A.assemble()
        return A

    def protocol(self, values):
        """A DAP dict over `values` (this process's owned rows: PETSc's memory)."""
        return {"__version__": "0.10.0", "buffer": values,
                "dim_data": ({"dist_type": "b", "size": self.unknowns, "proc_grid_size": P, "proc_grid_rank": rank,
                              "start": self.lo, "stop": self.hi},)}


def same_operator(system, tpetra_matrix, petsc_matrix):
    """Both matrices applied to one vector, within rounding."""
    x, y = petsc_matrix.createVecs()
    x.array[:] = np.sin(np.arange(system.lo, system.hi))
    petsc_matrix.mult(x, y)
    ours = np.zeros(system.hi - system.lo)
    tpetra_matrix.apply(system.protocol(x.array), system.protocol(ours))
    scale = comm.allreduce(float(np.abs(y.array).max(initial=0.0)), op=MPI.MAX)
    return comm.allreduce(bool(np.allclose(ours, y.array, rtol=1e-12, atol=1e-12 * scale)), op=MPI.LAND)


def bench_conversions(system, label, repetitions):
    csr = system.A.getValuesCSR()
    like = system.protocol(np.zeros(system.hi - system.lo))
    from_csr = lambda: dapetra.CrsMatrix.from_csr(like, *csr, first_row=system.lo, comm=comm)
    t = paired(from_csr, system.assemble_matrix, repetitions)
    rows = [row(f"csr_to_tpetra {label}", t[0], "DOLFINx assemble_matrix of the same matrix", t[1], 1.0,
                same_operator(system, t[2], t[3]))]
    from_mat = lambda: dapetra.CrsMatrix.from_csr(like, *system.A.getValuesCSR(), first_row=system.lo, comm=comm)
    t = paired(from_mat, lambda: system.A.duplicate(copy=True), repetitions)
    rows.append(row(f"petsc_mat_to_tpetra (petsc4py) {label}", t[0], "PETSc MatDuplicate with values", t[1], 2.0,
                    same_operator(system, t[2], t[3])))
    return rows


def bench_solve(system, label, tol):
    matrix = dapetra.CrsMatrix.from_csr(system.protocol(np.zeros(system.hi - system.lo)), *system.A.getValuesCSR(),
                                        first_row=system.lo, comm=comm)
    b = system.protocol(system.b.array)
    x_ours = system.b.duplicate()
    x_ours.set(0.0)

    def ours():
        x_ours.set(0.0)
        return dapetra.solve(matrix, b, system.protocol(x_ours.array), method="cg", preconditioner="MueLu",
                             tolerance=tol, max_iterations=5000)

    x_petsc = system.b.duplicate()

    def petsc():
        x_petsc.set(0.0)
        ksp = PETSc.KSP().create(comm)
        ksp.setOperators(system.A)
        ksp.setType("cg")
        ksp.getPC().setType("gamg")
        ksp.setNormType(PETSc.KSP.NormType.UNPRECONDITIONED)
        ksp.setTolerances(rtol=tol, atol=1e-300, max_it=5000)
        ksp.solve(system.b, x_petsc)
        # dapetra.solve recomputes |b - A x| / |b| after its solve: the same work here.
        r = system.b.duplicate()
        system.A.mult(x_petsc, r)
        r.aypx(-1.0, system.b)
        r.norm(), system.b.norm()
        return ksp.getIterationNumber()

    t = paired(ours, petsc, 2)
    (iterations, _), petsc_iterations = t[2], t[3]

    def residual(x):
        r = system.b.duplicate()
        system.A.mult(x, r)
        r.aypx(-1.0, system.b)
        return r.norm() / system.b.norm()

    difference = (x_ours - x_petsc).norm() / x_petsc.norm()
    same = residual(x_ours) < 10 * tol and residual(x_petsc) < 10 * tol and difference < 1e3 * tol
    return [row(f"muelu_solve {label}", t[0], "PETSc CG + GAMG (DOLFINx's system)", t[1], 1.0, same,
                ours_iterations=iterations, baseline_iterations=petsc_iterations, unknowns=system.unknowns)]


def main():
    args = mpi_driver_arguments()
    if not getattr(dapetra, "has_muelu", False):
        if rank == 0:
            print("dapetra was built without MueLu: no rows")
        return 0
    sizes = [100] if args.quick else [100, 316, 1000]
    rows = []
    for n in sizes:
        system = System(n)
        label = f"P1 2-D N={system.unknowns:.0e} np={P}".replace("e+0", "e")
        if n == sizes[-1]:
            rows += bench_conversions(system, label, 3 if args.quick else 5)
        rows += bench_solve(system, label, 1e-8)
    return finish_mpi_rows(rows, args, comm)


if __name__ == "__main__":
    sys.exit(main())
