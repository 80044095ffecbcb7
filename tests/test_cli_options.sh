#!/usr/bin/env bash
# One option parser for every verb: the options goal help VERB lists are the ones the verb
# takes, and each verb says an unknown option (with the closest one), a missing value, a bad
# number, a second FILE and a missing FILE alike, exit 2.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
$GOAL gen bcast_binomial -p 4 >"$tmp/b.goal"

verbs=$($GOAL help --markdown | sed -n 's/^| `goal \([a-z]*\) .*/\1/p' | sort -u)
# The words before an option that reach the verb's option parser (the form that takes it).
prefix() {
  case $1 in
    gen) echo "gen bcast_binomial -p 4" ;;
    run) echo "run bcast_binomial -p 4 --check" ;;
    *) echo "$1" ;;
  esac
}
# "NAME ARG" for every option of the verb, ARG "-" for a flag: from goal help VERB.
options() { $GOAL help "$1" | sed -n 's/^    \(-[^ ]*\)\( [^ ][^ ]*\)\{0,1\}  .*/\1\2/p' | awk '{print $1, ($2 == "" ? "-" : $2)}' | sort -u; }
checked=0
for v in $verbs; do
  while read -r name arg; do
    [ -n "$name" ] || continue
    checked=$((checked + 1))
    # A misspelt option: one letter doubled is one edit away, and names it.
    typo=$name${name: -1}
    t "unknown_${v}_$name" 2 "^goal: $v: unknown option '$typo' \\(did you mean '$name'\\?\\)" $GOAL $(prefix "$v") "$typo"
    if [ "$arg" = - ]; then
      # A flag takes no value.
      t "flag_value_${v}_$name" 2 "^goal: $v: unknown option '$name=1'" $GOAL $(prefix "$v") "$name=1"
    else
      # A value that is missing: the option named, exit 2.
      t "missing_${v}_$name" 2 "^goal: $v: $name " $GOAL $(prefix "$v") "$name"
    fi
  done < <(options "$v")
done
t options_checked 0 '^many$' sh -c "[ $checked -gt 60 ] && echo many"

# FILE: one, and not none, for every verb that reads one.
for v in $($GOAL help --markdown | sed -n 's/^| `goal \([a-z]*\) FILE.*/\1/p' | sort -u); do
  t "second_file_$v" 2 "^goal: $v: one FILE only \\('$tmp/b.goal' and 'x'\\)" $GOAL "$v" "$tmp/b.goal" x
  # tune's FILE (a recording) is its second form: without it, the first one's -p N.
  if [ "$v" = tune ]; then missing="-p N"; else missing=FILE; fi
  t "no_file_$v" 2 "^goal: $v: $missing is missing" $GOAL "$v"
done
# goal record PREFIX: the same parser (it has no options: an unknown one suggests --help).
t record_unknown 2 "^goal: record: unknown option '--hepl' \\(did you mean '--help'\\?\\)" $GOAL record --hepl
t record_second 2 "^goal: record: one PREFIX only \\('a' and 'b'\\)" $GOAL record a b
t record_missing 2 "^goal: record: PREFIX is missing" $GOAL record
t second_algo 2 "^goal: gen: one ALGO only \\('bcast_binomial' and 'x'\\)" $GOAL gen bcast_binomial x -p 4
t stray_word_demo 2 "^goal: demo: unknown argument 'x'" $GOAL demo x
t stray_word_tune 2 "^goal: tune: unknown argument 'x'" $GOAL tune -p 4 x

# Bad numbers name the option and what it takes.
t bad_rank 2 '^goal: dot: --rank takes a rank number' $GOAL dot "$tmp/b.goal" --rank x
t bad_p_tune 2 '^goal: tune: -p takes a number of ranks from 1 to 16777216' $GOAL tune -p 0
t bad_seed 2 '^goal: run: --seed takes a number' $GOAL run bcast_binomial -p 4 --check --seed -1
t bad_model 2 '^goal: trace: -L x: takes a number' $GOAL trace "$tmp/b.goal" -L x
t bad_list 2 "^goal: gen: --receivers 3-1: a LIST is ranks and ranges" $GOAL gen reduce_aspen -p 4 --receivers 3-1
t twice_list 2 "^goal: gen: --receivers given twice" $GOAL gen reduce_aspen -p 4 --receivers 1 --receivers 2
t bad_mode_twice 2 '^goal: analyze: one of --waits' $GOAL analyze "$tmp/b.goal" --waits --dataflow
t bad_help 2 '^goal: help: one of VERB, --markdown, --man' $GOAL help --man sim

# NAME=VALUE is NAME VALUE, for the verb's own options and the shared ones (model, gen).
t eq_model 0 '^same$' bash -c "$GOAL sim '$tmp/b.goal' -L=7 --node-size=2 | cmp -s - <($GOAL sim '$tmp/b.goal' -L 7 --node-size 2) && echo same"
t eq_gen 0 '^same$' bash -c "$GOAL gen bcast_binomial -p=5 --root=2 | cmp -s - <($GOAL gen bcast_binomial -p 5 --root 2) && echo same"
t eq_dot 0 '^same$' bash -c "$GOAL dot '$tmp/b.goal' --rank=1 | cmp -s - <($GOAL dot '$tmp/b.goal' --rank 1) && echo same"
# A value may start with '-' (the next argument is the value).
t dash_value 2 '^goal: sim: -G -0.5: takes a number >= 0' $GOAL sim "$tmp/b.goal" -G -0.5
# The model options the command lists are the library's: a params file takes each of them.
while read -r name arg; do
  case $name in -o|--params|--verbose|--critical|--coll) continue ;; esac
  if [ "$arg" = - ]; then printf '%s\n' "$name" >"$tmp/p.txt"; else printf '%s 2\n' "$name" >"$tmp/p.txt"; fi
  t "library_takes_$name" 0 '^max ' $GOAL sim "$tmp/b.goal" --params "$tmp/p.txt"
done < <(options sim)
t_done
