# Distributions made in one line: the builders' records pass Layout's checks
# (every rule, all processes together), and the round trip scatter -> halo
# update -> Tpetra -> gather matches NumPy on one process.
import numpy as np
import pytest

import dapetra
from conftest import held_along


def global_values(shape, seed=3):
    return np.random.default_rng(seed).standard_normal(shape)


def owned_along(rec):
    """The global indices a record's process owns along its axis, from the
    spec's definitions alone: 'b' its [start, stop) less its communication
    padding (padding at a global end is boundary padding, counted in size and
    owned by the edge process), 'c' whatever it holds (held_along)."""
    if rec["dist_type"] == "b":
        P, k = rec["proc_grid_size"], rec["proc_grid_rank"]
        left, right = rec.get("padding", (0, 0))
        return np.arange(rec["start"] + (left if k > 0 else 0), rec["stop"] - (right if k < P - 1 else 0))
    return held_along(rec)


CASES = [
    dict(shape=(23,)),
    dict(shape=(23,), halo=2),
    dict(shape=(23,), halo=1, periodic=True),
    dict(shape=(29,), dist="c", block_size=4),  # a partial last block
    dict(shape=(9, 7), halo=1),
    dict(shape=(9, 7), dist="bc", block_size=(1, 2), halo=(1, 0)),
    dict(shape=(6, 5, 4), dist="cbb"),
]


@pytest.mark.parametrize("case", CASES, ids=[str(c) for c in CASES])
def test_scatter_then_gather_is_the_array(comm, case):
    case = dict(case)
    shape = case.pop("shape")
    a = dapetra.zeros(shape, comm, **case)
    layout = dapetra.Layout(a, comm)  # every rule checked, on every process together
    gshape = a.global_shape
    x = global_values(gshape)
    dapetra.from_ndarray(x if comm.rank == 0 else None, a, comm)
    # Every process's owned piece is NumPy's slice of the global array (the records read by the spec's rules).
    owned = [owned_along(rec) for rec in a.dim_data]
    np.testing.assert_array_equal(dapetra.owned_view(a), x[np.ix_(*owned)])
    back = dapetra.gather(a, comm)
    if comm.rank == 0:
        np.testing.assert_array_equal(back, x)
    else:
        assert back is None
    assert comm.allreduce(layout.num_owned) == x.size
    view = dapetra.owned_view(a)
    assert np.shares_memory(view, a.buffer) or view.size == 0
    assert comm.allreduce(view.size) == x.size


def test_a_round_trip_scatter_halo_tpetra_gather_matches_numpy(comm):
    if not hasattr(dapetra, "tpetra_view"):
        pytest.skip("built without Tpetra")
    n = 40
    a = dapetra.zeros((n,), comm, halo=1)
    x = global_values((n,))
    dapetra.from_ndarray(x if comm.rank == 0 else None, a, comm)
    dapetra.owned_view(a)[...] *= 3.0  # owners change their values; ghosts are stale
    dapetra.HaloPlan(dapetra.Layout(a, comm)).update(a)
    v = dapetra.tpetra_view(a, comm)
    assert v.norm2() == pytest.approx(np.linalg.norm(3.0 * x), rel=1e-12)
    # Every held element, ghosts too, now holds its owner's (new) value.
    rec = a.dim_data[0]
    np.testing.assert_array_equal(a.buffer, 3.0 * x[rec["start"]:rec["stop"]])
    back = dapetra.gather(a, comm)
    if comm.rank == 0:
        np.testing.assert_array_equal(back, 3.0 * x)


def test_unstructured_pieces_with_shared_indices(comm):
    P, r = comm.size, comm.rank
    n = 4 * P + 1
    held = np.arange(4 * r, 4 * r + 5)  # shares its last index with the next process
    u = dapetra.unstructured(held, n, comm, values_per_index=(2,))
    x = global_values((n, 2))
    dapetra.from_ndarray(x if r == 0 else None, u, comm)
    np.testing.assert_array_equal(u.buffer, x[held])
    back = dapetra.gather(u, comm)
    if r == 0:
        np.testing.assert_array_equal(back, x)
    with pytest.raises(ValueError, match="index_map"):
        dapetra.owned_view(u)


def test_a_halo_wider_than_a_share_is_refused_on_every_process(comm):
    # Every process judges from what all know alike (the smallest share), so all raise, naming it.
    with pytest.raises(ValueError, match=f"a halo of 2 needs at least 2 elements on every process; "
                                         f"{comm.size} over {comm.size} leaves 1"):
        dapetra.empty((comm.size,), comm, halo=2)


def test_a_builder_gives_a_c_ordered_buffer_and_says_what_it_is(comm):
    a = dapetra.empty((10**6,), comm, halo=1)
    assert a.buffer.flags.c_contiguous and a.buffer.dtype == np.float64
    assert "DistArray('b'" in repr(a)


@pytest.mark.parametrize("wrong", ["too short", "too long"])
def test_a_wrong_array_on_the_root_is_refused_on_every_process(comm, wrong):
    u = dapetra.zeros((6 * comm.size,), comm, halo=1)
    n = 6 * comm.size + (-1 if wrong == "too short" else 1)
    for root in range(comm.size):
        with pytest.raises(ValueError, match=f"rank {root}"):
            dapetra.from_ndarray(np.arange(n, dtype=float), u, comm, root=root)
