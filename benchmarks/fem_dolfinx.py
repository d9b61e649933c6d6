"""The finite-element yardstick: the problem dapetra-fem solves, solved by
DOLFINx as its documentation does it (Debian's python3-dolfinx, 0.5.2 to 0.11).

-div(grad u) = f on the unit square (cube) meshed n x n (x n) with P1
triangles (tetrahedra), u = prod sin(pi x_d) imposed on the whole boundary,
DOLFINx's own assembly, PETSc CG + GAMG to relative residual `tol` in the
unpreconditioned norm from a zero initial guess (as dapetra-fem's Belos and
PETSc solves). With --elasticity, dapetra-fem --elasticity's problem
instead (examples/fem/elastic_element.hpp): linear elasticity, E = 1,
nu = 0.3, vector P1 (block size dim), the displacement u = prod sin(pi x_d)
(1, -0.5, 0.75) clamped on the whole boundary, the body force -div sigma(u)
differentiated by UFL, and GAMG given the rigid-body modes as its
near-nullspace, as DOLFINx's demo_elasticity.py does. Writes the phases'
times (forms are compiled before timing), the iterations, the L2 error and
the peak resident memory of the largest process as JSON.

Phases, as dapetra-fem times them: set-up (boundary facets, their dofs, and
g interpolated at every node), assembly (matrix, vector, lifting, BCs:
DOLFINx's sparsity pattern is built here, as ours is), and with
--reassemble K the fastest of K re-assemblies of the matrix and vector into
the existing ones. For a node-by-node comparison it also reports the
number of cells and of Dirichlet nodes, ||A||_F and ||b||_2 after the first
assembly and after the last re-assembly, and with --nodal-values PREFIX
writes each process's owned nodes as float64 rows (x, y[, z], u[, u_y[, u_z]])
to PREFIX.<rank>, as dapetra-fem does. f is integrated with the quadrature degree dapetra-fem's
load rule has (4 in 2-D, 3 in 3-D; examples/fem/element.hpp), given as form
metadata, so both sides do the same work.

    mpirun -n 2 /usr/bin/python3 benchmarks/fem_dolfinx.py --n 1000 [--3d] [--elasticity] [--reassemble 3] --json out.json
"""
import argparse
import json
import resource
import time

import numpy as np
import ufl
from dolfinx import fem, mesh
from dolfinx.fem.petsc import apply_lifting, assemble_matrix, assemble_vector, set_bc
from mpi4py import MPI
from petsc4py import PETSc

from dolfinx_compat import lagrange_space, petsc_vector, vector_lagrange_space


def finish_vector(b, a, bc):
    """Lifting, the sum of shared entries on their owners, and the BC values."""
    apply_lifting(b, [a], bcs=[[bc]])
    b.ghostUpdate(addv=PETSc.InsertMode.ADD, mode=PETSc.ScatterMode.REVERSE)
    set_bc(b, [bc])


def norms(A, b):
    """||A||_F and ||b||_2, to compare with dapetra-fem's. Collective."""
    return [A.norm(PETSc.NormType.FROBENIUS), b.norm()]


# dapetra-fem's material and manufactured displacement (elastic_element.hpp).
YOUNG, POISSON = 1.0, 0.3
AMPLITUDES = (1.0, -0.5, 0.75)


def scalar_problem(msh, dim, load_metadata):
    """The Poisson problem: space, forms, and the exact solution (UFL and callable)."""
    V = lagrange_space(msh)
    x = ufl.SpatialCoordinate(msh)
    u_exact = 1
    for d in range(dim):
        u_exact = u_exact * ufl.sin(ufl.pi * x[d])
    u, v = ufl.TrialFunction(V), ufl.TestFunction(V)
    a = ufl.inner(ufl.grad(u), ufl.grad(v)) * ufl.dx
    L = dim * ufl.pi**2 * u_exact * v * ufl.dx(metadata=load_metadata)

    def exact(points):
        return np.prod(np.sin(np.pi * points[:dim]), axis=0)

    return V, a, L, u_exact, exact


def elastic_problem(msh, dim, load_metadata):
    """Linear elasticity: vector space, forms, and the exact displacement."""
    V = vector_lagrange_space(msh, dim)
    lam = YOUNG * POISSON / ((1 + POISSON) * (1 - 2 * POISSON))
    mu = YOUNG / (2 * (1 + POISSON))
    x = ufl.SpatialCoordinate(msh)
    s = 1
    for d in range(dim):
        s = s * ufl.sin(ufl.pi * x[d])
    u_exact = ufl.as_vector([AMPLITUDES[i] * s for i in range(dim)])

    def sigma(w):
        eps = ufl.sym(ufl.grad(w))
        return 2 * mu * eps + lam * ufl.tr(eps) * ufl.Identity(dim)

    u, v = ufl.TrialFunction(V), ufl.TestFunction(V)
    a = ufl.inner(sigma(u), ufl.grad(v)) * ufl.dx
    L = ufl.inner(-ufl.div(sigma(u_exact)), v) * ufl.dx(metadata=load_metadata)

    def exact(points):
        s_values = np.prod(np.sin(np.pi * points[:dim]), axis=0)
        return np.stack([AMPLITUDES[i] * s_values for i in range(dim)])

    return V, a, L, u_exact, exact


def rigid_body_modes(A, V, dim):
    """The rigid-body modes on the owned nodes, orthonormalised (modified
    Gram-Schmidt), as PETSc's near-nullspace: demo_elasticity.py's modes,
    built from the owned nodes' coordinates (node i, component c at i * dim + c)."""
    owned = V.dofmap.index_map.size_local
    x = V.tabulate_dof_coordinates()[:owned]
    columns = [np.zeros((owned, dim)) for _ in range(3 if dim == 2 else 6)]
    for c in range(dim):
        columns[c][:, c] = 1.0
    if dim == 2:
        columns[2][:, 0], columns[2][:, 1] = -x[:, 1], x[:, 0]
    else:
        columns[3][:, 1], columns[3][:, 2] = -x[:, 2], x[:, 1]
        columns[4][:, 0], columns[4][:, 2] = x[:, 2], -x[:, 0]
        columns[5][:, 0], columns[5][:, 1] = -x[:, 1], x[:, 0]
    modes = []
    for column in columns:
        v = A.createVecLeft()
        v.setArray(column.reshape(-1))
        for w in modes:
            v.axpy(-v.dot(w), w)
        v.normalize()
        modes.append(v)
    return PETSc.NullSpace().create(vectors=modes)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--3d", dest="cube", action="store_true")
    parser.add_argument("--elasticity", action="store_true")
    parser.add_argument("--tol", type=float, default=1e-10)
    parser.add_argument("--reassemble", type=int, default=0)
    parser.add_argument("--json", required=True)
    parser.add_argument("--nodal-values", help="write each process's owned (coordinates, u) to this prefix + .<rank>")
    args = parser.parse_args()
    comm = MPI.COMM_WORLD
    dim = 3 if args.cube else 2

    comm.Barrier()
    t0 = time.perf_counter()
    if args.cube:
        msh = mesh.create_unit_cube(comm, args.n, args.n, args.n, mesh.CellType.tetrahedron)
    else:
        msh = mesh.create_unit_square(comm, args.n, args.n, mesh.CellType.triangle)
    load_metadata = {"quadrature_degree": {2: 4, 3: 3}[dim]}  # dapetra-fem's load_quadrature_degree
    V, a_ufl, L_ufl, u_exact, exact = (elastic_problem if args.elasticity else scalar_problem)(msh, dim, load_metadata)
    comm.Barrier()
    mesh_s = time.perf_counter() - t0  # includes DOLFINx's graph partitioning and its dof map

    a, L = fem.form(a_ufl), fem.form(L_ufl)
    uh = fem.Function(V)
    error_form = fem.form(ufl.inner(uh - u_exact, uh - u_exact) * ufl.dx)

    comm.Barrier()
    t0 = time.perf_counter()
    fdim = msh.topology.dim - 1
    msh.topology.create_connectivity(fdim, msh.topology.dim)
    facets = mesh.exterior_facet_indices(msh.topology)
    g = fem.Function(V)
    g.interpolate(exact)
    bc_dofs = fem.locate_dofs_topological(V, fdim, facets)
    bc = fem.dirichletbc(g, bc_dofs)
    comm.Barrier()
    setup_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    A = assemble_matrix(a, bcs=[bc])
    A.assemble()
    b = assemble_vector(L)
    finish_vector(b, a, bc)
    comm.Barrier()
    assembly_s = time.perf_counter() - t0
    assembled_norms = reassembled_norms = norms(A, b)

    # Into the existing matrix and vector, as a time step or Newton iteration does.
    reassembly_s = []
    for _ in range(args.reassemble):
        comm.Barrier()
        t0 = time.perf_counter()
        A.zeroEntries()
        assemble_matrix(A, a, bcs=[bc])
        A.assemble()
        with b.localForm() as local:
            local.set(0.0)
        assemble_vector(b, L)
        finish_vector(b, a, bc)
        comm.Barrier()
        reassembly_s.append(time.perf_counter() - t0)
    if reassembly_s:
        reassembled_norms = norms(A, b)

    t0 = time.perf_counter()
    ksp = PETSc.KSP().create(comm)
    if args.elasticity:
        A.setNearNullSpace(rigid_body_modes(A, V, dim))
    ksp.setOperators(A)
    ksp.setType("cg")
    ksp.getPC().setType("gamg")
    ksp.setNormType(PETSc.KSP.NormType.UNPRECONDITIONED)
    ksp.setTolerances(rtol=args.tol, atol=1e-300, max_it=5000)
    ksp.solve(b, petsc_vector(uh))
    uh.x.scatter_forward()
    comm.Barrier()
    solve_s = time.perf_counter() - t0

    r = b.duplicate()
    A.mult(petsc_vector(uh), r)
    r.aypx(-1.0, b)
    # Every collective before the rank-0 block (norms included).
    residual = r.norm() / b.norm()
    l2 = np.sqrt(comm.allreduce(fem.assemble_scalar(error_form), op=MPI.SUM))
    owned = V.dofmap.index_map.size_local
    dirichlet = comm.allreduce(int(np.count_nonzero(np.asarray(bc_dofs) < owned)), op=MPI.SUM)
    cells = msh.topology.index_map(msh.topology.dim).size_global
    if args.nodal_values:
        components = dim if args.elasticity else 1
        values = uh.x.array[:owned * components].reshape(owned, components)
        rows = np.column_stack([V.tabulate_dof_coordinates()[:owned, :dim], values])
        np.ascontiguousarray(rows, dtype=np.float64).tofile(f"{args.nodal_values}.{comm.rank}")
    peak = comm.allreduce(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0, op=MPI.MAX)
    if comm.rank == 0:
        with open(args.json, "w") as out:
            json.dump({"nodes": V.dofmap.index_map.size_global, "cells": cells, "dirichlet_nodes": dirichlet,
                       "assembled_norms": assembled_norms, "reassembled_norms": reassembled_norms, "dim": dim,
                       "components": dim if args.elasticity else 1, "processes": comm.size, "mesh_s": mesh_s,
                       "setup_s": setup_s, "assembly_s": assembly_s,
                       "reassembly_s": min(reassembly_s) if reassembly_s else 0.0, "solve_s": solve_s, "iterations": ksp.getIterationNumber(),
                       "relative_residual": residual, "l2_error": float(l2), "peak_rss_mb": peak}, out)


if __name__ == "__main__":
    main()
