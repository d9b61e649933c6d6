#!/usr/bin/env python3
"""The `scale` test: creation costs each process the same at 64 processes as at 16.

Runs count_creation (every kind of layout and plan, arrays of a fixed size
per process) under Open MPI's message monitoring at each process count given,
prints the busiest process's messages, bytes and peers per kind, and fails
when a kind's bytes or messages at the largest count exceed GROWTH times
those at the one before it, or when Dapetra's bytes for the 'u' layout exceed
Tpetra's own Map + Import of the same indices (counted in the same run).

  check_scale.py PROGRAM MPIEXEC [--np 4 16 64] [--json OUT]
"""
import argparse
import json
import subprocess
import sys

GROWTH = 1.2  # the target: the busiest process's counts at 64 within 1.2x of those at 16

# Bytes for boundaries the user gave: 8 per process (Ownership::from_ranges
# holds P + 1 of them); not counted against the growth.
USER_BOUNDARIES = {"u_by_ranges", "index_map_u", "redistribute_u_to_block", "tpetra_layout_u"}


NO_MONITORING = 77  # count_creation's exit code when this MPI has no message monitoring (ctest: skipped)


def run(program, mpiexec, np):
    cmd = [mpiexec, "--allow-run-as-root", "--oversubscribe", "--mca", "pml_monitoring_enable", "1",
           "--mca", "mpi_yield_when_idle", "1", "-n", str(np), program]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=1200)
    if done.returncode != 0:
        sys.stderr.write(done.stdout + done.stderr)
        if "no MPI_T variable" in done.stderr:
            print("skipped: this MPI has no pml message monitoring (Open MPI's pml_monitoring_enable)")
            sys.exit(NO_MONITORING)
        sys.exit(f"count_creation failed at {np} processes (exit {done.returncode})")
    return {row["kind"]: row for row in map(json.loads, filter(None, done.stdout.splitlines()))}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("program")
    ap.add_argument("mpiexec")
    ap.add_argument("--np", type=int, nargs="+", default=[4, 16, 64])
    ap.add_argument("--json")
    args = ap.parse_args()
    counts = {np: run(args.program, args.mpiexec, np) for np in args.np}
    kinds = sorted(counts[args.np[0]])
    small, large = args.np[-2], args.np[-1]
    print("busiest process, per kind: messages / bytes / peers at " + ", ".join(f"P={np}" for np in args.np))
    failed = []
    for kind in kinds:
        rows = [counts[np][kind] for np in args.np]
        cells = "  ".join(f"{r['messages']:>5} {r['bytes']:>8} {r['peers']:>3}" for r in rows)
        allowance = 8 * (large - small) if kind in USER_BOUNDARIES else 0
        a, b = counts[small][kind], counts[large][kind]
        grows = (b["bytes"] - allowance > GROWTH * a["bytes"] or b["messages"] > GROWTH * a["messages"])
        verdict = "GROWS" if grows else "flat"
        if grows and not kind.startswith("baseline"):
            failed.append(kind)
        print(f"{kind:32} {cells}  {verdict} ({b['bytes'] / max(a['bytes'], 1):.2f}x bytes, "
              f"{b['messages'] / max(a['messages'], 1):.2f}x messages from {small} to {large})")
    baseline = "baseline_tpetra_map_import_u"
    if baseline in counts[large]:
        for kind in ("tpetra_layout_u", "u_by_ranges"):
            ours, theirs = counts[large][kind]["bytes"], counts[large][baseline]["bytes"]
            verdict = "holds" if ours <= theirs else "MISSED"
            print(f"{kind} against Tpetra's Map + Import at P={large}: {ours} / {theirs} bytes ({verdict})")
            if ours > theirs:
                failed.append(kind + " vs Tpetra")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({str(np): counts[np] for np in args.np}, f, indent=1)
    if failed:
        print("growing with P: " + ", ".join(failed))
        return 1
    print("every kind flat from P=%d to P=%d" % (small, large))
    return 0


if __name__ == "__main__":
    sys.exit(main())
