#!/usr/bin/env bash
# Pictures: goal html in headless Chromium (tests/browser/test_html.js; screenshots in
# build/html/), goal svg (critical path, rounds, rank ticks, an axis that ends)
# and goal dot (ranks in order, legend, --fold). Never skips: a missing chromium or
# playwright-core is installed by tools/deps.sh, and is a failure if it still is missing.
set -u
. tests/lib.sh   # HANG
GOAL=${GOAL:-./build/goal}
OUT=$(dirname "$GOAL")/html
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
pass=0; fail=0
ok() { if [ "$1" = 0 ]; then pass=$((pass + 1)); echo "ok $2"; else fail=$((fail + 1)); echo "FAIL $2"; fi; }
mkdir -p "$OUT"

# ---- the page in a browser ----
[ -x /usr/bin/chromium ] && [ -d tests/browser/node_modules/playwright-core ] || tools/deps.sh >/dev/null
for a in bcast_binomial allreduce_dissemination reduce_aspen; do $GOAL gen $a -p 8 --size 64 -o $T/$a.goal; done
$GOAL gen bcast_chain -p 6 --size 4096 --segment 1024 -o $T/bcast_chain.goal
$GOAL gen allreduce_dissemination -p 1024 --size 64 -o $T/dissemination_1024.goal
# A message that arrives before its recv is posted (a box with no action), then a 5 ns calc
# under a pixel wide: both on the critical path, so both drawn.
printf 'num_ranks 2\nrank 0 {\nl1: send 8b to 1\n}\nrank 1 {\nl1: calc 10000\nl2: recv 8b from 0\nl3: calc 5\nl2 requires l1\nl3 requires l2\n}\n' > $T/unexpected.goal
# Large runs: a chain of 10^5 actions on one rank, a binomial broadcast of 2^20 - 2 actions
# (the browser test prints how long each took to load; it asserts no time).
awk 'BEGIN { n = 100000; print "num_ranks 1\nrank 0 {"; for (i = 1; i <= n; i++) print "l" i ": calc 10";
             for (i = 1; i < n; i++) print "l" i + 1 " requires l" i; print "}" }' > $T/chain_100000.goal
$GOAL gen bcast_binomial -p 524288 --size 64 -o $T/binomial_524288.goal
# A hostile file name: it is the page's name, in its title and in its data.
cp $T/bcast_binomial.goal "$T/x<script>alert(1)<img src=x onerror=alert(2)>&amp;.goal"
if [ -x /usr/bin/chromium ] && command -v node >/dev/null && [ -d tests/browser/node_modules/playwright-core ]; then
  GOAL_TEST_HANG=$HANG timeout $HANG node tests/browser/test_html.js "$GOAL" "$OUT" $T/bcast_binomial.goal $T/allreduce_dissemination.goal \
      $T/bcast_chain.goal $T/reduce_aspen.goal $T/unexpected.goal $T/dissemination_1024.goal \
      "$T/x<script>alert(1)<img src=x onerror=alert(2)>&amp;.goal" $T/chain_100000.goal $T/binomial_524288.goal > $T/browser.out 2>&1
  cat $T/browser.out | grep -v '^[0-9]* passed'
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' $T/browser.out)
  [ -n "$line" ] || { tail -5 $T/browser.out; fail=$((fail + 1)); }
  pass=$((pass + ${line%% passed*})); f=${line#*, }; fail=$((fail + ${f%% failed*}))
else
  ok 1 "chromium (/usr/bin/chromium), node and playwright-core (tests/browser) are there: run make deps"
fi
$GOAL demo -o $T/demo > $T/demo.out && grep -q "page .*$T/demo/bcast_binomial.html" $T/demo.out &&
  grep -q '<title>goal: reduce_aspen, 8 ranks, [0-9]* ns</title>' $T/demo/reduce_aspen.html; ok $? "demo writes a page per algorithm and prints its path"
m=$($GOAL sim $T/bcast_binomial.goal -o 100 -L 700 | tail -n 1 | cut -d' ' -f2)
$GOAL html $T/bcast_binomial.goal --overhead 100 -L 700 -o $T/o.html && grep -q "<title>goal: bcast_binomial, 8 ranks, $m ns</title>" $T/o.html; ok $? "html takes the model options (--overhead for -o): $m ns"
$GOAL html $T/bcast_binomial.goal | grep -Eq 'src=|href=|https?://' ; [ $? = 1 ]; ok $? "html page names no external URL"
printf 'num_ranks 2\nrank 0 {\nl1: recv 1b from 1\nl2: send 1b to 1\nl2 requires l1\n}\nrank 1 {\nl1: recv 1b from 0\nl2: send 1b to 0\nl2 requires l1\n}\n' > $T/cycle.goal
$GOAL html $T/cycle.goal -o $T/c.html 2>/dev/null; [ $? = 3 ]; ok $? "html of a deadlock exits 3"

# ---- svg ----
$GOAL sim $T/bcast_binomial.goal --critical > $T/crit
[ "$(grep -c '^critical rank' $T/crit)" = 6 ] && [ "$(grep -c '^critical message' $T/crit)" = 3 ] &&
  grep -q '^critical message 3 -> 7 round 3 ' $T/crit; ok $? "sim --critical: binomial p = 8 is 3 rounds of send, message, recv"
$GOAL svg $T/bcast_binomial.goal -o $T/b.svg && python3 - $T/b.svg <<'PY'
import sys, xml.dom.minidom
d = xml.dom.minidom.parse(sys.argv[1])
crit = [r for r in d.getElementsByTagName("rect") if r.getAttribute("stroke") == "#111111" and r.getAttribute("stroke-width") == "2"]
assert len(crit) == 6 + 1, len(crit)       # six actions and the legend's sample
texts = [t.firstChild.data for t in d.getElementsByTagName("text") if t.firstChild]
rounds = sorted(t.firstChild.data for t in d.getElementsByTagName("text") if t.getAttribute("class") == "round")
assert rounds == ["1", "2", "2", "3", "3", "3", "3"], rounds   # the textbook's rounds of a binomial tree
assert "l1 recv" in texts and "l2 send" in texts, texts      # labels in the boxes
PY
ok $? "svg: critical path boxes, round numbers, labels in boxes"
$GOAL svg $T/dissemination_1024.goal -o $T/d.svg && n=$(grep -o '>rank [0-9]*<' $T/d.svg | wc -l) && [ $n -ge 20 ] && [ $n -le 120 ] &&
  grep -q '>rank 1000<' $T/d.svg; ok $? "svg at p = 1024 keeps rank ticks (every k-th rank: $n)"
printf 'num_ranks 1\nrank 0 {\nl1: calc 18446744073709551615\n}\n' > $T/huge.goal
timeout $HANG $GOAL svg $T/huge.goal -o $T/h.svg; rc=$?
# (drawn with at most 21 ticks, or refused where the simulator checks that time fits)
if [ $rc = 0 ]; then [ $(stat -c %s $T/h.svg) -lt 100000 ] && [ $(grep -c 'stroke="#e0e0e0"' $T/h.svg) -le 41 ]; else [ $rc = 1 ]; fi
ok $? "svg of calc 2^64-1 ends with a bounded axis or a clear refusal (exit $rc)"
timeout $HANG $GOAL html $T/huge.goal -o $T/h.html; [ $? != 124 ]; ok $? "html of calc 2^64-1 ends"

# ---- dot ----
$GOAL gen allreduce_dissemination -p 16 --size 64 -o $T/d16.goal
$GOAL dot $T/d16.goal -o $T/d16.dot && dot -Tplain $T/d16.dot > $T/d16.plain &&
  [ "$(awk '$1 == "node" && $2 ~ /_h$/ {print $2, $4}' $T/d16.plain | sort -t_ -k1.2 -n | awk 'NR > 1 && $2 >= y {bad=1} {y=$2} END {print bad+0}')" = 0 ] &&
  [ "$(awk '$1 == "graph" {print ($3 < 40)}' $T/d16.plain)" = 1 ]; ok $? "dot: all ranks top to bottom in rank order, under 40 inches wide at p = 16"
grep -q 'solid edge: requires' $T/d16.dot && grep -q 'dashed: irequires' $T/d16.dot && grep -q 'red: message' $T/d16.dot; ok $? "dot: a legend"
$GOAL gen reduce_aspen -p 8 --size 64 --dialect paper -o $T/ra.goal
n=$($GOAL dot $T/ra.goal | grep -c 'exec copy'); m=$($GOAL dot $T/ra.goal --fold | grep -c 'exec copy')
[ $n -gt 0 ] && [ $m = 0 ] && $GOAL dot $T/ra.goal --fold | dot -Tsvg > /dev/null; ok $? "dot --fold leaves out the $n local copies"
echo 'rank #0 { c1: calc 1; n: nop; c3: calc 2; requ n -> c1; irequ c3 -> n; }' > $T/nop.goal
[ "$($GOAL dot $T/nop.goal --rank 0 --fold | grep -- '->')" = "  r0_a0 -> r0_a2 [style=dashed];" ]; ok $? "dot --fold joins the edges through a nop (dashed: one part was irequires)"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
