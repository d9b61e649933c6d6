"""Distributions in one line: protocol objects over fresh NumPy buffers.

``empty``/``zeros`` make this process's piece of a global array split over a
process grid, each axis block (``'b'``, with halos and periodic wrap) or
block-cyclic (``'c'``); ``unstructured`` makes a 1-D ``'u'`` piece from an
index array. Each returns a ``DistArray``: the buffer, the records, and
``__distarray__()``, so every Dapetra call (``Layout``, plans,
``tpetra_view``) and any other protocol consumer takes it as it is.

None of the builders communicates: each process computes its own records
from the global shape and its rank, as the protocol intends, and allocates
its buffer with ``numpy.empty`` (``zeros``: ``numpy.zeros``).
``from_ndarray`` (scatter from one process) and ``gather`` (to one process)
are collective and copy, as their names say; ``owned_view`` is a view.
"""
import numpy as np
from mpi4py import MPI

from ._dapetra import Layout

__all__ = ["DistArray", "empty", "zeros", "unstructured", "from_ndarray", "gather", "owned_view"]

VERSION = "0.10.0"


class DistArray:
    """One process's piece of a distributed array: ``buffer`` (a NumPy array),
    ``dim_data`` (the protocol's records, one per axis) and ``comm``.
    ``__distarray__()`` returns the protocol's dict over the same buffer."""

    def __init__(self, buffer, dim_data, comm):
        self.buffer = buffer
        self.dim_data = tuple(dim_data)
        self.comm = comm

    def __distarray__(self):
        return {"__version__": VERSION, "buffer": self.buffer, "dim_data": self.dim_data}

    @property
    def global_shape(self):
        return tuple(d["size"] for d in self.dim_data)

    def __repr__(self):
        kinds = "".join(d["dist_type"] for d in self.dim_data)
        return f"DistArray('{kinds}', global {self.global_shape}, local {self.buffer.shape}, rank {self.comm.rank})"


def _per_axis(value, ndim, name):
    # Plain type checks, not np.ndim: a builder's cost is its bookkeeping.
    values = tuple(value) if isinstance(value, (tuple, list, np.ndarray)) else (value,) * ndim
    if len(values) != ndim:
        raise ValueError(f"{name}: one value per axis ({ndim}), got {len(values)}")
    return values


def _grid(comm, ndim, grid):
    if grid is None:
        if ndim == 1:
            return (comm.size,)
        return tuple(MPI.Compute_dims(comm.size, ndim)) if ndim else ()
    grid = tuple(int(g) for g in grid)
    if len(grid) != ndim or int(np.prod(grid)) != comm.size:
        raise ValueError(f"grid {grid}: one extent per axis whose product is the {comm.size} processes")
    return grid


def _coords(rank, grid):
    """C order, the last coordinate fastest (as MPI_Cart_create and the spec)."""
    coords = []
    for extent in reversed(grid):
        coords.append(rank % extent)
        rank //= extent
    return tuple(reversed(coords))


def _block_record(n, P, k, halo, periodic):
    """Grid rank k's 'b' record of n interior elements split evenly (the first
    n % P ranks one more). A halo is communication padding towards each
    neighbour; on a periodic axis the edges carry pads of the halo's width,
    counted in size and filled from the opposite end by a halo update
    (the convention of docs/protocol.md), so size is n + 2 halo there."""
    edge = halo if periodic else 0
    lo = k * (n // P) + min(k, n % P) + edge
    hi = lo + n // P + (k < n % P)
    left = edge if k == 0 else halo
    right = edge if k == P - 1 else halo
    start, stop = lo - left, hi + right
    # Judged from what every process knows alike (the smallest share), so
    # that all refuse together: no process may go on to a collective alone.
    if halo > (n // P if P > 1 else n):
        raise ValueError(f"a halo of {halo} needs at least {halo} elements on every process; "
                         f"{n} over {P} leaves {n // P}")
    return {"dist_type": "b", "size": n + 2 * edge, "proc_grid_size": P, "proc_grid_rank": k,
            "start": start, "stop": stop, "padding": (left, right), "periodic": bool(periodic)}


def _cyclic_record(n, P, k, b):
    return {"dist_type": "c", "size": n, "proc_grid_size": P, "proc_grid_rank": k, "start": k * b,
            "block_size": b}


def _extent(rec):
    if rec["dist_type"] == "b":
        return rec["stop"] - rec["start"]
    if rec["dist_type"] == "u":
        return len(rec["indices"])
    n, P, k, b = rec["size"], rec["proc_grid_size"], rec["proc_grid_rank"], rec["block_size"]
    blocks = -(-n // b)  # the last one may be partial (where the spec's appendix miscounts)
    count = (blocks // P + (k < blocks % P)) * b
    if n % b and (blocks - 1) % P == k:
        count -= b - n % b
    return count


def empty(shape, comm=None, *, dist="b", grid=None, halo=0, periodic=False, block_size=1, dtype=float):
    """This process's piece of a global array of `shape`, uninitialised.

    dist: per axis 'b' (block) or 'c' (block-cyclic), a string such as "bc"
    or one letter for all. grid: processes per axis (default
    MPI.Compute_dims). halo, periodic: per 'b' axis (see _block_record);
    block_size: per 'c' axis. Not collective: no message is sent.
    """
    return _build(np.empty, shape, comm, dist, grid, halo, periodic, block_size, dtype)


def zeros(shape, comm=None, *, dist="b", grid=None, halo=0, periodic=False, block_size=1, dtype=float):
    """As empty(), filled with zeros (numpy.zeros: pages the system hands
    out zeroed are not written again)."""
    return _build(np.zeros, shape, comm, dist, grid, halo, periodic, block_size, dtype)


def _build(allocate, shape, comm, dist, grid, halo, periodic, block_size, dtype):
    comm = MPI.COMM_WORLD if comm is None else comm
    shape = (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(s) for s in shape)
    ndim = len(shape)
    kinds = _per_axis(tuple(dist) if len(dist) == ndim else dist, ndim, "dist")
    halos = _per_axis(halo, ndim, "halo")
    wraps = _per_axis(periodic, ndim, "periodic")
    blocks = _per_axis(block_size, ndim, "block_size")
    grid = _grid(comm, ndim, grid)
    coords = _coords(comm.rank, grid)
    records = []
    for a in range(ndim):
        if kinds[a] == "b":
            records.append(_block_record(shape[a], grid[a], coords[a], int(halos[a]), wraps[a]))
        elif kinds[a] == "c":
            records.append(_cyclic_record(shape[a], grid[a], coords[a], int(blocks[a])))
        else:
            raise ValueError(f"dist of axis {a}: 'b' or 'c' (for 'u' see unstructured), not {kinds[a]!r}")
    return DistArray(allocate([_extent(r) for r in records], dtype=dtype), records, comm)


def unstructured(indices, size, comm=None, *, one_to_one=False, values_per_index=(), dtype=float):
    """A 1-D 'u' piece holding global `indices` (an index held by several
    processes is owned by its lowest holder unless a Layout is given another
    rule), optionally with trailing undistributed axes (values_per_index,
    e.g. (3,) for a vector field over nodes). Not collective."""
    comm = MPI.COMM_WORLD if comm is None else comm
    indices = np.ascontiguousarray(indices, dtype=np.int64)
    records = [{"dist_type": "u", "size": int(size), "proc_grid_size": comm.size, "proc_grid_rank": comm.rank,
                "indices": indices, "one_to_one": bool(one_to_one)}]
    for k in values_per_index:
        records.append({"dist_type": "b", "size": int(k), "proc_grid_size": 1, "proc_grid_rank": 0,
                        "start": 0, "stop": int(k)})
    return DistArray(np.empty((len(indices),) + tuple(values_per_index), dtype=dtype), records, comm)


def _agreed_root(root, comm):
    """The root every process names, checked with one allgather: a root that
    is no rank, or differs between processes, raises on every process naming
    the first process that is wrong, instead of leaving the others waiting
    in a gather or scatter."""
    plain = isinstance(root, (int, np.integer)) and not isinstance(root, (bool, np.bool_))
    roots = comm.allgather(int(root) if plain else f"a {type(root).__name__}")
    fits = [isinstance(q, int) and 0 <= q < comm.size for q in roots]
    if not all(fits):
        bad = fits.index(False)
        raise ValueError(f"root: rank {bad} names {roots[bad]}, not a rank in 0..{comm.size - 1}")
    if any(q != roots[0] for q in roots):
        raise ValueError(f"root: the processes name different roots (by rank: {roots}); every process names the same")
    return roots[0]


def _held(obj, comm):
    """The layout's index map and the buffer as the protocol gives it."""
    d = obj.__distarray__() if hasattr(obj, "__distarray__") else obj
    return Layout(d, comm).index_map(), np.asarray(d["buffer"])


def from_ndarray(array, like, comm=None, root=0):
    """Collective, copies: `array` (significant on `root` only, the whole
    global array) scattered into `like`'s buffer (any protocol object: every
    element it holds, ghosts too, gets its global value). Returns `like`."""
    comm = MPI.COMM_WORLD if comm is None else comm
    imap, buffer = _held(like, comm)
    root = _agreed_root(root, comm)
    wanted = comm.gather(np.asarray(imap.global_indices), root=root)
    values = None
    if comm.rank == root:
        # A wrong array is refused on every process: the others wait in scatter.
        try:
            values = _pieces_of(array, wanted, like)
        except (ValueError, IndexError, TypeError) as e:
            values = [f"from_ndarray: the array on rank {root} does not fit: {e}"] * comm.size
    mine = comm.scatter(values, root=root)
    if isinstance(mine, str):
        raise ValueError(mine)
    buffer[...] = mine.reshape(buffer.shape)
    return like


def _pieces_of(array, wanted, like):
    """Each process's held values out of the whole global array."""
    d = like.__distarray__() if hasattr(like, "__distarray__") else like
    shape = tuple(int(r["size"]) for r in d["dim_data"])
    flat = np.ascontiguousarray(array).reshape(-1)
    if flat.size != int(np.prod(shape)):
        raise ValueError(f"{flat.size} values for a global array of shape {shape}")
    return [flat[w] for w in wanted]


def gather(obj, comm=None, root=0):
    """Collective, copies: the global array on `root` (None elsewhere), each
    element from its owner. 1-D 'u' arrays whose indices are not exactly
    [0, size) come back as (indices, values), sorted by index."""
    comm = MPI.COMM_WORLD if comm is None else comm
    imap, buffer = _held(obj, comm)
    root = _agreed_root(root, comm)
    owned = np.asarray(imap.owners) == comm.rank
    parts = comm.gather((np.asarray(imap.global_indices)[owned], buffer.reshape(-1)[owned]), root=root)
    if comm.rank != root:
        return None
    index = np.concatenate([p[0] for p in parts])
    value = np.concatenate([p[1] for p in parts])
    order = np.argsort(index, kind="stable")
    index, value = index[order], value[order]
    d = obj.__distarray__() if hasattr(obj, "__distarray__") else obj
    shape = tuple(r["size"] for r in d["dim_data"])
    if len(index) == int(np.prod(shape)) and (len(index) == 0 or (index[0] == 0 and index[-1] == len(index) - 1)):
        return value.reshape(shape)
    return index, value


def owned_view(obj):
    """A NumPy view of the elements this process owns, where they form a box
    of the buffer: 'b' axes without their communication padding, 'c' axes
    whole. A 'u' axis is sliced when its owned positions are one run;
    otherwise ValueError (gather or Layout.index_map().owners then)."""
    d = obj.__distarray__() if hasattr(obj, "__distarray__") else obj
    buffer = d["buffer"]
    box = []
    for a, rec in enumerate(d["dim_data"]):
        if rec["dist_type"] == "b":
            P, k = rec["proc_grid_size"], rec["proc_grid_rank"]
            left, right = rec.get("padding", (0, 0))
            lo = 0 if k == 0 else left  # edge pads are owned
            hi = buffer.shape[a] - (0 if k == P - 1 else right)
            box.append(slice(lo, hi))
        elif rec["dist_type"] == "c":
            box.append(slice(None))
        else:
            raise ValueError("owned_view: a 'u' axis's owned positions depend on every holder; "
                             "use Layout(obj, comm).index_map().owners to select them")
    return buffer[tuple(box)]
