#!/usr/bin/env bash
# The check / sim / dot / trace / svg verbs of the goal command: output formats, exit codes,
# and that the pictures parse (dot -Tsvg, python3 json and xml).
set -u
GOAL=${GOAL:-./build/goal}
D=tests/data/loggopsim/cases
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { if [ "$1" = 0 ]; then pass=$((pass + 1)); echo "ok $2"; else fail=$((fail + 1)); echo "FAIL $2"; fi; }
command -v dot >/dev/null 2>&1 || tools/deps.sh >/dev/null

$GOAL sim $D/binomialtreebcast_p8_d1024.goal > $T/out; rc=$?
[ $rc = 0 ] && [ "$(sed -n 8p $T/out)" = "rank 7 34914" ] && [ "$(tail -n 1 $T/out)" = "max 34914" ] && [ "$(wc -l < $T/out)" = 9 ]; ok $? "sim prints rank lines and max"
[ "$($GOAL sim $D/handwritten/zero_byte.goal | sed -n 2p)" = "rank 1 5500" ]; ok $? "sim 0-byte default"
[ "$($GOAL sim $D/handwritten/zero_byte.goal --loggopsim-compat | sed -n 2p)" = "rank 1 5494" ]; ok $? "sim 0-byte --loggopsim-compat"
[ "$($GOAL sim $D/ping_placeholder 2>/dev/null; echo $?)" = 1 ]; ok $? "sim missing file exits 1"
[ "$($GOAL sim $D/handwritten/ping_1b.goal -L 2>/dev/null; echo $?)" = 2 ]; ok $? "sim bad option exits 2"
[ "$($GOAL sim $D/handwritten/ping_1b.goal -L 0 -o 0 | tail -n 1)" = "max 0" ]; ok $? "sim -L 0 -o 0 are real zeros"
[ "$($GOAL sim $D/handwritten/ping_1b.goal -S 0 -R 100.5 | tail -n 1)" = "max 5600.5" ] && [ "$($GOAL sim $D/handwritten/ping_1b.goal -R 100.5 | tail -n 1)" = "max 5500" ]; ok $? "sim -R: a rendezvous message (over -S) arrives R later, an eager one not"
[ "$($GOAL sim $D/handwritten/ping_1024b.goal -T 512 -H 10 | tail -n 1)" = "max 13686" ] && [ "$($GOAL sim $D/handwritten/ping_1024b.goal -T 512 | tail -n 1)" = "max 11638" ] && [ "$($GOAL sim $D/handwritten/ping_1024b.goal -T 1024 -H 10 | tail -n 1)" = "max 11638" ]; ok $? "sim -T -H: bytes beyond T cost H (4000 + 1500 + 511 x 6 + 512 x 10), -T alone or a message of T bytes not"
$GOAL sim $D/handwritten/ping_1024b.goal -T 512 -H 10 --verbose 2>&1 >/dev/null | grep -q -- " -T 512 -H 10$"; ok $? "sim --verbose prints -T and -H when set"
[ "$($GOAL sim $D/handwritten/ping_1024b.goal -T 256,512 -H 8,10 --verbose 2>$T/err | tail -n 1)" = "max 14198" ] && grep -q -- " -T 256,512 -H 8,10$" $T/err
ok $? "sim -T -H lists: a table of costs per byte (4000 + 1500 + 255 x 6 + 256 x 8 + 512 x 10), printed as given"
printf 'num_ranks 2\nrank 0 {\nl1: send 1024b to 1\nl2: recv 1024b from 1\n}\nrank 1 {\nl1: send 1024b to 0\nl2: recv 1024b from 0\n}\n' > $T/exchange.goal
[ "$($GOAL sim $T/exchange.goal | tr '\n' ' ')" = "rank 0 11638 rank 1 11638 max 11638 " ] &&
[ "$($GOAL sim $T/exchange.goal --shared-memory --verbose 2>$T/err | tr '\n' ' ')" = "rank 0 17776 rank 1 11638 max 17776 " ] &&
grep -q -- " --shared-memory$" $T/err && [ "$($GOAL sim $T/exchange.goal --shared-memory --node-size 1 | tail -n 1)" = "max 11638" ]
ok $? "sim --shared-memory: an exchange's second copy waits for the first (4000 + 1500 + 1023 x 6, + 1023 x 6); nodes of one rank do not"
printf -- '-T 256,512 -H 8,10\n' > $T/table.params
[ "$($GOAL sim $D/handwritten/ping_1024b.goal --params $T/table.params | tail -n 1)" = "max 14198" ]; ok $? "sim --params: a table of costs per byte"
[ "$($GOAL sim $D/handwritten/ping_1b.goal -E 20 | tail -n 1)" = "max 5540" ] && [ "$($GOAL sim $D/handwritten/ping_1b.goal -F 100.5 | tail -n 1)" = "max 5600.5" ] && [ "$($GOAL sim $D/handwritten/ping_1b.goal -E 0 -F 0 | tail -n 1)" = "max 5500" ]; ok $? "sim -E -F: the executor's cost per message (the message leaves E later, the receive costs E more: 5500 + 2 x 20) and a call's fixed cost; 0 changes nothing"
echo "-L 2500 -E 20.5 -F 100" > $T/ef.params
$GOAL sim $D/handwritten/ping_1b.goal --params $T/ef.params --verbose 2>&1 >/dev/null | grep -q -- " -E 20.5 -F 100$"; ok $? "sim --params: -E -F round-trip (--verbose prints them)"
[ "$($GOAL sim $D/handwritten/ping_1b.goal -E -1 2>&1; echo $?)" = "$(printf 'goal: sim: -E -1: takes a number >= 0 (goal sim --help lists its options)\n2')" ]; ok $? "sim -E -1 is named, exit 2"
echo "-E x" > $T/ef.params
$GOAL sim $D/handwritten/ping_1b.goal --params $T/ef.params 2>&1 | grep -q -- "--params $T/ef.params: -E x: takes a number (ns, up to 3 decimals)$"; ok $? "sim --params with -E x is named"

printf 'num_ranks 2\nrank 0 {\nl1: recv 1b from 1\nl2: send 1b to 1\nl2 requires l1\n}\nrank 1 {\nl1: recv 1b from 0\nl2: send 1b to 0\nl2 requires l1\n}\n' > $T/cycle.goal
$GOAL sim $T/cycle.goal > /dev/null 2> $T/err; rc=$?
[ $rc = 3 ] && grep -q "rank 1 l2 (send 1 bytes to 0 tag 0): never starts" $T/err; ok $? "sim deadlock exits 3 naming stuck actions"
$GOAL check $T/cycle.goal > $T/out 2>/dev/null; rc=$?
[ $rc = 1 ] && grep -q "^rank 0 l1 (recv 1 bytes from 1 tag 0): error: deadlock cycle" $T/out; ok $? "check reports a cycle across ranks"
$GOAL check $D/allreduce_ring_p64_d1.goal > $T/out; rc=$?
[ $rc = 0 ] && grep -q "^ok: 64 ranks" $T/out; ok $? "check clean world exits 0"
printf 'num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 3\n}\nrank 1 {\nl1: recv 4b from 0 tag 3\n}\n' > $T/big.goal
[ "$($GOAL check $T/big.goal 2>/dev/null)" = "rank 1 l1 (recv 4 bytes from 0 tag 3): error: matched send is larger: rank 0 l1 (send 8 bytes to 1 tag 3)" ]; ok $? "check size error line"
for f in $D/*.goal $D/handwritten/*.goal; do $GOAL check $f > /dev/null 2>&1 || { echo "  check failed on $f"; false; } ; done; ok $? "check passes every reference world"

$GOAL dot $D/binomialtreebcast_p8_d1024.goal -o $T/w.dot && dot -Tsvg $T/w.dot > /dev/null; ok $? "dot world parses with dot -Tsvg"
$GOAL dot --rank 3 $D/readme_placeholder 2>/dev/null; [ $? = 1 ]; ok $? "dot missing file exits 1"
$GOAL dot --rank 1 $D/handwritten/readme_reduce8.goal | dot -Tsvg > /dev/null; ok $? "dot one rank parses with dot -Tsvg"
[ "$(grep -c -- '->' $T/w.dot)" = 11 ]; ok $? "dot world has 4 dependencies and 7 messages"
$GOAL trace $D/handwritten/readme_reduce8.goal -o $T/t.json && python3 - "$T/t.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
ph = {}
for e in ev: ph[e["ph"]] = ph.get(e["ph"], 0) + 1
assert ph == {"M": 8, "X": 14, "s": 7, "f": 7}, ph
assert max(e.get("ts", 0) + e.get("dur", 0) for e in ev) == 34.914
PY
ok $? "trace is JSON with 14 slices, 7 flows, ends at 34.914 us"
$GOAL trace $D/handwritten/ping_1b.goal --overhead 100 | python3 -m json.tool > /dev/null; ok $? "trace takes --overhead"
$GOAL trace $T/cycle.goal > /dev/null 2>&1; [ $? = 3 ]; ok $? "trace of a deadlock exits 3"
$GOAL svg $D/binomialtreebcast_p16_d65536.goal -o $T/t.svg && python3 -c "import xml.dom.minidom,sys; d=xml.dom.minidom.parse(sys.argv[1]); assert len(d.getElementsByTagName('rect')) > 40" $T/t.svg; ok $? "svg is well-formed XML with boxes"
printf 'num_ranks 1\nrank 0 {\nl1: calc 9223372036854775807\nl2: calc 9223372036854775807\nl3: calc 9223372036854775807\nl2 requires l1\nl3 requires l2\n}\n' > $T/calc3.goal
$GOAL sim $T/calc3.goal > $T/out 2> $T/err; rc=$?
[ $rc = 1 ] && [ ! -s $T/out ] && grep -q "^goal: sim: simulated time overflows (past 2^64-1 ps, about 213 days) at rank 0 l1 (calc)" $T/err; ok $? "sim: chained calcs past 2^64-1 ps exit 1, naming the action"
printf 'num_ranks 2\nrank 0 {\nl1: send 9223372036854775807b to 1\n}\nrank 1 {\nl1: recv 9223372036854775807b from 0\n}\n' > $T/bigsend.goal
$GOAL sim $T/bigsend.goal 2> $T/err; rc=$?
[ $rc = 1 ] && grep -q "overflows .* at rank 0 l1 (send 9223372036854775807 bytes to 1 tag 0)" $T/err; ok $? "sim: a 2^63-1 byte send overflows, exit 1"
$GOAL trace $T/bigsend.goal > /dev/null 2> $T/err; rc=$?
[ $rc = 1 ] && grep -q "simulated time overflows" $T/err; ok $? "trace: overflow exits 1"
# Fractional LogGOPS parameters (hand-computed in test_sim.c) and --params FILE on every verb that simulates.
printf 'num_ranks 2\nrank 0 {\nl1: send 1001b to 1\nl2: send 1001b to 1\n}\nrank 1 {\nl1: recv 1001b from 0\nl2: recv 1001b from 0\n}\n' > $T/two.goal
[ "$($GOAL sim $T/two.goal -L 480.5 -o 160.25 -g 210.5 -G 0.08 -O 0.02 | tr '\n' ' ')" = "rank 0 470.75 rank 1 1171.5 max 1171.5 " ]; ok $? "sim with fractional parameters"
echo '-L 480.5 -o 160.25 -g 210.5 -G 0.08 -O 0.02' > $T/p.txt
for v in sim trace svg; do
  if [ $v = sim ]; then o=-o; else o=--overhead; fi
  $GOAL $v $T/two.goal -L 480.5 $o 160.25 -g 210.5 -G 0.08 -O 0.02 > $T/a && $GOAL $v $T/two.goal --params $T/p.txt > $T/b && cmp -s $T/a $T/b || false
done; ok $? "--params FILE gives what the options give (sim, trace, svg)"
$GOAL trace $T/two.goal --params $T/p.txt | grep -q '"ts":0.2905,"dur":0.18025'; ok $? "trace keeps fractions of a ns"
[ "$($GOAL sim $T/two.goal --params $T/p.txt -G 6 | tail -n 1)" = "$($GOAL sim $T/two.goal -L 480.5 -o 160.25 -g 210.5 -G 6 -O 0.02 | tail -n 1)" ]; ok $? "options after --params override it"
[ "$($GOAL sim $D/binomialtreebcast_p8_d1024.goal -L 2500.000 -G 6.0 | tail -n 1)" = "max 34914" ]; ok $? "integer values written with decimals give the integer results"
bad() { "$@" > /dev/null 2> $T/err; echo "$? $(cat $T/err)"; }
printf 'num_ranks 2;\nrank #0 {\n l1: exec copyUInt8 with 1:0,1000 0,1000;\n l2: send 1:0,1000 to 1;\n l3: calc 100;\n requ l2 -> l1;\n requ l3 -> l2;\n}\nrank #1 {\n l1: recv 0,1000 from 0;\n l2: exec sumInt32 with 0,1000 1:0,1000;\n requ l2 -> l1;\n}\n' > $T/exec.goal
echo '-C 0.25' > $T/c.txt
[ "$($GOAL sim $T/exec.goal -C 0.25 | tr '\n' ' ')" = "rank 0 1850 rank 1 11994 max 11994 " ] &&
[ "$($GOAL sim $T/exec.goal --params $T/c.txt | tail -n 1)" = "max 11994" ] &&
[ "$($GOAL sim $T/exec.goal -C 1 | tail -n 1)" = "$($GOAL sim $T/exec.goal | tail -n 1)" ]; ok $? "-C: CPU time per byte of exec (hand-computed in test_sim.c), also in a params file"
$GOAL trace $T/exec.goal -C 0.25 | grep -q '"ts":0.000,"dur":0.250'; ok $? "trace takes -C"
printf 'num_ranks 4\nrank 0 {\nl1: send 1001b to 1\nl2: send 1001b to 2\n}\nrank 1 {\nl1: recv 1001b from 0\n}\nrank 2 {\nl1: recv 1001b from 0\nl2: recv 1001b from 3\n}\nrank 3 {\nl1: send 1001b to 2\n}\n' > $T/nodes.goal
echo '-L 1000 -o 100 -g 200 -G 1 -O 0 --node-size 2 --intra-L 10 --intra-o 20 --intra-g 30 --intra-G 0.1 --intra-O 0.05' > $T/nodes.txt
[ "$($GOAL sim $T/nodes.goal --params $T/nodes.txt | tr '\n' ' ')" = "rank 0 230 rank 1 150 rank 2 2330 rank 3 70 max 2330 " ] &&
[ "$($GOAL sim $T/nodes.goal -L 1000 -o 100 -g 200 -G 1 -O 0 --node-size 1 | tail -n 1)" = "$($GOAL sim $T/nodes.goal -L 1000 -o 100 -g 200 -G 1 -O 0 | tail -n 1)" ]; ok $? "two-level model: --node-size, --intra-* (hand-computed in test_sim.c); node size 1 is LogGOPS"
$GOAL trace $T/nodes.goal --params $T/nodes.txt | grep -q '"ts":1.230,"dur":1.100' && $GOAL svg $T/nodes.goal --node-size 2 --intra-L 10 > /dev/null; ok $? "trace and svg take the two-level options"
d=$($GOAL tune -p 16 --coll bcast --sizes 8)
[ "$($GOAL tune -p 16 --coll bcast --sizes 8 --node-size 1 -C 0.25)" = "$d" ] && [ -n "$d" ] &&
[ "$($GOAL tune -p 16 --coll bcast --sizes 8 --node-size 4 --intra-L 100 --intra-o 50)" != "$d" ]; ok $? "tune takes the two-level options and -C"
[ "$(bad $GOAL sim $T/nodes.goal --node-size 0)" = "2 goal: sim: --node-size 0: takes a number of ranks from 1 to 2147483647 (goal sim --help lists its options)" ]; ok $? "--node-size 0 is a usage error"
[ "$(bad $GOAL sim $T/exec.goal -C 0.0001)" = "2 goal: sim: -C 0.0001: has more than 3 decimals (the simulator counts in ps, 0.001 ns) (goal sim --help lists its options)" ]; ok $? "-C finer than 1 ps"
[ "$(bad $GOAL sim $T/two.goal -G -0.5)" = "2 goal: sim: -G -0.5: takes a number >= 0 (goal sim --help lists its options)" ]; ok $? "negative parameter: usage error"
[ "$(bad $GOAL sim $T/two.goal -L fast)" = "2 goal: sim: -L fast: takes a number (ns, up to 3 decimals) (goal sim --help lists its options)" ]; ok $? "non-number parameter"
[ "$(bad $GOAL sim $T/two.goal -G 0.0805)" = "2 goal: sim: -G 0.0805: has more than 3 decimals (the simulator counts in ps, 0.001 ns) (goal sim --help lists its options)" ]; ok $? "finer than 1 ps"
[ "$(bad $GOAL svg $T/two.goal -g 99999999999999999999)" = "2 goal: svg: -g 99999999999999999999: is too large (at most 9007199254740.992 ns) (goal svg --help lists its options)" ]; ok $? "parameter overflow"
echo '-L 480 -G 0.09x' > $T/bad.txt
[ "$(bad $GOAL sim $T/two.goal --params $T/bad.txt | cut -c1-60)" = "$(printf '%s' "1 goal: sim: --params $T/bad.txt: -G 0.09x: takes a number" | cut -c1-60)" ]; ok $? "bad value in a params file: exit 1, file and value named"
[ "$(bad $GOAL sim $T/two.goal --params $T/bad.txt | cut -c1-1)" = 1 ]; ok $? "bad params file exits 1"
echo '-L 480 --frob 3' > $T/bad.txt
bad $GOAL trace $T/two.goal --params $T/bad.txt | grep -q "^1 goal: trace: --params $T/bad.txt: '--frob' is not a model option"; ok $? "unknown word in a params file"
[ "$(bad $GOAL sim $T/two.goal --params $T/nonexistent.txt | cut -c1-1)" = 1 ]; ok $? "missing params file exits 1"
: > $T/empty.txt; echo "--params $T/p.txt" > $T/nest.txt
[ "$(bad $GOAL sim $T/two.goal --params $T/empty.txt)" = "1 goal: sim: --params $T/empty.txt: no model options in the file" ] &&
[ "$(bad $GOAL sim $T/two.goal --params $T/nest.txt)" = "1 goal: sim: --params $T/nest.txt: --params inside a params file" ]; ok $? "empty and nested params files"
# Options that change nothing alone are said (the run goes on, exit 0); together, nothing is said.
[ "$(bad $GOAL sim $T/two.goal -T 100)" = "0 goal: sim: warning: -T without -H changes nothing (-T B -H ns/B go together)" ] &&
[ "$(bad $GOAL sim $T/two.goal -H 0.5)" = "0 goal: sim: warning: -H without -T changes nothing (-T B -H ns/B go together)" ] &&
[ "$(bad $GOAL svg $T/two.goal --intra-L 5)" = "0 goal: svg: warning: --intra-L without --node-size changes nothing" ] &&
[ "$(bad $GOAL tune -p 2 --coll barrier --intra-g 5)" = "0 goal: tune: warning: --intra-g without --node-size changes nothing" ] &&
[ "$(bad $GOAL sim $T/two.goal -T 100 -H 0.5 --node-size 1 --intra-L 5)" = "0 " ]; ok $? "-T, -H, --intra-* alone warn"
[ "$(bad $GOAL sim $D/handwritten/ping_1024b.goal -T 256,512 -H 10)" = "2 goal: sim: 2 sizes (-T; goal_sim_desc.T, T_more) and 1 costs per byte (-H; H, H_more): one cost per size (goal sim --help lists its options)" ] &&
[ "$(bad $GOAL sim $D/handwritten/ping_1024b.goal -T 512,256 -H 1,2)" = "2 goal: sim: -T 512,256: takes sizes > 0 that increase strictly (131072,524288,2097152) (goal sim --help lists its options)" ] &&
[ "$(bad $GOAL tune -p 2 --coll bcast -T 1,2,3,4,5,6,7,8,9 -H 1)" = "2 goal: tune: -T 1,2,3,4,5,6,7,8,9: takes at most 8 comma-separated values (goal tune --help lists its options)" ]
ok $? "sim, tune: -T -H lists of different lengths, not increasing, too long"
# sim's -o is the overhead: a file name there gets a hint
[ "$(bad $GOAL sim $T/two.goal -o out.txt)" = "2 goal: sim: -o out.txt: takes a number (ns, up to 3 decimals); -o is the CPU overhead here, not an output file (goal sim --help lists its options)" ]
ok $? "sim -o FILE: the hint that -o is the overhead"
# Every verb that simulates names the action whose time overflows, as sim does.
printf 'rank #0 { a: calc 9223372036854775807; b: calc 9223372036854775807; c: calc 9223372036854775807; requ b -> a; requ c -> b; }' > $T/ov.goal
printf 'num_ranks 2; rank #0 { big: send 0,9223372036854775807 to 1; } rank #1 { recv 0,9223372036854775807 from 0; }' > $T/ovsend.goal
want=$(bad $GOAL sim $T/ovsend.goal | sed 's/goal: sim: //')
r=0; case "$want" in "1 simulated time overflows (past 2^64-1 ps, about 213 days) at rank 0 big (send"*) ;; *) r=1 ;; esac
for v in html svg trace; do
  for f in ov ovsend; do
    [ "$(bad $GOAL $v $T/$f.goal -o $T/x.out | sed "s/goal: $v: //")" = "$(bad $GOAL sim $T/$f.goal | sed 's/goal: sim: //')" ] || r=1
  done
done
[ ! -e $T/x.out ] || r=1
ok $r "html, svg, trace name the overflowing action as sim does (a send of 2^63-1 bytes: $want)"
# Parse errors start with goal: as every other message
[ "$(bad $GOAL sim $D/../../run/nonexistent 2>/dev/null | cut -c1-7)" = "1 goal:" ] &&
[ "$(printf 'rank #0 { sned; }' | bad $GOAL check -)" = "1 goal: <stdin>: line 1, col 11: expected send, recv, exec, calc or nop, found 'sned'" ]; ok $? "parse errors start with goal:"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
