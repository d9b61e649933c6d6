# pytest under mpirun: every process runs every test in the same order (the
# tests make collective calls), each with its own copy of this file's helpers.
import json
import os

import numpy as np
import pytest
from mpi4py import MPI

SPEC_DATA = os.path.join(os.path.dirname(__file__), "..", "data", "spec_chapter2.json")


@pytest.fixture
def comm():
    return MPI.COMM_WORLD


def spec_examples():
    with open(SPEC_DATA) as f:
        return json.load(f)["examples"]


def as_spec_dict(rank_entry):
    """One process's example as the spec writes it: dim_data a tuple of dicts,
    padding a tuple, the buffer a NumPy array of the listed values."""
    dims = []
    for d in rank_entry["dim_data"]:
        d = dict(d)
        if "padding" in d:
            d["padding"] = tuple(d["padding"])
        dims.append(d)
    buffer = np.array(rank_entry["buffer"], dtype=float).reshape(rank_entry["buffer_shape"])
    return {"__version__": "0.10.0", "buffer": buffer, "dim_data": tuple(dims)}


def block(n, P, r, halo=0):
    """Dim::even_block's split (the first n % P processes own one more) with
    `halo` communication padding towards each neighbour."""
    lo = r * (n // P) + min(r, n % P)
    hi = lo + n // P + (r < n % P)
    left, right = (halo if r > 0 else 0), (halo if r < P - 1 else 0)
    return {"dist_type": "b", "size": n, "proc_grid_size": P, "proc_grid_rank": r,
            "start": lo - left, "stop": hi + right, "padding": (left, right)}


def held_along(rec):
    """The global indices a record's process holds along its axis, in buffer
    order, from the spec's definitions alone: 'b' [start, stop), 'u' its
    indices, 'c' every block_size-block whose block number is
    proc_grid_rank modulo proc_grid_size."""
    if rec["dist_type"] == "b":
        return np.arange(rec["start"], rec["stop"])
    if rec["dist_type"] == "u":
        return np.asarray(rec["indices"], dtype=np.int64)
    n, P, r, b = rec["size"], rec["proc_grid_size"], rec["proc_grid_rank"], rec.get("block_size", 1)
    return np.array([g for g in range(n) if (g // b) % P == r], dtype=np.int64)


def array(dims, dtype=float, fill=0.0):
    shape = [len(held_along(d)) for d in dims]
    return {"__version__": "0.10.0", "buffer": np.full(shape, fill, dtype=dtype), "dim_data": list(dims)}


def all_ranks(comm, flag):
    return comm.allreduce(bool(flag), op=MPI.LAND)
