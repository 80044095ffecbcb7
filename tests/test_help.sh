#!/usr/bin/env bash
# The command line that helps: usage from one table (README, --help, help VERB, man page agree),
# did-you-mean, unknown algorithms, sim --verbose, Schedgen aliases, the progress line.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
root=$(dirname "$0")/..

# The README's verb table is exactly what the tool prints (regenerate: goal help --markdown).
sed -n '/^| verb | what it does |$/,/^$/p' "$root/README.md" | sed '/^$/d' >"$tmp/readme_table"
$GOAL help --markdown >"$tmp/tool_table"
t readme_table_matches_help 0 '^same$' sh -c "diff '$tmp/readme_table' '$tmp/tool_table' >&2 && echo same"
# Every verb's synopsis in goal --help is a row of the table, each verb has its own help and
# its own file tools/cli_VERB.c.
verbs=$($GOAL help --markdown | sed -n 's/^| `goal \([a-z]*\) .*/\1/p' | sort -u)
for v in $verbs; do
  t "help_$v" 0 "^usage: goal $v " $GOAL help "$v"
  t "dash_help_$v" 0 '^same$' sh -c "$GOAL $v --help >'$tmp/a' && $GOAL help $v >'$tmp/b' && cmp -s '$tmp/a' '$tmp/b' && echo same"
  t "main_help_$v" 0 "^  goal $v " $GOAL --help
  t "man_$v" 0 "^\\.SS \"goal $v " $GOAL help --man
  t "file_$v" 0 '^own file$' sh -c "[ -f '$root/tools/cli_$v.c' ] && grep -q '^int cli_$v(int argc' '$root/tools/cli_$v.c' && echo own file"
done
t help_defaults_sim 0 '^    -L ns +latency \(default: 2500\)$' $GOAL sim --help
t help_defaults_overhead 0 '^    --overhead ns .*\(default: 1500\)$' $GOAL trace --help
t help_defaults_gen 0 '^    --segment BYTES .*\(default: 1024\)$' $GOAL gen -h
t help_aliases 0 '^    binomialtreebcast +bcast_binomial$' $GOAL help gen
t help_version 0 '^  goal --version' $GOAL --help
version=$(sed -n 's/^#define GOAL_VERSION_STRING "\(.*\)"$/\1/p' "$root/goal.h")
t version 0 "^goal $version\$" $GOAL --version
t help_unknown 2 "unknown verb 'simm' \(did you mean 'sim'\?\)" $GOAL help simm
t no_verb 2 '^usage: goal VERB' $GOAL
# The man page built with the tool is the one the table prints, and it formats cleanly.
if [ -f "${GOAL%/goal}/goal.1" ]; then
  t man_built 0 '^same$' sh -c "$GOAL help --man | cmp -s - '${GOAL%/goal}/goal.1' && echo same"
fi
t man_formats 0 'LogGOPS simulation' sh -c "$GOAL help --man | groff -man -Tutf8 -ww -z 2>&1 >/dev/null | head -3; $GOAL help --man | groff -man -Tascii 2>/dev/null | col -b"

# Did you mean: verbs, options, algorithms; goal run with an unknown name says so.
t dym_verb 2 "unknown verb 'simm' \(did you mean 'sim'\?\)" $GOAL simm x
t dym_option 2 "run: unknown option '--chek' \(did you mean '--check'\?\)" $GOAL run bcast_binomial -p 4 --chek
t dym_option_eq 2 "fmt: unknown option '--dialekt=paper' \(did you mean '--dialect'\?\)" $GOAL fmt --dialekt=paper x
t dym_option_sim 2 "did you mean '--loggopsim-compat'" $GOAL sim x --loggopsim-compa
t dym_option_gen 2 "did you mean '--size'" $GOAL gen bcast_binomial -p 3 --sise 8
t dym_algo_gen 2 "gen: unknown algorithm 'bcast_binomal' \(did you mean 'bcast_binomial'\?" $GOAL gen bcast_binomal -p 4
t dym_algo_run 2 "run: unknown algorithm 'alreduce_ring' \(did you mean 'allreduce_ring'\?" $GOAL run alreduce_ring -p 4 --check
t dym_swap_verb 2 "unknown verb 'smi' \(did you mean 'sim'\?\)" $GOAL smi x
t dym_swap_option 2 "run: unknown option '--chekc' \(did you mean '--check'\?\)" $GOAL run bcast_binomial -p 4 --chekc
t dym_option_tune 2 "tune: unknown option '--sise' \(did you mean '--sizes'\?\)" $GOAL tune -p 4 --sise 8
t dym_option_tune_model 2 "tune: unknown option '--node-sise' \(did you mean '--node-size'\?\)" $GOAL tune -p 4 --node-sise 8
t tune_stray_word 2 "tune: unknown argument 'foo'" $GOAL tune -p 4 foo
if [ -w /dev/full ]; then   # help, like every verb, exits 1 when its output cannot be written
  t help_dev_full 1 '^goal: write error$' sh -c "$GOAL help > /dev/full"
  t dash_help_dev_full 1 '^goal: write error$' sh -c "$GOAL --help > /dev/full"
fi
t dym_algo_analyze 2 "not 'gather_binomal' \(did you mean 'gather_binomial'\?\)" $GOAL analyze x --replace --gather gather_binomal
t run_unknown_algo 2 "run: unknown algorithm 'magic'" $GOAL run magic -p 4 --check
t run_missing_file 1 'x.goal: cannot open' $GOAL run x.goal
t no_far_guess 2 "unknown verb 'frobnicate'( \(goal --help|$)" $GOAL frobnicate

# --verbose prints the parameters used; the defaults in the table are the simulator's own.
$GOAL gen bcast_binomial -p 9 --size 100000 >"$tmp/b.goal"
t sim_verbose 0 '^goal sim: parameters -L 2500 --overhead 1500 -g 1000 -G 6 -O 0 -S 65535 -C 1$' $GOAL sim "$tmp/b.goal" --verbose
t sim_verbose_given 0 '^goal sim: parameters -L 7 --overhead 0 -g 1000 -G 6 -O 0 -S 65535 -C 1 --loggopsim-compat$' \
  $GOAL sim "$tmp/b.goal" --verbose -L 7 -o 0 --loggopsim-compat
t sim_verbose_stdout_unchanged 0 '^same$' bash -c "$GOAL sim '$tmp/b.goal' --verbose 2>/dev/null | cmp -s - <($GOAL sim '$tmp/b.goal') && echo same"
t sim_defaults_are_the_simulators 0 '^same$' bash -c "$GOAL sim '$tmp/b.goal' -L 2500 -o 1500 -g 1000 -G 6 -O 0 -S 65535 -C 1 | cmp -s - <($GOAL sim '$tmp/b.goal') && echo same"
t sim_verbose_two_level 0 '^goal sim: parameters -L 2500 --overhead 1500 -g 1000 -G 6 -O 0 -S 65535 -C 1 --node-size 4 --intra-L 100 --intra-o 1500 --intra-g 1000 --intra-G 0 --intra-O 0$' \
  $GOAL sim "$tmp/b.goal" --verbose --node-size 4 --intra-L 100 --intra-G 0
t sim_verbose_handshake 0 '^goal sim: parameters -L 2500 --overhead 1500 -g 1000 -G 6 -O 0 -S 65535 -C 1 -R 950.25$' $GOAL sim "$tmp/b.goal" --verbose -R 950.25
t sim_verbose_zeros 0 '^goal sim: parameters -L 2500 --overhead 1500 -g 1000 -G 6 -O 0.5 -S 0 -C 0$' $GOAL sim "$tmp/b.goal" --verbose -S 0 -O 0.5 -C 0
# --verbose prints goal_sim_defaults: goal help sim's defaults must be those.
help_defaults() {
  local o line="goal sim: parameters"
  for o in -L --overhead -g -G -O -S -C; do
    line="$line $o $($GOAL help sim | sed -n "s/^    $o  *[^ ]*  .*(default: \([^)]*\))\$/\1/p")"
  done
  echo "$line"
}
t sim_help_defaults_are_the_simulators 0 '^same$' bash -c "[ \"\$($GOAL sim '$tmp/b.goal' --verbose 2>&1 >/dev/null)\" = \"$(help_defaults)\" ] && echo same"

# Schedgen's names: the same schedules as libgoal's, and LogGOPSim's own worlds' times.
t alias_same 0 '^same$' bash -c "$GOAL gen binomialtreebcast -p 7 | cmp -s - <($GOAL gen bcast_binomial -p 7) && echo same"
cases=$root/tests/data/loggopsim/cases
for c in "binomialtreebcast 8 1 int8" "linear_alltoall 8 1024 int32" "binarytreebcast 16 1024 int32"; do
  set -- $c
  want=$($GOAL sim "$cases/$1_p$2_d$3.goal" | tail -1)
  t "alias_$1" 0 "^$want\$" sh -c "$GOAL gen $1 -p $2 --size $3 --type $4 | $GOAL sim - | tail -1"
done
t alias_run 0 '^ok$' $GOAL run linbarrier -p 5 --check

# The progress line: only on a terminal (script gives one), erased, output intact.
GOAL_PROGRESS_AFTER=0 script -qec "$GOAL run allreduce_ring -p 64 --size 4096 --check" /dev/null >"$tmp/tty" 2>&1
t progress_shown 0 'goal run: running, 0 s' cat "$tmp/tty"
t progress_erased 0 $'\e\\[Kok' cat "$tmp/tty"
t progress_not_while_typing 1 '^0$' sh -c "printf 'num_ranks 1;\\nrank #0 { nop; }\\n\\004' | GOAL_PROGRESS_AFTER=0 timeout $HANG script -qec '$GOAL fmt -' /dev/null | grep -c running"
t progress_not_on_pipe 0 '^exact$' sh -c "[ \"\$(GOAL_PROGRESS_AFTER=0 $GOAL run allreduce_ring -p 64 --check 2>&1)\" = ok ] && echo exact"
t_done
