# Checkpoints from Python (dapetra.save / dapetra.load, parallel HDF5):
# arrays of every layout kind written by the first N processes and read by
# all of them (and the reverse), so N != M within one run; the values are
# the global indices' own function, checked element by element, and the
# file read back by h5py as a plain global array.
import os
import shutil
import tempfile

import numpy as np
import pytest
from mpi4py import MPI

import dapetra
from conftest import all_ranks

pytestmark = pytest.mark.skipif(not hasattr(dapetra, "save"), reason="built without parallel HDF5")


def value_of(index):
    return 1.5 * np.asarray(index, dtype=np.float64) + 0.25


@pytest.fixture
def folder(comm):
    path = comm.bcast(tempfile.mkdtemp(prefix="dapetra-ckpt-") if comm.rank == 0 else None)
    yield path
    comm.Barrier()
    if comm.rank == 0:
        shutil.rmtree(path, ignore_errors=True)


# Each kind: a function making this process's piece of it on `comm`; the
# 1-D kinds all have 23 elements, the 2-D ones 7 x 9, whatever comm's size.
def overlapping(comm):
    # Process r holds its even share of [0, 23) and the next two (wrapped).
    lo, hi = 23 * comm.rank // comm.size, 23 * (comm.rank + 1) // comm.size
    held = list(dict.fromkeys(int(i) % 23 for i in range(lo, hi + 2)))  # (one process: no index twice)
    return dapetra.unstructured(np.array(held), 23, comm)


def one_to_one(comm):
    # Every process holds every size-th index, backwards.
    return dapetra.unstructured(np.arange(23)[comm.rank::comm.size][::-1].copy(), 23, comm, one_to_one=True)


KINDS = {
    "block": lambda c: dapetra.zeros(23, c),
    "block with halo": lambda c: dapetra.zeros(23, c, halo=2),
    "cyclic": lambda c: dapetra.zeros(23, c, dist="c"),
    "block-cyclic": lambda c: dapetra.zeros(23, c, dist="c", block_size=4),
    "u one-to-one": one_to_one,
    "u overlapping": overlapping,
    "2-D block": lambda c: dapetra.zeros((7, 9), c, halo=1),
    "2-D block x cyclic": lambda c: dapetra.zeros((7, 9), c, dist="bc", block_size=2),
}
ONE_D = [k for k in KINDS if not k.startswith("2-D")]


def filled(make, comm):
    """An array of this kind on comm, every held element set from its global index."""
    a = make(comm)
    imap = dapetra.Layout(a, comm).index_map()
    a.buffer.reshape(-1)[:] = value_of(imap.global_indices)
    return a


def held_values_match(a, comm):
    imap = dapetra.Layout(a, comm).index_map()
    return np.array_equal(a.buffer.reshape(-1), value_of(imap.global_indices))


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_written_by_some_processes_read_by_all_and_the_reverse(comm, folder, kind):
    make = KINDS[kind]
    P, r = comm.size, comm.rank
    for n in range(1, P + 1):
        sub = comm.Split(0 if r < n else 1, r)
        path = os.path.join(folder, f"{n}.h5")
        if r < n:
            dapetra.save(filled(make, sub), path, "x")  # N = n writers
        comm.Barrier()
        # M = P readers, into every kind of this shape.
        for other in ONE_D if kind in ONE_D else [k for k in KINDS if k not in ONE_D]:
            b = KINDS[other](comm)
            b.buffer[...] = -7.0
            dapetra.load(path, "x", b)
            assert all_ranks(comm, held_values_match(b, comm)), f"{kind} written by {n}, read as {other} by {P}"
        # And back: all write, the first n read.
        dapetra.save(filled(make, comm), path, "y", mode="append")
        if r < n:
            c = make(sub)
            dapetra.load(path, "y", c)
            assert all_ranks(sub, held_values_match(c, sub)), f"{kind} written by {P}, read by {n}"
        sub.Free()


def test_h5py_reads_the_global_array(comm, folder):
    path = os.path.join(folder, "plain.h5")
    dapetra.save(filled(KINDS["2-D block x cyclic"], comm), path, "fields/u")
    dapetra.save(filled(KINDS["u overlapping"], comm), path, "fields/v", mode="append")
    comm.Barrier()
    try:
        import h5py
    except ImportError:
        h5py = None
    # (Debian sid's dispatching h5py can import as a module without File.)
    if not all_ranks(comm, hasattr(h5py, "File")):
        pytest.skip("no usable h5py (Debian: python3-h5py-mpi)")
    ok, why = True, ""
    if comm.rank == 0:
        try:  # a failure here must not leave the other processes waiting below
            with h5py.File(path, "r") as f:
                u, v = f["fields/u"][...], f["fields/v"][...]
                ok = (u.shape == (7, 9) and np.array_equal(u, value_of(np.arange(63)).reshape(7, 9))
                      and u.dtype == np.float64 and np.array_equal(v, value_of(np.arange(23))))
        except Exception as e:  # noqa: BLE001 - reported below, on every process
            ok, why = False, f"h5py failed: {e!r}"
    assert all_ranks(comm, ok), comm.bcast(why)


def test_a_name_differing_on_one_process_is_refused_on_every_process(comm, folder):
    if comm.size == 1:
        pytest.skip("one process cannot disagree with itself")
    path = os.path.join(folder, "names.h5")
    for bad in range(comm.size):
        a = filled(KINDS["block"], comm)
        with pytest.raises(dapetra.ValidationError) as e:
            dapetra.save(a, path, "x" if comm.rank != bad else "x-other")
        assert any(p["key"] == "name" for p in e.value.problems)


def test_a_missing_dataset_or_another_shape_is_refused_on_every_process(comm, folder):
    path = os.path.join(folder, "faults.h5")
    dapetra.save(filled(KINDS["block"], comm), path, "x")
    with pytest.raises(dapetra.ValidationError) as e:
        dapetra.load(path, "absent", dapetra.zeros(23, comm))
    assert any(p["key"] == "dataset" for p in e.value.problems)
    with pytest.raises(dapetra.ValidationError) as e:
        dapetra.load(path, "x", dapetra.zeros(24, comm))
    assert any(p["key"] == "shape" for p in e.value.problems)
    with pytest.raises(dapetra.ValidationError) as e:
        dapetra.load(os.path.join(folder, "no such file.h5"), "x", dapetra.zeros(23, comm))
    assert any(p["key"] == "file" for p in e.value.problems)
    with pytest.raises(ValueError):
        dapetra.save(filled(KINDS["block"], comm), path, "x", mode="sometimes")


def test_a_piece_unread_on_one_process_is_refused_on_every_process(comm, folder):
    # One process in turn hands over a piece whose records do not fit its buffer.
    path = os.path.join(folder, "unread.h5")
    layout = dapetra.Layout(dapetra.zeros(23, comm), comm)
    for bad in range(comm.size):
        a = filled(KINDS["block"], comm)
        if comm.rank == bad:
            a.buffer = a.buffer[:-1] if len(a.buffer) else np.zeros(1)
        with pytest.raises(dapetra.ValidationError):
            dapetra.save(a, path, "x", layout=layout)
        comm.Barrier()
