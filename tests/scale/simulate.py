#!/usr/bin/env python3
"""Creation's cost per process, simulated to thousands of processes.

Runs count_creation, built with SimGrid's SMPI (smpicxx), on a simulated
cluster of one host per process, and reads SMPI's time-independent traces:
every MPI call each process makes, with its peer and element count. Each
kind is run creating its layout twice and once; the difference is one
creation's calls, without start-up. For each kind and process count it
prints the busiest process's point-to-point messages, elements and peers,
its collective calls, and how many of those gather from every process, and
fails when any of them at the largest count exceeds GROWTH times the count
at the one before it (collective calls: any growth at all), or when any
kind gathers.

These are the calls Dapetra makes, not the messages inside MPI's
collectives (SMPI implements its nonblocking ones linearly, unlike Open
MPI). Counting those is check_scale.py's job, on real processes.

  simulate.py PROGRAM --np 256 1024 4096 [--kinds block_2d_halo ...] [--json OUT]
"""
import argparse
import collections
import glob
import json
import os
import subprocess
import sys
import tempfile

GROWTH = 1.2
POINT_TO_POINT = {"send", "isend", "ssend", "issend", "bsend", "ibsend", "rsend", "irsend"}
GATHERS = {"allgather", "allgatherv", "gather", "gatherv", "alltoall", "alltoallv", "alltoallw", "iallgather",
           "iallgatherv", "igather", "igatherv", "ialltoall", "ialltoallv", "ialltoallw"}
NOT_COMMUNICATION = {"init", "finalize", "compute", "wait", "waitall", "waitany", "test", "testall", "testany",
                     "recv", "irecv", "sleep", "location", "probe", "iprobe"}
# The kinds whose creation needs no sparse exchange (NBX): SMPI 3.32 runs
# its nonblocking collectives linearly through rank 0 and the exchange's
# polling then costs the simulator O(P^2) or more (u_by_rule: 0.4 s at 64
# simulated processes, 11 s at 160, 106 s at 256), so those kinds are
# simulated to a few hundred processes only.
WITHOUT_EXCHANGE = ["block_1d_halo", "block_2d_halo", "cyclic_1d", "block_cyclic_2d"]


def platform(directory, np):
    path = os.path.join(directory, "platform.xml")
    with open(path, "w") as f:
        f.write("<?xml version='1.0'?>\n"
                "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                "<platform version=\"4.1\">\n"
                f"  <cluster id=\"c\" prefix=\"node-\" suffix=\"\" radical=\"0-{np - 1}\" speed=\"1Gf\" bw=\"10GBps\""
                " lat=\"1us\" bb_bw=\"100GBps\" bb_lat=\"1us\"/>\n"
                "</platform>\n")
    hosts = os.path.join(directory, "hosts.txt")
    with open(hosts, "w") as f:
        f.write("".join(f"node-{i}\n" for i in range(np)))
    return path, hosts


def calls_per_rank(program, np, kind, runs, directory):
    """{rank: Counter} of one run's traced calls: ('p2p', peer) -> [calls,
    elements], ('coll', name) -> calls."""
    xml, hosts = platform(directory, np)
    trace = os.path.join(directory, f"{kind}.{np}.{runs}")  # (SMPI adds to a trace directory it finds)
    env = dict(os.environ, DAPETRA_SCALE_RUNS=str(runs))
    cmd = ["smpirun", "-np", str(np), "-platform", xml, "-hostfile", hosts, "-trace-ti",
           f"--cfg=tracing/filename:{trace}", "--cfg=smpi/simulate-computation:no",
           program, kind]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3000, cwd=directory)
    if done.returncode != 0:
        sys.exit(done.stdout[-3000:] + done.stderr[-3000:] + f"\n{kind} failed at {np} simulated processes")
    per = {}
    for path in glob.glob(trace + "_files/*"):
        with open(path) as f:
            for line in f:
                w = line.split()
                if len(w) < 2:
                    continue
                rank, action = int(w[0]), w[1].lower()
                mine = per.setdefault(rank, collections.Counter())
                if action in POINT_TO_POINT:
                    mine[("p2p", int(w[2]))] += 1
                    mine[("elements", int(w[2]))] += int(w[4])
                elif action not in NOT_COMMUNICATION:
                    mine[("coll", action)] += 1
    return per


def busiest(once, twice):
    most = dict(messages=0, elements=0, peers=0, collectives=0, gathers=0)
    for rank, two in twice.items():
        one = once.get(rank, collections.Counter())
        diff = {k: two[k] - one.get(k, 0) for k in two}
        p2p = [k for k in diff if k[0] == "p2p" and diff[k] > 0]
        most["messages"] = max(most["messages"], sum(diff[k] for k in p2p))
        most["elements"] = max(most["elements"], sum(diff[("elements", k[1])] for k in p2p))
        most["peers"] = max(most["peers"], len(p2p))
        most["collectives"] = max(most["collectives"], sum(v for k, v in diff.items() if k[0] == "coll"))
        most["gathers"] = max(most["gathers"], sum(v for k, v in diff.items() if k[0] == "coll" and k[1] in GATHERS))
    return most


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("program")
    ap.add_argument("--np", type=int, nargs="+", default=[256, 1024, 4096])
    ap.add_argument("--kinds", nargs="+", default=WITHOUT_EXCHANGE)
    ap.add_argument("--json")
    args = ap.parse_args()
    program = os.path.abspath(args.program)
    rows, failed = {}, []
    with tempfile.TemporaryDirectory() as d:
        for kind in args.kinds:
            for np in args.np:
                rows[(kind, np)] = busiest(calls_per_rank(program, np, kind, 1, d),
                                           calls_per_rank(program, np, kind, 2, d))
                print(kind, np, rows[(kind, np)], flush=True)
    small, large = args.np[-2], args.np[-1]
    print("busiest simulated process, one creation: p2p messages / elements / peers, collective calls, gathers")
    for kind in args.kinds:
        a, b = rows[(kind, small)], rows[(kind, large)]
        grows = (any(b[k] > GROWTH * a[k] for k in ("messages", "elements", "peers"))
                 or b["collectives"] > a["collectives"] or b["gathers"] > 0)
        cells = "  ".join(f"P={np}: {r['messages']} / {r['elements']} / {r['peers']}, {r['collectives']}, {r['gathers']}"
                          for np in args.np for r in [rows[(kind, np)]])
        print(f"{kind:28} {cells}  {'GROWS' if grows else 'flat'}")
        if grows:
            failed.append(kind)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({f"{k}@{np}": r for (k, np), r in rows.items()}, f, indent=1)
    if failed:
        print("growing with P: " + ", ".join(failed))
        return 1
    print(f"every kind flat from {small} to {large} simulated processes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
