# Bad input gives ValidationError on every process, with no hang: a wrong
# dict on one process only (each process in turn), a buffer whose shape or
# element type lies, keys missing or of the wrong type.
import numpy as np
import pytest

import dapetra
from conftest import all_ranks, array, block


def spoiled_variants(comm):
    """(name, key the error names, function spoiling one process's dict)."""
    def drop(key):
        def f(d):
            del d[key]
        return f

    def set_dim(key, value):
        def f(d):
            d["dim_data"][0] = dict(d["dim_data"][0], **{key: value})
        return f

    def buffer(b):
        def f(d):
            d["buffer"] = b(d["buffer"])
        return f

    return [
        ("missing buffer", "buffer", drop("buffer")),
        ("missing dim_data", "dim_data", drop("dim_data")),
        ("version a number", "__version__", lambda d: d.update({"__version__": 10})),
        ("size a float", "size", set_dim("size", 10.5)),
        ("size a string", "size", set_dim("size", "ten")),
        ("unknown dist_type", "dist_type", set_dim("dist_type", "x")),
        ("shape lies", "stop", buffer(lambda b: np.zeros(b.shape[0] + 1))),
        ("dtype unknown", "format", buffer(lambda b: b.astype(np.int8))),
        ("buffer a list", "buffer", buffer(lambda b: list(b))),
        ("dim_data a string", "dim_data", lambda d: d.update({"dim_data": "b"})),
    ]


@pytest.mark.parametrize("variant", range(10))
def test_one_wrong_process_raises_everywhere(comm, variant):
    name, key, spoil = spoiled_variants(comm)[variant]
    for faulty in range(comm.size):
        d = array([block(20, comm.size, comm.rank, 1)])
        if comm.rank == faulty:
            spoil(d)
        with pytest.raises(dapetra.ValidationError) as info:
            dapetra.Layout(d, comm)
        problems = info.value.problems
        assert any(p["rank"] == faulty and p["key"] == key for p in problems), (name, problems)
        # The same problems on every process.
        assert comm.allgather(repr(problems)) == [repr(problems)] * comm.size


def test_an_object_with_distarray_is_consumed(comm):
    class Producer:
        def __init__(self, d):
            self.d = d

        def __distarray__(self):
            return self.d

    d = array([block(12, comm.size, comm.rank)])
    layout = dapetra.Layout(Producer(d), comm)
    assert layout.global_shape == (12,)


def test_buffers_of_every_kind(comm):
    P, r = comm.size, comm.rank
    dims = [block(12, P, r)]
    n = dims[0]["stop"] - dims[0]["start"]
    for buf in (np.zeros(n), memoryview(np.zeros(n)), bytearray(8 * n)):
        d = {"__version__": "0.10.0", "buffer": buf, "dim_data": dims}
        if isinstance(buf, bytearray):
            with pytest.raises(dapetra.ValidationError):  # bytes are not doubles
                dapetra.Layout(d, comm)
            continue
        assert dapetra.Layout(d, comm).local_shape == (n,)


def test_a_plan_call_with_a_wrong_array_raises_on_its_neighbours(comm):
    P, r = comm.size, comm.rank
    good = array([block(20, P, r, 1)])
    plan = dapetra.HaloPlan(dapetra.Layout(good, comm))
    for faulty in range(P):
        d = array([block(20, P, r, 1)])
        if r == faulty:
            d["buffer"] = d["buffer"].astype(np.float32)  # the wrong element type
        raised = False
        try:
            plan.update(d)
        except dapetra.ValidationError as e:
            raised = True
            assert e.problems[0]["rank"] == faulty
        neighbours = P > 1 and abs(r - faulty) == 1
        if r == faulty or neighbours:
            assert raised
    # And a dict this process cannot read at all.
    for faulty in range(P):
        d = array([block(20, P, r, 1)])
        if r == faulty:
            del d["buffer"]
        raised = False
        try:
            plan.update(d)
        except dapetra.ValidationError as e:
            raised = True
            if r == faulty:
                assert e.problems[0]["key"] == "buffer"
            else:
                assert e.problems[0]["rank"] == faulty
        if r == faulty or (P > 1 and abs(r - faulty) == 1):
            assert raised


@pytest.mark.parametrize("call", ["update", "assemble", "apply"])
def test_a_split_call_with_an_unreadable_array_raises_on_its_neighbours(comm, call):
    # The faulty process raises at its begin, having sent its peers fault
    # notes and drained its messages; its neighbours raise at their end. A
    # second round after it must run clean (nothing left in flight).
    P, r = comm.size, comm.rank
    layout = dapetra.Layout(array([block(20, P, r, 1)]), comm)
    halo = dapetra.HaloPlan(layout)
    # To cyclic: every process sends to every other (each block holds P consecutive indices).
    cyclic = {"dist_type": "c", "size": 20, "proc_grid_size": P, "proc_grid_rank": r, "start": r}
    move = dapetra.RedistributionPlan(layout, dapetra.Layout(array([cyclic]), comm))
    begin, end = {
        "update": (lambda a: halo.begin_update(a), lambda a: halo.end_update(a)),
        "assemble": (lambda a: halo.begin_assemble(a), lambda a: halo.end_assemble(a)),
        "apply": (lambda a: move.begin_apply(a, target), lambda a: move.end_apply(a, target)),
    }[call]
    for faulty in range(P):
        target = array([cyclic])
        d = array([block(20, P, r, 1)])
        if r == faulty:
            del d["buffer"]
        raised = False
        try:
            begin(d)
            end(d)
        except dapetra.ValidationError as e:
            raised = True
            if r != faulty:
                assert e.problems[0]["rank"] == faulty
        if r == faulty or (P > 1 and abs(r - faulty) == 1) or call == "apply":
            assert raised, f"{call}: fault on rank {faulty}"
        good = array([block(20, P, r, 1)])
        begin(good)
        end(good)
