# Halo updates, assembly and redistribution from Python, checked against
# values computed here from global indices (not from the library).
import numpy as np
import pytest

import dapetra
from conftest import all_ranks, array, block, held_along


global_of = held_along  # global index of each position of a 1-D record


def test_halo_update_fills_padding_with_the_owners_values(comm):
    P, r = comm.size, comm.rank
    d = array([block(30, P, r, 2)])
    g = global_of(d["dim_data"][0])
    left, right = d["dim_data"][0]["padding"]
    owned = np.zeros(len(g), dtype=bool)
    owned[left:len(g) - right] = True
    d["buffer"][:] = np.where(owned, g + 0.5, -1.0)
    plan = dapetra.HaloPlan(dapetra.Layout(d, comm))
    plan.update(d)
    np.testing.assert_array_equal(d["buffer"], g + 0.5)
    # Split phase, on another array of the same layout.
    e = array([block(30, P, r, 2)])
    e["buffer"][:] = np.where(owned, 2.0 * g, -1.0)
    plan.begin_update(e)
    plan.end_update(e)
    np.testing.assert_array_equal(e["buffer"], 2.0 * g)


def strip(P, r):
    """A 'u' strip of ones: process r holds [3r, 3r + 4); index 3r + 3 is also held by r + 1."""
    held = np.arange(3 * r, 3 * r + 4, dtype=np.int64)
    return {"__version__": "0.10.0", "buffer": np.ones(4), "dim_data": [
        {"dist_type": "u", "size": 3 * P + 1, "proc_grid_size": P, "proc_grid_rank": r,
         "indices": held, "one_to_one": False}]}


def copies_held(P, r):
    """How many processes hold each of this process's strip indices."""
    return np.array([2.0 if (i == 0 and r > 0) or (i == 3 and r < P - 1) else 1.0 for i in range(4)])


def test_assemble_sums_every_copy_into_its_owner(comm):
    P, r = comm.size, comm.rank
    d = strip(P, r)
    plan = dapetra.HaloPlan(dapetra.Layout(d, comm))
    plan.assemble(d, mode="add", then_update=True)
    # Every shared index was held twice (each copy 1.0), the others once.
    np.testing.assert_array_equal(d["buffer"], copies_held(P, r))


def test_split_assembly_combines_into_what_owners_hold_at_the_end(comm):
    # Between begin_assemble and end_assemble each owner adds 10 to its own
    # elements, and end_assemble combines into what they then hold.
    P, r = comm.size, comm.rank
    d = strip(P, r)
    plan = dapetra.HaloPlan(dapetra.Layout(d, comm))
    owned = np.array([not (i == 0 and r > 0) for i in range(4)])  # the lowest holder owns
    plan.begin_assemble(d)
    with pytest.raises(ValueError):
        plan.end_update(d)  # an assembly, not an update, is in flight on it
    d["buffer"][owned] += 10.0
    plan.end_assemble(d, mode="add")
    np.testing.assert_array_equal(d["buffer"], np.where(owned, copies_held(P, r) + 10.0, 1.0))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64, np.complex128])
def test_every_element_type_moves(comm, dtype):
    P, r = comm.size, comm.rank
    d = array([block(16, P, r, 1)], dtype=dtype)
    g = global_of(d["dim_data"][0])
    left, right = d["dim_data"][0]["padding"]
    d["buffer"][:] = (g + 1).astype(dtype)
    d["buffer"][:left] = 0
    if right:
        d["buffer"][-right:] = 0
    dapetra.HaloPlan(dapetra.Layout(d, comm)).update(d)
    np.testing.assert_array_equal(d["buffer"], (g + 1).astype(dtype))


def random_record(rng, n, P, r):
    kind = rng.integers(3)
    if kind == 0:
        return block(n, P, r)
    if kind == 1:
        return {"dist_type": "c", "size": n, "proc_grid_size": P, "proc_grid_rank": r,
                "start": r * 1, "block_size": int(rng.integers(1, 4))}
    perm = rng.permutation(n)  # the same permutation on every process (same seed)
    return {"dist_type": "u", "size": n, "proc_grid_size": P, "proc_grid_rank": r,
            "indices": perm[r::P].astype(np.int64), "one_to_one": True}


def test_random_redistributions_round_trip_bit_exact(comm):
    P, r = comm.size, comm.rank
    seed = int(__import__("os").environ.get("DAPETRA_TEST_SEED", "2024"))
    rng = np.random.default_rng(seed)
    for trial in range(20):
        n = int(rng.integers(0, 40))
        src, dst = random_record(rng, n, P, r), random_record(rng, n, P, r)
        if src["dist_type"] == "c":
            src["start"] = r * src["block_size"]
        if dst["dist_type"] == "c":
            dst["start"] = r * dst["block_size"]
        a, b, back = array([src]), array([dst], fill=-1.0), array([src], fill=-1.0)
        a["buffer"][:] = global_of(src) * 1.5 + 0.25
        plan = dapetra.RedistributionPlan(dapetra.Layout(a, comm), dapetra.Layout(b, comm))
        if trial % 2 == 0:
            plan.apply(a, b)
        else:  # the split phase
            plan.begin_apply(a, b)
            plan.end_apply(a, b)
        np.testing.assert_array_equal(b["buffer"], global_of(dst) * 1.5 + 0.25, err_msg=f"seed {seed} trial {trial}")
        if trial % 2 == 0:
            plan.apply_reverse(b, back)
        else:
            plan.begin_apply_reverse(b, back)
            with pytest.raises(ValueError):
                plan.begin_apply_reverse(b, back)  # one call in flight per array
            plan.end_apply_reverse(b, back)
        np.testing.assert_array_equal(back["buffer"], a["buffer"], err_msg=f"seed {seed} trial {trial}")
        # The counters: what every process sends, every process receives; and
        # each target element is received or copied here exactly once.
        assert comm.allreduce(plan.num_sent) == comm.allreduce(plan.num_received)
        assert plan.num_received + plan.num_local == len(global_of(dst)), f"seed {seed} trial {trial}"

