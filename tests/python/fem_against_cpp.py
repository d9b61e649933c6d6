"""The Python finite-element example against the C++ pipeline on the same mesh.

    python3 fem_against_cpp.py MPIEXEC PYTHON EXAMPLE DAPETRA_FEM WORKDIR [--elasticity]

Runs examples/python/poisson.py at 3 processes (it writes its mesh; with
petsc4py installed it solves with PETSc too, on the same arrays), then
dapetra-fem on that mesh at 2 processes: every solve must report the C++
pipeline's L2 and H1 errors (to 1e-6, relative: the solvers stop at
different iterates). With --elasticity, EXAMPLE is examples/python/elasticity.py
and dapetra-fem runs with --elasticity (no PETSc solve).
"""
import os
import re
import subprocess
import sys


def errors(output):
    """Every report's lines, as both programs print them: "L2 error: x", "H1 error: y"."""
    l2 = [float(v) for v in re.findall(r"^L2 error: ([0-9.e+-]+)$", output, re.M)]
    h1 = [float(v) for v in re.findall(r"^H1 error: ([0-9.e+-]+)$", output, re.M)]
    if not l2 or len(l2) != len(h1):
        sys.exit("no errors in the output:\n" + output)
    return list(zip(l2, h1))


def run(cmd):
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done.stdout


def main():
    mpiexec, python, example, fem, work = sys.argv[1:6]
    elasticity = sys.argv[6:] == ["--elasticity"]
    os.makedirs(work, exist_ok=True)
    mesh = os.path.join(work, "mesh.txt")
    mpi = [mpiexec, "--allow-run-as-root", "--oversubscribe", "-n"]
    with_petsc = not elasticity and subprocess.run([python, "-c", "import petsc4py"], capture_output=True).returncode == 0
    py = errors(run(mpi + ["3", python, example, "--n", "24", "--write-mesh", mesh] + (["--petsc"] if with_petsc else [])))
    cpp = errors(run(mpi + ["2", fem, "--mesh", mesh, "--out", work] + (["--elasticity"] if elasticity else [])))[-1]
    if with_petsc and len(py) != 2:
        sys.exit("expected a Belos and a PETSc solve")
    for solve, (l2, h1) in zip(("Belos", "PETSc"), py):
        print(f"{solve}: L2 {l2:.6e} H1 {h1:.6e}; C++: L2 {cpp[0]:.6e} H1 {cpp[1]:.6e}")
        if abs(l2 - cpp[0]) > 1e-6 * cpp[0] or abs(h1 - cpp[1]) > 1e-6 * cpp[1]:
            sys.exit(f"{solve}'s errors differ from the C++ pipeline's")


if __name__ == "__main__":
    main()
