# A matrix from COO triplets and a Belos solve from Python, against an exact
# answer: linear finite elements for -u'' = 1 on (0, 1), u(0) = u(1) = 0, are
# exact at the nodes (u = x (1 - x) / 2), whatever the partition.
import numpy as np
import pytest

import dapetra
from conftest import array, block

pytestmark = pytest.mark.skipif(not hasattr(dapetra, "solve"), reason="built without Belos and Ifpack2")


def poisson_1d(comm, n_nodes):
    """Each process assembles the elements whose left node it owns: the
    element matrix of element (i, i+1) adds to row i + 1, which the next
    process may own, so the matrix gathers triplets across processes."""
    P, r = comm.size, comm.rank
    rec = block(n_nodes, P, r)
    h = 1.0 / (n_nodes - 1)
    rows, cols, vals = [], [], []
    f = np.zeros(rec["stop"] - rec["start"])
    for i in range(rec["start"], rec["stop"]):
        if i == n_nodes - 1:
            continue
        for a, b, k in ((i, i, 1), (i, i + 1, -1), (i + 1, i, -1), (i + 1, i + 1, 1)):
            if a in (0, n_nodes - 1):
                continue  # Dirichlet rows: identity below
            if b in (0, n_nodes - 1):
                continue  # the boundary value is 0: nothing moves to the right-hand side
            rows.append(a), cols.append(b), vals.append(k / h)
    for i in range(rec["start"], rec["stop"]):
        if i in (0, n_nodes - 1):
            rows.append(i), cols.append(i), vals.append(1.0)
        else:
            f[i - rec["start"]] = h  # the load of both neighbouring elements, exactly
    return rec, np.array(rows), np.array(cols), np.array(vals), f


@pytest.mark.parametrize("method,prec", [("cg", "RELAXATION"), ("cg", "none"), ("gmres", "ILUT")])
def test_a_poisson_solve_is_exact_at_the_nodes(comm, method, prec):
    n = 41
    rec, rows, cols, vals, f = poisson_1d(comm, n)
    b, x = array([rec]), array([rec])
    b["buffer"][:] = f
    A = dapetra.CrsMatrix(b, rows, cols, vals, comm)
    assert A.global_rows == n
    iterations, residual = dapetra.solve(A, b, x, method=method, preconditioner=prec, tolerance=1e-12)
    assert residual < 1e-10
    assert 0 < iterations <= n
    nodes = np.arange(rec["start"], rec["stop"]) / (n - 1)
    np.testing.assert_allclose(x["buffer"], nodes * (1 - nodes) / 2, atol=1e-10)


def test_apply_matches_the_triplets(comm):
    n = 17
    rec, rows, cols, vals, _ = poisson_1d(comm, n)
    x, y = array([rec]), array([rec])
    x["buffer"][:] = np.arange(rec["start"], rec["stop"], dtype=float) ** 2
    dapetra.CrsMatrix(x, rows, cols, vals, comm).apply(x, y)
    # The same product computed here from every process's triplets.
    all_rows = np.concatenate(comm.allgather(rows))
    all_cols = np.concatenate(comm.allgather(cols))
    all_vals = np.concatenate(comm.allgather(vals))
    full = np.zeros(n)
    np.add.at(full, all_rows, all_vals * np.arange(n, dtype=float)[all_cols] ** 2)
    np.testing.assert_allclose(y["buffer"], full[rec["start"]:rec["stop"]], rtol=1e-13, atol=1e-9)
