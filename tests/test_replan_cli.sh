#!/usr/bin/env bash
# The verbs on a recording (hand-made by tests/replan/recording.py with the recorder's
# conventions): sim --coll, tune FILE, html --from/--to, analyze --collectives; bad input.
set -u
. tests/lib.sh
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
PY=${GOAL_TEST_PYTHON:-/usr/bin/python3}
rec() { "$PY" tests/replan/recording.py "$GOAL" "$@"; }
for p in 4 5; do
  rec $p > $T/rec$p.goal && rec $p allreduce=allreduce_ring > $T/ring$p.goal && rec $p bcast=bcast_chain allreduce=allreduce_ring > $T/both$p.goal
  t "p=$p: the recording matches" 0 "^ok: $p ranks" $GOAL check $T/rec$p.goal
  # Re-planned = recorded with that algorithm: every rank's time the same.
  $GOAL sim $T/rec$p.goal --coll allreduce=allreduce_ring > $T/re$p 2>&1
  $GOAL sim $T/ring$p.goal > $T/direct$p
  t "p=$p: --coll allreduce=allreduce_ring as recorded with it" 0 "^same$" sh -c "cmp -s $T/re$p $T/direct$p && echo same"
  t "p=$p: the re-planned time differs from the recorded" 0 "^differs$" sh -c "$GOAL sim $T/rec$p.goal | cmp -s - $T/direct$p || echo differs"
  t "p=$p: the short form" 0 "^same$" sh -c "$GOAL sim $T/rec$p.goal --coll allreduce=ring | cmp -s - $T/direct$p && echo same"
  $GOAL sim $T/both$p.goal > $T/both$p
  t "p=$p: two --coll" 0 "^same$" sh -c "$GOAL sim $T/rec$p.goal --coll allreduce=ring --coll bcast=chain | cmp -s - $T/both$p && echo same"
done
t "a collective never called: a warning" 0 "warning: the world calls no alltoall" $GOAL sim $T/rec4.goal --coll alltoall=pairwise
$GOAL sim $T/rec4.goal > $T/as_recorded
t "a collective never called: the time as recorded" 0 "^same$" sh -c "$GOAL sim $T/rec4.goal --coll alltoall=pairwise 2>/dev/null | cmp -s - $T/as_recorded && echo same"
t "unknown collective" 2 "unknown collective 'allreduc' \(did you mean 'allreduce'\?\)" $GOAL sim $T/rec4.goal --coll allreduc=ring
t "algorithm of another collective" 2 "'bcast_binomial' is not an algorithm of allreduce" $GOAL sim $T/rec4.goal --coll allreduce=bcast_binomial
t "unknown algorithm" 2 "unknown algorithm 'nosuch'" $GOAL sim $T/rec4.goal --coll allreduce=nosuch
t "not COLL=ALGO" 2 "--coll takes COLL=ALGO" $GOAL sim $T/rec4.goal --coll allreduce
$GOAL sim $T/rec4.goal --coll allreduce=dissemination@nway=1 > $T/nway1
t "--coll with a parameter" 0 "^differs$" sh -c "$GOAL sim $T/rec4.goal --coll allreduce=dissemination@nway=3 | cmp -s - $T/nway1 || echo differs"
t "--coll with a bad parameter" 2 "'@nwy' is not @nway=N" $GOAL sim $T/rec4.goal --coll allreduce=dissemination@nwy=3
t "--coll without a value" 2 "--coll needs COLL=ALGO" $GOAL sim $T/rec4.goal --coll
sed 's/allreduce_c0_n2_end/allreduce_c0_n2_xend/' $T/rec4.goal > $T/bad.goal
t "malformed anchor" 1 "malformed anchor 'allreduce_c0_n2_xend'" $GOAL sim $T/bad.goal --coll allreduce=ring
grep -v 'allreduce_c0_n0_end' $T/rec4.goal > $T/noend.goal
t "a start without its end" 1 "." $GOAL sim $T/noend.goal --coll allreduce=ring

# tune FILE: the winner per collective is the fastest of the per-algorithm sims.
$GOAL tune $T/rec5.goal --all > $T/all; rc=$?
t "tune --all on a recording" 0 "^allreduce 3 allreduce_ring [0-9]+$" sh -c "cat $T/all; exit $rc"
t "tune --all: bcast's rows, over the parameter grids" 0 "^bcast 1 bcast_chain@segment=65536 [0-9]+$" cat $T/all
for c in allreduce bcast; do
  ok=1
  for a in $(awk -v c=$c '$1 == c { print $3 }' $T/all); do
    want=$(awk -v c=$c -v a=$a '$1 == c && $3 == a { print $4 }' $T/all)
    got=$($GOAL sim $T/rec5.goal --coll $c=$a | awk '$1 == "max" { printf "%.0f", $2 }')
    [ "$want" = "$got" ] || { ok=0; echo "  $c $a: tune $want, sim $got"; }
  done
  t "tune's times of $c are sim --coll's" 0 "^yes$" sh -c "[ $ok = 1 ] && echo yes"
  best=$(awk -v c=$c '$1 == c && (min == "" || $4 < min) { min = $4; a = $3 } END { print a }' $T/all)
  t "tune picks the fastest $c ($best)" 0 "^$c [0-9]+ $best [0-9]+$" $GOAL tune $T/rec5.goal
done
t "tune --format env" 0 "^(bcast|allreduce)=[a-z_]+(@[a-z]+=[0-9]+)?;(bcast|allreduce)=[a-z_]+(@[a-z]+=[0-9]+)?$" $GOAL tune $T/rec5.goal --format env
t "tune --coll on a recording" 0 "^allreduce " sh -c "$GOAL tune $T/rec5.goal --coll allreduce | grep -v '^#' | grep -c . | grep -qx 1 && $GOAL tune $T/rec5.goal --coll allreduce"
t "tune FILE with -p" 2 "a recording, FILE, takes no -p" $GOAL tune $T/rec5.goal -p 4
t "tune FILE without collectives" 1 "no collective call" sh -c "$GOAL gen bcast_binomial -p 3 > $T/plain.goal && $GOAL tune $T/plain.goal"

# html --from/--to: only the window's events; the whole run when it covers the run.
ne() { grep -o '"ne":[0-9]*' "$1" | head -n 1 | cut -d: -f2; }
$GOAL html $T/rec4.goal -o $T/full.html && $GOAL html $T/rec4.goal --from 20000 --to 40000 -o $T/win.html &&
  $GOAL html $T/rec4.goal --from 0 --to 100000000 -o $T/all.html
t "html: a window keeps fewer events" 0 "^fewer$" sh -c "[ $(ne $T/win.html) -gt 0 ] && [ $(ne $T/win.html) -lt $(ne $T/full.html) ] && echo fewer"
t "html: a window over the whole run keeps all" 0 "^all$" sh -c "[ $(ne $T/all.html) = $(ne $T/full.html) ] && echo all"
t "html: a window past the end" 1 "no event from 90000000 ns to the end" $GOAL html $T/rec4.goal --from 90000000 -o $T/x.html
t "html: --from after --to" 2 "--from 9 is after --to 5" $GOAL html $T/rec4.goal --from 9 --to 5

# analyze --collectives: the calls the anchors name, then what the dataflow shows.
t "analyze names the recorded calls" 0 "^recorded allreduce calls 3$" $GOAL analyze $T/rec4.goal --collectives
t "analyze: bcast once" 0 "^recorded bcast calls 1$" $GOAL analyze $T/rec4.goal --collectives
t_done
