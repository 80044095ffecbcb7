#!/usr/bin/env bash
# goal analyze: output rules of --waits, --dataflow, --collectives, --replace; exit statuses.
D=tests/data/analyze
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
. "$(dirname "$0")/lib.sh"
t butterfly_alltoall 0 '^alltoall size 1 tuples 12$' $GOAL analyze $D/butterfly4.goal --collectives
t butterfly_only_one 0 '^1$' sh -c "$GOAL analyze $D/butterfly4.goal --collectives | wc -l | tr -d ' '"
t butterfly_tuple 0 '^\(0,3,1,3,3\)$' $GOAL analyze $D/butterfly4.goal --dataflow
t butterfly_waits 0 '^rank 0 waits for 3 \(all\) 1 2 3$' $GOAL analyze $D/butterfly4.goal --waits
printf 'num_ranks 3;\nrank #0 { send 0,8 to 1; }\nrank #1 { a: recv 0,8 from 0; b: send 8,8 to 2; requ b -> a; }\nrank #2 { recv 8,8 from 1; }\n' > $T/p2p.goal
t p2p_only 0 '^p2p \(2,8,8,1,8\)$' $GOAL analyze $T/p2p.goal --collectives
t p2p_no_collective 0 '^0$' sh -c "$GOAL analyze $T/p2p.goal --collectives | grep -v '^p2p ' | wc -l | tr -d ' '"
{ echo 'num_ranks 8;'; echo 'rank #0 {'; for j in 1 2 3 4 5 6 7; do echo "  send 0,4096 to $j;"; done; echo '}'
  for j in 1 2 3 4 5 6 7; do echo "rank #$j { recv 0,4096 from 0; }"; done; } > $T/linbcast.goal
t linear_bcast 0 '^bcast root 0 size 4096 tuples 7$' $GOAL analyze $T/linbcast.goal --collectives
t replace 0 '^bcast size 4096: bcast_binomial$' $GOAL analyze $T/linbcast.goal --replace -o $T/out.goal
t replaced_is_bcast 0 '^bcast root 0 size 4096 tuples 7$' $GOAL analyze $T/out.goal --collectives
before=$($GOAL sim $T/linbcast.goal | sed -n 's/^max //p'); after=$($GOAL sim $T/out.goal | sed -n 's/^max //p')
t replaced_faster 0 'faster' sh -c "[ '$after' -lt '$before' ] && echo faster $before $after"
t replace_binary 0 'bcast_binary' $GOAL analyze $T/linbcast.goal --replace -o $T/out2.goal --bcast bcast_binary
t replace_bad_algo 2 'needs an algorithm name' $GOAL analyze $T/linbcast.goal --replace -o $T/x.goal --bcast nonsense
printf 'num_ranks 2\nrank 0 {\nl1: send 8b to 1\n}\nrank 1 {\nl1: recv 8b from 0\n}\n' > $T/lgs.goal
t loggopsim_no_offsets 1 'no buffer offsets' $GOAL analyze $T/lgs.goal --collectives
t loggopsim_dataflow 1 'no buffer offsets' $GOAL analyze $T/lgs.goal --dataflow
t loggopsim_waits 0 '^rank 1 waits for 1 \(all\) 0$' $GOAL analyze $T/lgs.goal --waits
t unmatched 1 'unmatched send' sh -c "printf 'num_ranks 2;\nrank #0 { send 0,8 to 1; }\n' | $GOAL analyze - --collectives"
t bad_input 1 'line 1' sh -c "printf 'rank #0 { bogus; }' | $GOAL analyze - --collectives"
t no_mode 2 'say what' $GOAL analyze $D/butterfly4.goal
t replace_needs_o 2 '-o OUT goes with --replace' $GOAL analyze $D/butterfly4.goal --replace
# gather, scatter, alltoall (goal gen *_linear) and a hand-written linear allgather: replaced
# by libgoal algorithms, found again as the same collective, clean, the same bytes when run
lin_allgather() {   # p ranks: every rank sends its 8 bytes (slot 0) to block r of every OUT (slot 1)
  echo "num_ranks $1;"; for r in $(seq 0 $(($1 - 1))); do echo "rank #$r {"; echo "  exec copyUInt8 with 1:$((8 * r)),8 0,8;"
  for j in $(seq 0 $(($1 - 1))); do [ $j = $r ] || echo "  send 0,8 to $j; recv 1:$((8 * j)),8 from $j;"; done; echo '}'; done; }
same_bytes() {   # both worlds run, and every rank's memory has the same digest
  local a b; a=$($GOAL run "$1" | sed -n 's/.*digest //p' | tr '\n' ' '); b=$($GOAL run "$2" | sed -n 's/.*digest //p' | tr '\n' ' ')
  [ -n "$a" ] && [ "$a" = "$b" ] && echo same; }
for p in 3 5 8; do
  for c in gather scatter allgather alltoall; do
    if [ $c = allgather ]; then lin_allgather $p > $T/$c$p.goal; else $GOAL gen ${c}_linear -p $p --root 1 --size 8 --dialect paper > $T/$c$p.goal; fi
    found=$($GOAL analyze $T/$c$p.goal --collectives | grep -v '^p2p')
    t ${c}_${p}_found 0 "^$c (root 1 )?size 8 tuples" echo "$found"
    t ${c}_${p}_replace 0 "^$c size 8: ${c}_(binomial|bruck)$" $GOAL analyze $T/$c$p.goal --replace -o $T/r$c$p.goal
    t ${c}_${p}_same 0 "^same$" sh -c "[ \"\$($GOAL analyze $T/r$c$p.goal --collectives | grep -v '^p2p')\" = '$found' ] && echo same"
    t ${c}_${p}_check 0 '^ok: ' $GOAL check $T/r$c$p.goal
    t ${c}_${p}_bytes 0 '^same$' same_bytes $T/$c$p.goal $T/r$c$p.goal
  done
done
for c in allgather alltoall; do
  before=$($GOAL sim $T/${c}8.goal | sed -n 's/^max //p'); after=$($GOAL sim $T/r${c}8.goal | sed -n 's/^max //p')
  t ${c}_8_faster 0 'faster' sh -c "[ '$after' -lt '$before' ] && echo faster $before $after"
done
$GOAL gen gather_linear -p 32 --size 8 --dialect paper > $T/gather32.goal
$GOAL analyze $T/gather32.goal --replace -o $T/rgather32.goal > /dev/null
before=$($GOAL sim $T/gather32.goal | sed -n 's/^max //p'); after=$($GOAL sim $T/rgather32.goal | sed -n 's/^max //p')
t gather_32_faster 0 'faster' sh -c "[ '$after' -lt '$before' ] && echo faster $before $after"
t replace_gather_linear 0 '^gather size 8: gather_linear$' $GOAL analyze $T/gather5.goal --replace -o $T/x.goal --gather gather_linear
t replace_alltoall_pairwise 0 '^alltoall size 8: alltoall_pairwise$' $GOAL analyze $T/alltoall5.goal --replace -o $T/x.goal --alltoall alltoall_pairwise
t replace_wrong_kind 1 'scatter_binomial is not an algorithm for gather' $GOAL analyze $T/gather5.goal --replace -o $T/x.goal --gather scatter_binomial
t replace_bad_gather 2 'needs an algorithm name' $GOAL analyze $T/gather5.goal --replace -o $T/x.goal --gather nonsense
# a gather whose root keeps the blocks in reverse rank order: not MPI's layout, direct messages
{ echo 'num_ranks 4;'; echo 'rank #0 { exec copyUInt8 with 1:24,8 0,8;'; for j in 1 2 3; do echo "  recv 1:$((24 - 8 * j)),8 from $j;"; done; echo '}'
  for j in 1 2 3; do echo "rank #$j { send 0,8 to 0; }"; done; } > $T/rev.goal
t reversed_found 0 '^gather root 0 size 8 tuples 3$' $GOAL analyze $T/rev.goal --collectives
t reversed_direct 0 '^gather size 8: direct messages$' $GOAL analyze $T/rev.goal --replace -o $T/rrev.goal
t reversed_same 0 '^gather root 0 size 8 tuples 3$' $GOAL analyze $T/rrev.goal --collectives
t reversed_check 0 '^ok: ' $GOAL check $T/rrev.goal
t reversed_bytes 0 '^same$' same_bytes $T/rev.goal $T/rrev.goal
# vector collectives: equal counts are found as their kind (the signatures group by size)
t gatherv_found 0 '^gather root 1 size 8 tuples 4$' sh -c "$GOAL gen gatherv_linear -p 5 --root 1 --counts 2,2,2,2,2 --dialect paper | $GOAL analyze - --collectives"
t alltoallv_found 0 '^alltoall size 12 tuples 12$' sh -c "$GOAL gen alltoallv_pairwise -p 4 --counts 3,3,3,3,3,3,3,3,3,3,3,3,3,3,3,3 --dialect paper | $GOAL analyze - --collectives"
t_done
