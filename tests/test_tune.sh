#!/usr/bin/env bash
# goal tune: the known winners in limiting models, the output formats, and that the
# GOAL_MPI_ALGOS string (--format env) parses back into the table's choices.
set -u
. tests/lib.sh
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
LAT="-L 100000 -o 0 -g 0 -G 0 -O 0"   # latency only: time = L x rounds (+ tiny exec costs)
BW="-L 0 -o 0 -g 0 -G 1 -O 0"         # bandwidth only: time = bytes on the busiest path

# Latency only, p = 16, 8 B: the fewest rounds win (dissemination with nway 3: 2 rounds of
# log_4 16; linear gather/scatter/alltoall: 1 round; the radix-4 k-nomial tree: log_4 16 = 2;
# recursive halving: log2 16 = 4).
$GOAL tune -p 16 --sizes 8 $LAT > $T/lat; rc=$?
want() {   # want NAME COLL ALGO ROUNDS: the winner and its time, ROUNDS x L up to 1%
  awk -v c="$2" -v a="$3" -v r="$4" '$1 == c { found = 1; ok = ($3 == a && $4 >= r * 100000 && $4 <= r * 101000) }
      END { exit !(found && ok) }' $T/$5
}
[ $rc = 0 ] && [ "$(grep -vc '^#' $T/lat)" = 10 ]; ok_lat=$?
t "latency model: one line per collective" 0 "^" test $ok_lat = 0
for c in "allreduce allreduce_dissemination@nway=3 2" "barrier barrier_dissemination@nway=3 2" "gather gather_linear 1" \
         "scatter scatter_linear 1" "alltoall alltoall_linear 1" "bcast bcast_knomial@radix=4 2" "reduce_scatter reduce_scatter_halving 4"; do
  set -- $c
  t "latency model: $1 -> $2 ($3 rounds)" 0 "^" want x "$1" "$2" "$3" lat
done

# Bandwidth only, p = 16, 64 KiB: the fewest bytes per rank win (Rabenseifner's or the ring
# allreduce, 2(p-1)/p n, against log2 p n for recursive doubling; a pipelined tree or chain
# for bcast; Rabenseifner's or a pipelined chain for reduce).
$GOAL tune -p 16 --sizes 65536 $BW > $T/bw
t "bandwidth model: allreduce -> rabenseifner or ring" 0 "^allreduce 65536 allreduce_(rabenseifner|ring) " cat $T/bw
t "bandwidth model: bcast -> pipelined" 0 "^bcast 65536 bcast_(dbtree|chain|pipelined_tree)@segment=" cat $T/bw
t "bandwidth model: reduce -> rabenseifner or a pipelined chain" 0 "^reduce 65536 reduce_(rabenseifner|chain@segment=)" cat $T/bw
t "vector collectives are not tuned" 1 "^$" grep -E "[a-z]v_" $T/bw
t "bandwidth model: alltoall not bruck" 0 "^alltoall 65536 alltoall_(linear|pairwise) " cat $T/bw

# Formats: COLL SIZE ALGO TIME; --all lists every configuration; barrier once, as size 0.
$GOAL tune -p 8 --coll bcast,barrier --sizes 8,65536 --all > $T/all
t "--all: 19 bcast configurations x 2 sizes + 4 barrier" 0 "^42$" sh -c "grep -vc '^#' $T/all"
t "table lines are COLL SIZE ALGO TIME" 0 "^0$" sh -c "grep -v '^#' $T/all | grep -Evc '^[a-z_]+ [0-9]+ [a-z_0-9]+(@[a-z]+=[0-9]+)? [0-9]+$'; true"

# --format env parses back: for each (collective, size) the env string picks the fastest
# configuration, parameters included (GOAL_MPI_ALGOS takes ALGO@segment=8192 etc.; the
# drop-in calls reduce_scatter reduce_scatter_block).
$GOAL tune -p 64 --all > $T/table && $GOAL tune -p 64 --format env > $T/env 2>/dev/null
back() {
  awk -v env="$(cat $T/env)" '
    BEGIN { n = split(env, colls, ";"); for (i = 1; i <= n; i++) { split(colls[i], kv, "="); rule[kv[1]] = substr(colls[i], length(kv[1]) + 2) }
            rule["reduce_scatter"] = rule["reduce_scatter_block"] }
    /^#/ { next }
    { k = $1 " " $2; if (!(k in best) || $4 + 0 < t[k]) { best[k] = $3; t[k] = $4 + 0 } }
    END {
      for (k in best) { split(k, cs, " ");
        m = split(rule[cs[1]], e, ","); pick = "";
        for (i = 1; i <= m && pick == ""; i++) {
          if (match(e[i], /:<=[0-9]+$/)) { b = substr(e[i], RSTART + 3) + 0; if (cs[2] + 0 <= b) pick = substr(e[i], 1, RSTART - 1) }
          else pick = e[i] }
        if (pick != best[k]) { print "size " cs[2] " of " cs[1] ": env gives " pick ", table " best[k]; bad = 1 } }
      exit bad }' $T/table
}
t "--format env is one line" 0 "^1$" sh -c "wc -l < $T/env"
t "--format env parses back to the table's winners" 0 "^" back
t "--format env has every collective" 0 "^10$" sh -c "tr ';' '\n' < $T/env | grep -c '^[a-z_]*='"
t "--format env names tuned parameters" 0 "@(nway|segment|radix)=" cat $T/env
# radix: the k-nomial trees over 2, 4, 8
t "--all: bcast_knomial at radix 2, 4, 8" 0 "^3$" sh -c "grep -c '^bcast 8 bcast_knomial@radix=[248] ' $T/all"

# --svg: parses as XML, one panel per collective.
$GOAL tune -p 8 --sizes 8,1024,65536 --coll bcast,allreduce --svg $T/t.svg > /dev/null
t "--svg is XML with 2 panels" 0 "^2$" python3 -c "import sys, xml.dom.minidom as m; d = m.parse('$T/t.svg'); print(sum(1 for x in d.getElementsByTagName('text') if ', p = 8' in x.firstChild.data))"

# --params FILE (what goal-probe -o writes) gives the same table as the options.
echo "-L 480 -o 160 -g 210 -G 0.09 -O 0.02 -S 65536" > $T/params
$GOAL tune -p 16 --coll allreduce --params $T/params > $T/a && $GOAL tune -p 16 --coll allreduce -L 480 -o 160 -g 210 -G 0.09 -O 0.02 -S 65536 > $T/b
t "--params FILE equals the options" 0 "^" cmp $T/a $T/b
t "fractional model: 12 allreduce lines" 0 "^12$" sh -c "grep -c '^allreduce ' $T/a"

# Large worlds are skipped with a note; bad usage exits 2.
t "p^2 worlds are skipped and said so (nothing left: exit 1)" 1 "^# skipped alltoall_linear at p=4096 from size 8: more than 8388608 actions" $GOAL tune -p 4096 --coll alltoall --sizes 8
t "-p missing exits 2" 2 "-p N is missing" $GOAL tune
t "unknown collective exits 2" 2 "--coll takes" $GOAL tune -p 4 --coll bcastx
t "bad size exits 2" 2 "--sizes takes" $GOAL tune -p 4 --sizes 8,x
# Nothing that fits is an error, not an empty answer; a plot that cannot be written fails first.
t "nothing fits exits 1" 1 "^goal: tune: no configuration could be simulated at p=16777216 \(the # lines say why\)$" \
  timeout 120 $GOAL tune -p 16777216 --coll barrier
t "... with the # lines" 1 "^# skipped barrier_linear at p=16777216" timeout 120 $GOAL tune -p 16777216 --coll barrier
t "... and no empty env line" 0 "^0$" sh -c "timeout 120 $GOAL tune -p 16777216 --coll barrier --format env 2>/dev/null | wc -l"
t "... and no plot" 0 "^none$" sh -c "timeout 120 $GOAL tune -p 16777216 --coll barrier --svg $T/none.svg; [ -e $T/none.svg ] || echo none"
t "--svg to a missing directory fails before simulating" 1 "^goal: $T/no/such/x.svg: cannot open for writing: No such file or directory$" \
  sh -c "$GOAL tune -p 64 --svg $T/no/such/x.svg | grep -c '^bcast'"
t "... printing no table" 1 "^0$" sh -c "$GOAL tune -p 64 --svg $T/no/such/x.svg 2>/dev/null | grep -c '^bcast'"
# The progress line counts the configurations (on a terminal: script gives one).
if command -v script >/dev/null; then
  t "progress counts configurations" 0 "goal tune: running, [0-9]+ s, [0-9]+ of [0-9]+ configurations" \
    sh -c "GOAL_PROGRESS_AFTER=0 script -qec '$GOAL tune -p 64 --coll bcast --sizes 8,65536' /dev/null | tr '\r' '\n'"
fi
t_done
