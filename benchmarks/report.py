"""docs/benchmarks.md and its plots, from the measurements alone.

    /usr/bin/python3 benchmarks/report.py --results build/bench/results.json --docs docs
    (scripts/bench --report does this)

Writes DOCS/benchmarks.md (the table of every row: ours, the baseline measured
in the same run, ratio, target, verdict, and the command and machine that
measured it) and DOCS/figures/bench_ratio.png (every row's ratio against its
target) and DOCS/figures/bench_creation.png (layout and plan creation against
the process count). Nothing in them is typed by hand: rerun after scripts/bench.
"""
import argparse
import collections
import json
import os
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def verdict(row):
    if not row.get("same_result", False):
        return "WRONG"
    return "holds" if row["holds"] else "**MISS**"


def amount(value, unit):
    """A time with its unit (ns ... s), a memory in MB, or a count of iterations."""
    if unit == "MB":
        return f"{value:.0f} MB"
    if unit == "iterations":
        return f"{value:.0f} iterations"
    for scale, name in ((1.0, "s"), (1e-3, "ms"), (1e-6, "us"), (1e-9, "ns")):
        if abs(value) >= scale or name == "ns":
            return f"{value / scale:.3g} {name}"
    return f"{value:.3g} s"


def command_of(row):
    """The command recorded with the row (scripts/bench stamps every row)."""
    return row.get("command", "not recorded (a run from before rows carried their command)")


def family(name):
    """Rows grouped by what they measure: the name up to its sizes."""
    if name.startswith("fem "):
        return "finite-element pipeline against DOLFINx"
    if name.startswith("python "):
        return "calls from Python"
    if name.split(" ", 1)[0] in ("csr_to_tpetra", "petsc_mat_to_tpetra", "muelu_solve"):
        return "matrices from other libraries, and their solve"
    if "PETSc" in name:
        return "against PETSc"
    if "ScaLAPACK" in name or "8000^2" in name:
        return "against ScaLAPACK"
    head = re.split(r"[ (]", name, maxsplit=1)[0]
    return {"view_create": "views", "owned_map": "Tpetra maps", "TpetraLayout": "Tpetra maps",
            "halo_update": "halo updates", "ghost_update": "unstructured ghosts and assembly",
            "assemble(add)": "unstructured ghosts and assembly", "plan_build": "plan creation",
            "layout": "plan creation", "redistribute": "redistribution",
            "redistribution": "redistribution"}.get(head, "other")


def iterations(row, *keys):
    """A solve row's Krylov iterations, after its time (the fem rows carry them on every row)."""
    found = [row[k] for k in keys if row.get(k) is not None]
    return f", {found[0]:.0f} iterations" if "solve" in row["name"] and found else ""


def write_table(rows, out):
    groups = collections.OrderedDict()
    for row in rows:
        groups.setdefault(family(row["name"]), []).append(row)
    for name, members in groups.items():
        out.append(f"\n### {name[0].upper() + name[1:]}\n")
        out.append("| row | ours | baseline (same run) | ratio | target | verdict | processes | command |")
        out.append("|---|---|---|---|---|---|---|---|")
        for row in members:
            unit = row.get("unit", "s")
            out.append(f"| {row['name']} | {amount(row['ours_s'], unit)}{iterations(row, 'iterations', 'ours_iterations')} | {row['baseline']}: "
                       f"{amount(row['baseline_s'], unit)}{iterations(row, 'baseline_iterations')} | {row['ratio']:.3g} | {row['target']:.3g} | {verdict(row)} | "
                       f"{row.get('np', '')} | `{command_of(row)}` |")


def plot_ratios(rows, path):
    count = collections.Counter(r["name"] for r in rows)  # a name measured against two baselines
    names = [r["name"] if count[r["name"]] == 1 else f"{r['name']} vs {r['baseline'][:28]}" for r in rows]
    fig, ax = plt.subplots(figsize=(10, 0.19 * len(rows) + 1.2))
    y = range(len(rows))
    colours = ["#2a7f3f" if r["holds"] else ("#b8860b" if r.get("same_result", False) else "#b22222") for r in rows]
    ax.scatter([max(r["ratio"], 1e-4) for r in rows], y, c=colours, s=18, zorder=3, label="ours / baseline")
    ax.scatter([r["target"] for r in rows], y, marker="|", c="black", s=60, zorder=2, label="target")
    ax.set_xscale("log")
    ax.set_yticks(list(y))
    ax.set_yticklabels(names, fontsize=6)
    ax.invert_yaxis()
    ax.axvline(1.0, color="#999999", lw=0.8)
    ax.set_xlabel("ratio, ours / baseline (log scale; left of the bar holds the target)")
    ax.set_title("Every row against its target (green holds, amber misses, red: results differ)", fontsize=10)
    ax.grid(axis="x", which="both", alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_creation(rows, path):
    creation = sorted((r for r in rows if r["name"].startswith("layout + halo plan creation")), key=lambda r: r["np"])
    if not creation:
        return False
    nps = [r["np"] for r in creation]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(nps, [r["ours_s"] * 1e6 for r in creation], "o-", label="Dapetra: DistributedLayout + HaloPlan")
    ax.plot(nps, [r["baseline_s"] * 1e6 for r in creation], "s--", label=creation[0]["baseline"][:60])
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xticks(nps)
    ax.set_xticklabels([str(n) for n in nps])
    ax.set_xlabel("processes (on this machine's cores, oversubscribed above them)")
    ax.set_ylabel("creation time [us]")
    ax.set_title("Layout and halo plan creation, 1-D, 100 elements per process", fontsize=10)
    ax.grid(which="both", alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--results", required=True)
    parser.add_argument("--docs", required=True)
    args = parser.parse_args()
    with open(args.results) as f:
        rows = json.load(f)
    figures = os.path.join(args.docs, "figures")
    os.makedirs(figures, exist_ok=True)
    plot_ratios(rows, os.path.join(figures, "bench_ratio.png"))
    has_creation = plot_creation(rows, os.path.join(figures, "bench_creation.png"))
    machines = sorted({r.get("machine", "not recorded") for r in rows})
    modes = sorted({r.get("mode", "?") for r in rows})
    holds = sum(1 for r in rows if r["holds"])
    wrong = [r["name"] for r in rows if not r.get("same_result", False)]
    missed = [r["name"] for r in rows if r.get("same_result", False) and not r["holds"]]
    out = ["# Benchmarks", "",
           "<!-- Written by `scripts/bench --report` (benchmarks/report.py) from build/bench/results.json:"
           " do not edit; run `scripts/bench` and then `scripts/bench --report`. -->", "",
           "Every row times ours against a baseline measured in the same run (an expert's hand-written "
           "code, or the library's own best call) and checks that both produced the same result; "
           "a row whose results differ is WRONG whatever its ratio, and a missed target is listed, "
           "never hidden. How the baselines are made, and why rows miss: "
           "[benchmark-notes.md](benchmark-notes.md).", "",
           f"- Rows: {len(rows)} ({', '.join(modes)} sizes); targets held: {holds}; missed: {len(missed)}; "
           f"results that differ: {len(wrong)}.",
           f"- Machine: {'; '.join(machines)}."]
    if missed:
        out.append("- Missed: " + "; ".join(missed) + ".")
    if wrong:
        out.append("- Results differ: " + "; ".join(wrong) + ".")
    out += ["", "![Every row's ratio against its target](figures/bench_ratio.png)", ""]
    if has_creation:
        out += ["![Layout and plan creation against the process count](figures/bench_creation.png)", ""]
    out.append("## Every row")
    write_table(rows, out)
    with open(os.path.join(args.docs, "benchmarks.md"), "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"wrote {os.path.join(args.docs, 'benchmarks.md')} ({len(rows)} rows) and its figures")


if __name__ == "__main__":
    main()
