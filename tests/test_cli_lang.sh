#!/usr/bin/env bash
# The language verbs of the goal command: fmt, asm, dis, stats. Exact output and exit status
# (0 ok, 1 bad input, 2 usage). Run from the repository root with GOAL=./build/goal.
set -u
GOAL=${GOAL:-./build/goal}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0; fail=0

# expect NAME WANT_RC WANT_STDOUT_FILE WANT_STDERR_SUBSTRING -- command...
expect() {
  local name=$1 rc=$2 out=$3 err=$4; shift 5
  "$@" >"$T/out" 2>"$T/err"; local got=$?
  if [ "$got" != "$rc" ]; then echo "  check failed: $name: exit $got, want $rc"; cat "$T/err"; fail=$((fail + 1)); return; fi
  if [ -n "$out" ] && ! cmp -s "$T/out" "$out"; then echo "  check failed: $name: stdout differs"; diff "$out" "$T/out" | head -n 10; fail=$((fail + 1)); return; fi
  if [ -n "$err" ] && ! grep -qF -- "$err" "$T/err"; then echo "  check failed: $name: stderr lacks '$err':"; cat "$T/err"; fail=$((fail + 1)); return; fi
  echo "ok $name"; pass=$((pass + 1))
}

cat >"$T/ex2.goal" <<'EOF'
rank #0 {
  r1: recv 503,1 from 1;
  r2: recv 504,1 from 2;
  e1: exec sumInt8 with 501,1 503,1;
  e2: exec sumInt8 with 502,1 504,1;
  requ e1 -> r1;
  requ e2 -> r2;
}
rank #1, #2 {
  send 501,1 to 0;
}
EOF
cat >"$T/ex2.lgs" <<'EOF'
num_ranks 3

rank 0 {
r1: recv 1b from 1 tag 0
r2: recv 1b from 2 tag 0
e1: calc 1
e2: calc 1
e1 requires r1
e2 requires r2
}

rank 1 {
send 1b to 0 tag 0
}

rank 2 {
send 1b to 0 tag 0
}
EOF
cat >"$T/stats" <<'EOF'
rank 0 actions 4 edges 2 bytes 204 copy 0
rank 1 actions 1 edges 0 bytes 80 copy 0
rank 2 actions 1 edges 0 bytes 80 copy 0
total actions 6 edges 2 bytes 364 copy 0
EOF
# copy counts the bytes of exec copy actions only (not of other execs)
printf 'rank #0 {\n  e1: exec copyUInt8 with 0,8 8,8;\n  e2: exec sumInt8 with 0,4 8,4;\n}\nrank #1 {\n  e1: exec copyInt32 with 0,12 16,12;\n}\n' >"$T/copy.goal"
cat >"$T/copy.stats" <<'EOF'
rank 0 actions 2 edges 0 bytes 144 copy 8
rank 1 actions 1 edges 0 bytes 100 copy 12
total actions 3 edges 0 bytes 244 copy 20
EOF
printf 'rank #0 {\n  a: nop;\n  requ a -> b;\n}\n' >"$T/bad.goal"
: >"$T/empty"

expect "fmt example 2 is a fixed point"   0 "$T/ex2.goal" "" -- "$GOAL" fmt "$T/ex2.goal"
expect "fmt --dialect loggopsim"          0 "$T/ex2.lgs" "" -- "$GOAL" fmt "$T/ex2.goal" --dialect loggopsim
expect "fmt keeps the input's dialect"    0 "$T/ex2.lgs" "" -- "$GOAL" fmt "$T/ex2.lgs"
expect "fmt reads standard input"         0 "$T/ex2.goal" "" -- sh -c "'$GOAL' fmt - < '$T/ex2.goal'"
expect "fmt: error with line and column"  1 "$T/empty" "$T/bad.goal: line 3, col 13: unknown label 'b' in this rank block" -- "$GOAL" fmt "$T/bad.goal"
expect "fmt: stdin errors name <stdin>"   1 "$T/empty" "<stdin>: line 1, col 11: expected send, recv, exec, calc or nop, found 'sned'" -- sh -c "printf 'rank #0 { sned; }' | '$GOAL' fmt -"
expect "fmt: missing file"                1 "$T/empty" "cannot open" -- "$GOAL" fmt "$T/nonexistent"
expect "fmt: no FILE"                     2 "$T/empty" "fmt: FILE is missing" -- "$GOAL" fmt
expect "fmt: unknown option"              2 "$T/empty" "fmt: unknown option '--bogus'" -- "$GOAL" fmt --bogus "$T/ex2.goal"
expect "fmt: bad dialect"                 2 "$T/empty" "fmt: --dialect is paper or loggopsim" -- "$GOAL" fmt --dialect x "$T/ex2.goal"
expect "fmt: two files"                   2 "$T/empty" "fmt: one FILE only" -- "$GOAL" fmt "$T/ex2.goal" "$T/ex2.goal"
expect "asm"                              0 "$T/empty" "" -- "$GOAL" asm "$T/ex2.goal" -o "$T/ex2.bin"
expect "asm: the world file's size"       0 "" "" -- test "$(wc -c <"$T/ex2.bin")" -eq 424
expect "asm: magic"                       0 "" "" -- sh -c "head -c 8 '$T/ex2.bin' | grep -q GOALWRLD"
expect "asm: -o missing"                  2 "$T/empty" "asm: -o OUT is missing" -- "$GOAL" asm "$T/ex2.goal"
expect "asm: bad input"                   1 "$T/empty" "line 3, col 13" -- "$GOAL" asm "$T/bad.goal" -o "$T/bad.bin"
expect "dis prints example 2"             0 "$T/ex2.goal" "" -- "$GOAL" dis "$T/ex2.bin"
"$GOAL" dis "$T/ex2.bin" | "$GOAL" asm - -o "$T/again.bin"
expect "dis | asm gives identical bytes"  0 "" "" -- cmp "$T/ex2.bin" "$T/again.bin"
"$GOAL" asm "$T/ex2.lgs" -o "$T/lgs.bin"
expect "asm of the LogGOPSim form"        0 "" "" -- test "$(wc -c <"$T/lgs.bin")" -eq 376
head -c 100 "$T/ex2.bin" >"$T/trunc.bin"
expect "dis: truncated world file"        1 "$T/empty" "corrupt world file: bad header, or truncated" -- "$GOAL" dis "$T/trunc.bin"
expect "stats of the world file"          0 "$T/stats" "" -- "$GOAL" stats "$T/ex2.bin"
expect "stats of the text"                0 "$T/stats" "" -- "$GOAL" stats "$T/ex2.goal"
expect "stats: copy bytes"                  0 "$T/copy.stats" "" -- "$GOAL" stats "$T/copy.goal"
expect "stats: bad input"                 1 "$T/empty" "line 3, col 13" -- "$GOAL" stats "$T/bad.goal"
expect "unknown verb"                     2 "$T/empty" "unknown verb 'frob'" -- "$GOAL" frob
expect "no verb"                          2 "$T/empty" "usage: goal VERB" -- "$GOAL"
expect "sparse world: fmt stays small"    0 "" "" -- sh -c "printf 'rank #2000000000 { }' | '$GOAL' fmt - | grep -qx 'num_ranks 2000000001;'"
for f in tests/data/loggopsim/cases/*.goal tests/data/loggopsim/cases/handwritten/*.goal; do
  "$GOAL" fmt "$f" >"$T/a.goal" && "$GOAL" fmt "$T/a.goal" >"$T/b.goal" && cmp -s "$T/a.goal" "$T/b.goal" &&
    "$GOAL" asm "$f" -o "$T/a.bin" && "$GOAL" dis "$T/a.bin" | "$GOAL" asm - -o "$T/b.bin" && cmp -s "$T/a.bin" "$T/b.bin" ||
    { echo "  check failed: reference case $f"; fail=$((fail + 1)); continue; }
done
echo "ok reference cases: fmt fixed point, asm | dis | asm identical"
pass=$((pass + 1))
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
