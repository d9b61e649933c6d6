"""The finite-element yardstick: the problem dapetra-fem solves, solved by
DOLFINx as its documentation does it (Debian's python3-dolfinx, 0.5.2 to 0.11).

-div(grad u) = f on the unit square (cube) meshed n x n (x n) with P1
triangles (tetrahedra), u = prod sin(pi x_d) imposed on the whole boundary,
DOLFINx's own assembly, PETSc CG + GAMG to relative residual `tol` in the
unpreconditioned norm from a zero initial guess (as dapetra-fem's Belos and
PETSc solves). Writes the phases' times (forms are compiled before timing),
the iterations, the L2 error and the peak resident memory of the largest
process as JSON.

Phases, as dapetra-fem times them: set-up (boundary facets, their dofs, and
g interpolated at every node), assembly (matrix, vector, lifting, BCs:
DOLFINx's sparsity pattern is built here, as ours is), and with
--reassemble K the fastest of K re-assemblies of the matrix and vector into
the existing ones. For a node-by-node comparison it also reports the
number of cells and of Dirichlet nodes, ||A||_F and ||b||_2 after the first
assembly and after the last re-assembly, and with --nodal-values PREFIX
writes each process's owned nodes as float64 rows (x, y[, z], u) to
PREFIX.<rank>, as dapetra-fem does. f is integrated with the quadrature degree dapetra-fem's
load rule has (4 in 2-D, 3 in 3-D; examples/fem/element.hpp), given as form
metadata, so both sides do the same work.

    mpirun -n 2 /usr/bin/python3 benchmarks/fem_dolfinx.py --n 1000 [--3d] [--reassemble 3] --json out.json
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

from dolfinx_compat import lagrange_space, petsc_vector


def finish_vector(b, a, bc):
    """Lifting, the sum of shared entries on their owners, and the BC values."""
    apply_lifting(b, [a], bcs=[[bc]])
    b.ghostUpdate(addv=PETSc.InsertMode.ADD, mode=PETSc.ScatterMode.REVERSE)
    set_bc(b, [bc])


def norms(A, b):
    """||A||_F and ||b||_2, to compare with dapetra-fem's. Collective."""
    return [A.norm(PETSc.NormType.FROBENIUS), b.norm()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--3d", dest="cube", action="store_true")
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
    V = lagrange_space(msh)
    comm.Barrier()
    mesh_s = time.perf_counter() - t0  # includes DOLFINx's graph partitioning and its dof map

    x = ufl.SpatialCoordinate(msh)
    u_exact = 1
    for d in range(dim):
        u_exact = u_exact * ufl.sin(ufl.pi * x[d])
    u, v = ufl.TrialFunction(V), ufl.TestFunction(V)
    a = fem.form(ufl.inner(ufl.grad(u), ufl.grad(v)) * ufl.dx)
    load_degree = {2: 4, 3: 3}[dim]  # dapetra-fem's load_quadrature_degree
    L = fem.form(dim * ufl.pi**2 * u_exact * v * ufl.dx(metadata={"quadrature_degree": load_degree}))
    uh = fem.Function(V)
    error_form = fem.form((uh - u_exact) ** 2 * ufl.dx)

    def exact(points):
        return np.prod(np.sin(np.pi * points[:dim]), axis=0)

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
        rows = np.column_stack([V.tabulate_dof_coordinates()[:owned, :dim], uh.x.array[:owned]])
        np.ascontiguousarray(rows, dtype=np.float64).tofile(f"{args.nodal_values}.{comm.rank}")
    peak = comm.allreduce(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0, op=MPI.MAX)
    if comm.rank == 0:
        with open(args.json, "w") as out:
            json.dump({"nodes": V.dofmap.index_map.size_global, "cells": cells, "dirichlet_nodes": dirichlet,
                       "assembled_norms": assembled_norms, "reassembled_norms": reassembled_norms, "dim": dim, "processes": comm.size, "mesh_s": mesh_s,
                       "setup_s": setup_s, "assembly_s": assembly_s,
                       "reassembly_s": min(reassembly_s) if reassembly_s else 0.0, "solve_s": solve_s, "iterations": ksp.getIterationNumber(),
                       "relative_residual": residual, "l2_error": float(l2), "peak_rss_mb": peak}, out)


if __name__ == "__main__":
    main()
