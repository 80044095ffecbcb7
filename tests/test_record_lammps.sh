#!/usr/bin/env bash
# LAMMPS's LJ melt recorded at np 2 under the drop-in (GOAL_MPI_RECORD, Open MPI), then the
# verbs on the recording: check matches every message, analyze names as many calls of each
# collective as the drop-in's stats counted, sim predicts no less than the slowest rank's
# recorded computation, sim --coll and tune re-plan it. Without lmp or Open MPI (make deps
# installs both; Debian builds lmp for Open MPI only) it fails and says so.
set -u
. tests/lib.sh
B=${B:-build}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1   # we may run as root
if ! command -v lmp >/dev/null 2>&1 || ! command -v mpirun.openmpi >/dev/null 2>&1; then
  t "lmp and mpirun.openmpi are there: run make deps" 0 x false; t_done; exit
fi
build "$B/openmpi/libgoalmpi.so" || { echo "FAIL build of the drop-in"; echo "0 passed, 1 failed"; exit 1; }
BA=$(cd "$B" && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
PARAMS="-L 0 -o 390 -g 196 -G 0.057 -O 0 -C 0.04 -S 295 -R 3630"   # goal-probe at np 2, Open MPI, this machine
(cd "$T" && GOAL_MPI_STATS=1 GOAL_MPI_RECORD="$T/melt" timeout "$HANG" mpirun.openmpi --oversubscribe -x GOAL_MPI_STATS -x GOAL_MPI_RECORD \
   -x LD_PRELOAD="$BA/openmpi/libgoalmpi.so" -np 2 lmp -in /usr/share/lammps/examples/melt/in.melt -log none) > "$T/out" 2>&1
t "melt np 2 recorded" 0 "^record: $T/melt.goal: 2 ranks, [0-9]+ actions, measured [0-9]+ ns$" cat "$T/out"
t "check matches every message" 0 "^ok: 2 ranks, [0-9]+ messages matched$" $GOAL check "$T/melt.goal"
$GOAL analyze "$T/melt.goal" --collectives > "$T/an" 2>&1
for c in allreduce bcast reduce barrier; do
  n=$(sed -n "s/^$c: \([0-9]*\) libgoal.*/\1/p" "$T/out")
  t "analyze: $c calls as the stats counted (${n:-none})" 0 "^recorded $c calls ${n:-x}$" cat "$T/an"
done
t "analyze: the point-to-point traffic" 0 "^(bcast root [01] size|p2p \()" cat "$T/an"
# The prediction: computation (calc) plus communication, so at least every rank's calc.
calc=$(awk '/^rank #/ { r = $2 } { for (i = 1; i < NF; i++) if ($i == "calc") { v = $(i + 1); sub(";", "", v); s[r] += v } }
            END { m = 0; for (k in s) if (s[k] > m) m = s[k]; printf "%d", m }' "$T/melt.goal")
max=$($GOAL sim "$T/melt.goal" $PARAMS | awk '$1 == "max" { printf "%d", $2 }')
t "sim: at least the slowest rank's computation ($max >= $calc)" 0 "^yes$" sh -c "[ ${max:-0} -ge $calc ] && [ $calc -gt 0 ] && echo yes"
t "sim --coll allreduce=ring" 0 "^max [0-9]" $GOAL sim "$T/melt.goal" $PARAMS --coll allreduce=ring
n=$(sed -n "s/^allreduce: \([0-9]*\) libgoal.*/\1/p" "$T/out")
t "tune on the recording" 0 "^allreduce ${n:-x} allreduce_[a-z]+(@[a-z]+=[0-9]+)? [0-9]+$" $GOAL tune "$T/melt.goal" $PARAMS --coll allreduce
t_done
