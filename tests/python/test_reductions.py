# Reductions of Tpetra vectors over DAP buffers count each global element
# once, by its owner, whatever the buffer holds besides (ghosts, padding,
# periodic pads, shared 'u' copies). Every answer comes from NumPy over the
# global array, which every process makes from the same seed; each held
# position holds its global element's value, so owners and copies agree.
import os

import numpy as np
import pytest

import dapetra
from conftest import array, block, held_along

pytestmark = pytest.mark.skipif(not hasattr(dapetra, "tpetra_view"), reason="built without Tpetra")

SEED = int(os.environ.get("DAPETRA_TEST_SEED", "7"))


def held_indices(d):
    """The global flat index of each buffer element (C order), from the spec's definitions."""
    per_axis = [held_along(rec) for rec in d["dim_data"]]
    sizes = [rec["size"] for rec in d["dim_data"]]
    flat = np.zeros([len(p) for p in per_axis], dtype=np.int64)
    for a, p in enumerate(per_axis):
        shape = [1] * len(per_axis)
        shape[a] = len(p)
        flat = flat + p.reshape(shape) * int(np.prod(sizes[a + 1:]))
    return flat


def over(d, x):
    """d with every buffer element set to the global array x at its index."""
    d["buffer"][...] = x[held_indices(d)]
    return d


def shared_u(n, P, r, rng):
    """A 'u' record: a random split of [0, n), each process also holding a few
    indices of others (copies, one_to_one false), in a shuffled order."""
    perm = rng.permutation(n)
    extra = rng.choice(n, size=min(n, 3), replace=False)
    mine = np.unique(np.concatenate([perm[r::P], extra]))
    mine = mine[np.random.default_rng(SEED + r).permutation(len(mine))]
    return {"dist_type": "u", "size": n, "proc_grid_size": P, "proc_grid_rank": r,
            "indices": mine.astype(np.int64), "one_to_one": False}


def periodic_block(n, P, r, w):
    """An even block split with halo w between neighbours and edge pads of w
    (counted in n, owned by the edge process), on a periodic axis."""
    rec = block(n, P, r, w)
    left, right = w, w
    lo, hi = rec["start"] + rec["padding"][0], rec["stop"] - rec["padding"][1]
    rec.update(start=lo - left if r > 0 else lo, stop=hi + right if r < P - 1 else hi,
               padding=(left, right), periodic=True)
    return rec


def layouts(P, r, rng):
    """(name, dim_data) pairs: the README's strip, wide halos, periodic pads,
    shared 'u' copies, block-cyclic, and a 2-D array split along its fast
    axis with a halo (owned rows scattered through the buffer)."""
    n = 7 * P + 3
    return [
        ("readme strip", [block(10 * P, P, r, 1)]),
        ("halo 2", [block(n, P, r, 2 if n >= 4 * P else 0)]),
        ("periodic", [periodic_block(6 * P + 4, P, r, 2)]),
        ("shared u", [shared_u(n, P, r, rng)]),
        ("block-cyclic", [{"dist_type": "c", "size": n, "proc_grid_size": P, "proc_grid_rank": r,
                           "start": 2 * r, "block_size": 2}]),
        ("2-D, halo along axis 1", [{"dist_type": "b", "size": 5, "proc_grid_size": 1, "proc_grid_rank": 0,
                                     "start": 0, "stop": 5}, block(4 * P + 1, P, r, 1)]),
    ]


def each_layout(comm):
    rng = np.random.default_rng(SEED)  # the same layouts on every process
    for name, dims in layouts(comm.size, comm.rank, rng):
        sizes = [rec["size"] for rec in dims]
        x = rng.standard_normal(int(np.prod(sizes)))
        y = rng.standard_normal(x.size)
        yield name, dims, x, y


def test_norms_dot_and_lengths_count_each_global_element_once(comm):
    for name, dims, x, y in each_layout(comm):
        v = dapetra.tpetra_view(over(array(dims), x), comm)
        w = dapetra.tpetra_view(over(array(dims), y), comm)
        assert v.norm2() == pytest.approx(np.linalg.norm(x), rel=1e-12), name
        assert v.norm1() == pytest.approx(np.abs(x).sum(), rel=1e-12), name
        assert v.norm_inf() == np.abs(x).max(), name
        assert v.dot(w) == pytest.approx(x @ y, rel=1e-12, abs=1e-12), name
        assert v.global_length == x.size, name
        assert comm.allreduce(v.owned_length) == x.size, name
        assert v.buffer_length == array(dims)["buffer"].size, name


def test_the_owned_copy_holds_each_owned_value_once(comm):
    for name, dims, x, _ in each_layout(comm):
        v = dapetra.tpetra_view(over(array(dims), x), comm)
        owned = v.copy_owned().__distarray__()
        got = owned["buffer"]
        assert got.size == v.owned_length, name
        np.testing.assert_array_equal(got, x[held_indices(owned)], err_msg=name)
        # Between them the processes own every index once.
        everyone = np.concatenate(comm.allgather(held_indices(owned).ravel()))
        np.testing.assert_array_equal(np.sort(everyone), np.arange(x.size), err_msg=name)


def test_the_owned_view_shares_memory_where_the_owned_rows_are_one_run(comm):
    P, r = comm.size, comm.rank
    x = np.arange(10.0 * P)
    d = over(array([block(10 * P, P, r, 1)]), x)
    v = dapetra.tpetra_view(d, comm)
    owned = v.owned_view()
    left = d["dim_data"][0]["padding"][0]
    np.testing.assert_array_equal(owned.__distarray__()["buffer"], x[10 * r:10 * r + 10])
    owned.scale(-1.0)  # writes the owned part of d's buffer, not its ghosts
    assert np.all(d["buffer"][left:left + 10] == -x[10 * r:10 * r + 10])
    assert np.all(np.delete(d["buffer"], np.s_[left:left + 10]) >= 0)
    assert owned.norm2() == pytest.approx(np.linalg.norm(x))


def test_an_owned_view_of_scattered_owned_rows_is_refused_with_the_way_out(comm):
    P, r = comm.size, comm.rank
    dims = layouts(P, r, np.random.default_rng(SEED))[-1][1]
    v = dapetra.tpetra_view(array(dims), comm)
    if P == 1:  # no halo: every row owned, one run
        assert v.owned_view().owned_length == v.buffer_length
        return
    with pytest.raises(dapetra.ValidationError, match="copy_owned"):
        v.owned_view()


def test_dot_of_differently_distributed_vectors_raises_on_every_process(comm):
    P, r = comm.size, comm.rank
    if P == 1:
        pytest.skip("one process: every distribution owns the same elements")
    v = dapetra.tpetra_view(array([block(12, P, r)]), comm)
    w = dapetra.tpetra_view(array([{"dist_type": "c", "size": 12, "proc_grid_size": P, "proc_grid_rank": r,
                                    "start": r}]), comm)
    with pytest.raises(dapetra.ValidationError) as e:
        v.dot(w)
    # Block and cyclic splits of 12 differ on every process: each names itself, on every process.
    assert sorted(p["rank"] for p in e.value.problems) == list(range(P)), e.value.problems
    assert {p["key"] for p in e.value.problems} == {"map"}


def components(comm, k, order):
    """A field of k components over a padded strip of nodes: (k, nodes) in C
    order or (nodes, k) in Fortran order; each held entry its global value."""
    P, r = comm.size, comm.rank
    nodes = block(6 * P + 1, P, r, 1)
    comp = {"dist_type": "b", "size": k, "proc_grid_size": 1, "proc_grid_rank": 0, "start": 0, "stop": k}
    x = np.random.default_rng(SEED + 5).standard_normal((k, nodes["size"]))
    g = np.arange(nodes["start"], nodes["stop"])
    if order == "C":
        d = {"__version__": "0.10.0", "buffer": x[:, g].copy(), "dim_data": [comp, nodes]}
        return d, x, 0
    d = {"__version__": "0.10.0", "buffer": np.asfortranarray(x[:, g].T), "dim_data": [nodes, comp]}
    return d, x, 1


def test_a_column_axis_makes_one_multivector_of_the_components(comm):
    for order in ("C", "F"):
        d, x, axis = components(comm, 3, order)
        v = dapetra.tpetra_view(d, comm, column_axis=axis)
        assert v.num_columns == 3 and v.global_length == x.shape[1], order
        np.testing.assert_allclose(v.norm2(), np.linalg.norm(x, axis=1), rtol=1e-12, err_msg=order)
        np.testing.assert_allclose(v.norm1(), np.abs(x).sum(axis=1), rtol=1e-12, err_msg=order)
        np.testing.assert_allclose(v.dot(v), (x * x).sum(axis=1), rtol=1e-12, err_msg=order)
        back = v.__distarray__()
        assert np.shares_memory(back["buffer"], d["buffer"]), order
        owned = v.owned_view()  # still the same memory, each column's owned rows
        owned.scale(2.0)
        np.testing.assert_allclose(owned.norm2(), 2 * np.linalg.norm(x, axis=1), rtol=1e-12, err_msg=order)
        w = dapetra.new_tpetra_vector(d, comm, column_axis=axis)
        assert w.num_columns == 3 and w.norm_inf() == [0.0, 0.0, 0.0], order


def test_a_column_axis_tpetra_cannot_view_is_refused_on_every_process(comm):
    d, _, _ = components(comm, 3, "F")
    c_order = dict(d, buffer=np.ascontiguousarray(d["buffer"]))  # (nodes, k) in C order: columns strided
    with pytest.raises(dapetra.ValidationError, match="contiguous"):
        dapetra.tpetra_view(c_order, comm, column_axis=1)
    with pytest.raises(dapetra.ValidationError, match="column"):
        dapetra.tpetra_view(d, comm, column_axis=0)  # the distributed axis
    # One process's axis that is no axis (a string, an int past C's int), each process in turn:
    # every process raises, naming that process and its value.
    for bad in range(comm.size):
        for axis, quoted in (("components", "'components'"), (2**40, str(2**40)), (-1, "-1")):
            with pytest.raises(dapetra.ValidationError) as e:
                dapetra.tpetra_view(d, comm, column_axis=axis if comm.rank == bad else 1)
            named = [p for p in e.value.problems if p["key"] == "column_axis"]
            assert [(p["rank"], p["value"]) for p in named] == [(bad, quoted)], e.value.problems


def test_a_float_buffer_is_refused_with_the_reason(comm):
    # Dapetra's Python vectors hold doubles (Debian's Tpetra 13.2 instantiates no float);
    # plans still move float arrays.
    P, r = comm.size, comm.rank
    d = array([block(12, P, r)], dtype=np.float32)
    with pytest.raises(dapetra.ValidationError, match="format"):
        dapetra.tpetra_view(d, comm)
    # A float halo update fills each ghost with its owner's value: ghosts start at -1.
    d = array([block(12, P, r, 1)], dtype=np.float32)
    rec = d["dim_data"][0]
    g = np.arange(rec["start"], rec["stop"])
    left, right = rec["padding"]
    d["buffer"][:] = np.where((g >= rec["start"] + left) & (g < rec["stop"] - right), g + 0.5, -1.0)
    dapetra.HaloPlan(dapetra.Layout(d, comm)).update(d)
    np.testing.assert_array_equal(d["buffer"], (g + 0.5).astype(np.float32))
