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
