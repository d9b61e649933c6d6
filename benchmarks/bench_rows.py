"""Shared by the benchmark drivers: rows appended to the results file that
dapetra-bench writes (build/bench/results.json, or check.json), and each row
stamped with the command and the machine that measured it.

    python3 benchmarks/bench_rows.py --stamp FILE "COMMAND"
        gives every row of FILE that has no "command" yet this one, and the machine
"""
import argparse
import datetime
import json
import os
import platform
import sys


def append_rows(path, rows):
    """Adds `rows` to the JSON list in `path` (creating it)."""
    existing = []
    if os.path.exists(path):
        with open(path) as f:
            existing = json.load(f)
    with open(path, "w") as f:
        json.dump(existing + rows, f, indent=1)


def mpi_driver_arguments():
    """The command line of an MPI driver: --out FILE, --quick, --check."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--check", action="store_true", help="exit 1 if a row's two sides disagree")
    return parser.parse_args()


def finish_mpi_rows(rows, args, comm):
    """The end of an MPI driver (--out, --quick, --check): every row gets the
    process count and the mode, rank 0 appends them, and the exit code is 1
    when --check finds a row whose two sides disagreed."""
    for row in rows:
        row["np"], row["mode"] = comm.size, "quick" if args.quick else "full"
    if comm.rank == 0:
        append_rows(args.out, rows)
    return 1 if args.check and not all(row["same_result"] for row in rows) else 0


def machine():
    """This machine in one line: CPU model, cores, memory, OS, date."""
    model, memory = platform.processor() or platform.machine(), ""
    try:
        with open("/proc/cpuinfo") as f:
            model = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
        with open("/proc/meminfo") as f:
            kb = int(next(line.split()[1] for line in f if line.startswith("MemTotal")))
            memory = f", {kb / 2**20:.0f} GiB"
    except (OSError, StopIteration):
        pass
    system = platform.freedesktop_os_release().get("PRETTY_NAME", platform.system()) \
        if hasattr(platform, "freedesktop_os_release") else platform.system()
    return f"{model}, {os.cpu_count()} cores{memory}, {system}, {datetime.date.today().isoformat()}"


def stamp(path, command):
    """Every row of `path` without a command gets `command` and this machine."""
    with open(path) as f:
        rows = json.load(f)
    here = machine()
    for row in rows:
        if "command" not in row:
            row["command"], row["machine"] = command, here
    with open(path, "w") as f:
        json.dump(rows, f, indent=1)


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "--stamp":
        sys.exit(__doc__)
    stamp(sys.argv[2], sys.argv[3])
