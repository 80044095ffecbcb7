#!/usr/bin/env bash
# goal-probe under Open MPI and MPICH (np 2, sizes up to 4 KiB to stay quick): the first line
# is a params line that goal sim --params reads (with -E -F, what libgoal adds), -o FILE holds
# it alone, the runs of S and R follow, --bare measures bare MPI calls alone, --two-regimes is
# taken (its line, a table of costs per byte when seen, read back), bad usage exits 2.
set -u
. tests/lib.sh
B=${B:-build}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
LINE='^-L [0-9.]+ -o [0-9.]+ -g [0-9.]+ -G [0-9.]+ -O [0-9.]+ -C [0-9.]+( -K [0-9.]+)?( -S [0-9]+)?( -R [0-9.]+)?( -T [0-9,]+ -H [0-9.,]+)?( --shared-memory)?( -A [0-9]+ -D [0-9.]+)?( -E [0-9.]+ -F [0-9.]+)?$'
for lib in openmpi mpich; do
  build "$B/$lib/goal-probe" || { t "$lib: goal-probe builds" 0 x false; continue; }
  run="mpirun.$lib"; [ $lib = openmpi ] && run="$run --oversubscribe"
  timeout $HANG $run -np 2 $B/$lib/goal-probe --max-size 4096 -o $T/$lib.params > $T/$lib.out 2>&1
  t "$lib: first line is the params line" 0 "$LINE" head -n 1 $T/$lib.out
  t "$lib: residual lines follow" 0 "^# residuals" cat $T/$lib.out
  t "$lib: -o FILE holds the line alone" 0 "^1$" sh -c "wc -l < $T/$lib.params"
  printf 'num_ranks 2\nrank 0 {\nl1: send 8b to 1\n}\nrank 1 {\nl1: recv 8b from 0\n}\n' > $T/ping.goal
  t "$lib: goal sim --params reads it" 0 "^max [0-9.]+$" $GOAL sim $T/ping.goal --params $T/$lib.params
  t "$lib: the line has -E -F (what libgoal adds)" 0 " -E [0-9.]+ -F [0-9.]+$" head -n 1 $T/$lib.out
  t "$lib: the runs of S and R are printed" 0 "^# S runs:( [0-9]+){5} \(median [0-9]+\)$" cat $T/$lib.out
  t "$lib: ... and R's" 0 "^# R runs:( [0-9]+){5} ns \(median [0-9]+\)$" cat $T/$lib.out
  t "$lib: -E -F round-trip through goal sim --params --verbose" 0 " -F [0-9.]+$" sh -c "$GOAL sim $T/ping.goal --params $T/$lib.params --verbose 2>&1 >/dev/null"
  t "$lib: --bare (bare MPI calls) prints the params line too" 0 "$LINE" sh -c "timeout $HANG $run -np 2 $B/$lib/goal-probe --max-size 4096 --bare | head -n 1"
  t "$lib: --bare has no -E -F" 0 "^none$" sh -c "timeout $HANG $run -np 2 $B/$lib/goal-probe --max-size 4096 --bare | head -n 1 | grep -q ' -E ' || echo none"
  t "$lib: --two-regimes (-T -H in the line when seen) prints the params line too" 0 "$LINE" sh -c "timeout $HANG $run -np 2 $B/$lib/goal-probe --max-size 4096 --two-regimes | head -n 1"
  t "$lib: the copy line says the path" 0 "through libgoal" cat $T/$lib.out
  t "$lib: the curves have one-way, exchange and copy columns" 0 "^# size rtt send_overhead recv_overhead gap exec oneway exchange copy \(ns\)$" cat $T/$lib.out
  t "$lib: ... a copy column on every size row" 0 "^none$" sh -c "grep '^# [0-9]' $T/$lib.out | awk 'NF != 10 { bad = 1 } END { if (!bad && NR > 0) print \"none\" }'"
  t "$lib: the copy fit has a residual" 0 ", copy [0-9.]+$" grep "^# residuals" $T/$lib.out
  # from 64 KiB the one-way times give a table when they show one: goal sim reads the line either way
  timeout $HANG $run -np 2 $B/$lib/goal-probe --max-size 262144 --two-regimes -o $T/$lib.table > $T/$lib.table.out 2>&1
  t "$lib: --two-regimes up to 256 KiB prints the params line" 0 "$LINE" head -n 1 $T/$lib.table.out
  t "$lib: ... which goal sim --params reads" 0 "^max [0-9.]+$" $GOAL sim $T/ping.goal --params $T/$lib.table
  t "$lib: np 1 is bad usage" 2 "usage: mpirun -np 2 goal-probe" timeout $HANG $run -np 1 $B/$lib/goal-probe
  t "$lib: np 1 is named" 2 "^goal-probe: needs 2 ranks \(mpirun -np 2\), not 1$" timeout $HANG $run -np 1 $B/$lib/goal-probe
  t "$lib: an unknown option is named" 2 "^goal-probe: unknown option '--bogus'$" timeout $HANG $run -np 2 $B/$lib/goal-probe --bogus
  t "$lib: --max-size abc is named" 2 "^goal-probe: --max-size takes bytes from 2048 to 2\^30, not 'abc'$" timeout $HANG $run -np 2 $B/$lib/goal-probe --max-size abc
  t "$lib: --max-size 1024 is under the stated minimum" 2 "\(2048 \.\. 2\^30, default 4 MiB\)" timeout $HANG $run -np 2 $B/$lib/goal-probe --max-size 1024
  t "$lib: --max-size 2048 (the minimum) fits" 0 "$LINE" sh -c "timeout $HANG $run -np 2 $B/$lib/goal-probe --max-size 2048 | head -n 1"
  # a path that cannot be written fails before the measurement: no params line printed
  t "$lib: -o /no/such/dir fails first" 1 "^goal-probe: $T/no/such/p: cannot open for writing: No such file or directory$" \
    timeout $HANG $run -np 2 $B/$lib/goal-probe --max-size 2048 -o $T/no/such/p
  t "$lib: ... and measures nothing" 0 "^none$" sh -c "timeout $HANG $run -np 2 $B/$lib/goal-probe --max-size 2048 -o $T/no/such/p 2>/dev/null | grep -q '^-L' || echo none"
  echo old > $T/$lib.mode; chmod 600 $T/$lib.mode
  t "$lib: -o over an existing file keeps its mode" 0 "^-rw-------" sh -c "timeout $HANG $run -np 2 $B/$lib/goal-probe --max-size 2048 -o $T/$lib.mode >/dev/null && ls -l $T/$lib.mode"
  t "$lib: ... and holds the line alone" 0 "^1$" sh -c "grep -Ec '$LINE' $T/$lib.mode && [ \$(wc -l < $T/$lib.mode) = 1 ]"
done
t_done
