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
t_done
