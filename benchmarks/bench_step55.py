"""deal.II's step-55 (Taylor-Hood Stokes, Kovasznay's flow) through Dapetra
against deal.II's own two paths on the same meshes, as rows: runs
`dapetra-step55 --compare --report` under mpirun and turns its last cycles
into rows appended to the results file.

    python3 benchmarks/bench_step55.py --step55 BUILD/examples/dealii/dapetra-step55 --out FILE
        [--np 2] [--quick] [--check]

Rows (each also checks that both sides converged and that the solutions
agree within 1e-6 of their size, at 1e-10 as step-55 solves):
  - time, set-up included (structure, assembly, preconditioner set-up and
    MINRES), against deal.II's Epetra + ML path (step-55's Trilinos way):
    target 1.0;
  - MINRES iterations against deal.II's PETSc path (BoomerAMG): target 1.0;
  - MINRES iterations on the last mesh against Dapetra's own three
    refinements before: target 1.2;
  - with the block upper triangular kind (Belos GMRES), the preconditioner's
    set-up and the solve against Teko's block Gauss-Seidel (its upper
    triangle) with the same inner preconditioners and the same Belos GMRES
    (`dapetra-step55 --kind upper --teko`): target 1.0; the two must take
    the same iterations to solutions within 1e-9 (the same preconditioner).
    Left out, with a line saying so, when the build has no Teko.
Full: 8 to 256 cells a side (5.9e5 dofs last); --quick: 8 to 64 (3.8e4).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_rows import append_rows  # noqa: E402


def total(side):
    return side["structure_s"] + side["assembly_s"] + side["solve_s"]


def row(name, ours, baseline_name, baseline, target, same, unit, np_, mode, extra):
    r = {"name": name, "ours_s": ours, "baseline": baseline_name, "baseline_s": baseline,
         "ratio": ours / baseline if baseline > 0 else 0.0, "target": target, "same_result": bool(same),
         "unit": unit, "np": np_, "mode": mode}
    r.update(extra)
    r["holds"] = r["same_result"] and baseline > 0 and r["ratio"] <= target
    verdict = "WRONG" if not same else ("ok  " if r["holds"] else "MISS")
    print(f"{name:<70s} {ours:11.3e} {baseline:11.3e} {r['ratio']:8.3f} {target:7.2f}  {verdict}  ({baseline_name}; {unit})",
          flush=True)
    return r


def rows_of(report, np_, mode, agree):
    last, first = report[-1], report[-4]
    same = all(c["converged"] and all(c[p]["converged"] and c[p]["difference"] <= agree for p in ("trilinos", "petsc"))
               for c in (first, last))
    size = f"{last['dofs']} dofs np={np_}"
    common = {"dofs": last["dofs"], "iterations": last["iterations"], "error_u": last["error_u"],
              "error_p": last["error_p"], "difference_trilinos": last["trilinos"]["difference"],
              "difference_petsc": last["petsc"]["difference"]}
    return [
        row(f"deal.II step-55 Stokes, set-up + MINRES, {size}", total(last),
            "deal.II's Epetra + ML path (step-55's Trilinos way), set-up included", total(last["trilinos"]), 1.0,
            same, "s", np_, mode, dict(common, baseline_iterations=last["trilinos"]["iterations"])),
        row(f"deal.II step-55 Stokes, MINRES iterations, {size}", last["iterations"],
            "deal.II's PETSc path (BoomerAMG, inner CG on Mp)", last["petsc"]["iterations"], 1.0, same, "iterations",
            np_, mode, dict(common, baseline_iterations=last["petsc"]["iterations"])),
        row(f"deal.II step-55 Stokes, iteration growth over 3 refinements, {size}", last["iterations"],
            f"Dapetra's own at {first['dofs']} dofs", first["iterations"], 1.2, same, "iterations", np_, mode,
            dict(common, baseline_iterations=first["iterations"],
                 baseline_growth=last["petsc"]["iterations"] / max(first["petsc"]["iterations"], 1))),
    ]


def teko_row(report, np_, mode):
    last = report[-1]
    teko = last["teko"]
    same = (last["converged"] and teko["converged"] and teko["iterations"] == last["iterations"]
            and teko["difference"] <= 1e-9)
    return row(f"deal.II step-55 Stokes, GMRES + block upper triangular set-up + solve, {last['dofs']} dofs np={np_}",
               last["solve_s"], "Teko's block Gauss-Seidel (upper triangle), same inner preconditioners, same Belos GMRES",
               teko["solve_s"], 1.0, same, "s", np_, mode,
               {"dofs": last["dofs"], "iterations": last["iterations"], "baseline_iterations": teko["iterations"],
                "difference_teko": teko["difference"]})


def run(args, options, report_path):
    """dapetra-step55 under mpirun with `options`; its report (a disagreement
    exits 1: the rows say so)."""
    command = ["mpirun", "--allow-run-as-root", "--oversubscribe", "-n", str(args.np), args.step55, *options,
               "--initial", "3", "--cycles", "4" if args.quick else "6", "--tol", "1e-10", "--report", report_path]
    subprocess.run(command, check=False)
    with open(report_path) as f:
        return json.load(f)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--step55", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--np", type=int, default=2)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--check", action="store_true", help="exit 1 if a row's two sides disagree")
    args = parser.parse_args()
    agree = 1e-6
    mode = "quick" if args.quick else "full"
    with tempfile.TemporaryDirectory() as tmp:
        report = run(args, ["--compare", "--agree", str(agree)], os.path.join(tmp, "step55.json"))
        rows = rows_of(report, args.np, mode, agree)
        if report[-1].get("teko_built"):
            upper = run(args, ["--kind", "upper", "--teko", "--agree", "1e-9"], os.path.join(tmp, "teko.json"))
            rows.append(teko_row(upper, args.np, mode))
        else:
            print("(no Teko in this build: the Teko row is left out)", flush=True)
    append_rows(args.out, rows)
    return 1 if args.check and not all(r["same_result"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
