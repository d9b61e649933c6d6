"""Stokes (Taylor-Hood P2-P1) assembled by DOLFINx, solved by Tpetra through
Dapetra with a block preconditioner, and by PETSc as DOLFINx's Stokes demo
solves it, on the same matrices.

The unit square (or, --dim 3, the unit cube in tetrahedra), no-slip walls,
a rotational body force f = (0.5 - y, x - 0.5[, 0]), the pressure fixed at
the corner at the origin. DOLFINx assembles K =
[[A, B^T], [B, 0]], the preconditioning matrix P = [[A, 0], [0, Mp]] (Mp
the pressure mass matrix) and b, each process's rows in blocks (its
velocity unknowns, then its pressures). Dapetra hands K and P to Tpetra
(CrsMatrix.from_csr) and solve_block runs MINRES with diag(A^-1, Mp^-1)
and GMRES with the block upper triangular preconditioner: one MueLu V-cycle
on A (dim equations per node), 3 Jacobi sweeps on Mp. PETSc runs MINRES
with an additive field split: GAMG on A (block size dim), Jacobi on Mp.

    mpirun -n 2 python3 examples/python/stokes_dolfinx.py [--dim 2|3] [--n 8 16 32] [--check] [--manufactured]

--manufactured takes the force of a known solution (u the curl of
(x (1 - x) y (1 - y))^2, p = sin(pi x) sin(pi y); in 3-D the curl of (0, 0,
(x (1 - x) y (1 - y) z (1 - z))^2), p = sin(pi x) sin(pi y) sin(pi z)) and prints the L2 errors
of the MINRES solution and their rates; with --check the last rates must
reach 2.7 (velocity) and 1.7 (pressure), Taylor-Hood's being 3 and 2.

The same system is also solved from DOLFINx's nested matrices (column
"nested"): each block its own CrsMatrix (B and B^T with columns=), handed
to solve_block as blocks, MINRES with the block diagonal preconditioner.

--check exits non-zero unless, at every size, Dapetra's three solves and
PETSc's converge (|b - K x| / |b| < 1e-10), their solutions agree within
1e-8 (relative, 2-norm, velocities and pressures less their means apart:
Stokes.differences), Dapetra's solves take no more iterations than
PETSc's, and the last
refinement adds at most 25 % + 5 to them. Both run to 1e-12: Dapetra's the
true residual, PETSc's MINRES its preconditioned one.
"""
import argparse
import os
import sys

import numpy as np
import ufl
from dolfinx import fem, mesh
from mpi4py import MPI
from petsc4py import PETSc

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "benchmarks"))
import dapetra  # noqa: E402
from dolfinx_compat import (assemble_block_system, assemble_nested_matrix, lagrange_space,  # noqa: E402
                             vector_lagrange_space)

comm = MPI.COMM_WORLD
TOL = 1e-12  # Dapetra's: |b - K x| / |b|; PETSc's MINRES: its preconditioned residual


def manufactured_solution(x, dim):
    """u = curl of psi = (x (1 - x) y (1 - y))^2 (in 3-D: of (0, 0, psi), psi
    with a z (1 - z) factor too), zero on the walls and divergence-free; p =
    the product of sin(pi x_i), zero at the pinned corner."""
    psi, p = 1, 1
    for i in range(dim):
        psi, p = psi * (x[i] * (1 - x[i])) ** 2, p * ufl.sin(ufl.pi * x[i])
    u = ufl.as_vector((psi.dx(1), -psi.dx(0)) + (0,) * (dim - 2))
    return u, p


class Stokes:
    """The system on an n x n triangle mesh (dim 2) or n x n x n
    tetrahedron mesh (dim 3)."""

    def __init__(self, n, manufactured=False, dim=2):
        msh = (mesh.create_unit_square(comm, n, n, mesh.CellType.triangle) if dim == 2
               else mesh.create_unit_cube(comm, n, n, n, mesh.CellType.tetrahedron))
        V, Q = vector_lagrange_space(msh, dim, degree=2), lagrange_space(msh, 1)
        self.dim = dim
        u, v = ufl.TrialFunction(V), ufl.TestFunction(V)
        p, q = ufl.TrialFunction(Q), ufl.TestFunction(Q)
        dx = ufl.dx
        zero = fem.Constant(msh, PETSc.ScalarType(0.0))
        a = fem.form([[ufl.inner(ufl.grad(u), ufl.grad(v)) * dx, -ufl.inner(p, ufl.div(v)) * dx],
                      [-ufl.inner(ufl.div(u), q) * dx, zero * p * q * dx]])
        a_p = fem.form([[ufl.inner(ufl.grad(u), ufl.grad(v)) * dx, None], [None, ufl.inner(p, q) * dx]])
        x = ufl.SpatialCoordinate(msh)
        self.exact = manufactured_solution(x, dim) if manufactured else None
        force = (-ufl.div(ufl.grad(self.exact[0])) + ufl.grad(self.exact[1]) if manufactured
                 else ufl.as_vector((0.5 - x[1], x[0] - 0.5) + (0,) * (dim - 2)))
        L = fem.form([ufl.inner(force, v) * dx, zero * q * dx])
        fdim = msh.topology.dim - 1
        walls = mesh.locate_entities_boundary(msh, fdim, lambda x: np.full(x.shape[1], True))
        noslip = fem.dirichletbc(np.zeros(dim, dtype=PETSc.ScalarType), fem.locate_dofs_topological(V, fdim, walls), V)
        corner = fem.locate_dofs_geometrical(Q, lambda x: np.all(np.isclose(x[:dim], 0.0), axis=0))
        pinned = fem.dirichletbc(PETSc.ScalarType(0.0), corner, Q)
        self.K, self.P, self.b = assemble_block_system(a, a_p, L, [noslip, pinned])
        # DOLFINx 0.11's blocked matrices need these alive: PETSc's sub-matrix
        # of one whose forms and spaces were freed crashed (0.5.2's do not).
        self.keep_alive = (msh, V, Q, a, a_p, L, noslip, pinned)
        self.forms, self.bcs = (a, a_p), [noslip, pinned]
        self.V, self.Q = V, Q
        self.velocity = V.dofmap.index_map.size_local * V.dofmap.index_map_bs
        self.pressure = Q.dofmap.index_map.size_local
        self.lo, self.hi = self.K.getOwnershipRange()
        self.size = self.K.getSize()[0]
        assert self.hi - self.lo == self.velocity + self.pressure

    def protocol(self, values):
        """A DAP dict over this process's owned rows (PETSc's memory)."""
        return {"__version__": "0.10.0", "buffer": values,
                "dim_data": ({"dist_type": "b", "size": self.size, "proc_grid_size": comm.size,
                              "proc_grid_rank": comm.rank, "start": self.lo, "stop": self.hi},)}

    def errors(self, x):
        """The L2 errors of x's velocity and pressure against the manufactured
        solution (each pressure less its mean: the corner pins the discrete
        one, the exact one is zero there too)."""
        u, p = fem.Function(self.V), fem.Function(self.Q)
        u.x.array[:self.velocity] = x.array_r[:self.velocity]
        p.x.array[:self.pressure] = x.array_r[self.velocity:]
        u.x.scatter_forward()
        p.x.scatter_forward()
        integral = lambda e: comm.allreduce(fem.assemble_scalar(fem.form(e * ufl.dx)), op=MPI.SUM)
        u_exact, p_exact = self.exact
        p_mean, p_exact_mean = integral(p), integral(p_exact)  # (the unit square's area, the cube's volume, is 1)
        e_u = ufl.inner(u - u_exact, u - u_exact)
        e_p = ((p - p_mean) - (p_exact - p_exact_mean)) ** 2
        return np.sqrt(integral(e_u)), np.sqrt(integral(e_p))

    def differences(self, x, y):
        """|x - y| / |y| over the velocities, and over the pressures each less
        its mean. The one pinned corner is all that fixes the discrete
        pressure's constant, so two solves to the same residual differ in that
        constant far more than anywhere else (5e-8 against 7e-10 in the
        velocities at residual 1e-10); the whole vector's difference would
        measure the pin, not the solve."""
        def norm(v):
            return np.sqrt(comm.allreduce(float(v @ v), op=MPI.SUM))

        def less_mean(v):
            return v - comm.allreduce(float(v.sum()), op=MPI.SUM) / comm.allreduce(v.size, op=MPI.SUM)

        u, v = x.array_r[:self.velocity], y.array_r[:self.velocity]
        p, q = less_mean(x.array_r[self.velocity:]), less_mean(y.array_r[self.velocity:])
        return norm(u - v) / norm(v), norm(p - q) / norm(q)

    def residual(self, x):
        r = self.b.duplicate()
        self.K.mult(x, r)
        r.aypx(-1.0, self.b)
        return r.norm() / self.b.norm()


def solve_dapetra(s, kind, tolerance=TOL):
    like = s.protocol(np.zeros(s.hi - s.lo))
    K = dapetra.CrsMatrix.from_csr(like, *s.K.getValuesCSR(), first_row=s.lo, comm=comm)
    P = dapetra.CrsMatrix.from_csr(like, *s.P.getValuesCSR(), first_row=s.lo, comm=comm)
    x = s.b.duplicate()
    x.set(0.0)
    iterations, _ = dapetra.solve_block(K, P, s.protocol(s.b.array), s.protocol(x.array),
                                        fields=[s.velocity, s.pressure], kind=kind, equations_per_node=s.dim,
                                        tolerance=tolerance, max_iterations=2000)
    return x, iterations


def solve_dapetra_nested(s, kind, tolerance=TOL):
    """The same system as DOLFINx's nested matrices: each block handed over
    as its own CrsMatrix (B and B^T rectangular: columns=), S the nested
    preconditioning matrix's pressure block; b and x the block vectors."""
    K, P = (assemble_nested_matrix(form, s.bcs) for form in s.forms)
    fields = []  # each field's layout: a DAP dict over its own numbering
    for i in range(2):
        lo, hi = K.getNestSubMatrix(i, i).getOwnershipRange()
        size = K.getNestSubMatrix(i, i).getSize()[0]
        fields.append({"__version__": "0.10.0", "buffer": np.zeros(hi - lo),
                       "dim_data": ({"dist_type": "b", "size": size, "proc_grid_size": comm.size,
                                     "proc_grid_rank": comm.rank, "start": lo, "stop": hi},)})

    def block(M, i, j):  # (a diagonal block is square: no columns=)
        lo = M.getOwnershipRange()[0]
        return dapetra.CrsMatrix.from_csr(fields[i], *M.getValuesCSR(), first_row=lo,
                                          columns=fields[j] if i != j else None, comm=comm)

    blocks = [[block(K.getNestSubMatrix(i, j), i, j) for j in range(2)] for i in range(2)]
    S = block(P.getNestSubMatrix(1, 1), 1, 1)
    x = s.b.duplicate()
    x.set(0.0)
    iterations, _ = dapetra.solve_block(blocks, S, s.protocol(s.b.array), s.protocol(x.array), kind=kind,
                                        equations_per_node=s.dim, tolerance=tolerance, max_iterations=2000)
    for M in (K, P):
        M.destroy()
    return x, iterations


def solve_petsc(s, tolerance=TOL):
    ksp = PETSc.KSP().create(comm)
    ksp.setOperators(s.K, s.P)
    ksp.setType("minres")
    ksp.setTolerances(rtol=tolerance, max_it=2000)
    pc = ksp.getPC()
    pc.setType("fieldsplit")
    pc.setFieldSplitType(PETSc.PC.CompositeType.ADDITIVE)
    velocity = PETSc.IS().createStride(s.velocity, s.lo, 1, comm=comm)
    velocity.setBlockSize(s.dim)
    pressure = PETSc.IS().createStride(s.pressure, s.lo + s.velocity, 1, comm=comm)
    pc.setFieldSplitIS(("u", velocity), ("p", pressure))
    ksp.setUp()
    ksp_u, ksp_p = pc.getFieldSplitSubKSP()
    ksp_u.setType("preonly")
    ksp_u.getPC().setType("gamg")
    ksp_p.setType("preonly")
    ksp_p.getPC().setType("jacobi")
    x = s.b.duplicate()
    x.set(0.0)
    ksp.solve(s.b, x)
    return x, ksp.getIterationNumber(), ksp.getConvergedReason() > 0


def rates(errors):
    """log2 of the last two sizes' error ratios (the sizes double)."""
    (u0, p0), (u1, p1) = errors[-2], errors[-1]
    return np.log2(u0 / u1), np.log2(p0 / p1)


def error_columns(errors):
    u, p = errors[-1]
    if len(errors) < 2:
        return f"  {u:>10.3e}{'':>8}  {p:>10.3e}"
    rate_u, rate_p = rates(errors)
    return f"  {u:>10.3e} ({rate_u:.2f})  {p:>10.3e} ({rate_p:.2f})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dim", type=int, choices=(2, 3), default=2)
    parser.add_argument("--n", type=int, nargs="+", default=[8, 16, 32])
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--manufactured", action="store_true",
                        help="the force of a known solution: L2 errors and their rates printed (and checked)")
    args = parser.parse_args()
    ok = True
    counts = {"diagonal": [], "upper": [], "nested": [], "petsc": []}
    errors = []
    if comm.rank == 0:
        print(f"{'cells':>6} {'unknowns':>9} {'MINRES+diag':>12} {'GMRES+upper':>12} {'nested':>7} {'PETSc MINRES':>13} "
              f"{'|x - x_petsc| / |x_petsc| (u, p)':>26}" + ("  L2 error u (rate)  L2 error p (rate)" if args.manufactured else ""))
    for n in args.n:
        s = Stokes(n, manufactured=args.manufactured, dim=args.dim)
        x_petsc, petsc_iterations, petsc_converged = solve_petsc(s)
        differences = []
        counts["petsc"].append(petsc_iterations)
        for kind in ("diagonal", "upper", "nested"):
            x, iterations = solve_dapetra_nested(s, "diagonal") if kind == "nested" else solve_dapetra(s, kind)
            if kind == "diagonal" and args.manufactured:
                errors.append(s.errors(x))
            counts[kind].append(iterations)
            differences.extend(s.differences(x, x_petsc))
            ok &= s.residual(x) < 10 * TOL and iterations <= petsc_iterations
        ok &= petsc_converged and s.residual(x_petsc) < 10 * TOL and max(differences) < 1e-8
        if comm.rank == 0:
            print(f"{n:>6} {s.size:>9} {counts['diagonal'][-1]:>12} {counts['upper'][-1]:>12} {counts['nested'][-1]:>7} "
                  f"{petsc_iterations:>13} "
                  f"{max(differences):>26.2e}" + (error_columns(errors) if args.manufactured else ""), flush=True)
    for kind in ("diagonal", "upper", "nested"):
        its = counts[kind]
        if len(its) >= 2 and its[-1] > its[-2] * 1.25 + 5:
            ok = False
            if comm.rank == 0:
                print(f"{kind}: iterations still grow: {its}")
    if args.manufactured and len(errors) >= 2:
        rate_u, rate_p = rates(errors)
        if rate_u < 2.7 or rate_p < 1.7:  # Taylor-Hood's: 3 and 2
            ok = False
            if comm.rank == 0:
                print(f"the errors fall slower than Taylor-Hood's rates (3, 2): {rate_u:.2f}, {rate_p:.2f}")
    if comm.rank == 0:
        print("agree with PETSc, in no more iterations, levelling off" if ok else "FAILED")
    return 0 if ok or not args.check else 1


if __name__ == "__main__":
    sys.exit(main())
