#!/usr/bin/env bash
# goal-probe under Open MPI and MPICH (np 2, sizes up to 4 KiB to stay quick): the first line
# is a params line that goal sim --params reads, -o FILE holds it alone, --bare measures bare
# MPI calls, --two-regimes is taken, bad usage exits 2.
set -u
. tests/lib.sh
B=${B:-build}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
LINE='^-L [0-9.]+ -o [0-9.]+ -g [0-9.]+ -G [0-9.]+ -O [0-9.]+ -C [0-9.]+ -S [0-9]+( -R [0-9.]+)?( -T [0-9]+ -H [0-9.]+)?$'
for lib in openmpi mpich; do
  make --no-print-directory -s B=$B $B/$lib/goal-probe >/dev/null || { t "$lib: goal-probe builds" 0 x false; continue; }
  run="mpirun.$lib"; [ $lib = openmpi ] && run="$run --oversubscribe"
  timeout $HANG $run -np 2 $B/$lib/goal-probe --max-size 4096 -o $T/$lib.params > $T/$lib.out 2>&1
  t "$lib: first line is the params line" 0 "$LINE" head -n 1 $T/$lib.out
  t "$lib: residual lines follow" 0 "^# residuals" cat $T/$lib.out
  t "$lib: -o FILE holds the line alone" 0 "^1$" sh -c "wc -l < $T/$lib.params"
  printf 'num_ranks 2\nrank 0 {\nl1: send 8b to 1\n}\nrank 1 {\nl1: recv 8b from 0\n}\n' > $T/ping.goal
  t "$lib: goal sim --params reads it" 0 "^max [0-9.]+$" $GOAL sim $T/ping.goal --params $T/$lib.params
  t "$lib: --bare (bare MPI calls) prints the params line too" 0 "$LINE" sh -c "timeout $HANG $run -np 2 $B/$lib/goal-probe --max-size 4096 --bare | head -n 1"
  t "$lib: --two-regimes (-T -H in the line when seen) prints the params line too" 0 "$LINE" sh -c "timeout $HANG $run -np 2 $B/$lib/goal-probe --max-size 4096 --two-regimes | head -n 1"
  t "$lib: the copy line says the path" 0 "through libgoal" cat $T/$lib.out
  t "$lib: np 1 is bad usage" 2 "usage: mpirun -np 2 goal-probe" timeout $HANG $run -np 1 $B/$lib/goal-probe
done
t_done
