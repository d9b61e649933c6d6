"""The finite-element rows: dapetra-fem against DOLFINx 0.5.2 on the same
problem (benchmarks/fem_dolfinx.py), in the same run, at 2 and 4 processes.

Scalar rows, both sides: -div(grad u) = f, u = prod sin(pi x_d) on the whole
boundary, P1 on the unit square (cube) cut n x n (x n) without perturbation,
CG + AMG (ours: Belos + MueLu; DOLFINx: PETSc + GAMG) to relative residual
1e-10 in the unpreconditioned norm. Rows: mesh + partition; assembly set-up
(the Dirichlet values at the nodes; DOLFINx also finds its boundary facets);
assembly (structure and values of A and b, lifting, BCs; f integrated with
the same quadrature degree on both sides); re-assembly into the existing
matrix and vector (fastest of 3); solve; and peak resident memory of the
largest process (its `ours_s` and `baseline_s` are MB, `unit` says so).

Elasticity rows (dapetra-fem --elasticity against fem_dolfinx.py
--elasticity), 3-D, a sweep of about 10^4, 10^5 and 10^6 unknowns (quick:
the first two): linear elasticity with vector P1, clamped boundary, body
force, the same quadrature; ours Belos CG + MueLu given 3 equations per node
and the rigid-body modes, DOLFINx PETSc CG + GAMG given its rigid-body
near-nullspace. Rows: assembly, solve (set-up included), iterations
(`unit` iterations, target 1.5 of GAMG's), peak memory, and per process
count MueLu's iteration growth from the smallest to the largest size
(against its own iterations on the smallest: target 1.3).

Both sides cut the same mesh (ours with --diagonals alike, as DOLFINx cuts
the square; the cube's six tetrahedra per cube are DOLFINx's already), so
each row checks its own result:
  mesh+partition  the same numbers of nodes and cells;
  set-up          the same number of Dirichlet nodes;
  assembly        ||A||_F and ||b||_2 after the first assembly, equal to what
                  summing their squares in two orders allows (norms_agree);
  re-assembly     the same after the last re-assembly;
  solve           both converged, and the solutions agree node by node
                  (matched by coordinates, every component) within what the
                  two solves' relative residuals explain:
                  ||u - v|| / ||u|| <= kappa (r_u + r_v), kappa a bound on
                  the condition number of the matrix with unit Dirichlet rows;
  memory          the same problem (nodes and cells) and the same solution;
  iterations      the same as solve.

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


def nodal_values(prefix, dim, n, components=1):
    """Every process's owned (coordinates, u) rows, sorted by node position."""
    rows = np.concatenate([np.fromfile(f) for f in sorted(glob.glob(prefix + ".[0-9]*"))]).reshape(-1, dim + components)
    grid = np.rint(rows[:, :dim] * n).astype(np.int64)  # unperturbed nodes sit at integer multiples of 1/n
    order = np.lexsort(grid.T[::-1])
    return grid[order], rows[order, dim:]


# dapetra-fem's material (examples/fem/elastic_element.hpp): E = 1, nu = 0.3.
LAME_LAMBDA, LAME_MU = 0.3 / (1.3 * 0.4), 1.0 / 2.6


def condition_number(dim, n, elastic=False):
    """A bound on kappa_2 of the P1 matrix on the unit square (cube) cut n x
    n (x n) with unit Dirichlet rows. The Laplacian's interior eigenvalues lie
    in [d pi^2 h^d, 4 d h^(d-2)] (the 5- and 7-point stencils scaled by
    h^(d-2)). Elasticity's energy 2 mu |eps(u)|^2 + lambda (div u)^2 lies
    between mu |grad u|^2 (Korn's equality for clamped fields) and
    (2 mu + d lambda) |grad u|^2, so its eigenvalues lie in the Laplacian's
    bounds times mu and 2 mu + d lambda."""
    h = 1.0 / n
    low, high = (LAME_MU, 2 * LAME_MU + dim * LAME_LAMBDA) if elastic else (1.0, 1.0)
    return max(high * 4 * dim * h ** (dim - 2), 1.0) / min(low * dim * math.pi ** 2 * h ** dim, 1.0)


UNIT_ROUNDOFF = 2.0 ** -53


def norms_agree(ours, theirs, mine, baseline):
    """||A||_F and ||b||_2 of both sides equal to what the two libraries'
    summations allow: a sum of m squares added one by one is within (m - 1) u
    of the exact sum (u the unit roundoff), its square root within half that,
    and both sides err; the structured meshes' many equal entries make that
    error grow with m, not with its square root (3e-12 at 8 million entries,
    measured). At least 1e-12: the element kernels round differently."""
    sizes = [ours["matrix_entries"], ours["nodes"] * ours.get("components", 1)]
    return all(abs(x - y) <= max(1e-12, m * UNIT_ROUNDOFF) * max(abs(x), abs(y))
               for x, y, m in zip(mine, baseline, sizes))


def checks_for(ours, theirs, ours_nodal, theirs_nodal, n):
    """Each row's own check, by label (see the module's docstring)."""
    (grid_u, u), (grid_v, v) = ours_nodal, theirs_nodal
    bound = condition_number(ours["dim"], n, ours.get("components", 1) > 1) * (ours["relative_residual"] + theirs["relative_residual"])
    same_nodes = grid_u.shape == grid_v.shape and u.shape == v.shape and bool((grid_u == grid_v).all())
    difference = float(np.linalg.norm(u - v) / np.linalg.norm(u)) if same_nodes else math.inf
    solved = (ours["relative_residual"] <= 1e-9 and theirs["relative_residual"] <= 1e-9 and difference <= bound)
    same_problem = ours["nodes"] == theirs["nodes"] and ours["cells"] == theirs["cells"]
    return {"mesh+partition": same_problem,
            "assembly set-up": ours["dirichlet_nodes"] == theirs["dirichlet_nodes"],
            "assembly": norms_agree(ours, theirs, ours["assembled_norms"], theirs["assembled_norms"]),
            "re-assembly": norms_agree(ours, theirs, ours["reassembled_norms"], theirs["reassembled_norms"]),
            "solve": solved,
            "iterations": solved,
            "peak memory per process": same_problem and solved}, difference, bound


def make_row(name, mine, baseline_name, baseline, target, same, unit, np_, mode, ours, theirs, difference, bound):
    """One row, printed as it is made."""
    r = {"name": name, "ours_s": mine, "baseline": baseline_name, "baseline_s": baseline,
         "ratio": mine / baseline if baseline > 0 else 0.0, "target": target, "same_result": bool(same),
         "unit": unit, "np": np_, "mode": mode, "iterations": ours["iterations"],
         "baseline_iterations": theirs["iterations"], "l2_error": ours["l2_error"],
         "baseline_l2_error": theirs["l2_error"], "solution_difference": difference, "difference_bound": bound}
    r["holds"] = r["same_result"] and baseline > 0 and r["ratio"] <= target
    verdict = "WRONG" if not same else ("ok  " if r["holds"] else "MISS")
    print(f"{name:<60s} {mine:11.3e} {baseline:11.3e} {r['ratio']:8.3f} {target:7.2f}  {verdict}  "
          f"(vs {baseline_name}; {unit}; iterations {ours['iterations']} / {theirs['iterations']}; "
          f"||u - v||/||u|| {difference:.1e} <= {bound:.1e})", flush=True)
    return r


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
        shown = f"re-assembly (fastest of {REASSEMBLIES})" if label == "re-assembly" else label
        rows.append(make_row(f"fem {shown} {size}", mine, baseline_name, baseline, target, flags[label], unit, np_, mode,
                             ours, theirs, difference, bound))
    return rows


def elastic_rows_for(case, ours, theirs, checks, np_, mode):
    """The elasticity rows of one size (see the module's docstring)."""
    flags, difference, bound = checks
    size = f"{case} unknowns={ours['nodes'] * ours['components']} np={np_}"
    what = [("assembly", ours["assembly_s"], "DOLFINx vector P1 assemble_matrix/vector + lifting + BCs", theirs["assembly_s"],
             0.7, "s"),
            ("solve", ours["solve_s"], "DOLFINx: PETSc CG + GAMG with rigid-body near-nullspace (set-up included)",
             theirs["solve_s"], 1.0, "s"),
            ("iterations", ours["iterations"], "GAMG's iterations", theirs["iterations"], 1.5, "iterations"),
            ("peak memory per process", ours["peak_rss_mb"], "DOLFINx peak memory per process", theirs["peak_rss_mb"], 1.0, "MB")]
    return [make_row(f"fem elasticity {label} {size}", mine, baseline_name, baseline, target, flags[label], unit, np_, mode,
                     ours, theirs, difference, bound)
            for label, mine, baseline_name, baseline, target, unit in what]


def iteration_growth_row(runs, np_, mode):
    """MueLu's iterations on the largest elasticity size against its own on
    the smallest (target 1.3), with GAMG's growth beside it; both sizes'
    solves checked."""
    (small, small_theirs, small_ok), (large, large_theirs, large_ok) = runs[0], runs[-1]
    unknowns = [r["nodes"] * r["components"] for r in (small, large)]
    name = f"fem elasticity MueLu iteration growth 3-D unknowns={unknowns[0]}->{unknowns[1]} np={np_}"
    row = make_row(name, large["iterations"], f"MueLu's iterations at {unknowns[0]} unknowns", small["iterations"], 1.3,
                   small_ok and large_ok, "iterations", np_, mode, large, large_theirs, 0.0, 0.0)
    row["baseline_growth"] = large_theirs["iterations"] / max(small_theirs["iterations"], 1)
    return row


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--fem", required=True, help="the dapetra-fem executable")
    parser.add_argument("--out", required=True)
    parser.add_argument("--python", default=sys.executable, help="the interpreter that has python3-dolfinx")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--check", action="store_true", help="exit 1 if a row's two sides disagree")
    args = parser.parse_args()
    # About 10^6 nodes in both dimensions at full size; elasticity in 3-D at
    # about 10^4, 10^5 and 10^6 unknowns (3 per node).
    cases = [("2-D", [], 200 if args.quick else 1000, False), ("3-D", ["--3d"], 16 if args.quick else 100, False)]
    cases += [("3-D", ["--3d", "--elasticity"], n, True) for n in ((8, 14) if args.quick else (14, 31, 68))]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        ours_json, theirs_json = os.path.join(tmp, "ours.json"), os.path.join(tmp, "theirs.json")
        ours_values, theirs_values = os.path.join(tmp, "ours_u"), os.path.join(tmp, "theirs_u")
        for np_ in (2, 4):
            elastic_runs = []
            for case, flags, n, elastic in cases:
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
                dim, components = ours["dim"], ours["components"]
                checks = checks_for(ours, theirs, nodal_values(ours_values, dim, n, components),
                                    nodal_values(theirs_values, dim, n, components), n)
                mode = "quick" if args.quick else "full"
                if elastic:
                    rows += elastic_rows_for(case, ours, theirs, checks, np_, mode)
                    elastic_runs.append((ours, theirs, checks[0]["solve"]))
                else:
                    rows += rows_for(case, ours, theirs, checks, np_, mode)
            rows.append(iteration_growth_row(elastic_runs, np_, "quick" if args.quick else "full"))
    append_rows(args.out, rows)
    return 1 if args.check and not all(r["same_result"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
