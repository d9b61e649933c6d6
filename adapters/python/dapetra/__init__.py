"""Dapetra: the Distributed Array Protocol (DAP 0.10.0) for MPI programs.

Any object with ``__distarray__()`` (or the protocol's dict itself) becomes a
``Layout``; ``HaloPlan`` and ``RedistributionPlan`` work in place on such
arrays' buffers; ``Layout.index_map()`` answers who owns each held element,
where a global index sits and who the neighbours are. With Tpetra,
``tpetra_view`` makes a Tpetra vector over the producer's memory and
``TpetraVector.__distarray__()`` hands Tpetra's memory back, neither copying.
With Belos, ``CrsMatrix`` (from COO triplets, or in bulk from CSR arrays:
``CrsMatrix.from_csr``) and ``solve`` (MueLu or Ifpack2, one or several
right-hand sides) solve in place on the arrays' owned parts. With parallel HDF5,
``save`` and ``load`` checkpoint any such array and load it on any number of
processes, into any layout of its shape. Creating
layouts, plans, vectors and matrices, and solving, is collective over
the mpi4py communicator. Errors are ``ValidationError`` (a ``ValueError``)
with ``.problems``, raised on every process that takes part.
"""
from . import _dapetra
from ._dapetra import HaloPlan, IndexMap, Layout, RedistributionPlan, ValidationError, __version__

from .distributions import DistArray, empty, from_ndarray, gather, owned_view, unstructured, zeros

__all__ = ["Layout", "IndexMap", "HaloPlan", "RedistributionPlan", "ValidationError", "__version__",
           "DistArray", "empty", "zeros", "unstructured", "from_ndarray", "gather", "owned_view"]

if hasattr(_dapetra, "tpetra_view"):
    from ._dapetra import TpetraVector, new_tpetra_vector, tpetra_view

    __all__ += ["TpetraVector", "tpetra_view", "new_tpetra_vector"]

if hasattr(_dapetra, "solve"):
    from ._dapetra import CrsMatrix, describe_preconditioner, has_muelu, rigid_body_modes, solve

    __all__ += ["CrsMatrix", "solve", "describe_preconditioner", "has_muelu", "rigid_body_modes"]

if hasattr(_dapetra, "solve_block"):  # saddle-point systems (built with MueLu)
    from ._dapetra import solve_block

    __all__ += ["solve_block"]

if hasattr(_dapetra, "save"):  # checkpoints in parallel HDF5 (built with Dapetra::hdf5)
    from ._dapetra import load, save

    __all__ += ["save", "load"]
