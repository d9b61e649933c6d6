# Python dicts are read by the core's one record reader, the same code that
# reads layout files: the same keys per dist_type, the same types and ranges,
# the same rules named in the problems (tests/core/test_json.cpp checks them
# on JSON). NumPy integers, booleans and integer arrays read as their Python
# counterparts; nothing goes through JSON text.
import numpy as np
import pytest

import dapetra
from conftest import array, block


def record(comm, **changes):
    d = block(20, comm.size, comm.rank, 1)
    d.update(changes)
    return {k: v for k, v in d.items() if v is not None}


def problems_of(comm, rec, buffer_shape=None):
    d = array([block(20, comm.size, comm.rank, 1)])
    if buffer_shape is not None:
        d["buffer"] = np.zeros(buffer_shape)
    d["dim_data"] = [rec]
    with pytest.raises(dapetra.ValidationError) as info:
        dapetra.Layout(d, comm)
    return info.value.problems


REFUSED = [
    # (what, changes to the record, key named, part of the rule)
    ("size a float", {"size": 10.5}, "size", "size is an integer"),
    ("size a NumPy float", {"size": np.float64(20)}, "size", "size is an integer"),
    ("size a string", {"size": "20"}, "size", "size is an integer"),
    ("size beyond 64 bits", {"size": 2 ** 70}, "size", "size fits in"),
    ("grid size beyond int", {"proc_grid_size": 2 ** 33}, "proc_grid_size", "proc_grid_size in ["),
    ("stop missing", {"stop": None}, "stop", "'stop' is present"),
    ("unknown key", {"stopp": 3}, "stopp", "only the spec's keys for dist_type 'b'"),
    ("a key of 'c' in 'b'", {"block_size": 2}, "block_size", "only the spec's keys for dist_type 'b'"),
    ("padding of one", {"padding": (1,)}, "padding", "padding is a pair of integers"),
    ("padding a number", {"padding": 1}, "padding", "padding is a pair of integers"),
    ("padding of floats", {"padding": (1.0, 1.0)}, "padding", "padding is an integer"),
    ("periodic an int", {"periodic": 1}, "periodic", "periodic is true or false"),
    ("dist_type unknown", {"dist_type": "x"}, "dist_type", "dist_type is 'b', 'c' or 'u'"),
    ("dist_type missing", {"dist_type": None}, "dist_type", "'dist_type' is present"),
]


@pytest.mark.parametrize("case", REFUSED, ids=[c[0] for c in REFUSED])
def test_a_wrong_record_names_key_and_rule(comm, case):
    _, changes, key, rule = case
    problems = problems_of(comm, record(comm, **changes))
    assert any(p["key"] == key and rule in p["rule"] and p["dim"] == 0 for p in problems), problems


def test_a_key_that_is_not_a_string_is_named(comm):
    rec = record(comm)
    rec[5] = 1
    problems = problems_of(comm, rec)
    assert any(p["key"] == "5" and "only the spec's keys" in p["rule"] for p in problems), problems


def test_a_record_that_is_not_a_dict(comm):
    problems = problems_of(comm, [("dist_type", "b")])
    assert any("a dimension record is a dictionary" in p["rule"] for p in problems), problems


def test_numpy_values_read_as_python_ones(comm):
    plain = record(comm)
    d = array([plain])
    numpy_typed = {k: (np.int64(v) if isinstance(v, int) else v) for k, v in plain.items()}
    numpy_typed["padding"] = np.array(plain["padding"], dtype=np.int32)
    numpy_typed["periodic"] = np.bool_(False)
    want = dapetra.Layout(d, comm).index_map()
    got = dapetra.Layout(dict(d, dim_data=[numpy_typed]), comm).index_map()
    assert np.array_equal(want.global_indices, got.global_indices)
    assert np.array_equal(want.owners, got.owners)


@pytest.mark.parametrize("indices", [
    lambda g: list(g),
    lambda g: tuple(int(x) for x in g),
    lambda g: [np.int64(x) for x in g],
    lambda g: np.array(g, dtype=np.int64),
    lambda g: np.array(g, dtype=np.int32),
    lambda g: np.array(g, dtype=np.int64)[::-1][::-1],  # a strided view
    lambda g: np.array(g[::-1], dtype=np.int64)[::-1],  # negative strides
], ids=["list", "tuple", "numpy ints", "int64 array", "int32 array", "view", "reversed view"])
def test_indices_in_every_integer_form(comm, indices):
    n, P, r = 12, comm.size, comm.rank
    mine = [g for g in range(n) if g % P == r]
    rec = {"dist_type": "u", "size": n, "proc_grid_size": P, "proc_grid_rank": r, "indices": indices(mine)}
    d = {"__version__": "0.10.0", "buffer": np.zeros(len(mine)), "dim_data": [rec]}
    assert list(dapetra.Layout(d, comm).index_map().global_indices) == mine


@pytest.mark.parametrize("indices", [
    np.array([0.0, 1.0]), ["0", "1"], [0, 1.5], np.zeros((1, 2), dtype=np.int64), 7,
], ids=["float array", "strings", "a float", "2-D array", "a number"])
def test_indices_that_are_not_integers_are_refused(comm, indices):
    P, r = comm.size, comm.rank
    rec = {"dist_type": "u", "size": 2, "proc_grid_size": P, "proc_grid_rank": r, "indices": indices}
    d = {"__version__": "0.10.0", "buffer": np.zeros(2), "dim_data": [rec]}
    with pytest.raises(dapetra.ValidationError) as info:
        dapetra.Layout(d, comm)
    assert any(p["key"] == "indices" and "indices is" in p["rule"] for p in info.value.problems), info.value.problems


class _IterationRaises(np.ndarray):
    def __iter__(self):
        raise RuntimeError("no iteration here")


class _ReprRaises:
    def __repr__(self):
        raise RuntimeError("no repr here")


@pytest.mark.parametrize("spoil", ["indices whose iteration raises", "a value whose repr raises"])
def test_a_python_error_while_reading_on_one_process_refuses_on_every_process(comm, spoil):
    P, r = comm.size, comm.rank
    for faulty in range(P):
        mine = [g for g in range(12) if g % P == r]
        rec = {"dist_type": "u", "size": 12, "proc_grid_size": P, "proc_grid_rank": r, "indices": mine}
        if r == faulty:
            if spoil.startswith("indices"):
                rec["indices"] = np.array(mine, dtype=float).view(_IterationRaises)
            else:
                rec["size"] = _ReprRaises()
        d = {"__version__": "0.10.0", "buffer": np.zeros(len(mine)), "dim_data": [rec]}
        with pytest.raises(dapetra.ValidationError) as info:
            dapetra.Layout(d, comm)
        assert any(p["rank"] == faulty for p in info.value.problems), info.value.problems
