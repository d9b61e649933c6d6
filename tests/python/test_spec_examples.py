# Every chapter-2 example of the spec, written as the spec's own Python dicts,
# consumed by dapetra.Layout at its process count: the global index of every
# buffer element (from the layout) is the value the spec lists.
import numpy as np
import pytest

import dapetra
from conftest import as_spec_dict, spec_examples

EXAMPLES = spec_examples()
VALUES_ARE_INDICES = [k for k in EXAMPLES if k not in ("2.1", "2.2", "2.3")]


@pytest.mark.parametrize("example", sorted(EXAMPLES))
def test_every_example_is_consumed(comm, example):
    ranks = EXAMPLES[example]["ranks"]
    if len(ranks) != comm.size:
        pytest.skip(f"example {example} runs on {len(ranks)} processes")
    d = as_spec_dict(ranks[comm.rank])
    layout = dapetra.Layout(d, comm)
    assert layout.global_shape == tuple(x["size"] for x in d["dim_data"])
    assert layout.local_shape == d["buffer"].shape
    if example not in VALUES_ARE_INDICES:
        return
    # Flat C-order global index of every element, from the layout's per-axis indices.
    flat = np.zeros(d["buffer"].shape, dtype=np.int64)
    for axis, size in enumerate(layout.global_shape):
        idx = layout.global_indices(axis).reshape([-1 if a == axis else 1 for a in range(len(layout.global_shape))])
        flat = flat * size + idx
    np.testing.assert_array_equal(flat, d["buffer"].astype(np.int64))


def test_every_process_count_of_the_spec_is_exercised(comm):
    counts = {len(e["ranks"]) for e in EXAMPLES.values()}
    if comm.size in counts:
        ran = [k for k, e in EXAMPLES.items() if len(e["ranks"]) == comm.size]
        assert ran, "an example must run at this process count"
