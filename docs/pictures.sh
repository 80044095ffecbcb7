#!/usr/bin/env bash
# Remakes the README's "Teaching" pictures in docs/: for each algorithm, the goal html page
# (a screenshot taken by the browser test, after clicking the middle action of the
# critical path), the goal svg timeline and the all-rank goal dot DAG. Needs what `make deps` installs.
# usage: docs/pictures.sh   (from the top of the checkout, after make)
set -eu
GOAL=${GOAL:-./build/goal}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
for a in bcast_binomial allreduce_dissemination reduce_aspen; do $GOAL gen $a -p 8 --size 64 --dialect paper -o $T/$a.goal; done
$GOAL gen bcast_chain -p 6 --size 16384 --segment 2048 --dialect paper -o $T/bcast_chain.goal   # 8 segments: the pipeline
GOAL_SHOT_HEIGHT=480 node tests/browser/test_html.js "$GOAL" $T $T/*.goal | tail -n 1
for a in bcast_binomial allreduce_dissemination reduce_aspen bcast_chain; do
  cp $T/$a.png docs/$a-page.png
  $GOAL svg $T/$a.goal -o $T/$a.svg
  h=$(sed -n 's/^<svg [^>]* height="\([0-9]*\)".*/\1/p' $T/$a.svg)
  chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
      --disable-component-update --disable-sync --user-data-dir=$T/profile --hide-scrollbars \
      --screenshot=docs/$a-timeline.png --window-size=1190,$h file://$T/$a.svg 2>/dev/null
  $GOAL dot $T/$a.goal --fold | dot -Tpng -Gdpi=60 -o docs/$a-dag.png
done
ls -la docs/*.png
