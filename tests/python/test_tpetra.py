# Tpetra from Python: vectors over a producer's memory and Tpetra's memory
# handed back through __distarray__, neither copying; lifetimes; round
# trips Python -> Tpetra -> Python; a third-party producer (mpi4py-fft).
import gc

import numpy as np
import pytest

import dapetra
from conftest import array, block

pytestmark = pytest.mark.skipif(not hasattr(dapetra, "tpetra_view"), reason="built without Tpetra")


def filled(d, values):
    d["buffer"][...] = values
    return d


def test_writes_are_seen_both_ways(comm):
    P, r = comm.size, comm.rank
    d = array([block(12, P, r)])
    v = dapetra.tpetra_view(d, comm)
    d["buffer"][:] = 2.0  # numpy -> Tpetra
    assert v.norm2() == pytest.approx(np.sqrt(4.0 * 12))
    v.scale(3.0)  # Tpetra -> numpy
    np.testing.assert_array_equal(d["buffer"], 6.0)
    back = v.__distarray__()
    assert np.shares_memory(back["buffer"], d["buffer"])


def test_the_producer_dropped_while_tpetra_views_it(comm):
    P, r = comm.size, comm.rank
    d = array([block(40, P, r)])
    d["buffer"][:] = 1.5
    v = dapetra.tpetra_view(d, comm)
    del d
    gc.collect()
    np.testing.assert_array_equal(v.__distarray__()["buffer"], 1.5)
    v.fill(2.0)
    assert v.norm2() == pytest.approx(np.sqrt(4.0 * 40))


def test_the_tpetra_vector_dropped_while_its_numpy_view_lives(comm):
    P, r = comm.size, comm.rank
    w = dapetra.new_tpetra_vector(array([block(40, P, r)]), comm)
    w.fill(3.0)
    back = w.__distarray__()
    del w
    gc.collect()
    back["buffer"][:] += 1.0  # still Tpetra's memory, still valid
    np.testing.assert_array_equal(back["buffer"], 4.0)
    assert dapetra.Layout(back, comm).global_shape == (40,)


def test_a_buffer_tpetra_cannot_view_is_refused_everywhere(comm):
    P, r = comm.size, comm.rank
    rows = block(12, P, r)
    n = rows["stop"] - rows["start"]
    # Every other double of a wider array: a strided column Tpetra cannot view.
    d = {"__version__": "0.10.0", "buffer": np.zeros((n, 2))[:, 0], "dim_data": [rows]}
    assert dapetra.Layout(d, comm).local_shape == (n,)  # fine for plans
    with pytest.raises(dapetra.ValidationError):
        dapetra.tpetra_view(d, comm)


def normalized(record):
    """Keys at the spec's defaults dropped, pairs as tuples: records that say the same compare equal."""
    defaults = {"padding": (0, 0), "periodic": False, "block_size": 1, "one_to_one": False}
    out = {}
    for k, v in dict(record).items():
        v = tuple(v) if k == "padding" else v
        if k in defaults and defaults[k] == v:
            continue
        out[k] = v
    return out


def random_records(rng, n, P, r):
    kind = rng.integers(3)
    if kind == 0:
        return block(n, P, r, int(rng.integers(0, 2)) if n >= 2 * P else 0)
    if kind == 1:
        b = int(rng.integers(1, 4))
        return {"dist_type": "c", "size": n, "proc_grid_size": P, "proc_grid_rank": r, "start": r * b, "block_size": b}
    perm = rng.permutation(n)
    return {"dist_type": "u", "size": n, "proc_grid_size": P, "proc_grid_rank": r,
            "indices": perm[r::P].astype(np.int64), "one_to_one": True}


def test_python_to_tpetra_to_python_is_exact(comm):
    P, r = comm.size, comm.rank
    seed = int(__import__("os").environ.get("DAPETRA_TEST_SEED", "7"))
    rng = np.random.default_rng(seed)  # the same layouts on every process
    values = np.random.default_rng(seed + 1 + r)  # this process's own values
    for trial in range(20):
        n = int(rng.integers(0, 30))
        rec = random_records(rng, n, P, r)
        d = array([rec])
        d["buffer"][:] = values.standard_normal(d["buffer"].shape)
        v = dapetra.tpetra_view(d, comm)
        back = v.__distarray__()
        assert np.shares_memory(back["buffer"], d["buffer"]) or d["buffer"].size == 0
        np.testing.assert_array_equal(back["buffer"], d["buffer"], err_msg=f"seed {seed} trial {trial}")
        got, want = normalized(back["dim_data"][0]), normalized(rec)
        got_indices, want_indices = got.pop("indices", ()), want.pop("indices", ())
        assert got == want, (seed, trial)
        np.testing.assert_array_equal(got_indices, want_indices)


def test_an_mpi4py_fft_array_goes_to_tpetra_and_back(comm):
    mpi4py_fft = pytest.importorskip("mpi4py_fft")
    from dapetra.mpi4py_fft import Producer, from_protocol

    a = mpi4py_fft.DistArray((8, 6, 4), alignment=2)
    # Each element its global flat index.
    idx = np.indices(a.shape)
    a[...] = sum((idx[k] + a.substart[k]) * np.prod(a.global_shape[k + 1:]) for k in range(3))
    v = dapetra.tpetra_view(Producer(a), comm)
    assert np.shares_memory(v.__distarray__()["buffer"], a)
    assert v.norm2() == pytest.approx(np.sqrt(sum(g * g for g in range(8 * 6 * 4))))
    w = dapetra.new_tpetra_vector(Producer(a), comm)
    w.update(2.0, v, 0.0)  # w = 2 a, in Tpetra's memory
    b = from_protocol(w.__distarray__(), like=a)
    assert isinstance(b, mpi4py_fft.DistArray) and not np.shares_memory(b, a)
    np.testing.assert_array_equal(np.asarray(b), 2.0 * np.asarray(a))
