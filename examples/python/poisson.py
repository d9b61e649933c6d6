"""The finite-element pipeline in Python: -lap u = 2 pi^2 sin(pi x) sin(pi y)
on the unit square, u = sin(pi x) sin(pi y) on the boundary, P1 triangles.

Every process reads (or makes) the whole small mesh, keeps its part of the
cells, assembles them with vectorised NumPy, sums the shared nodes' load with
a dapetra.HaloPlan, solves with Belos CG and an Ifpack2 preconditioner
through dapetra.solve, refreshes the ghost copies, and reports the L2 and H1
errors the C++ pipeline (examples/fem, dapetra-fem) reports for the same mesh.

    mpirun -n 4 python3 examples/python/poisson.py [--n N | --mesh FILE] [--write-mesh FILE] [--petsc]

With --petsc, PETSc (petsc4py) solves the same system too, with KSP CG and
GAMG, on the same arrays: ghosted PETSc Vecs over the DAP buffers, no copy.
Both solvers' iterations, times and errors are printed side by side.

The mesh file format is dapetra-fem's: "nodes N", N lines "x y boundary",
"triangles M", M lines "a b c".
"""
import argparse
import sys

import numpy as np
from mpi4py import MPI

import dapetra

# Dunavant's 6-point rule (degree 4): barycentric (l1, l2) and weights summing to 1.
QUADRATURE = np.array([[0.445948490915965, 0.445948490915965, 0.223381589678011],
                       [0.108103018168070, 0.445948490915965, 0.223381589678011],
                       [0.445948490915965, 0.108103018168070, 0.223381589678011],
                       [0.091576213509771, 0.091576213509771, 0.109951743655322],
                       [0.816847572980459, 0.091576213509771, 0.109951743655322],
                       [0.091576213509771, 0.816847572980459, 0.109951743655322]])


def exact(x, y):
    return np.sin(np.pi * x) * np.sin(np.pi * y)


def exact_gradient(x, y):
    return np.stack([np.pi * np.cos(np.pi * x) * np.sin(np.pi * y), np.pi * np.sin(np.pi * x) * np.cos(np.pi * y)], -1)


def source(x, y):
    return 2.0 * np.pi ** 2 * exact(x, y)


def unit_square(n):
    """n x n squares, each cut into two triangles along alternating diagonals."""
    i, j = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    x = np.stack([i.ravel() / n, j.ravel() / n], -1)
    boundary = ((i == 0) | (i == n) | (j == 0) | (j == n)).ravel()
    node = lambda a, b: a * (n + 1) + b
    cells = []
    for a in range(n):
        for b in range(n):
            p, q, r, s = node(a, b), node(a + 1, b), node(a + 1, b + 1), node(a, b + 1)
            cells += [(p, q, r), (p, r, s)] if (a + b) % 2 == 0 else [(p, q, s), (q, r, s)]
    return x, np.array(cells, dtype=np.int64), boundary


def read_mesh(path):
    with open(path) as f:
        words = f.read().split()
    assert words[0] == "nodes", "expected 'nodes N'"
    n = int(words[1])
    nodes = np.array(words[2:2 + 3 * n], dtype=float).reshape(n, 3)
    at = 2 + 3 * n
    assert words[at] == "triangles", "expected 'triangles M'"
    m = int(words[at + 1])
    cells = np.array(words[at + 2:at + 2 + 3 * m], dtype=np.int64).reshape(m, 3)
    return nodes[:, :2], cells, nodes[:, 2] != 0


def write_mesh(path, x, cells, boundary):
    with open(path, "w") as f:
        f.write(f"nodes {len(x)}\n")
        for (a, b), on in zip(x, boundary):
            f.write(f"{float(a)!r} {float(b)!r} {int(on)}\n")  # repr: exact round trip
        f.write(f"triangles {len(cells)}\n")
        for c in cells:
            f.write(f"{c[0]} {c[1]} {c[2]}\n")


def partition(x, cells, parts):
    """Recursive coordinate bisection of the cell centroids (the same rule on
    every process): the longer extent is cut at the weighted median."""
    centroid = x[cells].mean(axis=1)
    part = np.zeros(len(cells), dtype=int)

    def split(ids, first, count):
        if count == 1:
            part[ids] = first
            return
        c = centroid[ids]
        axis = int(np.argmax(c.max(axis=0) - c.min(axis=0))) if len(ids) else 0
        ids = ids[np.argsort(c[:, axis], kind="stable")] if len(ids) else ids
        left = count // 2
        cut = len(ids) * left // count
        split(ids[:cut], first, left)
        split(ids[cut:], first + left, count - left)

    split(np.arange(len(cells)), 0, parts)
    return part


def element_geometry(x, cells):
    """Areas and hat-function gradients (cells x 3 x 2) of every cell."""
    p = x[cells]
    jac = np.stack([p[:, 1] - p[:, 0], p[:, 2] - p[:, 0]], axis=-1)  # columns: edge vectors
    area = 0.5 * np.abs(np.linalg.det(jac))
    inv_t = np.linalg.inv(jac).transpose(0, 2, 1)
    ref = np.array([[-1.0, -1.0], [1.0, 0.0], [0.0, 1.0]])
    grads = np.einsum("cij,kj->cki", inv_t, ref)
    return area, grads


def quadrature_points(x, cells):
    p = x[cells]
    l1, l2, w = QUADRATURE.T
    hats = np.stack([1 - l1 - l2, l1, l2], -1)  # points x 3
    points = np.einsum("qk,ckd->cqd", hats, p)
    return points, hats, w


def mesh_arguments(parser):
    """The mesh options both examples take (--n, --mesh, --write-mesh, --tol)."""
    parser.add_argument("--n", type=int, default=32, help="squares per side of the unit square")
    parser.add_argument("--mesh", help="read this mesh file instead")
    parser.add_argument("--write-mesh", help="write the mesh used to this file (rank 0)")
    parser.add_argument("--tol", type=float, default=1e-10)


def distributed_mesh(args, comm):
    """The whole mesh (every process reads or makes it), renumbered so that
    each process owns a consecutive range of nodes in rank order (what
    PETSc's vectors need; Tpetra does not mind either way), and this
    process's part: x, cells, boundary, its cells `mine`, its nodes (owned,
    by the lowest part touching them, Dapetra's default rule, first; then
    ghost copies), how many it owns, and each node's place in `nodes`."""
    P, rank = comm.size, comm.rank
    x, cells, boundary = read_mesh(args.mesh) if args.mesh else unit_square(args.n)
    if args.write_mesh and rank == 0:
        write_mesh(args.write_mesh, x, cells, boundary)
    part = partition(x, cells, P)
    owner = np.full(len(x), P)
    np.minimum.at(owner, cells.ravel(), np.repeat(part, 3))
    order = np.lexsort((np.arange(len(x)), owner))
    new = np.empty_like(order)
    new[order] = np.arange(len(x))
    x, boundary, owner, cells = x[order], boundary[order], owner[order], new[cells]
    mine = cells[part == rank]
    held = np.unique(mine)
    nodes = np.concatenate([held[owner[held] == rank], held[owner[held] != rank]])
    n_owned = int(np.count_nonzero(owner[held] == rank))
    local = np.full(len(x), -1)
    local[nodes] = np.arange(len(nodes))
    return x, cells, boundary, mine, nodes, n_owned, local


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mesh_arguments(parser)
    parser.add_argument("--petsc", action="store_true", help="solve with PETSc (petsc4py) too, on the same arrays")
    args = parser.parse_args()
    comm = MPI.COMM_WORLD
    P, rank = comm.size, comm.rank
    x, cells, boundary, mine, nodes, n_owned, local = distributed_mesh(args, comm)

    def dap(values):
        return {"__version__": "0.10.0", "buffer": values, "dim_data": (
            {"dist_type": "u", "size": len(x), "proc_grid_size": P, "proc_grid_rank": rank,
             "indices": nodes, "one_to_one": False},)}

    u, f = dap(np.zeros(len(nodes))), dap(np.zeros(len(nodes)))
    plan = dapetra.HaloPlan(dapetra.Layout(u, comm))

    # Assembly, vectorised over this process's cells.
    t0 = MPI.Wtime()
    area, grads = element_geometry(x, mine)
    stiffness = area[:, None, None] * np.einsum("cid,cjd->cij", grads, grads)
    points, hats, w = quadrature_points(x, mine)
    load = np.einsum("c,q,cq,qk->ck", area, w, source(points[..., 0], points[..., 1]), hats)
    g = exact(x[:, 0], x[:, 1])
    rows = np.repeat(mine, 3, axis=1).reshape(-1, 3, 3)  # rows[c, a, b] = mine[c, a]
    cols = np.tile(mine, 3).reshape(-1, 3, 3)           # cols[c, a, b] = mine[c, b]
    free_row, free_col = ~boundary[rows], ~boundary[cols]
    # Dirichlet values move to the right-hand side; boundary rows become identity rows.
    rhs = load - np.einsum("cab,cab->ca", stiffness * (free_row & ~free_col), g[cols])
    keep = free_row & free_col
    owned_boundary = nodes[:n_owned][boundary[nodes[:n_owned]]]
    A = dapetra.CrsMatrix(u, np.concatenate([rows[keep], owned_boundary]),
                          np.concatenate([cols[keep], owned_boundary]),
                          np.concatenate([stiffness[keep], np.ones(len(owned_boundary))]), comm)
    interior = ~boundary[mine]
    np.add.at(f["buffer"], local[mine[interior]], rhs[interior])
    plan.assemble(f)  # every shared node's load summed on its owner
    owned = f["buffer"][:n_owned]
    owned[boundary[nodes[:n_owned]]] = g[owned_boundary]
    t_assembly = MPI.Wtime() - t0

    t0 = MPI.Wtime()
    iterations, residual = dapetra.solve(A, f, u, method="cg", preconditioner="RELAXATION", tolerance=args.tol)
    t_solve = MPI.Wtime() - t0
    plan.update(u)  # ghost copies now hold their owners' values
    report(comm, "Belos CG + Ifpack2 relaxation", len(x), len(cells), t_assembly, t_solve, iterations, residual,
           *errors(comm, x, mine, u["buffer"][local[mine]], area, grads, points, hats, w))
    if args.petsc:
        u_petsc = dap(np.zeros(len(nodes)))
        iterations, residual, t_solve = petsc_solve(comm, nodes, n_owned, len(x), rows[keep], cols[keep],
                                                     stiffness[keep], owned_boundary, f, u_petsc, args.tol)
        plan.update(u_petsc)
        report(comm, "PETSc KSP CG + GAMG", len(x), len(cells), t_assembly, t_solve, iterations, residual,
               *errors(comm, x, mine, u_petsc["buffer"][local[mine]], area, grads, points, hats, w))
        difference = comm.allreduce(float(np.max(np.abs(u_petsc["buffer"] - u["buffer"]), initial=0.0)), op=MPI.MAX)
        if rank == 0:
            print(f"largest difference between the two solutions: {difference:.2e}")
    return True


def report(comm, solver, n_nodes, n_cells, t_assembly, t_solve, iterations, residual, l2, h1):
    if comm.rank == 0:
        print(f"== {solver}")
        print(f"mesh: {n_nodes} nodes, {n_cells} triangles, {comm.size} processes")
        print(f"assembly {t_assembly:.3f} s, solve {t_solve:.3f} s: {iterations} iterations, "
              f"relative residual {residual:.2e}")
        print(f"L2 error: {l2:.6e}")
        print(f"H1 error: {h1:.6e}")


def petsc_solve(comm, nodes, n_owned, n_global, rows, cols, values, owned_boundary, f, u, tol):
    """The same system through petsc4py on the same memory: ghosted Vecs over
    f's and u's DAP buffers (owned nodes first, then ghosts, as PETSc keeps
    them), the matrix from the same triplets. Returns iterations, the
    relative residual and the solve time; u's owned part holds the solution."""
    from petsc4py import PETSc

    ghosts = nodes[n_owned:].astype(PETSc.IntType)
    b = PETSc.Vec().createGhostWithArray(ghosts, f["buffer"], size=(n_owned, n_global), comm=comm)
    x = PETSc.Vec().createGhostWithArray(ghosts, u["buffer"], size=(n_owned, n_global), comm=comm)
    # P1 triangles: about 7 entries per row (more near irregular vertices, so no error on overflow).
    A = PETSc.Mat().createAIJ(size=((n_owned, n_global), (n_owned, n_global)), nnz=(9, 9), comm=comm)
    A.setOption(PETSc.Mat.Option.NEW_NONZERO_ALLOCATION_ERR, False)
    for r, c, v in zip(rows.tolist(), cols.tolist(), values.tolist()):
        A.setValue(r, c, v, addv=PETSc.InsertMode.ADD_VALUES)
    for g in owned_boundary.tolist():
        A.setValue(g, g, 1.0, addv=PETSc.InsertMode.ADD_VALUES)
    A.assemble()
    ksp = PETSc.KSP().create(comm=comm)
    ksp.setOperators(A)
    ksp.setType("cg")
    ksp.getPC().setType("gamg")
    ksp.setTolerances(rtol=tol, atol=0.0, max_it=1000)
    t0 = MPI.Wtime()
    ksp.solve(b, x)
    t_solve = MPI.Wtime() - t0
    r = b.duplicate()
    A.mult(x, r)
    r.aypx(-1.0, b)  # r = b - A x
    residual = r.norm() / b.norm()
    iterations = ksp.getIterationNumber()
    for obj in (ksp, A, r, x, b):  # the Vecs only borrowed the DAP buffers
        obj.destroy()
    return iterations, residual, t_solve


def errors(comm, x, mine, uh, area, grads, points, hats, w):
    """L2 and H1-seminorm errors over this process's cells, summed over all."""
    values = np.einsum("qk,ck->cq", hats, uh)
    grad_h = np.einsum("ckd,ck->cd", grads, uh)
    px, py = points[..., 0], points[..., 1]
    l2 = np.einsum("c,q,cq->", area, w, (values - exact(px, py)) ** 2)
    h1 = np.einsum("c,q,cq->", area, w, ((grad_h[:, None, :] - exact_gradient(px, py)) ** 2).sum(-1))
    return np.sqrt(comm.allreduce(np.array([l2, h1]), op=MPI.SUM))


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
