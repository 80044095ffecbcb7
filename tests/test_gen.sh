#!/usr/bin/env bash
# goal gen (and goal run ALGO): the list, both dialects, options, errors and exit statuses.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
t list_count 0 '^46$' sh -c "$GOAL gen --list | wc -l | tr -d ' '"
t list_line 0 '^reduce_aspen +Aspen reduce' $GOAL gen --list
t loggopsim 0 "^send 8b to 4 tag 0$" $GOAL gen bcast_binomial -p 5
t loggopsim_requires 0 '^l2 requires l1$' $GOAL gen bcast_binomial -p 5
t paper 0 'exec sumInt32 with' $GOAL gen reduce_binomial -p 4 --dialect paper
t types 0 'exec maxFloat64 with' $GOAL gen allreduce_recdoub -p 3 --type float64 --op max --size 16 --dialect paper
t type_paper_spelling 0 'exec prodUInt8' $GOAL gen reduce_chain -p 3 --type UInt8 --op prod --dialect paper
t segments 0 '^l8: send 256b to 2 tag 0$' $GOAL gen bcast_chain -p 3 --size 1024 --segment 256
t nway 0 'send 0b to 3 tag 0' $GOAL gen barrier_dissemination -p 9 --nway 2
t aspen_sets 0 'num_ranks 12' $GOAL gen reduce_aspen -p 12 --participants 0-7 --receivers 0,1,8-10
t roundtrip 0 'num_ranks 13' sh -c "$GOAL gen allgather_bruck -p 13 --root 0 | $GOAL fmt -"
t roundtrip_paper 0 'rank #12' sh -c "$GOAL gen alltoall_bruck -p 13 --dialect paper | $GOAL fmt - --dialect paper"
t out_file 0 '^num_ranks 4$' sh -c "$GOAL gen scan_linear -p 4 -o $tmp/gen_out.goal && head -1 $tmp/gen_out.goal"
t bad_root 1 'root 5 is out of range' $GOAL gen bcast_binomial -p 5 --root 5
t bad_receiver 1 'receiver 9 is out of range' $GOAL gen reduce_aspen -p 5 --receivers 0,9
t dup_participant 1 'participant 2 is listed twice' $GOAL gen reduce_aspen -p 5 --participants 1-3,2
t bad_p 2 '-p takes a number' $GOAL gen bcast_binomial -p 0
t bad_nway 2 'nway takes a number' $GOAL gen barrier_dissemination -p 4 --nway 0
t bad_segment 2 'segment takes bytes' $GOAL gen bcast_chain -p 4 --segment 0
t bad_list 2 'LIST is ranks and ranges' $GOAL gen reduce_aspen -p 4 --receivers 3-1
t bad_size 2 'not a whole number' $GOAL gen reduce_binomial -p 4 --size 6
t bad_op 1 'bxor is not defined on Float32' $GOAL gen allreduce_ring -p 4 --type float32 --op bxor
t unknown_algo 2 "unknown algorithm 'bcast_magic'" $GOAL gen bcast_magic -p 4
t missing_p 2 '-p N missing' $GOAL gen bcast_binomial
# vector collectives: --counts (p counts, p x p for alltoallv), --counts-seed
t v_gen_counts 0 'recv 1:8,12 from 2' $GOAL gen gatherv_linear -p 4 --counts 2,0,3,1 --dialect paper
t v_gen_matrix 0 'send 36,24 to 2' sh -c "$GOAL gen alltoallv_pairwise -p 3 --counts 1,2,3,4,5,6,7,8,9 --dialect paper | sed -n '/rank #1/,/}/p'"
t v_bad_counts_n 2 'gives 2 counts, allgatherv_ring needs 3 .one per rank.' $GOAL gen allgatherv_ring -p 3 --counts 1,2
t v_bad_matrix_n 2 'needs 9 .p x p, row by row.' $GOAL gen alltoallv_pairwise -p 3 --counts 1,2,3
t v_bad_counts 2 'counts takes element counts' $GOAL gen gatherv_linear -p 2 --counts 1,-2
t v_not_vector 2 'for the vector collectives' $GOAL gen gather_linear -p 2 --counts 1,2
t v_both 2 'not both' $GOAL gen gatherv_linear -p 2 --counts 1,2 --counts-seed 3
t v_list 0 '^6$' sh -c "$GOAL gen --list | grep -cE '^(gatherv_linear|gatherv_binomial|scatterv_linear|allgatherv_ring|alltoallv_pairwise|reduce_scatterv_ring) '"
# goal run ALGO (once goal run hands algorithm names to cli_run_algo)
if $GOAL run bcast_binomial -p 2 --check >/dev/null 2>&1; then
  t run_check 0 '^ok$' $GOAL run allreduce_dissemination -p 13 --nway 2 --size 4096 --check
  t run_threads 0 '^ok$' $GOAL run alltoall_bruck -p 7 --size 40 --threads --check
  t run_aspen 0 '^ok$' $GOAL run reduce_aspen -p 9 --participants 0-4 --receivers 3-8 --type float64 --size 64 --check
  t run_bad 1 'root 9 is out of range' $GOAL run reduce_binomial -p 4 --root 9 --check
  for a in gatherv_linear gatherv_binomial scatterv_linear allgatherv_ring reduce_scatterv_ring; do
    t run_${a}_counts 0 '^ok$' $GOAL run $a -p 6 --root 4 --counts 3,0,7,1,0,5 --check
    t run_${a}_seed 0 '^ok$' $GOAL run $a -p 11 --root 3 --counts-seed 9 --type float64 --op sum --check
  done
  t run_alltoallv_counts 0 '^ok$' $GOAL run alltoallv_pairwise -p 3 --counts 0,1,2,3,0,5,6,7,0 --check
  t run_alltoallv_seed 0 '^ok$' $GOAL run alltoallv_pairwise -p 17 --counts-seed 4 --threads --check
  t run_v_default 0 '^ok$' $GOAL run allgatherv_ring -p 5 --size 12 --check
  # bandwidth-optimal families: listed, and checked at p = 7 (odd, not a power of two)
  for a in bcast_scatter_allgather reduce_rabenseifner allreduce_rabenseifner reduce_scatter_halving bcast_knomial reduce_knomial \
           bcast_pipelined_tree reduce_pipelined_tree bcast_dbtree reduce_dbtree allreduce_dbtree allgather_neighbor; do
    t "list_$a" 0 "^$a " $GOAL gen --list
    t "run_$a" 0 '^ok$' $GOAL run $a -p 7 --root 3 --size 100 --check
  done
  t run_radix 0 '^ok$' $GOAL run reduce_knomial -p 30 --radix 5 --root 7 --size 64 --type float64 --check
  t radix 0 'send 8b to 3 tag 0' $GOAL gen bcast_knomial -p 9 --radix 3
  t bad_radix 2 'radix takes a number >= 2' $GOAL gen bcast_knomial -p 4 --radix 1
fi
t_done
