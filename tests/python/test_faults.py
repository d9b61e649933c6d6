# Collective calls from Python with bad input on one process only (each in
# turn): every process raises ValidationError, none waits (ctest's timeout
# would catch a hang). Run under the `fault` label at 2 and 3 processes.
import numpy as np
import pytest

import dapetra
from conftest import array, block

needs_solve = pytest.mark.skipif(not hasattr(dapetra, "solve"), reason="built without Belos and Ifpack2")


def everyone_raises(comm, call):
    raised = False
    try:
        call()
    except dapetra.ValidationError:
        raised = True
    assert comm.allgather(raised) == [True] * comm.size


def identity(comm, rec):
    g = np.arange(rec["start"], rec["stop"])
    return g, g, np.ones(len(g))


@needs_solve
def test_a_matrix_with_bad_triplets_on_one_process(comm):
    for faulty in range(comm.size):
        rec = block(12, comm.size, comm.rank)
        rows, cols, vals = identity(comm, rec)
        if comm.rank == faulty:
            vals = vals[:-1] if len(vals) else np.ones(1)
        everyone_raises(comm, lambda: dapetra.CrsMatrix(array([rec]), rows, cols, vals, comm))


@needs_solve
def test_a_solve_or_apply_with_an_unreadable_vector_on_one_process(comm):
    rec = block(12, comm.size, comm.rank)
    A = dapetra.CrsMatrix(array([rec]), *identity(comm, rec), comm)
    for faulty in range(comm.size):
        b, x = array([rec], fill=1.0), array([rec])
        if comm.rank == faulty:
            del b["buffer"]
        everyone_raises(comm, lambda: dapetra.solve(A, b, x))
        everyone_raises(comm, lambda: A.apply(b, x))
        b, x = array([rec], fill=1.0), array([rec])
        everyone_raises(comm, lambda: dapetra.solve(A, b, x, method="cg" if comm.rank != faulty else "bicgstab"))


def test_a_layout_or_view_with_an_unreadable_dict_on_one_process(comm):
    for faulty in range(comm.size):
        d = array([block(12, comm.size, comm.rank)])
        if comm.rank == faulty:
            d["dim_data"] = [{"dist_type": "b"}]
        everyone_raises(comm, lambda: dapetra.Layout(d, comm))
        if hasattr(dapetra, "tpetra_view"):
            everyone_raises(comm, lambda: dapetra.tpetra_view(d, comm))
