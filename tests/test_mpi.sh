#!/usr/bin/env bash
# goal_mpi.h under Open MPI and MPICH: one mpirun per library and process count, each running
# every test of tests/mpi/test_mpi.c (every algorithm of goal_algos.h, checked against the
# library's own collective), then the drop-in libgoalmpi.so (mpi/goalmpi.c) preloaded under
# tests/mpi/test_dropin.c (every intercepted call against PMPI_; once more with the drop-in
# built with ASan and UBSan, recording) and under real programs no
# one here wrote: LAMMPS's LJ melt (thermo equal to the run without libgoal to 1e-9), hpcc
# (its own verification), an mpi4py script, ScaLAPACK's BLACS and LU testers (both
# libraries); each must show in GOAL_MPI_STATS that libgoal served its collectives. Debian
# builds lmp, hpcc and mpi4py for Open MPI only (ldd shows libmpi.so.40), so under MPICH
# they are skipped, said once. Prints "openmpi: N passed, N failed", "mpich: ...", then the
# total "N passed, N failed" as the last line. Builds what it runs through make (the
# Makefile's rules for $B/mpi/NAME.LIB; make test has built them).
set -u
B=${B:-build}
NPS=${GOAL_MPI_NPS:-"1 2 3 4 5 8"}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1   # we may run as root
mkdir -p "$B/mpi" "$B/openmpi" "$B/mpich"
BA=$(cd "$B" && pwd)   # absolute: hpcc runs in a directory of its own
GOAL=${GOAL:-$B/goal}; . tests/lib.sh   # HANG, the watchdog's seconds
total_p=0; total_f=0
# "lib np what": runs what (a command line) with the drop-in preloaded and its stats on; prints
# its output, then its errors (kept apart: mpirun may put a stderr line, the stats, in the
# middle of a stdout one, such as the final count). DROPIN, when set, is preloaded instead.
preload() {
  local lib=$1 n=$2 o e rc; shift 2
  o=$(mktemp) e=$(mktemp)
  if [ $lib = openmpi ]; then
    GOAL_MPI_STATS=1 timeout $HANG mpirun.openmpi --oversubscribe -x GOAL_MPI_STATS ${GOAL_MPI_PARAMS:+-x GOAL_MPI_PARAMS} ${GOAL_MPI_ALGOS:+-x GOAL_MPI_ALGOS} ${GOAL_MPI_CHECK:+-x GOAL_MPI_CHECK} \
        ${GOAL_MPI_RECORD:+-x GOAL_MPI_RECORD} ${ASAN_OPTIONS:+-x ASAN_OPTIONS} -x LD_PRELOAD="${DROPIN:-$BA/openmpi/libgoalmpi.so}" -np "$n" "$@" >"$o" 2>"$e"
  else
    timeout $HANG mpirun.mpich -env GOAL_MPI_STATS 1 -env LD_PRELOAD "${DROPIN:-$BA/mpich/libgoalmpi.so}" -np "$n" "$@" >"$o" 2>"$e"
  fi
  rc=$?
  cat "$o" "$e"
  rm -f "$o" "$e"
  return $rc
}
# "out": the stats' first line says nothing at all was passed on to the library.
none_passed() { printf '%s\n' "$1" | grep -Eq '^libgoalmpi [0-9.]+ \(.*\): [1-9][0-9]* collective calls.*, 0 passed on$'; }
# "out coll...": each named collective was served by libgoal and nothing passed on.
served() {
  local out=$1 c; shift
  for c in "$@"; do printf '%s\n' "$out" | grep -Eq "^$c: [1-9][0-9]* libgoal, 0 passed on$" || return 1; done
}
# "out coll...": libgoal served each named collective at least once (some may have been passed on).
served_some() {
  local out=$1 c; shift
  for c in "$@"; do printf '%s\n' "$out" | grep -Eq "^$c: [1-9][0-9]* libgoal" || return 1; done
}
# Numbers of the thermo table of a LAMMPS log (from "Step" to "Loop time").
thermo() { awk '/^ *Step/{on=1; next} /^Loop time/{on=0} on' "$1"; }
# Every number of $1 and $2 equal to 1e-9 relative, and as many.
close() {
  paste -d'\n' <(tr -s ' ' '\n' <"$1" | grep .) <(tr -s ' ' '\n' <"$2" | grep .) |
    awk 'NR%2{a=$1; next} {d=a-$1; if (d<0) d=-d; m=a<0?-a:a; if (d > 1e-9*m && d > 1e-300) bad=1; n++} END{exit bad || n == 0}'
}
# "np out": test_mpi's auto picks ("auto COLL CLASS ALGO") are goal tune's fastest
# configurations with default parameters (auto's candidates) for the same p, model and sizes.
auto_vs_tune() {
  local all
  all=$("${GOAL:-$B/goal}" tune -p "$1" --sizes 0,8,128,2048,65536,1048576 $(cat tests/mpi/auto_params) --all 2>/dev/null) || return 1
  printf '%s\n' "$2" | awk -v all="$all" '
    BEGIN { n = split(all, ls, "\n")
      for (i = 1; i <= n; i++) { split(ls[i], f, " "); if (f[1] ~ /^#/ || (f[3] ~ /@/ && f[3] !~ /@(nway=1|segment=1024|radix=4)$/)) continue
        k = f[1] " " f[2]; a = f[3]; sub(/@.*/, "", a); if (!(k in best) || f[4] + 0 < t[k]) { best[k] = a; t[k] = f[4] + 0 } } }
    /^auto / { seen++; pick = best[$2 " " ($2 == "barrier" ? 0 : $3)]
      if (pick != $4) { print "  auto " $2 " " $3 ": " $4 ", goal tune: " pick; bad = 1 } }
    END { exit bad || seen < 60 }'
}
# "np coll size [model options]": goal tune's fastest configuration with default parameters
# (what auto picks; ties: the first printed, registry order).
tune_pick() {
  local n=$1 coll=$2 size=$3; shift 3
  "${GOAL:-$B/goal}" tune -p "$n" --sizes "$size" --coll "$coll" --all "$@" 2>/dev/null |
    awk '$1 !~ /^#/ && ($3 !~ /@/ || $3 ~ /@(nway=1|segment=1024|radix=4)$/) { a = $3; sub(/@.*/, "", a)
         if (best == "" || $4 + 0 < t) { best = a; t = $4 + 0 } } END { print best }'
}
# "lib np": under GOAL_MPI_PARAMS the drop-in's auto uses that model: GOAL_MPI_STATS names
# goal tune's picks under it, which differ from the default model's for allreduce.
auto_uses_params() {
  local lib=$1 n=$2 out ar bc def
  ar=$(tune_pick "$n" allreduce 1048576 $(cat tests/mpi/latency_params))
  bc=$(tune_pick "$n" bcast 1048576 $(cat tests/mpi/latency_params))
  def=$(tune_pick "$n" allreduce 1048576)
  out=$(GOAL_MPI_PARAMS=tests/mpi/latency_params preload $lib "$n" "$B/mpi/auto_pick.$lib" 2>&1)
  [ -n "$ar" ] && [ -n "$bc" ] && [ "$ar" != "$def" ] &&
    printf '%s\n' "$out" | grep -qx "allreduce auto: $ar 3" && printf '%s\n' "$out" | grep -qx "bcast auto: $bc 3" ||
    { echo "  expected allreduce auto: $ar 3, bcast auto: $bc 3 (default model: $def); got:"; printf '%s\n' "$out" | grep auto; return 1; }
}
# "out coll...": each named collective was served, every call of it from Fortran (the
# GOAL_MPI_STATS line "COLL: N libgoal (N from Fortran), 0 passed on").
all_fortran() {
  local out=$1 c; shift
  for c in "$@"; do
    printf '%s\n' "$out" | grep -Eq "^$c: ([1-9][0-9]*) libgoal \(\1 from Fortran\), 0 passed on$" ||
      { echo "  $c: not all served from Fortran"; return 1; }
  done
}
# "lib": the drop-in's Fortran entry points (mpi/goalmpi_fortran.c) under tests/mpi/test_fortran.f90
# (use mpi: every intercepted collective, blocking and nonblocking, in place, every completion
# call; persistent ones where the library is MPI 4) and tests/mpi/test_fortran08.f90 (use
# mpi_f08), np 1-4, each result checked and every collective shown served from Fortran.
fortran_tests() {
  local lib=$1 n out colls
  if ! build "$B/mpi/test_fortran.$lib" "$B/mpi/test_fortran08.$lib"; then
    echo "FAIL $lib: Fortran tests build (mpif90.$lib, gfortran: make deps)"; f=$((f + 1)); return
  fi
  colls="bcast reduce allreduce gather gatherv scatter scatterv allgather allgatherv alltoall alltoallv reduce_scatter"
  colls="$colls reduce_scatter_block scan exscan barrier"
  for n in 1 2 3 4; do
    out=$(preload $lib $n "$B/mpi/test_fortran.$lib" 2>&1)
    if printf '%s\n' "$out" | grep -Eq '^[1-9][0-9]* passed, 0 failed$' && all_fortran "$out" $colls $(printf 'i%s ' $colls); then
      p=$((p + 1))
    else echo "FAIL $lib Fortran np$n"; printf '%s\n' "$out" | grep -E '^(FAIL|  )|passed' | head; f=$((f + 1)); fi
    out=$(preload $lib $n "$B/mpi/test_fortran08.$lib" 2>&1)
    if printf '%s\n' "$out" | grep -Eq '^[1-9][0-9]* passed, 0 failed$' && all_fortran "$out" barrier ibarrier; then
      p=$((p + 1))
    else echo "FAIL $lib Fortran (mpi_f08) np$n"; printf '%s\n' "$out" | grep -E '^(FAIL|  )|passed' | head; f=$((f + 1)); fi
  done
}
# ScaLAPACK's own testers (Debian's scalapack-mpi-test, built for both libraries) under the
# drop-in at np N: the BLACS tester (broadcasts and combines of every type on rows, columns
# and the whole grid, each result checked by the tester; its abort test left out, as it ends
# the run before the stats) and the LU solver's tests (residual checks). At np 4 on their own
# grids (2 x 2 among them); at other np on 1 x N and N x 1 (MPICH's ranks spin: four on these
# two cores take minutes). libgoal must have served the broadcasts and reductions; the
# reductions of submatrices (datatypes with holes) go to the library.
scalapack_grids() {   # "n file...": each file's process grids become 1 x n and n x 1
  local n=$1 f; shift
  for f in "$@"; do
    awk -v n="$n" 'tolower($0) ~ /number of (process )?grids/ { print "2 grids"; print "1 " n " P"; print n " 1 Q"; skip = 2; next }
                   skip > 0 { skip--; next } { print }' "$f" >"$f.new" && mv "$f.new" "$f"
  done
}
scalapack_tests() {
  local lib=$1 n=$2 dir=/usr/lib/x86_64-linux-gnu/scalapack/$1-tests work out
  if [ ! -x "$dir/BLACS/xFbtest" ] || [ ! -x "$dir/xdlu" ]; then
    echo "FAIL $lib: ScaLAPACK's testers missing ($dir: make deps)"; f=$((f + 1)); return
  fi
  work=$(mktemp -d)
  cp "$dir"/BLACS/*.dat "$dir"/LU.dat "$work"/
  sed -i "s/^'T'\( *Run AUX?\)/'F'\1/" "$work/bt.dat"
  [ "$n" = 4 ] || scalapack_grids "$n" "$work"/sdrv.dat "$work"/bsbr.dat "$work"/comb.dat "$work"/LU.dat
  out=$(cd "$work" && preload $lib "$n" "$dir/BLACS/xFbtest" 2>&1)
  if [ "$(printf '%s\n' "$out" | grep -Ec 'TESTS: +[0-9]+ TESTS; +[1-9][0-9]* PASSED, +[0-9]+ SKIPPED, +0 FAILED\.$')" -ge 20 ] &&
     ! printf '%s\n' "$out" | grep -Eq '[1-9][0-9]* FAILED|FAILED +BLACS' &&
     served "$out" bcast && served_some "$out" reduce allreduce; then p=$((p + 1))
  else echo "FAIL $lib ScaLAPACK BLACS tester np$n"; printf '%s\n' "$out" | grep -E 'FAILED|TESTS|libgoal' | head -n 12; f=$((f + 1)); fi
  out=$(cd "$work" && preload $lib "$n" "$dir/xdlu" 2>&1)
  if printf '%s\n' "$out" | grep -Eq '^ +[1-9][0-9]* tests completed and passed residual checks\.$' &&
     printf '%s\n' "$out" | grep -Eq '^ +0 tests completed and failed residual checks\.$' &&
     served "$out" bcast reduce && served_some "$out" allreduce; then p=$((p + 1))
  else echo "FAIL $lib ScaLAPACK xdlu np$n"; printf '%s\n' "$out" | grep -E 'tests|libgoal' | head -n 12; f=$((f + 1)); fi
  rm -rf "$work"
}
# The drop-in built with ASan and UBSan under test_dropin at np 2, recording (the recorder
# reads every call's desc, a repeated call's from what the drop-in kept): no memory error.
dropin_asan() {
  local lib=$1 out rt rec
  if ! build "$B/$lib/libgoalmpi-asan.so" "$B/mpi/test_dropin.$lib"; then echo "FAIL $lib: drop-in build with ASan"; f=$((f + 1)); return; fi
  rt="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so):$BA/$lib/libgoalmpi-asan.so"
  rec=$(mktemp -d)
  out=$(DROPIN="$rt" ASAN_OPTIONS=detect_leaks=0 GOAL_MPI_RECORD="$rec/w" preload $lib 2 "$B/mpi/test_dropin.$lib" 2>&1)
  if printf '%s\n' "$out" | grep -Eq '^[1-9][0-9]* passed, 0 failed$' && [ -s "$rec/w.goal" ] &&
     ! printf '%s\n' "$out" | grep -Eq 'ERROR: AddressSanitizer|runtime error'; then p=$((p + 1))
  else echo "FAIL $lib drop-in under ASan and UBSan, recording"; printf '%s\n' "$out" | grep -E -A12 'ERROR|runtime error|passed' | head -n 30; f=$((f + 1)); fi
  rm -rf "$rec"
}
dropin_tests() {
  local lib=$1 extra=$2 n out dir ok
  if ! build "$B/$lib/libgoalmpi.so" "$B/mpi/test_dropin.$lib"; then
    echo "FAIL $lib: drop-in build"; f=$((f + 1)); return
  fi
  for n in $NPS; do
    out=$(preload $lib "$n" "$B/mpi/test_dropin.$lib" 2>&1)
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
    printf '%s\n' "$out" | grep -E '^(FAIL|  check failed|  rank)' | head -n 20
    if [ -z "$line" ]; then echo "FAIL $lib drop-in np$n: no count line"; f=$((f + 1)); continue; fi
    np_=${line%% passed*}; nf=${line#*, }; nf=${nf%% failed*}
    p=$((p + np_)); f=$((f + nf))
    if printf '%s\n' "$out" | grep -Eq '[a-z_]+: [0-9]+ libgoal, [1-9][0-9]* passed on'; then   # every call served
      echo "FAIL $lib drop-in np$n: passed on"; printf '%s\n' "$out" | grep -E 'libgoal, [1-9][0-9]* passed on'; f=$((f + 1))
    else p=$((p + 1)); fi
  done
  for n in 1 2 4; do   # ops and types freed while in flight, new ones made: MPI's result, and served
    out=$(preload $lib "$n" "$B/mpi/test_dropin.$lib" handles 2>&1)
    if printf '%s\n' "$out" | grep -Eq '^[1-9][0-9]* passed, 0 failed$' && served "$out" iallreduce ireduce igather; then p=$((p + 1))
    else echo "FAIL $lib drop-in np$n: handles freed in flight"; printf '%s\n' "$out" | grep -E '^(FAIL|  check)|passed' | head; f=$((f + 1)); fi
  done
  for n in 1 2 3 4; do   # GOAL_MPI_PARAMS: auto is the default for the tuned collectives
    out=$(GOAL_MPI_PARAMS=tests/mpi/auto_params preload $lib "$n" "$B/mpi/test_dropin.$lib" 2>&1)
    if printf '%s\n' "$out" | grep -Eq '^[1-9][0-9]* passed, 0 failed$' && ! printf '%s\n' "$out" | grep -q 'auto could not'; then
      p=$((p + 1))
    else echo "FAIL $lib drop-in np$n with GOAL_MPI_PARAMS (auto)"; printf '%s\n' "$out" | grep -E '^(FAIL|  check)|auto|passed' | head; f=$((f + 1)); fi
  done
  if build "$B/mpi/auto_pick.$lib"; then
    for n in 2 4; do
      if auto_uses_params $lib $n; then p=$((p + 1)); else echo "FAIL $lib drop-in np$n: auto does not use GOAL_MPI_PARAMS's model"; f=$((f + 1)); fi
    done
  else echo "FAIL $lib: auto_pick build"; f=$((f + 1)); fi
  for n in 3 4; do   # GOAL_MPI_CHECK: a correct program passes (vector counts and in-place are local)
    out=$(GOAL_MPI_CHECK=1 preload $lib "$n" "$B/mpi/test_dropin.$lib" 2>&1)
    if printf '%s\n' "$out" | grep -Eq '^[1-9][0-9]* passed, 0 failed$'; then p=$((p + 1))
    else echo "FAIL $lib drop-in np$n with GOAL_MPI_CHECK=1"; printf '%s\n' "$out" | grep -E '^(FAIL|  check)|disagree|passed' | head; f=$((f + 1)); fi
  done
  # goal tune --format env, tuned parameters and all (ALGO@segment=B, @nway=N, @radix=K), read back
  algos=$("${GOAL:-$B/goal}" tune -p 3 --sizes 8,128,2048,65536,1048576 --format env $(cat tests/mpi/auto_params) 2>/dev/null)
  out=$(GOAL_MPI_ALGOS="$algos" preload $lib 3 "$B/mpi/test_dropin.$lib" 2>&1)
  if printf '%s\n' "$algos" | grep -q '@' && printf '%s\n' "$out" | grep -Eq '^[1-9][0-9]* passed, 0 failed$' &&
     ! printf '%s\n' "$out" | grep -q 'GOAL_MPI_ALGOS:'; then p=$((p + 1))
  else echo "FAIL $lib drop-in np3 with goal tune's GOAL_MPI_ALGOS ($algos)"; printf '%s\n' "$out" | grep -E '^(FAIL|  check)|GOAL_MPI|passed' | head; f=$((f + 1)); fi
  # GOAL_MPI_STATS's first line, from rank 0 alone, also when no collective reached the drop-in;
  # the calls its Fortran hook marked counted as from Fortran
  name=$([ $lib = openmpi ] && echo 'Open MPI' || echo MPICH)
  out=$(preload $lib 2 "$B/mpi/test_dropin.$lib" none 2>&1)
  if [ "$(printf '%s\n' "$out" | grep -c '^libgoalmpi ')" = 1 ] &&
     printf '%s\n' "$out" | grep -Eq "^libgoalmpi [0-9.]+ \($name [0-9.]+\): 0 collective calls, 0 libgoal, 0 passed on$"; then p=$((p + 1))
  else echo "FAIL $lib drop-in: no first stats line without collectives"; printf '%s\n' "$out" | head; f=$((f + 1)); fi
  out=$(preload $lib 2 "$B/mpi/test_dropin.$lib" fortran 2>&1)
  if printf '%s\n' "$out" | grep -Eq '^1 passed, 0 failed$' && printf '%s\n' "$out" | grep -qx 'allreduce: 3 libgoal (2 from Fortran), 0 passed on' &&
     printf '%s\n' "$out" | grep -Eq "^libgoalmpi [0-9.]+ \($name [0-9.]+\): 4 collective calls \(2 from Fortran\), 4 libgoal, 0 passed on$" &&
     printf '%s\n' "$out" | grep -qx 'barrier: 1 libgoal, 0 passed on'; then p=$((p + 1))
  else echo "FAIL $lib drop-in: calls from Fortran not counted"; printf '%s\n' "$out" | head; f=$((f + 1)); fi
  # a bad GOAL_MPI_ALGOS: one warning on rank 0 naming the rule and what is wrong; that
  # collective keeps its default (MPI's results, served, nothing passed on)
  while IFS='|' read -r algos said; do
    out=$(GOAL_MPI_ALGOS="$algos" preload $lib 4 "$B/mpi/test_dropin.$lib" algos 2>&1 </dev/null)   # mpirun reads stdin
    if [ "$(printf '%s\n' "$out" | grep -c 'GOAL_MPI_ALGOS')" = 1 ] && printf '%s\n' "$out" | grep -qF "libgoalmpi: GOAL_MPI_ALGOS: $said" &&
       printf '%s\n' "$out" | grep -Eq '^1 passed, 0 failed$' && served "$out" bcast allreduce; then p=$((p + 1))
    else echo "FAIL $lib drop-in: GOAL_MPI_ALGOS='$algos' not said as '$said', or not the default"; printf '%s\n' "$out" | grep -v '^ok' | head; f=$((f + 1)); fi
  done <<'EOF'
bcast=allreduce_ring|bcast rule 'allreduce_ring': allreduce_ring is not an algorithm of bcast (bcast keeps its default)
allreduce=bcast_binomial|allreduce rule 'bcast_binomial': bcast_binomial is not an algorithm of allreduce
allreduce=reduce_binomial|allreduce rule 'reduce_binomial': reduce_binomial is not an algorithm of allreduce
bcast=scatter_linear|bcast rule 'scatter_linear': scatter_linear is not an algorithm of bcast
allreduce=allgather_ring|allreduce rule 'allgather_ring': allgather_ring is not an algorithm of allreduce
allreduce=allreduce_ring:<=abc|allreduce rule 'allreduce_ring:<=abc': the bound '<=abc' is not
allreduce=allreduce_ring:>=5|allreduce rule 'allreduce_ring:>=5': the bound '>=5' is not
bcast=:>=5|bcast rule ':>=5': the bound '>=5' is not
bcast=|bcast=: no rule (bcast keeps its default)
allreduce=allreduce_ring:<=-5|allreduce rule 'allreduce_ring:<=-5': the bound '<=-5' is not
allreduce=allreduce_ring:<=9223372036854775808|allreduce rule 'allreduce_ring:<=9223372036854775808': the bound
allreduce=allreduce_ring,allreduce_recdoub|allreduce rule 'allreduce_recdoub': never used: the rule before it takes every size
allreduce=allreduce_ring:<=4096,allreduce_recdoub:<=1024,allreduce_recdoub|allreduce rule 'allreduce_recdoub:<=1024': never used
bcast=bcast_binomial;bcast=bcast_knomial|bcast is named twice (bcast keeps its default)
bcast=bcast_knomial@radix=8@radix=2|bcast rule 'bcast_knomial@radix=8@radix=2': radix given twice
bcast=bcast_knomial@|bcast rule 'bcast_knomial@': an empty parameter
bcast=bcast_binomial@radix=4|bcast rule 'bcast_binomial@radix=4': bcast_binomial takes no radix
bcast=bcast_knomial@radix=1|bcast rule 'bcast_knomial@radix=1': radix=1: takes 2 to 1024
bcast=bcast_knomial@depth=3|bcast rule 'bcast_knomial@depth=3': no parameter 'depth'
allreduce=allreduce_dissemination@nway=1000000000|allreduce rule 'allreduce_dissemination@nway=1000000000': nway=1000000000: takes 1 to 1024
bcast=:<=5|bcast rule ':<=5': no algorithm
gatherv=alltoallv_pairwise|gatherv rule 'alltoallv_pairwise': alltoallv_pairwise is not an algorithm of gatherv
exscan=scan_linear|exscan rule 'scan_linear': scan_linear is not an algorithm of exscan
gatherv=scatterv_linear|gatherv rule 'scatterv_linear': scatterv_linear is not an algorithm of gatherv
allgatherv=alltoallv_pairwise|allgatherv rule 'alltoallv_pairwise': alltoallv_pairwise is not an algorithm of allgatherv
EOF
  echo "-G 0.09x" >"$B/mpi/bad_params"   # a bad params file is said and leaves the defaults
  out=$(GOAL_MPI_PARAMS="$B/mpi/bad_params" preload $lib 1 "$B/mpi/test_dropin.$lib" 2>&1)
  # unanchored: mpirun may put the stderr line in the middle of a stdout one
  if printf '%s\n' "$out" | grep -q "libgoalmpi: GOAL_MPI_PARAMS=$B/mpi/bad_params: -G 0.09x: takes a number" &&
     printf '%s\n' "$out" | grep -Eq '^[1-9][0-9]* passed, 0 failed$'; then p=$((p + 1))
  else echo "FAIL $lib drop-in with a bad GOAL_MPI_PARAMS"; f=$((f + 1)); fi
  out=$(GOAL_MPI_PARAMS="$B/mpi" preload $lib 1 "$B/mpi/test_dropin.$lib" 2>&1)   # a directory is said to be one
  if printf '%s\n' "$out" | grep -q "libgoalmpi: GOAL_MPI_PARAMS=$B/mpi: cannot read: Is a directory" &&
     printf '%s\n' "$out" | grep -Eq '^[1-9][0-9]* passed, 0 failed$'; then p=$((p + 1))
  else echo "FAIL $lib drop-in with a directory as GOAL_MPI_PARAMS"; printf '%s\n' "$out" | grep GOAL_MPI_PARAMS; f=$((f + 1)); fi
  dropin_asan $lib
  fortran_tests $lib
  if [ $lib = openmpi ]; then scalapack_tests $lib 4; else scalapack_tests $lib 2; fi
  if [ $lib != openmpi ]; then
    echo "skip $lib: lmp, hpcc and mpi4py are built for Open MPI only ($(ldd /usr/bin/lmp 2>/dev/null | grep -o 'libmpi[^ ]*' | head -n 1))"
    return
  fi
  dir=$(mktemp -d)
  for n in 2 4; do
    ok=1
    mpirun.openmpi --oversubscribe -np $n lmp -in /usr/share/lammps/examples/melt/in.melt -log none >"$dir/ref" 2>&1 &&
      out=$(preload $lib $n lmp -in /usr/share/lammps/examples/melt/in.melt -log none 2>&1) || ok=0
    printf '%s\n' "$out" >"$dir/goal"; thermo "$dir/ref" >"$dir/ref.t"; thermo "$dir/goal" >"$dir/goal.t"
    [ $ok = 1 ] && close "$dir/ref.t" "$dir/goal.t" && served "$out" allreduce bcast && none_passed "$out" ||
      { ok=0; echo "FAIL lammps melt np$n (thermo or stats)"; printf '%s\n' "$out" | tail -n 12; }
    [ $ok = 1 ] && p=$((p + 1)) || f=$((f + 1))
    ok=1
    sed -e 's/^1000         Ns/400          Ns/' -e 's/^80           NBs/40           NBs/' \
        -e "s/^2            Ps/$((n / 2))            Ps/" /usr/share/doc/hpcc/examples/_hpccinf.txt >"$dir/hpccinf.txt"
    out=$(cd "$dir" && rm -f hpccoutf.txt && preload $lib $n hpcc 2>&1) &&
      grep -q 'tests completed and passed residual checks' "$dir/hpccoutf.txt" &&
      ! grep -Eq 'FAILED|[1-9][0-9]* tests completed and failed|Found [1-9][0-9]* errors' "$dir/hpccoutf.txt" &&
      served "$out" allreduce bcast alltoall || { ok=0; echo "FAIL hpcc np$n"; printf '%s\n' "$out" | tail -n 12; }
    [ $ok = 1 ] && p=$((p + 1)) || f=$((f + 1))
    out=$(preload $lib $n /usr/bin/python3 tests/mpi/dropin_mpi4py.py 2>&1)
    if printf '%s\n' "$out" | grep -q '^mpi4py: all checks ok$' && served "$out" allreduce bcast alltoall iallreduce && none_passed "$out"; then p=$((p + 1))
    else echo "FAIL mpi4py np$n"; printf '%s\n' "$out" | tail -n 12; f=$((f + 1)); fi
  done
  rm -rf "$dir"
}
for lib in openmpi mpich; do
  p=0; f=0
  bin=$B/mpi/test_mpi.$lib
  if ! command -v mpicc.$lib >/dev/null || ! command -v mpirun.$lib >/dev/null; then
    echo "FAIL $lib: mpicc.$lib / mpirun.$lib missing (make deps)"; f=1
  elif ! build "$bin"; then
    echo "FAIL $lib: build"; f=1
  else
    extra=""; [ $lib = openmpi ] && extra="--oversubscribe"   # 2 cores here, up to 8 ranks
    for n in $NPS; do
      out=$(timeout $HANG mpirun.$lib $extra -np "$n" "$bin" 2>/dev/null); rc=$?
      line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
      printf '%s\n' "$out" | grep -E '^(FAIL|  check failed)' | head -n 20
      if [ -z "$line" ]; then
        echo "FAIL $lib np$n: exited $rc without a count line$([ $rc = 124 ] && echo ' (timeout)')"; f=$((f + 1)); continue
      fi
      np_=${line%% passed*}; nf=${line#*, }; nf=${nf%% failed*}
      p=$((p + np_)); f=$((f + nf))
      [ "$nf" = 0 ] && [ $rc != 0 ] && { echo "FAIL $lib np$n: exited $rc"; f=$((f + 1)); }
      if [ $n -le 4 ]; then   # auto's picks against goal tune's (test_auto in test_mpi.c)
        if auto_vs_tune $n "$out"; then p=$((p + 1)); else echo "FAIL $lib np$n: auto picks differ from goal tune's"; f=$((f + 1)); fi
      fi
    done
    # goal_mpi.h compiles as C++ too (without the deprecated MPI C++ bindings, which warn)
    if build "$B/mpi/test_mpi_cxx.$lib"; then p=$((p + 1))
    else echo "FAIL $lib: C++ build"; f=$((f + 1)); fi
    dropin_tests $lib "$extra"
    for ex in examples/mpi_*.c; do   # the MPI examples: mpicc's rule builds them, not the plain-cc one
      exe=$B/mpi/$(basename "$ex" .c).$lib
      if build "$exe" &&
         timeout $HANG mpirun.$lib $extra -np 4 "$exe" >/dev/null 2>&1; then p=$((p + 1))
      else echo "FAIL $lib $ex"; f=$((f + 1)); fi
    done
  fi
  echo "$lib: $p passed, $f failed"
  total_p=$((total_p + p)); total_f=$((total_f + f))
done
echo "$total_p passed, $total_f failed"
[ $total_f = 0 ]
