#!/usr/bin/env bash
# The documentation's commands run as written. In each markdown file given (default: README.md
# and docs/*.md), every fenced block tagged ```sh is run with bash -e -o pipefail, in order,
# in one scratch directory per file where the checkout's files appear as symbolic links (so
# `build/goal`, `make mpi-lib` and `tests/...` work and what the commands write stays out of
# the checkout), with the build directory on PATH. A ```text block right after a ```sh block
# (blank lines between) is its output: each of its lines other than `...` must be a line of
# what the block prints. Other blocks (indented, ```console, ```c, ...) are only shown.
# One check per block: its exit status and its output. tests/README.md states the rule.
set -u
. tests/lib.sh
ROOT=$PWD
BUILD=$(cd "$(dirname "$GOAL")" && pwd)
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
[ $# -gt 0 ] || set -- README.md $(ls docs/*.md 2>/dev/null)

# extract FILE DIR: DIR/N.sh (a block, its first line a comment naming FILE:LINE) and, where
# one follows it, DIR/N.out; prints how many blocks.
extract() {
  awk -v dir="$2" -v file="$1" '
    function close_block() { if (out != "") close(out); out = "" }
    /^```/ && !inside {
      tag = substr($0, 4); inside = 1
      if (tag == "sh") { n++; out = dir "/" n ".sh"; print "# " file ":" NR > out; want_text = 1 }
      else if (tag == "text" && want_text) out = dir "/" n ".out"
      else want_text = 0
      next
    }
    /^```/ && inside { inside = 0; if (out !~ /\.sh$/) want_text = 0; close_block(); next }
    inside { if (out != "") print > out; next }
    /^[ \t]*$/ { next }
    { want_text = 0 }
    END { print n + 0 }' "$1"
}

# scratch DIR: the checkout's top-level entries as links, build/ the build directory used.
scratch() {
  local e
  mkdir -p "$1"
  for e in "$ROOT"/* "$ROOT"/.ci; do [ "${e##*/}" = build ] || ln -s "$e" "$1/"; done
  ln -s "$BUILD" "$1/build"
}

# run_block N.sh: runs it in the scratch directory; checks exit status and N.out's lines.
run_block() {
  local sh=$1 exp=${1%.sh}.out where missing line
  where=$(head -n 1 "$sh"); where=${where#\# }
  out=$(cd "$W" && PATH="$BUILD:$PATH" timeout $HANG bash -e -o pipefail "$sh" 2>&1); rc=$?
  missing=
  if [ -f "$exp" ]; then
    while IFS= read -r line; do
      [ "$line" = "..." ] && continue
      printf '%s\n' "$out" | grep -Fxq -- "$line" || { missing=$line; break; }
    done < "$exp"
  fi
  if [ $rc = 0 ] && [ -z "$missing" ]; then pass=$((pass + 1)); echo "ok $where"
  else
    fail=$((fail + 1))
    echo "FAIL $where: exit $rc${missing:+, no line '$missing' in the output}$([ $rc = 124 ] && echo ' (watchdog)')"
    printf '%s\n' "$out" | tail -n 8
  fi
}

# The rule itself, on a file of known blocks: a passing pair, a failing command, an output
# line not printed, a ```console block and an indented one not run.
if [ -z "${GOAL_README_SELF:-}" ]; then
  cat > "$T/rule.md" <<'EOF'
```sh
echo "max 42"; echo other
```

```text
max 42
...
```
```sh
false
```
```sh
echo 41
```
```text
42
```
```console
$ false
```
    false
EOF
  got=$(GOAL_README_SELF=1 "$0" "$T/rule.md" 2>&1 | tail -n 1)
  t "the rule: sh blocks run, text after sh is their output, console and indented are not run" 0 \
    "^1 passed, 2 failed$" echo "$got"
fi

for f in "$@"; do
  d=$T/blocks/${f//\//_}; W=$T/work/${f//\//_}
  mkdir -p "$d"; scratch "$W"
  n=$(extract "$f" "$d")
  for k in $(seq 1 "$n"); do run_block "$d/$k.sh"; done
done
t_done
