"""Dapetra: the Distributed Array Protocol (DAP 0.10.0) for MPI programs.

Any object with ``__distarray__()`` (or the protocol's dict itself) becomes a
``Layout``; ``HaloPlan`` and ``RedistributionPlan`` work in place on such
arrays' buffers. Creating layouts and plans is collective over the layout's
mpi4py communicator. Errors are ``ValidationError`` (a ``ValueError``) with
``.problems``, raised on every process that takes part.
"""
from ._dapetra import HaloPlan, Layout, RedistributionPlan, ValidationError

__all__ = ["Layout", "HaloPlan", "RedistributionPlan", "ValidationError"]
