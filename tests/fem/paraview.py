"""ParaView opens the pipeline's one-file output as a user would: dapetra-fem
at 4 processes writes solution.xdmf + solution.h5; Debian's pvpython
(headless) opens the .xdmf and must find the run's number of points and
cells and the field's range, per component, as the run's own nodal values
give them (written independently of the HDF5 file).

    paraview.py MPIEXEC DAPETRA_FEM PVPYTHON WORKDIR [dapetra-fem options...]
"""
import json
import os
import subprocess
import sys

import numpy as np

# What pvpython runs: the file opened by ParaView's own choice of reader.
OPEN_IN_PARAVIEW = """
import json, sys
from paraview.simple import OpenDataFile
reader = OpenDataFile(sys.argv[1])
reader.UpdatePipeline()
info = reader.GetDataInformation()
u = reader.PointData["u"]
print("PARAVIEW " + json.dumps({"reader": type(reader).__name__, "points": info.GetNumberOfPoints(),
    "cells": info.GetNumberOfCells(), "ranges": [list(u.GetRange(k)) for k in range(u.GetNumberOfComponents())]}))
"""


def main():
    mpiexec, fem, pvpython, work = sys.argv[1:5]
    extra = sys.argv[5:]
    os.makedirs(work, exist_ok=True)
    n = 4
    report, values = os.path.join(work, "run.json"), os.path.join(work, "values")
    subprocess.run([mpiexec, "--allow-run-as-root", "--oversubscribe", "-n", str(n), fem, "--out", work, "--report",
                    report, "--nodal-values", values] + extra, check=True, timeout=240, capture_output=True)
    with open(report) as f:
        run = json.load(f)
    width = run["dim"] + run["components"]
    rows = np.concatenate([np.fromfile(f"{values}.{r}", dtype=np.float64).reshape(-1, width) for r in range(n)])
    u = rows[:, run["dim"]:]
    want = {"points": run["nodes"], "cells": run["cells"],
            "ranges": [[float(u[:, k].min()), float(u[:, k].max())] for k in range(run["components"])]}
    script = os.path.join(work, "open_in_paraview.py")
    with open(script, "w") as f:
        f.write(OPEN_IN_PARAVIEW)
    done = subprocess.run([pvpython, script, os.path.join(work, "solution.xdmf")], capture_output=True, text=True,
                          timeout=240)
    lines = [line for line in done.stdout.splitlines() if line.startswith("PARAVIEW ")]
    if done.returncode != 0 or not lines:
        sys.exit(f"pvpython could not open the file:\n{done.stdout}\n{done.stderr}")
    got = json.loads(lines[-1][len("PARAVIEW "):])
    print(f"ParaView ({got['reader']}): {got['points']} points, {got['cells']} cells, u's range {got['ranges']}; "
          f"the run: {want['points']} nodes, {want['cells']} cells, {want['ranges']}")
    problems = [f"{key}: ParaView {got[key]}, the run {want[key]}" for key in ("points", "cells") if got[key] != want[key]]
    if len(got["ranges"]) != len(want["ranges"]) or not np.allclose(got["ranges"], want["ranges"], rtol=1e-12, atol=0):
        problems.append(f"u's range: ParaView {got['ranges']}, the run {want['ranges']}")
    if problems:
        sys.exit("\n".join(problems))


if __name__ == "__main__":
    main()
