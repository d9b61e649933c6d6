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
"Same result": both solves converged and the L2 errors agree within 20%
(the meshes cut the squares along different diagonals: alternating in
ours, all alike in DOLFINx, so the errors differ by ~10%).

    /usr/bin/python3 benchmarks/bench_fem.py --fem build/examples/fem/dapetra-fem --out build/bench/results.json
        [--quick] [--check]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

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


def rows_for(case, ours, theirs, np_, mode):
    same = (ours["relative_residual"] <= 1e-9 and theirs["relative_residual"] <= 1e-9
            and abs(ours["l2_error"] - theirs["l2_error"]) <= 0.2 * theirs["l2_error"])
    size = f"{case} nodes={ours['nodes']} np={np_}"
    what = [("mesh+partition", ours["mesh_s"] + ours["partition_s"], "DOLFINx create_unit_* (partitioned) + FunctionSpace",
             theirs["mesh_s"], 1.0, "s"),
            ("assembly set-up", ours["setup_s"], "DOLFINx exterior facets + their dofs + interpolate g",
             theirs["setup_s"], 1.0, "s"),
            ("assembly", ours["assembly_s"], "DOLFINx assemble_matrix/vector + lifting + BCs", theirs["assembly_s"], 0.7, "s"),
            (f"re-assembly (fastest of {REASSEMBLIES})", ours["reassembly_s"],
             "DOLFINx assemble_matrix/vector + lifting + BCs into the existing A and b", theirs["reassembly_s"], 0.5, "s"),
            ("solve", ours["solve_s"], "DOLFINx: PETSc CG + GAMG (set-up included)", theirs["solve_s"], 1.5, "s"),
            ("peak memory per process", ours["peak_rss_mb"], "DOLFINx peak memory per process", theirs["peak_rss_mb"], 2.0,
             "MB")]
    rows = []
    for label, mine, baseline_name, baseline, target, unit in what:
        r = {"name": f"fem {label} {size}", "ours_s": mine, "baseline": baseline_name, "baseline_s": baseline,
             "ratio": mine / baseline if baseline > 0 else 0.0, "target": target, "same_result": bool(same),
             "unit": unit, "np": np_, "mode": mode, "iterations": ours["iterations"],
             "baseline_iterations": theirs["iterations"], "l2_error": ours["l2_error"],
             "baseline_l2_error": theirs["l2_error"]}
        r["holds"] = r["same_result"] and baseline > 0 and r["ratio"] <= target
        verdict = "WRONG" if not same else ("ok  " if r["holds"] else "MISS")
        print(f"{r['name']:<60s} {mine:11.3e} {baseline:11.3e} {r['ratio']:8.3f} {target:7.2f}  {verdict}  "
              f"(vs {baseline_name}; {unit}; iterations {ours['iterations']} / {theirs['iterations']})", flush=True)
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
        for np_ in (2, 4):
            for case, flags, n in cases:
                ours = run_json(MPI + [str(np_), args.fem, "--n", str(n), "--perturb", "0", "--tol", "1e-10",
                                       "--out", os.path.join(tmp, "out"), "--reassemble", str(REASSEMBLIES),
                                       "--report", ours_json] + flags, ours_json)
                theirs = run_json(MPI + [str(np_), args.python, os.path.join(HERE, "fem_dolfinx.py"), "--n", str(n),
                                         "--tol", "1e-10", "--reassemble", str(REASSEMBLIES), "--json", theirs_json] + flags,
                              theirs_json)
                rows += rows_for(case, ours, theirs, np_, "quick" if args.quick else "full")
    append_rows(args.out, rows)
    return 1 if args.check and not all(r["same_result"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
