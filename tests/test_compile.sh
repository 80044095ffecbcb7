#!/usr/bin/env bash
# The STB include pattern: a program includes a goal header from its own header and again after
# GOAL_ALL_IMPLEMENTATION (or the header's own GOAL_<X>_IMPLEMENTATION) in one file, and every
# implementation asked for is built, once. Every public goal*.h, alone and with each other one
# in every order, included before the macro, after it and both, in C and C++, with
# GOAL_ALL_IMPLEMENTATION and with the included headers' own macros:
#  - the whole matrix through the preprocessor, many cases to a translation unit (every goal
#    macro undefined between two cases): each case checks with #error which implementations it
#    built. A header builds its implementation exactly when it defines its GOAL__<X>_IMPL_DONE,
#    the first line of that section. GOAL_ALL_IMPLEMENTATION builds every header that an
#    inclusion after it reaches, itself or through another header; the own macros build those
#    of their headers that an inclusion after them reaches.
#  - the pattern itself for every header (and, in C, the pair of the program that found the
#    defect), compiled, linked with the implementations it does not build (each built alone by
#    its own macro, so a missing one or a doubled one fails the link), and run: one call into
#    each header.
# C with -std=c99, C++ with -std=c++11, both -Wall -Wextra -Wpedantic -Werror; goal_mpi.h with
# mpicc/mpicxx of Open MPI or MPICH (the first found), left out without either.
set -u
. tests/lib.sh
B=${B:-build}
D=$B/tests/compile
CC=${CC:-cc}; CXX=${CXX:-c++}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
PER_BATCH=100
CFLAGS="-std=c99 -Wall -Wextra -Wpedantic -Werror -I."
CXXFLAGS="-std=c++11 -Wall -Wextra -Wpedantic -Werror -I. -DOMPI_SKIP_MPICXX -DMPICH_SKIP_MPICXX"
rm -rf "$D"; mkdir -p "$D"

MPICC=; MPICXX=
for lib in openmpi mpich; do
  if command -v mpicc.$lib >/dev/null && command -v mpicxx.$lib >/dev/null; then MPICC=mpicc.$lib; MPICXX=mpicxx.$lib; break; fi
done
[ -n "$MPICC" ] || echo "goal_mpi.h left out: neither mpicc.openmpi nor mpicc.mpich"
compiler() {   # compiler LANG MPI: the compiler and its flags
  case $1$2 in c0) echo "$CC $CFLAGS";; c1) echo "$MPICC $CFLAGS";; cpp0) echo "$CXX $CXXFLAGS";; cpp1) echo "$MPICXX $CXXFLAGS";; esac
}

# One call into each header that needs no set-up, true when that header's implementation is linked.
declare -A CALL=(
  [goal]='goal_dtype_size(GOAL_INT32) == 4'
  [goal_sched]='goal_exec_create(NULL, NULL, NULL) == GOAL_ERR_ARG'
  [goal_algos]='goal_algo_find("bcast_binomial") != NULL'
  [goal_sim]='goal_sim_check(NULL, NULL, &check_result) == GOAL_ERR_ARG'
  [goal_tune]='goal_sim_coll_name(0) != NULL'
  [goal_analyze]='goal_analyze_waits(NULL, NULL, NULL, NULL) == GOAL_ERR_ARG'
  [goal_mpi]='goal_mpi_create(NULL, NULL, NULL) == GOAL_ERR_ARG'
)

# ---- the headers: own macro, done marker, all they include -----------------------------------
HS=()
declare -A OWN DONE DEPS CLOS
for f in goal*.h; do
  h=${f%.h}; x=${h#goal}; X=${x^^}
  HS+=("$h"); OWN[$h]=GOAL${X}_IMPLEMENTATION; DONE[$h]=GOAL_${X}_IMPL_DONE
  DEPS[$h]=$(sed -n 's/^#include "\(goal[a-z_]*\)\.h".*/\1/p' "$f" | grep -vx "$h" | sort -u | tr '\n' ' ')
  if ! grep -q "^#define ${DONE[$h]}\$" "$f"; then echo "FAIL $f: no #define ${DONE[$h]}"; fail=$((fail + 1)); fi
  if [ -z "${CALL[$h]:-}" ]; then echo "FAIL $f: no call for it in tests/test_compile.sh"; fail=$((fail + 1)); fi
done
reach() {   # reach H: H and what it includes, through every level
  local d
  [[ " ${CLOS[$1]:-} " == *" $1 "* ]] && return
  CLOS[$1]=$1
  for d in ${DEPS[$1]}; do reach "$d"; CLOS[$1]="${CLOS[$1]} ${CLOS[$d]}"; done
}
for h in "${HS[@]}"; do reach "$h"; done
in_list() { [[ " $2 " == *" $1 "* ]]; }
closure() {   # closure H...: R = the headers and all they include, in HS's order
  local all=" " h
  for h in "$@"; do all="$all${CLOS[$h]} "; done
  R=; for h in "${HS[@]}"; do in_list "$h" "$all" && R="$R$h "; done
}
built() {   # built MODE "BEFORE" "AFTER": R = the implementations a case must build
  local h list
  closure $3; list=$R; R=
  for h in $list; do { [ "$1" = all ] || in_list "$h" "$2 $3"; } && R="$R$h "; done
}
usable() { [ -n "$MPICC" ] || ! in_list goal_mpi "$*"; }
includes() { local h; for h in "$@"; do echo "#include \"$h.h\""; done; }
macros() {   # macros MODE HEADER...: the #define lines of a case
  local h
  if [ "$1" = all ]; then echo "#define GOAL_ALL_IMPLEMENTATION"; return; fi
  shift; for h in "${HS[@]}"; do in_list "$h" "$*" && echo "#define ${OWN[$h]}"; done
}
names() { local h; N=; for h in "$@"; do N="$N$h.h "; done; N=${N% }; }   # N = "goal_x.h goal_y.h"

# ---- the cases "BEFORE|AFTER": every header alone, every pair in every order -----------------
declare -A SEEN
SPECS=()
spec() { local k="$1|$2"; [ -n "${SEEN[$k]:-}" ] && return; SEEN[$k]=1; SPECS+=("$k"); }
for a in "${HS[@]}"; do spec "$a" ""; spec "" "$a"; spec "$a" "$a"; done
for a in "${HS[@]}"; do
  for b in "${HS[@]}"; do
    [ "$a" = "$b" ] && continue
    for pa in b a ba; do        # a before the macro (b), after it (a) or both
      for pb in b a ba; do      # and b
        for order in ab ba; do  # the order after the macro; before it, a comes first
          bef=; aft=
          [[ $pa == *b* ]] && bef="$a"; [[ $pb == *b* ]] && bef="$bef $b"
          if [ $order = ab ]; then [[ $pa == *a* ]] && aft="$a"; [[ $pb == *a* ]] && aft="$aft $b"
          else [[ $pb == *a* ]] && aft="$b"; [[ $pa == *a* ]] && aft="$aft $a"; fi
          spec "${bef# }" "${aft# }"
        done
      done
    done
  done
done

# ---- the matrix through the preprocessor -----------------------------------------------------
# reset*.h undefines every goal macro, so each case starts as a file of its own would.
reset() {   # reset MPI: every GOAL macro the headers define, and the case macros
  local all=() h
  for h in "${HS[@]}"; do { [ "$1" = 1 ] || ! in_list "$h" goal_mpi; } && all+=("$h"); done
  { includes "${all[@]}"; echo "#define GOAL_ALL_IMPLEMENTATION"; includes "${all[@]}"; } > "$D/reset$1.c"
  $(compiler c "$1") -dM -E "$D/reset$1.c" | sed -n 's/^#define \(GOAL[A-Za-z0-9_]*\).*/#undef \1/p'
  for h in "${HS[@]}"; do echo "#undef ${OWN[$h]}"; done
}
for m in 0 1; do
  [ $m = 1 ] && [ -z "$MPICC" ] && continue
  reset $m > "$D/reset$m.h" || { echo "FAIL reset$m.h"; fail=$((fail + 1)); }
done
case_text() {   # case_text N MODE BEFORE AFTER MPI: one case, its checks, the reset
  local h what
  names $3; what="case $1: $N | $2 |"; names $4; what="$what $N"
  built "$2" "$3" "$4"
  echo "/* $what */"
  includes $3; macros "$2" $3 $4; includes $4
  for h in "${HS[@]}"; do
    if in_list "$h" "$R"; then echo "#ifndef ${DONE[$h]}"; echo "#error \"$what: $h.h's implementation is not built\""
    else echo "#ifdef ${DONE[$h]}"; echo "#error \"$what: $h.h's implementation is built, not asked for\""; fi
    echo "#endif"
  done
  echo "#include \"reset$5.h\""
}
# GCC's -fdirectives-only (the directives, no macro expansion in the text) is many times faster.
pp() { local c=($1); "${c[0]}" -E -fdirectives-only -x c /dev/null >/dev/null 2>&1 && echo "$1 -E -fdirectives-only" || echo "$1 -E"; }
BATCHES=()   # "FILE COMPILER FLAGS..."
n=0
for lang in c cpp; do
  for m in 0 1; do
    [ $m = 1 ] && [ -z "$MPICC" ] && continue
    k=0; pp=$(pp "$(compiler $lang $m)")
    for s in "${SPECS[@]}"; do
      if in_list goal_mpi "${s/|/ }"; then [ $m = 1 ] || continue; else [ $m = 0 ] || continue; fi
      if [ $((k % PER_BATCH)) = 0 ]; then
        file=$D/matrix_$m.$((k / PER_BATCH)).$lang; : > "$file"
        BATCHES+=("$file $pp")
      fi
      for mode in all own; do
        n=$((n + 1)); k=$((k + 1))
        case_text $n $mode "${s%|*}" "${s#*|}" $m >> "$file"
      done
    done
  done
done
printf '%s\n' "${BATCHES[@]}" | xargs -P "$JOBS" -L 1 sh -c 'f=$1; shift; "$@" -o /dev/null "$f" 2>"$f.err"; echo $? > "$f.rc"' sh
for b in "${BATCHES[@]}"; do
  f=${b%% *}; cases=$(grep -c '^/\* case ' "$f")
  grep 'error: ' "$f.err" | grep -o '"case [0-9]*: [^"]*' | sort -u > "$f.failed"
  bad=$(cut -d: -f 1 "$f.failed" | sort -u | wc -l)
  if [ "$(cat "$f.rc")" != 0 ] && [ "$bad" = 0 ]; then bad=$cases; head -n 5 "$f.err"; fi
  sed 's/^"/FAIL /' "$f.failed" | head -n 10
  pass=$((pass + cases - bad)); fail=$((fail + bad))
  [ "$bad" = 0 ] || echo "FAIL $f: $bad of its $cases cases ($f.err)"
done
echo "the matrix: $n cases through the preprocessor"

# ---- the pattern compiled, linked and run ----------------------------------------------------
LINKED=("goal_analyze goal_algos|goal_analyze|c")   # BEFORE|AFTER|LANGUAGES
for h in "${HS[@]}"; do LINKED+=("$h|$h|c cpp"); done
for s in "${LINKED[@]}"; do
  IFS='|' read -r before after langs <<<"$s"
  usable $before $after || continue
  m=0; in_list goal_mpi "$before $after" && m=1
  for lang in $langs; do
    for mode in all own; do
      f=$D/link_${before// /+}_${mode}_$lang.$lang
      closure $before $after; all=$R
      { includes $before; macros $mode $before $after; includes $after; echo "#include <stdio.h>"
        echo "int main(void) {"; echo "    int ok = 1;"
        for x in $all; do
          [ $x = goal_sim ] && echo "    goal_sim_check_result check_result;"
          echo "    ok = ok && ${CALL[$x]};"
        done
        echo "    puts(ok ? \"ok\" : \"wrong result\");"; echo "    return !ok;"; echo "}"; } > "$f"
      built $mode "$before" "$after"; objs=; others=
      for x in $all; do in_list "$x" "$R" || { objs="$objs $D/impl_$x.o"; others="$others $x.h"; }; done
      names $before; what="$N | $mode |"; names $after; lname=C; [ $lang = cpp ] && lname=C++
      printf '%s\t%s\t%s\t%s\n' "$f" "$(compiler $lang $m)" "$what $N ($lname, linked with:${others:- nothing})" "$objs"
    done
  done
done > "$D/linked.txt"
for o in $(cut -f 4 "$D/linked.txt" | tr ' ' '\n' | sort -u); do   # each implementation alone, by its own macro
  h=${o#$D/impl_}; h=${h%.o}; m=0; [ $h = goal_mpi ] && m=1
  printf '#define %s\n#include "%s.h"\n' "${OWN[$h]}" "$h" > "${o%.o}.c"
  echo "${o%.o}.c $(compiler c $m) -c -o $o"
done | xargs -P "$JOBS" -L 1 sh -c 'f=$1; shift; "$@" "$f" 2>"$f.err" || cat "$f.err"' sh
link_one() {   # link_one "FILE<tab>COMPILER<tab>WHAT<tab>OBJECTS": compile, link, run; output and status in FILE's .log, .rc
  local f cc objs x
  IFS=$'\t' read -r f cc _ objs <<<"$1"; x=${f%.*}
  { $cc -c "$f" -o "$x.o" && $cc "$x.o" $objs -o "$x" -lpthread -lm && "./$x"; } > "$x.log" 2>&1
  echo $? > "$x.rc"
}
export -f link_one
tr '\n' '\0' < "$D/linked.txt" | xargs -0 -P "$JOBS" -I{} bash -c 'link_one "$1"' bash {}
while IFS=$'\t' read -r f _ what _; do
  t "$what" 0 '^ok$' sh -c 'cat "$1.log"; exit "$(cat "$1.rc")"' sh "${f%.*}"
done < "$D/linked.txt"
t_done
