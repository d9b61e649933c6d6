# The README's Python example: a distribution in one line, a halo update, a Tpetra view.
# mpirun -n 2 python3 examples/python/quickstart.py  (with dapetra importable)
import numpy as np
from mpi4py import MPI
import dapetra                                   # PYTHONPATH=build/python, or the installed package

comm = MPI.COMM_WORLD; P, r = comm.size, comm.rank
u = dapetra.zeros((10 * P,), comm, halo=1)       # 10 owned per process, a ghost each side; no message
layout = dapetra.Layout(u, comm)                 # collective: every process's records checked together
imap = layout.index_map()                        # who owns what: owners, global indices, neighbours
mine = imap.owners == r
u.buffer[mine] = imap.global_indices[mine]       # owned values: their global index; ghosts still 0
dapetra.HaloPlan(layout).update(u)               # in place, GIL released while waiting on MPI
assert (u.buffer == imap.global_indices).all()   # every ghost now holds its owner's value
v = dapetra.tpetra_view(u, comm)                 # a Tpetra vector over u's whole buffer: no copy
v.scale(2.0)                                     # Tpetra's writes are numpy's (ghosts too)
norm = v.norm2()                                 # collective: each element once, by its owner
assert np.isclose(norm, np.linalg.norm(2.0 * np.arange(10 * P)))  # NumPy's, of the global array
owned = dapetra.owned_view(u)                    # this process's owned values, the same memory
print(f"rank {r}: norm {norm:.2f} of {v.global_length} values; owned {owned[0]:g}..{owned[-1]:g}")
back = v.__distarray__()                         # Tpetra's memory as the spec's dict, kept alive
