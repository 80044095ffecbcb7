#!/usr/bin/env bash
# goal run: results, traces, deadlocks, unregistered user functions, exit statuses.
D=tests/data/run
. "$(dirname "$0")/lib.sh"
# Example 2: rank 0 byte 501 = (501 mod 256) + (7 + 501 mod 256); the digest pins every byte.
t example2 0 '^ok$' $GOAL run $D/example2.goal
t example2_digest 0 'rank 0 done 4 actions digest ca690634' $GOAL run $D/example2.goal
t example2_threads 0 'rank 0 done 4 actions digest ca690634' $GOAL run --threads $D/example2.goal
t trace_steps 0 '^step 12 rank 0 done  e2 exec sumInt8 1b$' $GOAL run --trace $D/example2.goal
t trace_recv_first 0 '^step 1 rank 0 start r1 recv 1b from 1 tag 0$' $GOAL run --trace $D/example2.goal
t deadlock 3 'deadlock: rank 0 l1 \(recv 4b from 1 tag 0\) posted, never matched' $GOAL run $D/deadlock.goal
t deadlock_waiting 3 'deadlock: rank 1 l2 \(send 4b to 0 tag 0\) never started' $GOAL run $D/deadlock.goal
t deadlock_threads 3 'deadlock' $GOAL run --threads $D/deadlock.goal
t user_fn 1 'user function 3 is not registered' sh -c "printf 'rank #0 { exec user 3 with 0,4 4,4; }' | $GOAL run -"
t loggopsim_case 0 '^ok$' $GOAL run tests/data/loggopsim/cases/allreduce_recdoub_p16_d1024.goal
t bad_input 1 'line 1' sh -c "printf 'rank #0 { bogus; }' | $GOAL run -"
t missing_file 1 'cannot open' $GOAL run /nonexistent.goal
t usage 2 'unknown option' $GOAL run --frobnicate x
t custom_transport 0 'rank 0 holds 100 \(expected 100\)' "$(dirname "$GOAL")/examples/custom_transport"
# make run's demo: generate, verify, simulate, run, draw; the pictures are real files.
demo=$(mktemp -d)
t demo 0 '^demo: all ok' $GOAL demo -o "$demo"
t demo_verify 0 'verify:   every send meets its receive, no deadlock, 7 messages matched' $GOAL demo -o "$demo"
t demo_run 0 'run:      in-process ranks on random data: every rank holds the reference result' $GOAL demo -o "$demo"
t demo_dot 0 '<svg' dot -Tsvg "$demo/reduce_aspen.dot"
t demo_svg 0 '</svg>' tail -c 200 "$demo/bcast_binomial.svg"
t demo_trace 0 'traceEvents' python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('traceEvents' if d.get('traceEvents') or isinstance(d, list) else 'none')" "$demo/bcast_binomial.json"
t demo_text 0 '^ok$' $GOAL run "$demo/reduce_aspen.goal"
rm -rf "$demo"
t_done
