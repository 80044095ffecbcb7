#!/usr/bin/env bash
# goal_mpi.h under Open MPI and MPICH: one mpirun per library and process count, each running
# every test of tests/mpi/test_mpi.c (every algorithm of goal_algos.h, checked against the
# library's own collective). Prints "openmpi: N passed, N failed", "mpich: ...", then the
# total "N passed, N failed" as the last line. Builds what it runs (make test-mpi does too).
set -u
B=${B:-build}
NPS=${GOAL_MPI_NPS:-"1 2 3 4 5 8"}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1   # we may run as root
mkdir -p "$B/mpi"
total_p=0; total_f=0
for lib in openmpi mpich; do
  p=0; f=0
  bin=$B/mpi/test_mpi.$lib
  if ! command -v mpicc.$lib >/dev/null || ! command -v mpirun.$lib >/dev/null; then
    echo "FAIL $lib: mpicc.$lib / mpirun.$lib missing (make deps)"; f=1
  elif ! mpicc.$lib -std=c99 -Wall -Wextra -Wpedantic -Werror -O2 -g -I. tests/mpi/test_mpi.c -o "$bin" -lm -lpthread; then
    echo "FAIL $lib: build"; f=1
  else
    extra=""; [ $lib = openmpi ] && extra="--oversubscribe"   # 2 cores here, up to 8 ranks
    for n in $NPS; do
      out=$(timeout 300 mpirun.$lib $extra -np "$n" "$bin" 2>/dev/null); rc=$?
      line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
      printf '%s\n' "$out" | grep -E '^(FAIL|  check failed)' | head -n 20
      if [ -z "$line" ]; then
        echo "FAIL $lib np$n: exited $rc without a count line$([ $rc = 124 ] && echo ' (timeout)')"; f=$((f + 1)); continue
      fi
      np_=${line%% passed*}; nf=${line#*, }; nf=${nf%% failed*}
      p=$((p + np_)); f=$((f + nf))
      [ "$nf" = 0 ] && [ $rc != 0 ] && { echo "FAIL $lib np$n: exited $rc"; f=$((f + 1)); }
    done
    # goal_mpi.h compiles as C++ too (without the deprecated MPI C++ bindings, which warn)
    if mpicxx.$lib -x c++ -DOMPI_SKIP_MPICXX -DMPICH_SKIP_MPICXX -std=c++11 -Wall -Wextra -Wpedantic -Werror -I. \
         tests/mpi/test_mpi.c -o "$B/mpi/test_mpi_cxx.$lib" -lm -lpthread; then p=$((p + 1))
    else echo "FAIL $lib: C++ build"; f=$((f + 1)); fi
    for ex in examples/mpi_*.c; do   # the MPI examples: built here, not by the plain-cc rule
      exe=$B/mpi/$(basename "$ex" .c).$lib
      if mpicc.$lib -std=c99 -Wall -Wextra -Wpedantic -Werror -O2 -I. "$ex" -o "$exe" -lm -lpthread &&
         timeout 120 mpirun.$lib $extra -np 4 "$exe" >/dev/null 2>&1; then p=$((p + 1))
      else echo "FAIL $lib $ex"; f=$((f + 1)); fi
    done
  fi
  echo "$lib: $p passed, $f failed"
  total_p=$((total_p + p)); total_f=$((total_f + f))
done
echo "$total_p passed, $total_f failed"
[ $total_f = 0 ]
