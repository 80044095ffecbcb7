#!/usr/bin/env bash
# goal tune's run time with the defaults (10 collectives, 12 sizes), with the aim: p up
# to 2^16 in under a minute. Wall and CPU seconds of one run each, and peak memory where
# /usr/bin/time is installed; on a shared machine the same run varies from one minute to
# the next, so this is a figure, not a test.
B=${1:-build}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
timed() {   # "$@" > $tmp/out; "wall user sys kb" (kb 0: unknown) > $tmp/t
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -o "$tmp/t" -f "%e %U %S %M" "$@" >"$tmp/out"
  else
    local TIMEFORMAT='%R %U %S 0'
    { time "$@" >"$tmp/out"; } 2>"$tmp/t"
  fi
}
for p in ${TUNE_P:-1024 4096 65536}; do
  timed "$B/goal" tune -p "$p" || exit 1
  read -r wall user sys kb < <(tail -1 "$tmp/t")
  mem=""; [ "$kb" -gt 0 ] && mem=", $((kb / 1024)) MB"
  verdict=""; [ "$p" = 65536 ] && verdict=$(awk -v w="$wall" 'BEGIN { print (w < 60) ? "  (target < 60 s: met)" : "  (target < 60 s: missed)" }')
  printf 'goal tune -p %-6s %6.1f s wall, %6.1f s CPU%s, %d rows%s\n' "$p" "$wall" \
    "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')" "$mem" "$(grep -vc '^#' "$tmp/out")" "$verdict"
done
