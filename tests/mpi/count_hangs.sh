#!/usr/bin/env bash
# How often a program hangs: runs it N times under mpirun at NP processes,
# each with a limit of 60 s, and counts hangs (still running at the limit)
# and failures; a hang's stacks go to /tmp/hang_<i>.txt when gdb is there.
# Run it beside a load (a build) to see the threaded hangs of
# docs/packaging.md:
#   tests/mpi/count_hangs.sh 'build/tests/threads_pattern --as-is' 20 3 [mpirun options...]
set -u
prog=$1; n=$2; np=$3; shift 3
name=$(basename "${prog%% *}")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
hang=0; fail=0; ok=0
for i in $(seq 1 "$n"); do
  mpirun --oversubscribe "$@" -n "$np" $prog >/tmp/count_hangs_out.txt 2>&1 &
  pid=$!; SECONDS=0
  while kill -0 $pid 2>/dev/null && [ $SECONDS -lt 60 ]; do sleep 0.2; done
  if kill -0 $pid 2>/dev/null; then
    hang=$((hang + 1)); echo "run $i: hung (60 s)"
    if command -v gdb >/dev/null; then
      for p in $(pgrep -x "$name"); do
        echo "== pid $p"; gdb -p "$p" -batch -ex "thread apply all bt 12" 2>/dev/null | grep -E "^#|^Thread"
      done >/tmp/hang_$i.txt
    fi
    pkill -9 -x "$name"; wait $pid 2>/dev/null; sleep 1
  else
    wait $pid && rc=0 || rc=$?
    if [ $rc -ne 0 ]; then fail=$((fail + 1)); echo "run $i: exit $rc"; tail -n 5 /tmp/count_hangs_out.txt; else ok=$((ok + 1)); fi
  fi
done
echo "$name at $np processes${*:+ ($*)}: $ok passed, $hang hung, $fail failed of $n"
