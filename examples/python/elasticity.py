"""Linear elasticity in Python: the vector-valued twin of poisson.py, the
problem dapetra-fem --elasticity solves (examples/fem/elasticity.hpp) on the
unit square: E = 1, nu = 0.3, P1 triangles, the displacement
u = sin(pi x) sin(pi y) (1, -0.5) clamped on the boundary, its body force.

The displacement and the load are DAP arrays of nodes x components ('u'
nodes, the components undistributed): Tpetra sees each as one vector over
the interleaved unknowns (node * 2 + component), with no copy. Every process
assembles its cells with vectorised NumPy (the element matrices are 6 x 6),
the loads of shared nodes are summed on their owners by a dapetra.HaloPlan,
and dapetra.solve runs Belos CG with MueLu, given the owned nodes'
coordinates to build the rigid-body modes. It reports the L2 and H1 errors
dapetra-fem --elasticity reports for the same mesh.

    mpirun -n 4 python3 examples/python/elasticity.py [--n N | --mesh FILE] [--write-mesh FILE]
"""
import argparse
import sys

import numpy as np
from mpi4py import MPI

import dapetra
from poisson import distributed_mesh, element_geometry, mesh_arguments, quadrature_points

YOUNG, POISSON = 1.0, 0.3
LAMBDA = YOUNG * POISSON / ((1 + POISSON) * (1 - 2 * POISSON))
MU = YOUNG / (2 * (1 + POISSON))
AMPLITUDE = np.array([1.0, -0.5])  # per component, as dapetra-fem's


def exact(x, y):
    """The displacement at (x, y): (..., 2)."""
    return (np.sin(np.pi * x) * np.sin(np.pi * y))[..., None] * AMPLITUDE


def exact_gradient(x, y):
    """(grad u)_{ij} = a_i ds/dx_j: (..., 2, 2)."""
    ds = np.stack([np.pi * np.cos(np.pi * x) * np.sin(np.pi * y), np.pi * np.sin(np.pi * x) * np.cos(np.pi * y)], -1)
    return AMPLITUDE[:, None] * ds[..., None, :]


def body_force(x, y):
    """f = -div sigma(u) = mu 2 pi^2 s a - (lambda + mu) H(s) a, H the Hessian of s."""
    s = np.sin(np.pi * x) * np.sin(np.pi * y)
    mixed = np.pi ** 2 * np.cos(np.pi * x) * np.cos(np.pi * y)
    hessian_a = np.stack([-np.pi ** 2 * s * AMPLITUDE[0] + mixed * AMPLITUDE[1],
                          mixed * AMPLITUDE[0] - np.pi ** 2 * s * AMPLITUDE[1]], -1)
    return MU * 2 * np.pi ** 2 * s[..., None] * AMPLITUDE - (LAMBDA + MU) * hessian_a


def stiffness(area, grads):
    """K[c, (a, i), (b, j)] = |c| (lambda g_a(i) g_b(j) + mu g_a(j) g_b(i) + mu delta_ij g_a . g_b): cells x 6 x 6."""
    k = (LAMBDA * np.einsum("cai,cbj->caibj", grads, grads) + MU * np.einsum("caj,cbi->caibj", grads, grads)
         + MU * np.einsum("cad,cbd,ij->caibj", grads, grads, np.eye(2)))
    return area[:, None, None] * k.reshape(-1, 6, 6)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mesh_arguments(parser)
    args = parser.parse_args()
    comm = MPI.COMM_WORLD
    P, rank = comm.size, comm.rank
    x, cells, boundary, mine, nodes, n_owned, local = distributed_mesh(args, comm)

    def dap(values):  # nodes x components: the second axis undistributed ({} in the protocol)
        return {"__version__": "0.10.0", "buffer": values, "dim_data": (
            {"dist_type": "u", "size": len(x), "proc_grid_size": P, "proc_grid_rank": rank,
             "indices": nodes, "one_to_one": False}, {})}

    u, f = dap(np.zeros((len(nodes), 2))), dap(np.zeros((len(nodes), 2)))
    plan = dapetra.HaloPlan(dapetra.Layout(u, comm))

    t0 = MPI.Wtime()
    area, grads = element_geometry(x, mine)
    k = stiffness(area, grads)
    points, hats, w = quadrature_points(x, mine)
    load = np.einsum("c,q,cqi,qa->cai", area, w, body_force(points[..., 0], points[..., 1]), hats).reshape(-1, 6)
    unknowns = (2 * mine[:, :, None] + np.arange(2)).reshape(-1, 6)  # each cell's unknowns, interleaved
    fixed = np.repeat(boundary, 2)
    g = exact(x[:, 0], x[:, 1]).reshape(-1)
    rows = np.repeat(unknowns, 6, axis=1).reshape(-1, 6, 6)
    cols = np.tile(unknowns, 6).reshape(-1, 6, 6)
    free_row, free_col = ~fixed[rows], ~fixed[cols]
    rhs = load - np.einsum("cab,cab->ca", k * (free_row & ~free_col), g[cols])  # the clamped values, lifted
    keep = free_row & free_col
    owned_unknowns = (2 * nodes[:n_owned, None] + np.arange(2)).reshape(-1)  # in the buffer's order
    owned_fixed = owned_unknowns[fixed[owned_unknowns]]
    A = dapetra.CrsMatrix(u, np.concatenate([rows[keep], owned_fixed]), np.concatenate([cols[keep], owned_fixed]),
                          np.concatenate([k[keep], np.ones(len(owned_fixed))]), comm)
    free = ~fixed[unknowns]
    flat = f["buffer"].reshape(-1)  # the same memory, unknown after unknown
    np.add.at(flat, (2 * local[unknowns // 2] + unknowns % 2)[free], rhs[free])
    plan.assemble(f)  # every shared node's load summed on its owner
    flat[:2 * n_owned][fixed[owned_unknowns]] = g[owned_fixed]  # clamped rows: the prescribed values
    t_assembly = MPI.Wtime() - t0

    t0 = MPI.Wtime()
    iterations, residual = dapetra.solve(A, f, u, method="cg", preconditioner="MueLu", tolerance=args.tol,
                                         coordinates=np.ascontiguousarray(x[nodes[:n_owned]]))
    t_solve = MPI.Wtime() - t0
    plan.update(u)  # ghost copies now hold their owners' displacements
    uh = u["buffer"][local[mine]]  # cells x 3 corners x 2 components
    values = np.einsum("qa,cai->cqi", hats, uh)
    grad_h = np.einsum("caj,cai->cij", grads, uh)
    px, py = points[..., 0], points[..., 1]
    l2 = np.einsum("c,q,cq->", area, w, ((values - exact(px, py)) ** 2).sum(-1))
    h1 = np.einsum("c,q,cq->", area, w, ((grad_h[:, None] - exact_gradient(px, py)) ** 2).sum((-1, -2)))
    l2, h1 = np.sqrt(comm.allreduce(np.array([l2, h1]), op=MPI.SUM))
    if rank == 0:
        print("== Belos CG + MueLu, rigid-body modes from the coordinates")
        print(f"mesh: {len(x)} nodes, {len(cells)} triangles, {2 * len(x)} unknowns, {P} processes")
        print(f"assembly {t_assembly:.3f} s, solve {t_solve:.3f} s: {iterations} iterations, relative residual {residual:.2e}")
        print(f"L2 error: {l2:.6e}")
        print(f"H1 error: {h1:.6e}")
    return residual <= 10 * args.tol


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
