# The README's Python example: a halo update and a Tpetra view of a NumPy buffer.
# mpirun -n 2 python3 examples/python/quickstart.py  (with dapetra importable)
import numpy as np
from mpi4py import MPI
import dapetra                                   # PYTHONPATH=build/python, or the installed package

comm = MPI.COMM_WORLD; P, r = comm.size, comm.rank
lo, hi = 10 * r, 10 * (r + 1)                    # 10 owned per process, one ghost each side
start, stop = max(lo - 1, 0), min(hi + 1, 10 * P)
u = {"__version__": "0.10.0", "buffer": np.arange(start, stop, dtype=float),
     "dim_data": ({"dist_type": "b", "size": 10 * P, "proc_grid_size": P, "proc_grid_rank": r,
                   "start": start, "stop": stop, "padding": (lo - start, stop - hi)},)}
plan = dapetra.HaloPlan(dapetra.Layout(u, comm))  # collective; any __distarray__ object works too
plan.update(u)                                    # in place, GIL released while waiting on MPI
v = dapetra.tpetra_view(u, comm)                  # a Tpetra vector over u's whole buffer: no copy
v.scale(2.0)                                      # Tpetra's writes are numpy's (ghosts too)
norm = v.norm2()                                  # collective: each element once, by its owner
assert np.isclose(norm, np.linalg.norm(2.0 * np.arange(10 * P)))  # NumPy's, of the global array
mine = v.owned_view().__distarray__()["buffer"]   # this process's owned values, the same memory
print(f"rank {r}: norm {norm:.2f} of {v.global_length} values; owned {mine[0]:g}..{mine[-1]:g}")
back = v.__distarray__()                          # Tpetra's memory as the spec's dict, kept alive
