#!/usr/bin/env bash
# Executor instructions per action, stable across runs: callgrind counts what goal_exec_run
# executes for a 1-million-action schedule, run 3 times by bench_sched.
B=${1:-build}
command -v valgrind >/dev/null || { echo "instructions: valgrind missing (make deps)"; exit 0; }
n=1000000
ir=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect=goal_exec_run \
     "$B/bench/bench_sched" $n 2>&1 | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
echo "executor: $((ir / (3 * n))) instructions/action (callgrind, transport's post included)"
