#!/usr/bin/env bash
# Runs every test program given, shows failures, and ends with the total "N passed, N failed".
set -u
pass=0; fail=0
for t in "$@"; do
  out=$(eval "$t" 2>&1); rc=$?
  line=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
  if [ -z "$line" ]; then
    printf '%s\n' "$out" | tail -n 20
    echo "FAIL $t: exited $rc without a count line"; fail=$((fail + 1)); continue
  fi
  p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
  pass=$((pass + p)); fail=$((fail + f))
  if [ "$f" != 0 ] || [ $rc != 0 ]; then
    printf '%s\n' "$out" | grep -E '^(FAIL|  check failed)' | head -n 40
    [ "$f" = 0 ] && { echo "FAIL $t: exited $rc"; fail=$((fail + 1)); }
  fi
  echo "${t%% *}: $line" | sed "s|^.*/||"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
