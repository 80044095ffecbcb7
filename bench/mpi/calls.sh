#!/usr/bin/env bash
# libgoal's own instructions per small collective call at np 2 (CALLS_NP ranks) under Open MPI
# (callgrind): bench_calls at 200 and 1200 calls; (difference of the instructions in goal_*.h and
# mpi/goalmpi*.c) / 1000, per rank.
# prepared:ALGO: ALGO prepared once (goal_mpi_algo_prepare) and run (goal_mpi_prepared_run).
# MPI_Bcast, MPI_Allreduce, MPI_Barrier: those calls through the drop-in (BUILD/openmpi/libgoalmpi.so
# preloaded), counting its own code (mpi/goalmpi*.c) too.
# Usage: [CALLS_NP=N] bench/mpi/calls.sh [BUILD] [ALGO...]   (make bench-calls builds BUILD/mpi/bench_calls.openmpi and runs it)
B=${1:-build}; shift
np=${CALLS_NP:-2}
command -v valgrind >/dev/null || { echo "calls: valgrind missing (make deps)"; exit 0; }
[ $# -gt 0 ] || set -- allreduce_recdoub gather_binomial bcast_binomial barrier_dissemination scatter_binomial reduce_binomial \
    prepared:gather_binomial prepared:bcast_binomial MPI_Bcast MPI_Allreduce MPI_Barrier
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
own() {   # the goal_*.h and goalmpi*.c functions' self cost in one callgrind file
    callgrind_annotate --inclusive=no --threshold=100 --auto=no "$1" 2>/dev/null |
        awk '/\/goal(_[a-z]+)?\.h:|\/goalmpi[a-z_]*\.c:/ { gsub(",", "", $1); s += $1 } END { print s + 0 }'
}
for algo in "$@"; do
    pre=; case $algo in MPI_*) pre=$(realpath "$B/openmpi/libgoalmpi.so") || exit 1 ;; esac
    for n in 200 1200; do
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun.openmpi --oversubscribe -np "$np" -x LD_PRELOAD="$pre" \
            valgrind --tool=callgrind --callgrind-out-file="$dir/$algo.$n.%q{OMPI_COMM_WORLD_RANK}" \
            "$B/mpi/bench_calls.openmpi" "$algo" 2 $n >/dev/null 2>&1 || { echo "calls: $algo failed"; exit 1; }
    done
    for r in $(seq 0 $((np - 1))); do
        a=$(own "$dir/$algo.200.$r"); b=$(own "$dir/$algo.1200.$r")
        echo "$algo rank $r: $(( (b - a) / 1000 )) own instructions per call"
    done
done
