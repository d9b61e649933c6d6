"""mpi4py-fft's DistArray through the Distributed Array Protocol.

An mpi4py-fft DistArray is a NumPy array holding this process's pencil of a
global array: each axis split in blocks over one sub-communicator of a
Cartesian grid. That is DAP's 'b' distribution on every axis, so
``protocol_dict(a)`` describes it without copying, and ``from_protocol(d, like)``
wraps any DAP buffer with the same distribution (a Tpetra vector's, say) as
an mpi4py-fft DistArray, again without copying.
"""
import numpy as np

__all__ = ["protocol_dict", "Producer", "from_protocol"]


def _records(a):
    """One 'b' record per axis from the pencil: block [start, start + n) of
    the axis's sub-communicator, whose rank is the process's grid coordinate."""
    records = []
    for axis, comm in enumerate(a.pencil.subcomm):
        start = int(a.substart[axis])
        records.append({"dist_type": "b", "size": int(a.global_shape[axis]),
                        "proc_grid_size": comm.Get_size(), "proc_grid_rank": comm.Get_rank(),
                        "start": start, "stop": start + int(a.shape[axis]), "padding": (0, 0)})
    return tuple(records)


def _normalized(record):
    """A record with its keys at their defaults dropped and pairs as tuples."""
    out = {}
    for k, v in dict(record).items():
        v = tuple(v) if isinstance(v, (list, tuple)) else v
        if (k, v) not in (("padding", (0, 0)), ("periodic", False)):
            out[k] = v
    return out


def protocol_dict(a):
    """The protocol's dict for an mpi4py-fft DistArray (rank 0, a scalar
    field): its own memory as the buffer, no copy."""
    if a.rank != 0:
        raise ValueError("only scalar fields (DistArray rank 0) map to one DAP array")
    return {"__version__": "0.10.0", "buffer": np.asarray(a), "dim_data": _records(a)}


class Producer:
    """Any mpi4py-fft DistArray as a __distarray__ object."""

    def __init__(self, a):
        self.array = a

    def __distarray__(self):
        return protocol_dict(self.array)


def from_protocol(d, like):
    """An mpi4py-fft DistArray over the buffer of protocol dict ``d`` (no
    copy), distributed as ``like`` (whose records ``d`` must have)."""
    from mpi4py_fft import DistArray

    if [_normalized(x) for x in d["dim_data"]] != [_normalized(x) for x in _records(like)]:
        raise ValueError("the protocol object is not distributed as `like`")
    buffer = np.asarray(d["buffer"])
    return DistArray(like.global_shape, subcomm=like.pencil.subcomm, dtype=buffer.dtype,
                     buffer=buffer, alignment=like.alignment)
