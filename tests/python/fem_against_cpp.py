"""The Python finite-element example against the C++ pipeline on the same mesh.

    python3 fem_against_cpp.py MPIEXEC PYTHON EXAMPLE DAPETRA_FEM WORKDIR

Runs examples/python/poisson.py at 3 processes (it writes its mesh), then
dapetra-fem on that mesh at 2 processes: both must report the same L2 and H1
errors (to 1e-6, relative: the solvers stop at different iterates).
"""
import os
import re
import subprocess
import sys


def errors(output):
    """The final report's lines, as both programs print them: "L2 error: x", "H1 error: y"."""
    found = [re.search(rf"^{norm} error: ([0-9.e+-]+)$", output, re.M) for norm in ("L2", "H1")]
    if not all(found):
        sys.exit("no errors in the output:\n" + output)
    return tuple(float(m.group(1)) for m in found)


def run(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done.stdout


def main():
    mpiexec, python, example, fem, work = sys.argv[1:6]
    os.makedirs(work, exist_ok=True)
    mesh = os.path.join(work, "mesh.txt")
    mpi = [mpiexec, "--allow-run-as-root", "--oversubscribe", "-n"]
    py = errors(run(mpi + ["3", python, example, "--n", "24", "--write-mesh", mesh]))
    cpp = errors(run(mpi + ["2", fem, "--mesh", mesh, "--out", work]))
    print(f"Python L2 {py[0]:.6e} H1 {py[1]:.6e}; C++ L2 {cpp[0]:.6e} H1 {cpp[1]:.6e}")
    for a, b in zip(py, cpp):
        if abs(a - b) > 1e-6 * abs(b):
            sys.exit("the errors differ")


if __name__ == "__main__":
    main()
