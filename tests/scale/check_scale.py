#!/usr/bin/env python3
"""The `scale` test: creation costs each process the same at 64 processes as at 16.

Runs count_creation (every kind of layout and plan it lists, arrays of a fixed
size per process) under Open MPI's message monitoring at each process count
given, prints the busiest process's messages, bytes and peers per kind and the
most heap any process keeps for it, and fails when at the largest count:

- a kind's bytes or messages exceed GROWTH times those at the count before it,
  times the growth of log2 P (every reduction is log2 P rounds of messages in
  Open MPI's algorithms: cost that grows so is what Tpetra and any collective
  pays; cost that grows with P is 4x from 16 to 64);
- the heap a kind keeps exceeds GROWTH times that at the count before it;

apart, in both, from 8 bytes per process where the user gave boundaries.
Dapetra's 'u' layout in Tpetra (its maps and halo transfers) is set against
Tpetra's own Map + Map + Import + Export of the same indices, counted in the same run:
bytes, messages and heap, reported as holds or MISSED; with deal.II, what
Dapetra adds on top of deal.II's own vector of those indices is reported.

  check_scale.py PROGRAM MPIEXEC [--more PROGRAM ...] [--np 16 64] [--kinds ...] [--json OUT]

Each kind runs in the first program that lists it: --more names programs
for the kinds PROGRAM lacks (deal.II's, whose libraries take each process
0.6 s of CPU to load, are built apart so no other kind pays for that).
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

GROWTH = 1.2  # the target: the busiest process's counts at 64 within 1.2x of those at 16

# Kinds whose user gave boundaries (Ownership::from_ranges holds P + 1 of
# them, an uneven split keeps where each process's owned range begins):
# 8 bytes per process are not counted against the growth.
USER_BOUNDARIES = {"u_by_ranges", "index_map_u", "redistribute_u_to_block", "tpetra_layout_u", "fe_graph_u",
                   "block_1d_uneven_halo", "dealii_vector_u"}
# The libraries' own creations of the same arrays (counted, never failed):
# Tpetra's Map + Map + Import + Export, against which Dapetra's Tpetra layout is held,
# and deal.II's vector, on top of which Dapetra's part is reported.
AGAINST_TPETRA = ("tpetra_layout_u", "baseline_tpetra_import_export_u")
ON_DEALII = ("dealii_vector_u", "baseline_dealii_vector_u")

SKIPPED = 77  # ctest's SKIP_RETURN_CODE for this test
LAUNCH = ["--allow-run-as-root", "--oversubscribe", "--mca", "mpi_yield_when_idle", "1"]


def launch(mpiexec, np, program, args, env=None, extra=()):
    cmd = [mpiexec, *LAUNCH, *extra, "-n", str(np), program, *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=1200, env=env)


def listed_kinds(program, mpiexec):
    done = launch(mpiexec, 1, program, ["--list"])
    if done.returncode != 0:
        sys.exit(done.stdout + done.stderr + f"{program} --list failed")
    return done.stdout.split()


def programs_of_kinds(programs, mpiexec):
    """{kind: the first of the programs that lists it}, in the order listed."""
    where = {}
    for program in programs:
        for kind in listed_kinds(program, mpiexec):
            where.setdefault(kind, program)
    return where


def count(program, mpiexec, np, kind, directory):
    """One kind at np processes, from the per-process files Open MPI writes at
    MPI_Finalize (pml_monitoring_enable_output): created twice less once, so
    start-up and first-use traffic cancel. Lines E (point-to-point) and I
    (inside collectives): <kind> <src> <dst> <bytes> bytes <n> msgs sent.
    Open MPI 4.1.4 lists these counters through MPI_T too, but answers
    MPI_T_ERR_INVALID_INDEX for them: the files are the only way in."""
    totals = []
    for runs in (1, 2):
        prefix = os.path.join(directory, f"{kind}.{np}.{runs}")
        done = launch(mpiexec, np, program, [kind], dict(os.environ, DAPETRA_SCALE_RUNS=str(runs)),
                      ["--mca", "pml_monitoring_enable", "2", "--mca", "pml_monitoring_enable_output", "3",
                       "--mca", "pml_monitoring_filename", prefix])
        if done.returncode != 0:
            sys.exit(done.stdout + done.stderr + f"{program} {kind} failed at {np} processes")
        if not os.path.exists(f"{prefix}.0.prof"):  # this MPI has no monitoring to count with
            print(done.stdout[-2000:] + done.stderr[-2000:] +
                  f"\nno per-process monitoring files from {mpiexec}: nothing to count with (skipped)")
            sys.exit(SKIPPED)
        per = {}  # src -> {dst: [messages, bytes]}
        for q in range(np):
            with open(f"{prefix}.{q}.prof") as f:
                for line in f:
                    w = line.split()
                    if len(w) >= 7 and w[0] in ("E", "I"):
                        peer = per.setdefault(int(w[1]), {}).setdefault(int(w[2]), [0, 0])
                        peer[0] += int(w[5])
                        peer[1] += int(w[3])
        totals.append(per)
    most = {"messages": 0, "bytes": 0, "peers": 0}
    for src in range(np):
        one, two = totals[0].get(src, {}), totals[1].get(src, {})
        diff = [(v[0] - one.get(dst, [0, 0])[0], v[1] - one.get(dst, [0, 0])[1]) for dst, v in two.items()]
        most["messages"] = max(most["messages"], sum(d[0] for d in diff))
        most["bytes"] = max(most["bytes"], sum(d[1] for d in diff))
        most["peers"] = max(most["peers"], sum(1 for d in diff if d[0] > 0))
    return dict(kind=kind, P=np, **most)


def kept_heap(where, mpiexec, np):
    """{kind: the most heap any process's objects of its second creation
    held}, every kind of a program in one run of its own: glibc's per-thread
    cache keeps freed blocks counted in use and is turned off for it, which
    Open MPI 4.1's monitoring does not survive (its coll component crashes in
    MPI_Finalize), so nothing is monitored there."""
    env = dict(os.environ, DAPETRA_SCALE_RUNS="2", GLIBC_TUNABLES="glibc.malloc.tcache_count=0")
    heap = {}
    for program in dict.fromkeys(where.values()):
        kinds = [kind for kind, p in where.items() if p == program]
        done = launch(mpiexec, np, program, kinds, env, ["-x", "GLIBC_TUNABLES"])
        if done.returncode != 0:
            sys.exit(done.stdout + done.stderr + f"{program} failed at {np} processes")
        rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
        heap.update({row["kind"]: row["kept_bytes"] for row in rows})
    return heap


def open_mpi_major(mpiexec):
    """Open MPI's major version, or None for another MPI."""
    try:
        out = subprocess.run([mpiexec, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    for line in out.splitlines():
        if "(Open MPI)" in line or "(OpenRTE)" in line:  # (mpiexec says OpenRTE in 4.1)
            return int(line.split()[-1].split(".")[0])
    return None


def verdicts(kind, a, b, small, large):
    """What grows from a (at small) to b (at large), each within its limit."""
    allowance = 8 * (large - small) if kind in USER_BOUNDARIES else 0
    traffic = GROWTH * math.log2(large) / math.log2(small)
    grows = []
    if b["bytes"] - allowance > traffic * a["bytes"]:
        grows.append("bytes")
    if b["messages"] > traffic * a["messages"]:
        grows.append("messages")
    if b["kept_bytes"] - allowance > GROWTH * a["kept_bytes"]:
        grows.append("heap")
    return grows, traffic


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("program")
    ap.add_argument("mpiexec")
    ap.add_argument("--more", nargs="+", default=[], metavar="PROGRAM",
                    help="programs for the kinds PROGRAM does not list")
    ap.add_argument("--np", type=int, nargs="+", default=[16, 64])
    ap.add_argument("--kinds", nargs="+", help="the kinds to count (default: every kind the program lists)")
    ap.add_argument("--json")
    args = ap.parse_args()
    # The limits were measured with Open MPI 4.1's monitoring and its choice
    # of collective algorithms (log2 P rounds for small reductions); another
    # MPI counts other things, so the check says so and skips.
    major = open_mpi_major(args.mpiexec)
    if major != 4:
        print(f"counted with Open MPI 4's monitoring; {args.mpiexec} is "
              f"{'Open MPI %d' % major if major else 'another MPI'} (skipped)")
        return SKIPPED
    where = programs_of_kinds([args.program, *args.more], args.mpiexec)
    if args.kinds:
        unknown = [kind for kind in args.kinds if kind not in where]
        if unknown:
            sys.exit(f"no program lists {', '.join(unknown)} (--list names the kinds)")
        where = {kind: where[kind] for kind in args.kinds}
    kinds = list(where)
    with tempfile.TemporaryDirectory() as d:
        counts = {np: {kind: count(where[kind], args.mpiexec, np, kind, d) for kind in kinds} for np in args.np}
    for np in args.np:
        for kind, kept in kept_heap(where, args.mpiexec, np).items():
            counts[np][kind]["kept_bytes"] = kept
    small, large = args.np[-2], args.np[-1]
    print("busiest process, per kind: messages / bytes / peers / most heap kept, at " +
          ", ".join(f"P={np}" for np in args.np))
    failed = []
    for kind in kinds:
        cells = "  ".join(f"{counts[np][kind]['messages']:>5} {counts[np][kind]['bytes']:>8} "
                          f"{counts[np][kind]['peers']:>3} {counts[np][kind]['kept_bytes']:>8}" for np in args.np)
        a, b = counts[small][kind], counts[large][kind]
        grows, traffic = verdicts(kind, a, b, small, large)
        if grows and not kind.startswith("baseline_"):
            failed.append(f"{kind} ({', '.join(grows)})")
        verdict = "GROWS: " + ", ".join(grows) if grows else "flat"
        print(f"{kind:30} {cells}  {verdict} "
              f"({b['bytes'] / max(a['bytes'], 1):.2f}x bytes, {b['messages'] / max(a['messages'], 1):.2f}x messages "
              f"(limit {traffic:.2f}x), {b['kept_bytes'] / max(a['kept_bytes'], 1):.2f}x heap (limit {GROWTH}x) "
              f"from {small} to {large})")
    ours, theirs = AGAINST_TPETRA
    if ours in counts[large] and theirs in counts[large]:
        for what in ("bytes", "messages", "kept_bytes"):
            a, b = counts[large][ours][what], counts[large][theirs][what]
            print(f"{ours} against Tpetra's own Map + Map + Import + Export at P={large}, {what}: {a} / {b} "
                  f"({'holds' if a <= b else 'MISSED'})")
    ours, theirs = ON_DEALII
    if ours in counts[large] and theirs in counts[large]:
        extra = {what: counts[large][ours][what] - counts[large][theirs][what]
                 for what in ("messages", "bytes", "kept_bytes")}
        print(f"{ours}: Dapetra's part on top of deal.II's own vector at P={large}: {extra['messages']} messages, "
              f"{extra['bytes']} bytes, {extra['kept_bytes']} bytes of heap")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({str(np): counts[np] for np in args.np}, f, indent=1)
    if failed:
        print("growing with P: " + "; ".join(failed))
        return 1
    print("every kind flat from P=%d to P=%d" % (small, large))
    return 0


if __name__ == "__main__":
    sys.exit(main())
