#!/usr/bin/env bash
# goal run ALGO --check against running the same world from a file: the check (random input,
# reference, comparison) should cost about what the run costs. Best of 3 wall-clock times.
B=${1:-build}
G=$B/goal
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
best() {   # best of 3 runs of "$@", in seconds
  local b=999 t k TIMEFORMAT=%R
  for k in 1 2 3; do
    { time "$@" >/dev/null 2>&1; } 2>"$tmp/t"
    t=$(tail -1 "$tmp/t")
    b=$(awk -v a="$b" -v c="$t" 'BEGIN { print (c < a) ? c : a }')
  done
  echo "$b"
}
for c in "allreduce_ring 300 65536" "allreduce_ring 1000 8" "scan_linear 2000 4096"; do
  set -- $c
  "$G" gen "$1" -p "$2" --size "$3" --dialect paper | "$G" asm - -o "$tmp/w"
  check=$(best "$G" run "$1" -p "$2" --size "$3" --check)
  file=$(best "$G" run "$tmp/w")
  echo "run --check: $1 p = $2, $3 B: $check s; goal run FILE of the same world: $file s"
done
