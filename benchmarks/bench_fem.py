"""The finite-element rows: dapetra-fem against DOLFINx 0.5.2 on the same
problem (benchmarks/fem_dolfinx.py), in the same run, at 2 and 4 processes.

Both sides: -div(grad u) = f, u = prod sin(pi x_d) on the whole boundary,
P1 on the unit square (cube) cut n x n (x n) without perturbation, CG + AMG
(ours: Belos + MueLu; DOLFINx: PETSc + GAMG) to relative residual 1e-10 in
the unpreconditioned norm. Rows: mesh + partition; assembly set-up (the
Dirichlet values at the nodes; DOLFINx also finds its boundary facets);
assembly (structure and values of A and b, lifting, BCs; f integrated with
the same quadrature degree on both sides); re-assembly into the existing
matrix and vector (fastest of 3); solve; and peak resident memory of the
largest process (its `ours_s` and `baseline_s` are MB, `unit` says so).
Both sides cut the same mesh (ours with --diagonals alike, as DOLFINx cuts
the square; the cube's six tetrahedra per cube are DOLFINx's already), so
each row checks its own result:
  mesh+partition  the same numbers of nodes and cells;
  set-up          the same number of Dirichlet nodes;
  assembly        ||A||_F and ||b||_2 after the first assembly, equal to 1e-12;
  re-assembly     the same after the last re-assembly;
  solve           both converged, and the solutions agree node by node
                  (matched by coordinates) within what the two solves'
                  relative residuals explain: ||u - v|| / ||u|| <= kappa (r_u + r_v),
                  kappa the condition number of the unit-square (cube) P1
                  matrix with unit Dirichlet rows;
  memory          the same problem (nodes and cells) and the same solution.

    /usr/bin/python3 benchmarks/bench_fem.py --fem build/examples/fem/dapetra-fem --out build/bench/results.json
        [--quick] [--check]
"""
import argparse
import glob
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

from bench_rows import append_rows

HERE = os.path.dirname(os.path.abspath(__file__))
MPI = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-n"]
REASSEMBLIES = 3


def run_json(command, path):
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    with open(path) as f:
        return json.load(f)


def nodal_values(prefix, dim, n):
    """Every process's owned (coordinates, u) rows, sorted by node position."""
    rows = np.concatenate([np.fromfile(f) for f in sorted(glob.glob(prefix + ".[0-9]*"))]).reshape(-1, dim + 1)
    grid = np.rint(rows[:, :dim] * n).astype(np.int64)  # unperturbed nodes sit at integer multiples of 1/n
    order = np.lexsort(grid.T[::-1])
    return grid[order], rows[order, dim]


def condition_number(dim, n):
    """kappa_2 of the P1 Laplacian on the unit square (cube) cut n x n (x n)
    with unit Dirichlet rows: its interior eigenvalues lie in
    [d pi^2 h^d, 4 d h^(d-2)] (the 5- and 7-point stencils scaled by h^(d-2))."""
    h = 1.0 / n
    return max(4 * dim * h ** (dim - 2), 1.0) / min(dim * math.pi ** 2 * h ** dim, 1.0)


def close(a, b, tolerance=1e-12):
    return all(abs(x - y) <= tolerance * max(abs(x), abs(y)) for x, y in zip(a, b))


def checks_for(ours, theirs, ours_nodal, theirs_nodal, n):
    """Each row's own check, by label (see the module's docstring)."""
    (grid_u, u), (grid_v, v) = ours_nodal, theirs_nodal
    bound = condition_number(ours["dim"], n) * (ours["relative_residual"] + theirs["relative_residual"])
    same_nodes = grid_u.shape == grid_v.shape and bool((grid_u == grid_v).all())
    difference = float(np.linalg.norm(u - v) / np.linalg.norm(u)) if same_nodes else math.inf
    solved = (ours["relative_residual"] <= 1e-9 and theirs["relative_residual"] <= 1e-9 and difference <= bound)
    same_problem = ours["nodes"] == theirs["nodes"] and ours["cells"] == theirs["cells"]
    return {"mesh+partition": same_problem,
            "assembly set-up": ours["dirichlet_nodes"] == theirs["dirichlet_nodes"],
            "assembly": close(ours["assembled_norms"], theirs["assembled_norms"]),
            "re-assembly": close(ours["reassembled_norms"], theirs["reassembled_norms"]),
            "solve": solved,
            "peak memory per process": same_problem and solved}, difference, bound


def rows_for(case, ours, theirs, checks, np_, mode):
    flags, difference, bound = checks
    size = f"{case} nodes={ours['nodes']} np={np_}"
    what = [("mesh+partition", ours["mesh_s"] + ours["partition_s"], "DOLFINx create_unit_* (partitioned) + FunctionSpace",
             theirs["mesh_s"], 1.0, "s"),
            ("assembly set-up", ours["setup_s"], "DOLFINx exterior facets + their dofs + interpolate g",
             theirs["setup_s"], 1.0, "s"),
            ("assembly", ours["assembly_s"], "DOLFINx assemble_matrix/vector + lifting + BCs", theirs["assembly_s"], 0.7, "s"),
            ("re-assembly", ours["reassembly_s"],
             "DOLFINx assemble_matrix/vector + lifting + BCs into the existing A and b", theirs["reassembly_s"], 0.5, "s"),
            ("solve", ours["solve_s"], "DOLFINx: PETSc CG + GAMG (set-up included)", theirs["solve_s"], 1.5, "s"),
            ("peak memory per process", ours["peak_rss_mb"], "DOLFINx peak memory per process", theirs["peak_rss_mb"], 2.0,
             "MB")]
    rows = []
    for label, mine, baseline_name, baseline, target, unit in what:
        same = flags[label]
        shown = f"re-assembly (fastest of {REASSEMBLIES})" if label == "re-assembly" else label
        r = {"name": f"fem {shown} {size}", "ours_s": mine, "baseline": baseline_name, "baseline_s": baseline,
             "ratio": mine / baseline if baseline > 0 else 0.0, "target": target, "same_result": bool(same),
             "unit": unit, "np": np_, "mode": mode, "iterations": ours["iterations"],
             "baseline_iterations": theirs["iterations"], "l2_error": ours["l2_error"],
             "baseline_l2_error": theirs["l2_error"], "solution_difference": difference, "difference_bound": bound}
        r["holds"] = r["same_result"] and baseline > 0 and r["ratio"] <= target
        verdict = "WRONG" if not same else ("ok  " if r["holds"] else "MISS")
        print(f"{r['name']:<60s} {mine:11.3e} {baseline:11.3e} {r['ratio']:8.3f} {target:7.2f}  {verdict}  "
              f"(vs {baseline_name}; {unit}; iterations {ours['iterations']} / {theirs['iterations']}; "
              f"||u - v||/||u|| {difference:.1e} <= {bound:.1e})", flush=True)
        rows.append(r)
    return rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fem", required=True, help="the dapetra-fem executable")
    parser.add_argument("--out", required=True)
    parser.add_argument("--python", default=sys.executable, help="the interpreter that has python3-dolfinx")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--check", action="store_true", help="exit 1 if a row's two sides disagree")
    args = parser.parse_args()
    # About 10^6 nodes in both dimensions at full size.
    cases = [("2-D", [], 200 if args.quick else 1000), ("3-D", ["--3d"], 16 if args.quick else 100)]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        ours_json, theirs_json = os.path.join(tmp, "ours.json"), os.path.join(tmp, "theirs.json")
        ours_values, theirs_values = os.path.join(tmp, "ours_u"), os.path.join(tmp, "theirs_u")
        for np_ in (2, 4):
            for case, flags, n in cases:
                for stale in glob.glob(ours_values + ".*") + glob.glob(theirs_values + ".*"):
                    os.remove(stale)  # from a run at another process count
                ours = run_json(MPI + [str(np_), args.fem, "--n", str(n), "--perturb", "0", "--tol", "1e-10",
                                       "--out", os.path.join(tmp, "out"), "--reassemble", str(REASSEMBLIES),
                                       "--diagonals", "alike", "--nodal-values", ours_values,
                                       "--report", ours_json] + flags, ours_json)
                theirs = run_json(MPI + [str(np_), args.python, os.path.join(HERE, "fem_dolfinx.py"), "--n", str(n),
                                         "--tol", "1e-10", "--reassemble", str(REASSEMBLIES), "--json", theirs_json,
                                         "--nodal-values", theirs_values] + flags,
                              theirs_json)
                dim = ours["dim"]
                checks = checks_for(ours, theirs, nodal_values(ours_values, dim, n), nodal_values(theirs_values, dim, n), n)
                rows += rows_for(case, ours, theirs, checks, np_, "quick" if args.quick else "full")
    append_rows(args.out, rows)
    return 1 if args.check and not all(r["same_result"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
