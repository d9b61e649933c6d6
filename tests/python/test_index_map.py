# Layout.index_map() from Python: owners, global indices, look-ups, owned
# range and neighbours, checked against answers computed here from every
# process's records (allgathered), not from the library.
import numpy as np
import pytest

import dapetra
from conftest import array, block


def truth(comm, held, owned_here):
    """Every process's held global indices and owned flags -> owner of each index."""
    everyone = comm.allgather((np.asarray(held), np.asarray(owned_here)))
    owner = {}
    for q, (h, o) in enumerate(everyone):
        for g in h[o]:
            assert int(g) not in owner
            owner[int(g)] = q
    return everyone, owner


def check(comm, d, owned_here):
    P, r = comm.size, comm.rank
    held = np.asarray(d["dim_data"][0]["indices"]) if d["dim_data"][0]["dist_type"] == "u" else \
        np.arange(d["dim_data"][0]["start"], d["dim_data"][0]["stop"])
    everyone, owner = truth(comm, held, owned_here)
    m = dapetra.Layout(d, comm).index_map()
    np.testing.assert_array_equal(m.global_indices, held)
    np.testing.assert_array_equal(m.owners, [owner[int(g)] for g in held])
    assert not m.owners.flags.writeable
    assert m.num_owned == int(np.sum(owned_here)) and m.num_ghosts == len(held) - m.num_owned
    assert m.global_size == len(owner)
    np.testing.assert_array_equal(m.local_index(held), np.arange(len(held)))
    assert m.local_index(-1) == -1 and m.local_index(10**9) == -1
    assert m.src == sorted({owner[int(g)] for g in held} - {r})
    for i, g in enumerate(held):
        want = [q for q in range(P) if q != r and owned_here[i] and g in everyone[q][0]]
        assert m.sharers(i) == want, (i, g)
    mine = held[np.asarray(owned_here, dtype=bool)]
    if len(mine) == 0:
        assert m.owned_range == (0, 0)
    elif mine.max() - mine.min() + 1 == len(mine):
        assert m.owned_range == (mine.min(), mine.max() + 1)
    else:
        assert m.owned_range is None
    return m


def test_a_padded_strip(comm):
    P, r = comm.size, comm.rank
    d = array([block(10 * P, P, r, 2)])
    left, right = d["dim_data"][0]["padding"]
    owned = np.ones(len(d["buffer"]), dtype=bool)
    owned[:left] = False
    owned[len(owned) - right:] = False
    m = check(comm, d, owned)
    assert m.src == sorted({q for q in (r - 1, r + 1) if 0 <= q < P})
    assert m.dest == m.src


def test_shared_unstructured_nodes(comm):
    # Process r holds [3r, 3r + 4); index 3r + 3 is shared with r + 1 (lowest holder owns it).
    P, r = comm.size, comm.rank
    held = np.arange(3 * r, 3 * r + 4 if r < P - 1 else 3 * r + 3, dtype=np.int64)[::-1].copy()
    d = {"__version__": "0.10.0", "buffer": np.zeros(len(held)), "dim_data": [
        {"dist_type": "u", "size": 3 * P, "proc_grid_size": P, "proc_grid_rank": r, "indices": held,
         "one_to_one": False}]}
    check(comm, d, (held > 3 * r) | (r == 0))


def test_version():
    assert dapetra.__version__.count(".") == 2


def ring(comm):
    """Process r holds [5r, 5r + 7) of a ring of 5P: its next neighbour's first two are copies."""
    P, r = comm.size, comm.rank
    n = 5 * P
    held = (5 * r + np.arange(7 if P > 1 else 5)) % n
    return {"__version__": "0.10.0", "buffer": np.zeros(len(held)), "dim_data": [
        {"dist_type": "u", "size": n, "proc_grid_size": P, "proc_grid_rank": r, "indices": held.astype(np.int64),
         "one_to_one": False}]}, held


def holders_of(comm, held):
    everyone = comm.allgather(held)
    return {int(g): [q for q in range(comm.size) if g in everyone[q]] for g in held}


def test_owner_rules_from_python(comm):
    d, held = ring(comm)
    who = holders_of(comm, held)
    for owner, pick in (("lowest", min), ("highest", max), (lambda g, h: h[len(h) // 2], lambda h: h[len(h) // 2])):
        m = dapetra.Layout(d, comm, owner=owner).index_map()
        np.testing.assert_array_equal(m.owners, [pick(who[int(g)]) for g in held])


def test_a_bad_owner_rule_raises_on_every_process(comm):
    d, _ = ring(comm)
    if comm.size == 1:
        return  # nothing is shared
    for bad in range(comm.size):
        def rule(g, holders):
            if comm.rank == bad:
                raise RuntimeError("no owner here")
            return holders[0]
        with pytest.raises(dapetra.ValidationError):
            dapetra.Layout(d, comm, owner=rule)
    with pytest.raises(dapetra.ValidationError):
        dapetra.Layout(d, comm, owner=lambda g, holders: -5)  # not a holder
    with pytest.raises(dapetra.ValidationError, match="owner"):
        dapetra.Layout(d, comm, owner="middle" if comm.rank == comm.size - 1 else "lowest")


def test_owned_ranges_give_owners_without_a_rendezvous(comm):
    # The ring holds its own range [5r, 5r + 5) first: the boundaries 0, 5, ..., 5P say who owns what.
    d, held = ring(comm)
    starts = [5 * q for q in range(comm.size + 1)]
    m = dapetra.Layout(d, comm, owned_ranges=np.asarray(starts)).index_map()
    np.testing.assert_array_equal(m.owners, held // 5)
    told = dapetra.Layout(d, comm, owner=lambda g, holders: g // 5).index_map()  # the rendezvous, same owners
    np.testing.assert_array_equal(m.owners, told.owners)
    assert m.dest == told.dest and m.src == told.src


def test_owned_ranges_that_do_not_fit_raise_on_every_process(comm):
    d, _ = ring(comm)
    starts = [5 * q for q in range(comm.size + 1)]
    for bad in range(comm.size):
        for spoiled in (starts[:-1], "0 5", [s + 1 for s in starts]):
            mine = spoiled if comm.rank == bad else starts
            with pytest.raises(dapetra.ValidationError) as e:
                dapetra.Layout(d, comm, owned_ranges=mine)
            assert any(p["key"] == "owned_ranges" for p in e.value.problems), e.value.problems
        # An owner besides the ranges on one process: one way to name owners at a time.
        with pytest.raises(dapetra.ValidationError) as e:
            dapetra.Layout(d, comm, owned_ranges=starts, owner="highest" if comm.rank == bad else None)
        assert [(p["rank"], p["key"], p["message"]) for p in e.value.problems] == [(bad, "owned_ranges", "both were given")]


def scrambled(comm, seed=11):
    """A numbering that is not ranges (DOLFINx's after reordering, say): every
    index of [0, 4P) held by a random set of processes in random order, its
    owner a random holder. The same draw on every process. Returns this
    process's dict, its held indices, the owner of every index and its holders."""
    P, r = comm.size, comm.rank
    rng = np.random.default_rng(seed)
    n = 4 * P
    holders = {}
    for g in range(n):
        first = int(rng.integers(P))
        holders[g] = sorted({first} | {q for q in range(P) if rng.random() < 0.4})
    owner = {g: holders[g][int(rng.integers(len(holders[g])))] for g in range(n)}
    held = np.array([g for g in range(n) if r in holders[g]], dtype=np.int64)
    rng.shuffle(held)  # (the same draws on every process: shuffles of different lengths come last)
    d = {"__version__": "0.10.0", "buffer": np.zeros(len(held)), "dim_data": [
        {"dist_type": "u", "size": n, "proc_grid_size": P, "proc_grid_rank": r, "indices": held,
         "one_to_one": False}]}
    return d, held, owner, holders


def test_owner_arrays_name_the_owner_of_every_held_position(comm):
    d, held, owner, holders = scrambled(comm)
    held_owners = np.array([owner[int(g)] for g in held], dtype=np.int32)
    m = dapetra.Layout(d, comm, owner=held_owners).index_map()
    np.testing.assert_array_equal(m.owners, held_owners)
    ruled = dapetra.Layout(d, comm, owner=lambda g, h: owner[g]).index_map()  # the same owners, by a rule
    assert m.src == ruled.src and m.dest == ruled.dest and m.num_owned == ruled.num_owned
    # A halo update copies every owner's value, where the owner is not the
    # lowest holder too (the stale-ghost case of a lowest-holder rule).
    if comm.size > 1:
        assert any(owner[g] != holders[g][0] for g in owner), "the draw tests no owner but the lowest"
    layout = dapetra.Layout(d, comm, owner=list(held_owners))  # any integer sequence
    d["buffer"][:] = np.where(held_owners == comm.rank, 10.0 * held + 1, -1.0)
    dapetra.HaloPlan(layout).update(d)
    np.testing.assert_array_equal(d["buffer"], 10.0 * held + 1)


@pytest.mark.skipif(not hasattr(dapetra, "tpetra_view"), reason="built without Tpetra")
def test_tpetra_views_follow_an_owner_array(comm):
    # A solve writes the owned rows; the halo update then brings them to every copy.
    d, held, owner, _ = scrambled(comm, seed=5)
    held_owners = np.array([owner[int(g)] for g in held], dtype=np.int64)
    d["buffer"][:] = held + 1.0
    v = dapetra.tpetra_view(d, comm, owner=held_owners)
    n = 4 * comm.size
    assert v.global_length == n and v.owned_length == int(np.sum(held_owners == comm.rank))
    assert v.norm2() == pytest.approx(np.linalg.norm(np.arange(n) + 1.0))
    w = v.copy_owned()
    w.scale(3.0)  # "the solve": the owned rows alone, in Tpetra's memory
    d["buffer"][held_owners == comm.rank] = np.asarray(w.__distarray__()["buffer"]).ravel()
    dapetra.HaloPlan(dapetra.Layout(d, comm, owner=held_owners)).update(d)
    np.testing.assert_array_equal(d["buffer"], 3.0 * (held + 1.0))


class Unprintable:
    """No text: its repr() and str() raise, as a message about it is built."""
    def __repr__(self):
        raise RuntimeError("no text")

    __str__ = __repr__


def test_a_wrong_owner_array_raises_on_every_process(comm):
    d, held, owner, holders = scrambled(comm, seed=3)
    held_owners = np.array([owner[int(g)] for g in held], dtype=np.int64)
    P = comm.size
    spoils = [("one short", lambda c: c[:-1], "held_owners"),
              ("floats", lambda c: c.astype(float) + 0.5, "owner"),
              ("two-dimensional", lambda c: c.reshape(1, -1), "owner"),
              ("a rank past the communicator", lambda c: np.full_like(c, P), "held_owners"),
              ("an object whose repr() raises", lambda c: Unprintable(), "owner")]
    if P > 1:
        # An index held here and elsewhere, named for another holder (or one not holding it).
        shared = [i for i, g in enumerate(held) if len(holders[int(g)]) > 1]
        def other_owner(c):
            c = c.copy()
            i = shared[0]
            c[i] = next(q for q in range(P) if q != c[i])
            return c
        spoils.append(("disagreeing on a shared index", other_owner, "held_owners"))
    # The disagreeing spoil bites on a process that holds a shared index: every such process in turn.
    has_shared = comm.allgather(any(len(holders[int(g)]) > 1 for g in held))
    disagreements = 0
    for bad in range(P):
        for what, spoil, key in spoils:
            if what.startswith("disagreeing"):
                if not has_shared[bad]:
                    continue
                disagreements += 1
            mine = spoil(held_owners) if comm.rank == bad else held_owners
            with pytest.raises(dapetra.ValidationError) as e:
                dapetra.Layout(d, comm, owner=mine)
            assert any(p["key"] == key for p in e.value.problems), (what, e.value.problems)
            if hasattr(dapetra, "tpetra_view"):
                with pytest.raises(dapetra.ValidationError) as e:
                    dapetra.tpetra_view(d, comm, owner=mine)
                assert any(p["key"] == key for p in e.value.problems), (what, e.value.problems)
    assert P == 1 or disagreements > 0, "no process holds a shared index: the disagreeing case never ran"


@pytest.mark.skipif(not hasattr(dapetra, "tpetra_view"), reason="built without Tpetra")
def test_tpetra_vectors_take_owned_ranges_and_owner_arrays(comm):
    # The ring with owned ranges: each process owns its [5r, 5r + 5), whatever it holds besides.
    d, held = ring(comm)
    P = comm.size
    starts = np.array([5 * q for q in range(P + 1)])
    d["buffer"][:] = held + 1.0
    v = dapetra.tpetra_view(d, comm, owned_ranges=starts)
    assert v.global_length == 5 * P and v.owned_length == 5
    assert v.norm1() == pytest.approx(np.sum(np.arange(5 * P) + 1.0))  # each element once, by its owner
    w = dapetra.new_tpetra_vector(d, comm, owned_ranges=starts)
    assert w.owned_length == 5 and w.buffer_length == len(held) and w.norm_inf() == 0.0
    # An owner array: DOLFINx's owners on a scrambled numbering.
    d, held, owner, _ = scrambled(comm, seed=7)
    held_owners = np.array([owner[int(g)] for g in held], dtype=np.int64)
    w = dapetra.new_tpetra_vector(d, comm, owner=held_owners)
    assert w.owned_length == int(np.sum(held_owners == comm.rank)) and w.global_length == 4 * P


@pytest.mark.skipif(not hasattr(dapetra, "tpetra_view"), reason="built without Tpetra")
def test_tpetra_vectors_refuse_wrong_ownership_on_every_process(comm):
    d, _ = ring(comm)
    starts = [5 * q for q in range(comm.size + 1)]
    s, held, owner, _ = scrambled(comm, seed=7)
    held_owners = np.array([owner[int(g)] for g in held], dtype=np.int64)
    for bad in range(comm.size):
        here = comm.rank == bad
        calls = ((lambda: dapetra.tpetra_view(d, comm, owned_ranges=starts[:-1] if here else starts), "owned_ranges"),
                 (lambda: dapetra.new_tpetra_vector(d, comm, owned_ranges="0 5" if here else starts), "owned_ranges"),
                 (lambda: dapetra.new_tpetra_vector(s, comm, owner=held_owners[:-1] if here else held_owners), "held_owners"),
                 (lambda: dapetra.new_tpetra_vector(s, comm, owner=held_owners + 0.5 if here else held_owners), "owner"))
        for call, key in calls:
            with pytest.raises(dapetra.ValidationError) as e:
                call()
            assert any(p["rank"] == bad and p["key"] == key for p in e.value.problems), (bad, key, e.value.problems)


def test_gather_and_redistribution_refuse_one_process_wrong_on_every_process(comm):
    P = comm.size
    a = dapetra.zeros((6 * P,), comm)
    b = dapetra.zeros((6 * P,), comm, dist="c")
    plan = dapetra.RedistributionPlan(dapetra.Layout(a, comm), dapetra.Layout(b, comm))
    d = a.__distarray__()
    for bad in range(P):
        here = comm.rank == bad
        short = dict(d, buffer=d["buffer"][:-1]) if here else d  # a buffer one element short
        with pytest.raises(dapetra.ValidationError) as e:
            dapetra.gather(short, comm)
        assert any(p["rank"] == bad for p in e.value.problems), e.value.problems
        for root in (P, "0", -1):  # no rank, or not the root the others name
            with pytest.raises(ValueError, match=f"root: rank {bad} names"):
                dapetra.gather(a, comm, root=root if here else 0)
        if P > 1:
            with pytest.raises(ValueError, match="root: the processes name different roots"):
                dapetra.gather(a, comm, root=1 if here else 0)
        for step in (lambda: plan.apply(short, b), lambda: plan.apply_reverse(b, short)):
            with pytest.raises(dapetra.ValidationError) as e:
                step()
            assert [(p["rank"], p["key"]) for p in e.value.problems] == [(bad, "shape")], e.value.problems
    # After the refusals the plan still moves the right values.
    a.buffer[:] = np.arange(a.dim_data[0]["start"], a.dim_data[0]["stop"])
    plan.apply(a, b)
    rec = b.dim_data[0]
    np.testing.assert_array_equal(b.buffer, np.arange(rec["proc_grid_rank"], 6 * P, P))
