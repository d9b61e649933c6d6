"""Python soak: rounds of Layout, HaloPlan, update and tpetra_view, each made
anew from changing data, leave every process's resident memory where the
first rounds left it (growth under 1 MiB), and every round's values are
checked as it goes: the ghosts hold their owners' new values, and the Tpetra
view, over the same memory, has NumPy's norm of the global array.

    mpirun -n 2 /usr/bin/python3 tests/python/soak.py [rounds]

Its own program (not collected by pytest), so no other test's memory shows.
"""
import os
import resource
import sys

import numpy as np
from mpi4py import MPI

import dapetra

comm = MPI.COMM_WORLD
P, rank = comm.size, comm.rank
PER = 50  # owned values per process
WARM = 200
BOUND = 1 << 20


def resident_bytes():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize()


def one_round(k):
    """One round with round k's values; the number of wrong values here."""
    u = dapetra.zeros((PER * P,), comm, halo=1)
    layout = dapetra.Layout(u, comm)
    imap = layout.index_map()
    mine = imap.owners == rank
    values = imap.global_indices + 1000.0 * (k % 997)
    u.buffer[mine] = values[mine]
    u.buffer[~mine] = -1.0  # stale ghosts
    dapetra.HaloPlan(layout).update(u)
    wrong = int(np.count_nonzero(u.buffer != values))
    if hasattr(dapetra, "tpetra_view"):
        view = dapetra.tpetra_view(u, comm)
        expected = np.linalg.norm(np.arange(PER * P) + 1000.0 * (k % 997))
        wrong += not np.isclose(view.norm2(), expected, rtol=1e-13)
        wrong += not np.shares_memory(view.__distarray__()["buffer"], u.buffer)
    return wrong


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    wrong = sum(one_round(k) for k in range(WARM))
    before = resident_bytes()
    wrong += sum(one_round(k) for k in range(WARM, rounds))
    growth = comm.allreduce(resident_bytes() - before, op=MPI.MAX)
    wrong = comm.allreduce(wrong, op=MPI.SUM)
    if rank == 0:
        print(f"python soak: {rounds} rounds, resident growth at most {growth} bytes on any process, {wrong} wrong values")
    # Under AddressSanitizer freed memory waits in its quarantine, so resident
    # memory says nothing there (the sanitized build sets this); values still count.
    memory_checked = os.environ.get("DAPETRA_SOAK_MEMORY") != "unchecked"
    return 0 if (growth < BOUND or not memory_checked) and wrong == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
