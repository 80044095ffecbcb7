#!/usr/bin/env bash
# The goal command under bad sizes, failing output and small misuse: a clear message and
# exit 1 (or 2 for usage), never a run until memory is gone, never a truncated file under
# the final name.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# item 5: sizes are checked before anything is allocated
printf 'rank #2000000000 { nop; }' > "$tmp/big.goal"
for v in check sim dot svg trace run; do
  t "huge_world_$v" 1 'big.goal: 2000000001 ranks: needs about 122070 MB, more than the memory limit of .* \(--max-memory BYTES\)' \
    timeout $HANG $GOAL $v "$tmp/big.goal" --max-memory 8000000000
done
# html, asm and stats write a line or a record per rank, set or not: checked the same way
printf 'num_ranks 50000000; rank #0 { nop; }' > "$tmp/wide.goal"
for v in "html -o $tmp/wide.out" "asm -o $tmp/wide.out" stats; do
  t "wide_world_${v%% *}" 1 'wide.goal: 50000000 ranks: needs about 3051 MB, more than the memory limit of 953 MB \(--max-memory BYTES\)' \
    timeout 20 $GOAL --max-memory 1000000000 $v "$tmp/wide.goal"
done
t wide_world_nothing_written 0 '^none$' sh -c "[ -e $tmp/wide.out ] || echo none"
t huge_world_html 1 'big.goal: 2000000001 ranks: needs about 122070 MB' timeout 20 $GOAL html "$tmp/big.goal" --max-memory 8000000000
# a params file is one line: reading stops after a few KiB
t params_dev_zero 1 '^goal: sim: --params /dev/zero: not one line of model options \(text, under 4 KiB\)$' \
  timeout 20 $GOAL sim tests/data/run/example2.goal --params /dev/zero
t params_long_stdin 1 'not one line of model options' sh -c "yes -- '-L 5' | head -c 100000 | timeout 20 $GOAL sim tests/data/run/example2.goal --params -"
t huge_world_fmt_is_sparse 0 '^rank #2000000000 \{' $GOAL fmt "$tmp/big.goal"
t max_memory_first 1 'needs about 122070 MB, more than the memory limit of 1 MB' $GOAL --max-memory=1048576 check "$tmp/big.goal"
t max_memory_bad 2 '--max-memory takes bytes >= 1' $GOAL check "$tmp/big.goal" --max-memory x
printf 'rank #0 { send 0,10737418240 to 1; }\nrank #1 { recv 0,10737418240 from 0; }\n' > "$tmp/slots.goal"
t run_slots 1 'slots.goal: the slots of 2 ranks \(21474836480 bytes\): needs about 20480 MB, more than the memory limit of 16384 MB' \
  timeout $HANG $GOAL run "$tmp/slots.goal" --max-memory 17179869184
t gen_segments 1 'gen: --size 1125899906842624 in --segment 1 pieces on 4 ranks makes 1125899906842625 segments per rank: more than a world holds' \
  timeout $HANG $GOAL gen bcast_chain -p 4 --size 1125899906842624 --segment 1
t gen_default_segment 1 'in --segment 1024 pieces' timeout $HANG $GOAL gen reduce_chain -p 4 --size 1125899906842624
t run_segments 1 'run: --size 1000000000000 in --segment 7 pieces' timeout $HANG $GOAL run bcast_chain -p 4 --size 1000000000000 --segment 7 --check
t run_buffers 1 'run: needs about .* MB, more than the memory limit of 1024 MB' \
  timeout $HANG $GOAL run alltoall_linear -p 64 --size 1048576 --check --max-memory 1073741824
t run_small_ok 0 '^ok$' timeout $HANG $GOAL run bcast_chain -p 4 --size 4096 --segment 7 --check
t dev_zero 1 '/dev/zero: larger than the memory limit of 1 MB' timeout $HANG $GOAL check /dev/zero --max-memory 1048576
if bash -c "ulimit -v 300000; $GOAL --version" >/dev/null 2>&1; then   # not under ASan, which needs the address space
  t dev_zero_ulimit 1 '/dev/zero: (larger than the memory limit|out of memory after reading)' \
    bash -c "ulimit -v 300000; timeout $HANG $GOAL check /dev/zero"
fi
# item 7: standard output is checked; -o files appear whole or not at all
if [ -w /dev/full ]; then
  t run_stdout_full 1 'write error' sh -c "$GOAL run tests/data/run/example2.goal > /dev/full"
  t run_algo_stdout_full 1 'write error' sh -c "$GOAL run bcast_binomial -p 4 --check > /dev/full"
  t gen_list_stdout_full 1 'write error' sh -c "$GOAL gen --list > /dev/full"
fi
$GOAL gen bcast_binomial -p 8 -o "$tmp/keep.goal"
t out_no_temp_left 0 '^keep.goal$' ls "$tmp"
t out_deadlock_keeps_old 3 'deadlock' $GOAL svg tests/data/run/deadlock.goal -o "$tmp/keep.goal"
t out_old_file_intact 0 '^num_ranks 8$' head -1 "$tmp/keep.goal"
t out_no_temp_after_failure 0 '^keep.goal$' ls "$tmp"
t out_bad_dir 1 'nodir/x.goal: cannot open for writing: No such file or directory' $GOAL gen bcast_binomial -p 4 -o "$tmp/nodir/x.goal"
# EFBIG: the write fails midway, the old file stays
t out_efbig 1 'write error' prlimit --fsize=4096 $GOAL gen alltoall_linear -p 64 -o "$tmp/keep.goal"
t out_efbig_old_intact 0 '^num_ranks 8$' head -1 "$tmp/keep.goal"
t out_efbig_no_temp 0 '^keep.goal$' ls "$tmp"
# SIGTERM while writing: the temporary file goes, OUT never appears truncated
mkdir "$tmp/sig"
$GOAL gen alltoall_linear -p 1500 -o "$tmp/sig/x.goal" & pid=$!
for i in $(seq 1 200); do ls "$tmp/sig" | grep -q tmp && break; sleep 0.05; done
kill -TERM $pid 2>/dev/null; wait $pid
t sigterm_no_temp 0 '^none$' sh -c "ls $tmp/sig | grep -q tmp || echo none"
t sigterm_no_truncated_out 0 '^whole or absent$' sh -c "[ ! -e $tmp/sig/x.goal ] || tail -1 $tmp/sig/x.goal | grep -q '^}' && echo 'whole or absent'"
rm -rf "$tmp/sig"
(umask 022; $GOAL gen bcast_binomial -p 2 -o "$tmp/mode.goal")
t out_mode 0 '^-rw-r--r--' ls -l "$tmp/mode.goal"
rm -f "$tmp/mode.goal"
# -o keeps what OUT names: a device or FIFO is written to, a link's target is written (the
# link stays), an existing file keeps its mode, a file with other hard links stays one file
mkdir "$tmp/own"
if mknod "$tmp/own/null" c 1 3 2>/dev/null; then   # as root: a copy of /dev/null to write to
  t out_char_device 0 '^c' sh -c "$GOAL html tests/data/run/example2.goal -o $tmp/own/null && ls -l $tmp/own/null"
fi
mkfifo "$tmp/own/fifo"
(timeout 20 cat "$tmp/own/fifo" > "$tmp/own/fifo.out") & reader=$!
t out_fifo_written 0 '^$' timeout 20 $GOAL gen bcast_binomial -p 4 -o "$tmp/own/fifo"
wait $reader
t out_fifo_read 0 '^num_ranks 4$' head -1 "$tmp/own/fifo.out"
t out_fifo_kept 0 '^p' ls -l "$tmp/own/fifo"
echo old > "$tmp/own/target"; ln -s target "$tmp/own/link"
t out_symlink_target 0 '^num_ranks 3$' sh -c "$GOAL gen bcast_binomial -p 3 -o $tmp/own/link && head -1 $tmp/own/target"
t out_symlink_kept 0 '^l.* -> target$' ls -l "$tmp/own/link"
ln -s absent "$tmp/own/dangling"
t out_dangling_symlink 0 '^num_ranks 2$' sh -c "$GOAL gen bcast_binomial -p 2 -o $tmp/own/dangling && head -1 $tmp/own/absent"
ln -s loop "$tmp/own/loop"   # a link to itself: the write fails, the link stays
t out_symlink_loop 1 'loop' $GOAL gen bcast_binomial -p 2 -o "$tmp/own/loop"
t out_symlink_loop_kept 0 '^l.* -> loop$' ls -l "$tmp/own/loop"
echo old > "$tmp/own/private"; chmod 600 "$tmp/own/private"
t out_mode_kept 0 '^-rw-------' sh -c "$GOAL gen bcast_binomial -p 2 -o $tmp/own/private && ls -l $tmp/own/private"
echo old > "$tmp/own/hard1"; ln "$tmp/own/hard1" "$tmp/own/hard2"
t out_hard_link_kept 0 '^num_ranks 2$' sh -c "$GOAL gen bcast_binomial -p 2 -o $tmp/own/hard1 && head -1 $tmp/own/hard2"
t out_own_no_temp 0 '^none$' sh -c "ls $tmp/own | grep -q tmp || echo none"
rm -rf "$tmp/own"
# paper dialect from gen names its size, so a file cut after a block is caught
t paper_num_ranks 0 '^num_ranks 5;$' sh -c "$GOAL gen scatter_linear -p 5 --dialect paper | head -1"
t paper_fixed_point 0 '^same$' bash -c "$GOAL gen allreduce_recdoub -p 6 --dialect paper > $tmp/p.goal && $GOAL fmt $tmp/p.goal | $GOAL fmt - | cmp - <($GOAL fmt $tmp/p.goal) && echo same"
$GOAL gen scatter_linear -p 5 --dialect paper | head -8 > "$tmp/cut.goal"
t paper_cut_ranks 0 'rank 4 actions 0' $GOAL stats "$tmp/cut.goal"
t paper_cut_caught 1 'rank 0 l4 \(send 8 bytes to 4 tag 0\): error: unmatched send' $GOAL check "$tmp/cut.goal"
rm -f "$tmp/p.goal" "$tmp/cut.goal"
# item 8
printf 'num_ranks 2\nrank 0 {\nl1: send 100000b to 1 tag 1\n}\nrank 1 {\nl1: recv 100000b from 0 tag 2\n}\n' > "$tmp/rdv.goal"
t rendezvous_stuck_count 3 'sim: deadlock: 2 actions never complete' $GOAL sim "$tmp/rdv.goal"
t rendezvous_send_once 0 '^1$' sh -c "$GOAL sim $tmp/rdv.goal 2>&1 | grep -c 'rank 0 l1'"
t eager_message_once 1 'sim: 1 message was never received' sh -c "printf 'num_ranks 2\nrank 0 {\nl1: send 1b to 1 tag 1\n}\nrank 1 {\n}\n' | $GOAL sim -"
t check_plural 1 'check: 2 errors, 0 warnings' $GOAL check "$tmp/rdv.goal"
t check_singular 1 'check: 1 error, 0 warnings' sh -c "printf 'rank #0 { recv 0,1 from 0; }' | $GOAL check -"
t check_ok_singular 0 '^ok: 1 rank, 1 message matched$' sh -c "printf 'rank #0 { send 0,1 to 0; recv 1,1 from 0; }' | $GOAL check -"
rm -f "$tmp/rdv.goal"
t p_max 2 '-p takes a number of ranks from 1 to 1073741824' $GOAL gen bcast_binomial -p 3000000000
t nway_max 2 '--nway takes a number from 1 to 1073741824' $GOAL gen barrier_dissemination -p 4 --nway 3000000000
t list_max 2 'a LIST holds at most 1073741824 ranks' $GOAL gen reduce_aspen -p 4 --participants 0-1073741823,5
t cannot_open 1 '/nonexistent.goal: cannot open: No such file or directory' $GOAL check /nonexistent.goal
# item 8c
mkdir -p "$tmp/cwd"
goal_abs=$(cd "$(dirname "$GOAL")" && pwd)/$(basename "$GOAL")
t demo_outside_checkout 0 '^demo: all ok' sh -c "cd $tmp/cwd && $goal_abs demo"
t demo_made_parents 0 'bcast_binomial.svg' ls "$tmp/cwd/build/demo"
t demo_deep 0 '^demo: all ok' $GOAL demo -o "$tmp/a/b/c"
t gen_o_missing 2 'gen: -o needs a file name' $GOAL gen bcast_binomial -p 4 -o
t bom_skipped 0 '^ok: 1 rank' sh -c "printf '\357\273\277rank #0 { send 0,1 to 0; recv 1,1 from 0; }' | $GOAL check -"
t bom_loggopsim 0 '^num_ranks 1$' sh -c "printf '\357\273\277num_ranks 1\nrank 0 {\nl1: calc 5\n}\n' | $GOAL fmt -"
t participants_refused 2 'bcast_binomial takes no participant or receiver set' $GOAL gen bcast_binomial -p 4 --participants 0-3
t receivers_refused 2 'allreduce_ring takes no participant or receiver set' $GOAL run allreduce_ring -p 4 --receivers 0 --check
t participants_aspen 0 'num_ranks 8' $GOAL gen reduce_aspen -p 8 --participants 0-5 --receivers 0,7
t_done
