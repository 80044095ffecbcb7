# lib.sh - the shell tests' harness (sourced): t runs one check, t_done prints the count.
GOAL=${GOAL:-./build/goal}
# A watchdog's seconds (timeout $HANG CMD): it catches hangs only, never bounds speed; a
# machine under load may be many times slower than a quiet one, and the checks still hold.
HANG=${GOAL_TEST_HANG:-1800}
pass=0; fail=0
t() {   # t NAME EXPECTED_RC PATTERN CMD...: exit status and a line matching PATTERN
  local name=$1 rc=$2 pat=$3; shift 3
  out=$("$@" 2>&1); got=$?
  if [ "$got" = "$rc" ] && printf '%s\n' "$out" | grep -Eq -- "$pat"; then pass=$((pass+1)); echo "ok $name"
  else fail=$((fail+1)); echo "FAIL $name (exit $got, want $rc; pattern $pat)"; printf '%s\n' "$out" | head -5; fi
}
# build TARGET...: make builds them in $B (the Makefile's rules; make test has built them
# already), quietly but for errors.
build() { make --no-print-directory -s B="${B:-build}" "$@" >/dev/null; }
t_done() { echo "$pass passed, $fail failed"; [ "$fail" = 0 ]; }
