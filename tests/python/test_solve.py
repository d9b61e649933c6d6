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


# --- CSR in bulk, MueLu, parameters, several right-hand sides ---------------

def laplacian_rows(m, lo, hi, shuffle=False):
    """Rows lo..hi-1 of the 5-point Laplacian on an m x m grid in CSR form,
    global columns; with `shuffle`, each row's entries in a random order and
    the diagonal split into two entries that must be summed."""
    rng = np.random.default_rng(lo)
    indptr, indices, data = [0], [], []
    for r in range(lo, hi):
        i, j = divmod(r, m)
        row = [(r, 4.0)] + [(c, -1.0) for c, ok in ((r - m, i > 0), (r + m, i < m - 1), (r - 1, j > 0), (r + 1, j < m - 1)) if ok]
        if shuffle:
            row = [(r, 1.5), (r, 2.5)] + row[1:]
            row = [row[k] for k in rng.permutation(len(row))]
        indices += [c for c, _ in row]
        data += [v for _, v in row]
        indptr.append(len(indices))
    return np.array(indptr), np.array(indices), np.array(data)


def dense_laplacian(m):
    n = m * m
    full = np.zeros((n, n))
    indptr, indices, data = laplacian_rows(m, 0, n)
    for r in range(n):
        full[r, indices[indptr[r]:indptr[r + 1]]] = data[indptr[r]:indptr[r + 1]]
    return full


def test_a_csr_matrix_applies_as_its_rows(comm):
    m = 9
    n = m * m
    rec = block(n, comm.size, comm.rank)
    x, y = array([rec]), array([rec])
    x["buffer"][:] = np.arange(rec["start"], rec["stop"], dtype=float) % 7 - 3
    for shuffle in (False, True):
        A = dapetra.CrsMatrix.from_csr(x, *laplacian_rows(m, rec["start"], rec["stop"], shuffle), comm=comm)
        assert A.global_rows == n and A.global_entries == n + 4 * m * (m - 1)
        A.apply(x, y)
        want = dense_laplacian(m) @ (np.arange(n, dtype=float) % 7 - 3)
        np.testing.assert_array_equal(y["buffer"], want[rec["start"]:rec["stop"]])


def test_a_petsc_mat_becomes_the_same_matrix(comm):
    PETSc = pytest.importorskip("petsc4py.PETSc")
    m = 12
    a = PETSc.Mat().createAIJ([m * m, m * m], comm=comm)
    a.setUp()
    lo, hi = a.getOwnershipRange()
    indptr, indices, data = laplacian_rows(m, lo, hi)
    for r in range(lo, hi):
        a.setValues(r, indices[indptr[r - lo]:indptr[r - lo + 1]].astype(PETSc.IntType), data[indptr[r - lo]:indptr[r - lo + 1]])
    a.assemble()
    xp, yp = a.createVecs()
    xp.array[:] = np.arange(lo, hi) % 5 - 2.0
    a.mult(xp, yp)
    rec = block(m * m, 1, 0)
    rec.update(proc_grid_size=comm.size, proc_grid_rank=comm.rank, start=lo, stop=hi)
    x = {"__version__": "0.10.0", "buffer": xp.array, "dim_data": [rec]}  # PETSc's memory
    y = array([rec])
    A = dapetra.CrsMatrix.from_csr(x, *a.getValuesCSR(), first_row=lo, comm=comm)
    A.apply(x, y)
    np.testing.assert_array_equal(y["buffer"], yp.array)


def laplacian_system(comm, m, k=None):
    """A m x m Laplacian from CSR, b = 1 (k columns: column j is j + 1,
    (k, rows) in C order with column_axis 0), x = 0."""
    n = m * m
    rec = block(n, comm.size, comm.rank)
    if k is None:
        b, x = array([rec], fill=1.0), array([rec])
    else:
        cols = {"dist_type": "b", "size": k, "proc_grid_size": 1, "proc_grid_rank": 0, "start": 0, "stop": k}
        b, x = array([cols, rec]), array([cols, rec])
        b["buffer"][:] = np.arange(1, k + 1, dtype=float)[:, None]
    A = dapetra.CrsMatrix.from_csr(b if k is None else array([rec]), *laplacian_rows(m, rec["start"], rec["stop"]), comm=comm)
    return A, b, x, rec


@pytest.mark.skipif(not getattr(dapetra, "has_muelu", False), reason="built without MueLu")
def test_muelu_keeps_iterations_flat_as_the_grid_grows(comm):
    iterations = []
    for m in (30, 60, 120):
        A, b, x, rec = laplacian_system(comm, m)
        it, residual = dapetra.solve(A, b, x, preconditioner="MueLu", tolerance=1e-10)
        assert residual < 1e-9
        iterations.append(it)
        if m == 30:
            want = np.linalg.solve(dense_laplacian(m), np.ones(m * m))
            np.testing.assert_allclose(x["buffer"], want[rec["start"]:rec["stop"]], rtol=1e-7)
    print("MueLu iterations", iterations)
    assert max(iterations) <= 40 and iterations[-1] <= iterations[0] + 10, iterations
    A, b, x_sgs, _ = laplacian_system(comm, 120)
    sgs, _ = dapetra.solve(A, b, x_sgs, preconditioner="RELAXATION", tolerance=1e-10)
    assert iterations[-1] * 3 < sgs, (iterations, sgs)  # multigrid, not a smoother alone


@pytest.mark.skipif(not getattr(dapetra, "has_muelu", False), reason="built without MueLu")
def test_parameters_from_a_dict_and_from_xml_reach_muelu(comm, tmp_path_factory):
    A, b, x, _ = laplacian_system(comm, 40)
    two_levels = {"max levels": 2, "coarse: max size": 5000}
    levels = lambda *args: int(dapetra.describe_preconditioner(A, "MueLu", *args).rsplit(" ", 1)[1])
    # What MueLu built: with the overrides, the 1,600 unknowns fit the coarse
    # size, so one level (a direct solve); Dapetra's defaults coarsen.
    assert levels(two_levels) == 1 and levels() > 1
    path = comm.bcast(str(tmp_path_factory.mktemp("xml") / "muelu.xml") if comm.rank == 0 else None)
    if comm.rank == 0:
        with open(path, "w") as f:
            f.write('<ParameterList><Parameter name="max levels" type="int" value="2"/>'
                    '<Parameter name="coarse: max size" type="int" value="5000"/></ParameterList>')
    comm.Barrier()
    assert levels(path) == 1
    two_level, _ = dapetra.solve(A, b, x, preconditioner="MueLu", parameters=two_levels)
    A, b, x, _ = laplacian_system(comm, 40)
    from_xml, residual = dapetra.solve(A, b, x, preconditioner="MueLu", parameters=path)
    assert from_xml == two_level and residual < 1e-9  # the same hierarchy from either form
    # Ifpack2 reports its settings: the override, and Dapetra's default beside it.
    assert "sweeps: 3" in dapetra.describe_preconditioner(A, "RELAXATION", {"relaxation: sweeps": 3})
    assert "sweeps: 1" in dapetra.describe_preconditioner(A, "RELAXATION")


@pytest.mark.skipif(not getattr(dapetra, "has_muelu", False), reason="built without MueLu")
def test_another_coarse_solver_needs_no_parameters_of_its_own(comm):
    # Dapetra's coarse level is smoothed; naming Amesos2's KLU2 instead used
    # to hand KLU2 the smoother's parameters, which it refused.
    A, b, x, _ = laplacian_system(comm, 40)
    direct = {"coarse: type": "KLU2", "max levels": 2, "coarse: max size": 5000}
    assert dapetra.describe_preconditioner(A, "MueLu", direct).endswith("levels: 1")
    if comm.size == 1:  # the whole problem is the coarse level: one direct solve
        iterations, residual = dapetra.solve(A, b, x, preconditioner="MueLu", parameters=direct)
        assert iterations <= 2 and residual < 1e-9, (iterations, residual)


def test_several_right_hand_sides_are_solved_as_columns(comm):
    k = 3
    A, b, x, rec = laplacian_system(comm, 20, k)
    _, residual = dapetra.solve(A, b, x, preconditioner="RELAXATION", column_axis=0)
    assert residual < 1e-9
    one = np.linalg.solve(dense_laplacian(20), np.ones(400))[rec["start"]:rec["stop"]]
    for j in range(k):  # column j solves (j + 1) * ones
        np.testing.assert_allclose(x["buffer"][j], (j + 1) * one, rtol=1e-7)


class Unprintable:
    """No text: its repr() and str() raise, as a message about it is built."""
    def __repr__(self):
        raise RuntimeError("no text")

    __str__ = __repr__


def test_a_wrong_csr_on_one_process_raises_on_every_process(comm):
    m = 6
    rec = block(m * m, comm.size, comm.rank)
    x = array([rec])
    for bad in range(comm.size):
        for spoil, key in ((lambda p, i, d: (p, np.where(i == i.max(), m * m, i), d), "columns"),
                           (lambda p, i, d: (p, i, d[:-1]), "data"),
                           (lambda p, i, d: (p[:-1], i, d), "rows")):
            rows = laplacian_rows(m, rec["start"], rec["stop"])
            if comm.rank == bad:
                rows = spoil(*rows)
            with pytest.raises(dapetra.ValidationError) as e:
                dapetra.CrsMatrix.from_csr(x, *rows, comm=comm)
            assert e.value.problems[0]["rank"] == bad and e.value.problems[0]["key"] == key
        # Arguments that do not convert at all: raised on every process too,
        # not by pybind11 on the one process while the others wait.
        indptr, indices, data = laplacian_rows(m, rec["start"], rec["stop"])
        here = comm.rank == bad
        for call, key in ((lambda: dapetra.CrsMatrix.from_csr(x, indptr, None if here else indices, data, comm=comm),
                           "indices"),
                          (lambda: dapetra.CrsMatrix.from_csr(x, indptr, indices, data, first_row="0" if here else -1,
                                                              comm=comm), "first_row"),
                          (lambda: dapetra.CrsMatrix(x, indptr[:1], indptr[:1], ["one"] if here else [1.0], comm=comm),
                           "values"),
                          (lambda: dapetra.CrsMatrix.from_csr(x, indptr, Unprintable() if here else indices, data,
                                                              comm=comm), "indices")):
            with pytest.raises(dapetra.ValidationError) as e:
                call()
            assert e.value.problems[0]["rank"] == bad and e.value.problems[0]["key"] == key
    # Solve arguments wrong on one process, each in turn: every process raises, naming it.
    A, b, x, _ = laplacian_system(comm, m)
    for bad in range(comm.size):
        for params, key in (({"smoother: sweeps": object()}, "smoother: sweeps"),
                            ({"relaxation: sweeps": 2**40}, "relaxation: sweeps")):
            for call in (lambda: dapetra.solve(A, b, x, parameters=params if comm.rank == bad else None),
                         lambda: dapetra.describe_preconditioner(A, parameters=params if comm.rank == bad else None)):
                with pytest.raises(dapetra.ValidationError) as e:
                    call()
                assert [(p["rank"], p["key"]) for p in e.value.problems] == [(bad, key)], e.value.problems
    A, b, x, _ = laplacian_system(comm, m, 2)
    for bad in range(comm.size):
        here = comm.rank == bad
        with pytest.raises(dapetra.ValidationError) as e:
            dapetra.solve(A, b, x, column_axis="columns" if here else 0)
        assert [(p["rank"], p["key"], p["value"]) for p in e.value.problems] == [(bad, "column_axis", "'columns'")]
        if comm.size == 1:
            continue  # one process cannot disagree with itself
        for axis in (None, 1):  # a different axis, or none, on one process: the processes disagree
            with pytest.raises(dapetra.ValidationError) as e:
                dapetra.solve(A, b, x, column_axis=axis if here else 0)
            assert [(p["key"], p["rule"]) for p in e.value.problems] == [
                ("column_axis", "every process names the same column axis")], e.value.problems


@pytest.mark.skipif(not hasattr(dapetra, "solve_block"), reason="built without MueLu")
def test_a_block_solve_with_wrong_arguments_on_one_process_raises_on_every_process(comm):
    """solve_block's fields, kind and parameters, each wrong on one process in
    turn: every process raises, naming that process and the key."""
    A, b, x, rec = laplacian_system(comm, 6)
    owned = rec["stop"] - rec["start"]
    half = owned // 2
    for bad in range(comm.size):
        here = comm.rank == bad
        for kwargs, key in (({"fields": [half, owned] if here else [half, owned - half]}, "fields"),
                            ({"fields": [owned] if here else [half, owned - half]}, "fields"),
                            ({"fields": [np.arange(half), np.arange(half, owned) + (2**32 if here else 0)]},
                             "fields"),
                            ({"fields": [half, owned - half], "kind": "lower" if here else "diagonal"}, "kind"),
                            ({"fields": [half, owned - half],
                              "second_parameters": {"relaxation: sweeps": object()} if here else None},
                             "relaxation: sweeps")):
            with pytest.raises(dapetra.ValidationError) as e:
                dapetra.solve_block(A, A, b, x, **kwargs)
            assert (e.value.problems[0]["rank"], e.value.problems[0]["key"]) == (bad, key), e.value.problems


def coupling_rows(n_u, lo, hi):
    """Rows lo..hi-1 of B, a discrete divergence between two fields: row i
    is u_(2i) - u_(2i+1) + u_(2i+2)/2 (global columns of the first field,
    whose size is n_u), in CSR form. Full row rank while 2 (rows) < n_u."""
    indptr, indices, data = [0], [], []
    for i in range(lo, hi):
        row = [(2 * i, 1.0), (2 * i + 1, -1.0)] + ([(2 * i + 2, 0.5)] if 2 * i + 2 < n_u else [])
        indices += [c for c, _ in row]
        data += [v for _, v in row]
        indptr.append(len(indices))
    return np.array(indptr), np.array(indices), np.array(data)


def transpose_rows(n_u, n_p, lo, hi):
    """Rows lo..hi-1 of B^T (coupling_rows' B, n_p x n_u), in CSR form."""
    indptr, indices, data = [0], [], []
    b_indptr, b_indices, b_data = coupling_rows(n_u, 0, n_p)
    entries = {}
    for i in range(n_p):
        for k in range(b_indptr[i], b_indptr[i + 1]):
            entries.setdefault(int(b_indices[k]), []).append((i, b_data[k]))
    for r in range(lo, hi):
        row = entries.get(r, [])
        indices += [c for c, _ in row]
        data += [v for _, v in row]
        indptr.append(len(indices))
    return np.array(indptr), np.array(indices), np.array(data)


def test_a_block_between_two_layouts_applies_as_its_rows(comm):
    """B (rows one field's layout, columns another's: columns=), from CSR and
    from triplets, applies as the dense matrix; solve() refuses it."""
    n_u, n_p = 40, 13
    ru, rp = block(n_u, comm.size, comm.rank), block(n_p, comm.size, comm.rank)
    u, y = array([ru]), array([rp])
    u["buffer"][:] = (np.arange(ru["start"], ru["stop"]) % 5) - 2.0
    rows = coupling_rows(n_u, rp["start"], rp["stop"])
    dense = np.zeros((n_p, n_u))
    all_rows = coupling_rows(n_u, 0, n_p)
    for i in range(n_p):
        dense[i, all_rows[1][all_rows[0][i]:all_rows[0][i + 1]]] = all_rows[2][all_rows[0][i]:all_rows[0][i + 1]]
    want = dense @ ((np.arange(n_u) % 5) - 2.0)
    indptr, indices, data = rows
    coo_rows = np.repeat(np.arange(rp["start"], rp["stop"]), np.diff(indptr))
    for B in (dapetra.CrsMatrix.from_csr(y, *rows, comm=comm, columns=u),
              dapetra.CrsMatrix(y, coo_rows, indices, data, comm=comm, columns=u)):
        assert B.global_rows == n_p and B.global_entries == len(all_rows[1])
        y["buffer"][:] = -7.0
        B.apply(u, y)
        np.testing.assert_array_equal(y["buffer"], want[rp["start"]:rp["stop"]])
        with pytest.raises(dapetra.ValidationError) as e:
            dapetra.solve(B, y, y)
        assert e.value.problems[0]["key"] == "A"


def saddle_system(comm, m, n_p):
    """K = [[A, B^T], [B, 0]] with A the m x m Laplacian and B coupling_rows',
    as blocks (each on its field's block layout) and as one matrix over each
    process's rows in blocks (its velocities, then its pressures); S = I; b
    and the dense K for the reference."""
    n_u, P, r = m * m, comm.size, comm.rank
    ru, rp = block(n_u, P, r), block(n_p, P, r)
    owned = lambda rec: rec["stop"] - rec["start"]
    lo = ru["start"] + rp["start"]  # this process's first row over both fields
    whole = {"dist_type": "b", "size": n_u + n_p, "proc_grid_size": P, "proc_grid_rank": r,
             "start": lo, "stop": lo + owned(ru) + owned(rp)}

    def where_u(g):  # a velocity's row over both fields
        q = next(q for q in range(P) if block(n_u, P, q)["start"] <= g < block(n_u, P, q)["stop"])
        return block(n_u, P, q)["start"] + block(n_p, P, q)["start"] + (g - block(n_u, P, q)["start"])

    def where_p(g):
        q = next(q for q in range(P) if block(n_p, P, q)["start"] <= g < block(n_p, P, q)["stop"])
        return block(n_u, P, q)["stop"] + block(n_p, P, q)["start"] + (g - block(n_p, P, q)["start"])

    like_u, like_p, like = array([ru]), array([rp]), array([whole])
    a_rows = laplacian_rows(m, ru["start"], ru["stop"])
    bt_rows = transpose_rows(n_u, n_p, ru["start"], ru["stop"])
    b_rows = coupling_rows(n_u, rp["start"], rp["stop"])
    blocks = [[dapetra.CrsMatrix.from_csr(like_u, *a_rows, comm=comm),
               dapetra.CrsMatrix.from_csr(like_u, *bt_rows, comm=comm, columns=like_p)],
              [dapetra.CrsMatrix.from_csr(like_p, *b_rows, comm=comm, columns=like_u), None]]
    S = dapetra.CrsMatrix(like_p, np.arange(rp["start"], rp["stop"]), np.arange(rp["start"], rp["stop"]),
                          np.ones(owned(rp)), comm=comm)
    # The same entries over both fields, as triplets; P = diag(A, I).
    rows, cols, vals, prows, pcols, pvals = [], [], [], [], [], []
    for (indptr, indices, data), first, row_at, col_at in ((a_rows, ru["start"], where_u, where_u),
                                                            (bt_rows, ru["start"], where_u, where_p),
                                                            (b_rows, rp["start"], where_p, where_u)):
        for i in range(len(indptr) - 1):
            for k in range(indptr[i], indptr[i + 1]):
                rows.append(row_at(first + i)), cols.append(col_at(int(indices[k]))), vals.append(data[k])
                if row_at is col_at:
                    prows.append(rows[-1]), pcols.append(cols[-1]), pvals.append(data[k])
    for g in range(rp["start"], rp["stop"]):
        prows.append(where_p(g)), pcols.append(where_p(g)), pvals.append(1.0)
    K = dapetra.CrsMatrix(like, np.array(rows), np.array(cols), np.array(vals), comm=comm)
    Pm = dapetra.CrsMatrix(like, np.array(prows), np.array(pcols), np.array(pvals), comm=comm)
    b = array([whole])
    b["buffer"][:] = np.sin(np.arange(whole["start"], whole["stop"]) + 1.0)
    # The dense reference over both fields' rows in blocks.
    dense = np.zeros((n_u + n_p, n_u + n_p))
    for (indptr, indices, data), row_at, col_at in ((laplacian_rows(m, 0, n_u), where_u, where_u),
                                                    (transpose_rows(n_u, n_p, 0, n_u), where_u, where_p),
                                                    (coupling_rows(n_u, 0, n_p), where_p, where_u)):
        for i in range(len(indptr) - 1):
            for k in range(indptr[i], indptr[i + 1]):
                dense[row_at(i), col_at(int(indices[k]))] += data[k]
    return blocks, S, K, Pm, b, whole, [owned(ru), owned(rp)], dense


@pytest.mark.skipif(not hasattr(dapetra, "solve_block"), reason="built without MueLu")
@pytest.mark.parametrize("kind", ["diagonal", "upper"])
def test_blocks_solve_as_the_one_matrix_and_the_dense_reference(comm, kind):
    """The same saddle-point system as blocks (nested) and as one matrix with
    fields: both solutions are the dense solve's."""
    blocks, S, K, Pm, b, whole, counts, dense = saddle_system(comm, 6, 13)
    rhs = np.concatenate(comm.allgather(b["buffer"]))
    want = np.linalg.solve(dense, rhs)[whole["start"]:whole["stop"]]
    x_nested, x_one = array([whole]), array([whole])
    its_nested, res_nested = dapetra.solve_block(blocks, S, b, x_nested, kind=kind, tolerance=1e-12)
    its_one, res_one = dapetra.solve_block(K, Pm, b, x_one, fields=counts, kind=kind, tolerance=1e-12)
    assert res_nested < 1e-11 and res_one < 1e-11, (res_nested, res_one)
    scale = np.abs(np.linalg.solve(dense, rhs)).max()
    np.testing.assert_allclose(x_nested["buffer"], want, rtol=0, atol=1e-9 * scale)
    np.testing.assert_allclose(x_one["buffer"], want, rtol=0, atol=1e-9 * scale)


@pytest.mark.skipif(not hasattr(dapetra, "solve_block"), reason="built without MueLu")
def test_blocks_wrong_on_one_process_raise_on_every_process(comm):
    """Blocks that are not matrices, fields beside blocks, one matrix on one
    process and blocks on the others, columns= on one process only, b over
    another split: each on one process in turn, every process raises naming it."""
    blocks, S, K, Pm, b, whole, counts, _ = saddle_system(comm, 4, 5)
    x = array([whole])
    m = 4
    ru = block(m * m, comm.size, comm.rank)
    for bad in range(comm.size):
        here = comm.rank == bad
        calls = [(lambda: dapetra.solve_block([[blocks[0][0], "B^T"], blocks[1]] if here else blocks, S, b, x), "K"),
                 (lambda: dapetra.solve_block(blocks[:1] if here else blocks, S, b, x), "K"),
                 (lambda: dapetra.solve_block(blocks, S, b, x, fields=counts if here else None), "fields")]
        for call, key in calls:
            with pytest.raises(dapetra.ValidationError) as e:
                call()
            assert (e.value.problems[0]["rank"], e.value.problems[0]["key"]) == (bad, key), e.value.problems
        if comm.size == 1:
            continue  # one process cannot disagree with itself
        # Each process names what it passed: which one is wrong is not for the library to say.
        for call, key in ((lambda: dapetra.solve_block(K if here else blocks, Pm if here else S, b, x,
                                                       fields=counts if here else None), "K"),
                          (lambda: dapetra.CrsMatrix.from_csr(array([ru]), *laplacian_rows(m, ru["start"], ru["stop"]),
                                                              comm=comm, columns=array([ru]) if here else None),
                           "columns")):
            with pytest.raises(dapetra.ValidationError) as e:
                call()
            assert [p["key"] for p in e.value.problems] == [key] * comm.size, e.value.problems
            values = {p["rank"]: p["value"] for p in e.value.problems}
            assert all(values[r] != values[bad] for r in range(comm.size) if r != bad), values
