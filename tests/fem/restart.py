"""dapetra-fem --checkpoint at 3 processes, then --restart at 2 and at 4:
the same nodes with the same values (matched by their coordinates, which
the checkpoint carries with them) and the same errors, on other partitions.

    restart.py MPIEXEC DAPETRA_FEM WORKDIR [dapetra-fem options...]
"""
import json
import os
import subprocess
import sys

import numpy as np


def run(mpi, n, fem, work, tag, args):
    report, values = os.path.join(work, f"{tag}.json"), os.path.join(work, f"{tag}.values")
    cmd = mpi + [str(n), fem, "--out", os.path.join(work, tag), "--report", report, "--nodal-values", values] + args
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=240)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}")
    with open(report) as f:
        figures = json.load(f)
    width = figures["dim"] + figures["components"]
    rows = np.concatenate([np.fromfile(f"{values}.{r}", dtype=np.float64).reshape(-1, width) for r in range(n)])
    return figures, rows[np.lexsort(rows.T[::-1])]  # sorted by coordinates


def main():
    mpiexec, fem, work = sys.argv[1:4]
    extra = sys.argv[4:]
    os.makedirs(work, exist_ok=True)
    mpi = [mpiexec, "--allow-run-as-root", "--oversubscribe", "-n"]
    checkpoint = os.path.join(work, "checkpoint.h5")
    if os.path.exists(checkpoint):
        os.remove(checkpoint)
    written, want = run(mpi, 3, fem, work, "written", extra + ["--checkpoint", checkpoint])
    failures = []
    for m in (2, 4):
        restarted, got = run(mpi, m, fem, work, f"restarted{m}", ["--restart", checkpoint])
        if got.shape != want.shape:
            failures.append(f"{m} processes: {got.shape[0]} nodes, the checkpointing run had {want.shape[0]}")
            continue
        if not np.array_equal(got, want):
            failures.append(f"{m} processes: nodes or values differ (largest difference {np.abs(got - want).max():.3e})")
        for key in ("l2_error", "h1_error"):
            a, b = restarted[key], written[key]
            if abs(a - b) > 1e-12 * abs(b):
                failures.append(f"{m} processes: {key} {a!r}, the checkpointing run's {b!r}")
        for key in ("nodes", "cells", "components"):
            if restarted[key] != written[key]:
                failures.append(f"{m} processes: {key} {restarted[key]}, the checkpointing run's {written[key]}")
        print(f"restart at {m} processes: {got.shape[0]} nodes equal, L2 {restarted['l2_error']:.10e} "
              f"(written at 3: {written['l2_error']:.10e}), H1 {restarted['h1_error']:.10e}")
    if failures:
        sys.exit("\n".join(failures))


if __name__ == "__main__":
    main()
