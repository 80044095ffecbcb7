#!/bin/bash
# shape.sh [DIR] - the figures of the library's shape, for the tree at DIR (default:
# this checkout): lines per header, functions over 40 lines per header (universal-ctags),
# repeated blocks (the `duplicates` tool, when installed: its count line), the layering:
# which goal headers each header includes, and a check that no header includes, or calls a
# public function of, a header above it; and the collective table (goal_algos.h's
# GOAL_COLL_TABLE): its rows, the files that read it, and any comparison of a name with a
# collective's left elsewhere. `make shape` runs it. Exit 1 when the layering is broken, 0
# otherwise.
set -u
cd "${1:-.}" || exit 2
# The layers, lowest first; headers of one layer must not use each other either.
LAYERS=("goal.h" "goal_sched.h goal_algos.h" "goal_sim.h" "goal_tune.h goal_analyze.h" "goal_mpi.h")
LONG=40

level_of() {   # the layer of header $1, or -1 when it has none
    local i h
    for i in "${!LAYERS[@]}"; do for h in ${LAYERS[$i]}; do [ "$h" = "$1" ] && { echo "$i"; return; }; done; done
    echo -1
}
headers=$(ls goal*.h)

echo "== lines per header"
wc -l $headers | awk '{ printf "%-16s %6d\n", $2, $1 }'

echo "== functions over $LONG lines, per header (longest first)"
if command -v ctags >/dev/null; then
    for h in $headers; do
        ctags --c-kinds=f --fields=+ne --language-force=C -o - "$h" 2>/dev/null |
            awk -F'\t' -v h="$h" -v long="$LONG" '
                { line = end = 0
                  for (i = 4; i <= NF; i++) { if ($i ~ /^line:/) line = substr($i, 6); if ($i ~ /^end:/) end = substr($i, 5) }
                  n = end - line + 1; total++
                  if (n > long) { over++; list = list sprintf(" %s:%d", $1, n) } }
                END { printf "%-16s %3d of %4d functions%s\n", h, over, total, list }' |
            awk '{ n = split($0, f, " "); out = f[1] " " f[2] " " f[3] " " f[4] " " f[5]; m = 0
                   for (i = 6; i <= n; i++) { split(f[i], p, ":"); name[++m] = f[i]; len[m] = p[2] + 0 }
                   for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (len[j] > len[i]) { t = name[i]; name[i] = name[j]; name[j] = t; t = len[i]; len[i] = len[j]; len[j] = t }
                   for (i = 1; i <= m; i++) out = out " " name[i]
                   print out }'
    done
else
    echo "(ctags not installed: apt-get install universal-ctags)"
fi

echo "== repeated blocks (duplicates: 6 or more lines, the same or of the same shape)"
if command -v duplicates >/dev/null; then
    duplicates --seconds 120 | head -1
else
    echo "(the duplicates tool is not installed)"
fi

echo "== layering (${LAYERS[*]})"
bad=0
for h in $headers; do
    lh=$(level_of "$h")
    inc=$(sed -n 's/^#include "\(goal[a-z_]*\.h\)".*/\1/p' "$h" | sort -u | grep -vx "$h" | tr '\n' ' ')
    printf '%-16s includes: %s\n' "$h" "${inc:-(none)}"
    [ "$lh" -lt 0 ] && { echo "  $h has no layer"; bad=1; continue; }
    # the code without comments, to find calls of a higher header's public functions
    code=$(gcc -fpreprocessed -dD -E -P -x c "$h" 2>/dev/null)
    for g in $headers; do
        [ "$g" = "$h" ] && continue
        lg=$(level_of "$g")
        [ "$lg" -lt "$lh" ] && continue
        if printf ' %s ' "$inc" | grep -q " $g "; then echo "  $h includes $g, which is not below it"; bad=1; fi
        for f in $(sed -n 's/^GOAL_API[^(]*[^a-z_0-9]\([a-z_0-9]*\)(.*/\1/p' "$g" | sort -u); do
            if printf '%s\n' "$code" | grep -qw "$f"; then echo "  $h calls $f of $g, which is not below it"; bad=1; fi
        done
    done
done
[ $bad = 0 ] && echo "ok: no header includes or calls into a higher one (or one of its own layer)"

rows=$(sed -n '/^#define GOAL_COLL_TABLE/,/^$/p' goal_algos.h | grep -o 'X([A-Z_]*, "[a-z_]*"' | sed 's/.*"\(.*\)"/\1/' | tr '\n' ' ')
echo "== the collective table (goal_algos.h GOAL_COLL_TABLE): $(echo $rows | wc -w) collectives: $rows"
echo "   its users (lines that read it: goal_coll_get/find/blocks, goal_algo_coll, GOAL_COLL_*, .coll):"
files=$(git ls-files '*.c' '*.h' '*.cpp' 2>/dev/null || find . -name '*.[ch]' -o -name '*.cpp')
for f in $files; do
    n=$(grep -cE 'goal_coll_(get|find|blocks)|goal_algo_coll|GOAL_COLL_[A-Z]|(->|\.)coll\b' "$f")
    [ "$n" -gt 0 ] && printf '   %-30s %4d\n' "$f" "$n"
done
names=$(echo $rows | tr ' ' '|')
left=$(grep -nE "strn?cmp\([^;]*\"($names)v?_?\"" $files 2>/dev/null)
echo "   name comparisons with a collective outside the table: $(printf '%s' "$left" | grep -c .)"
[ -n "$left" ] && printf '%s\n' "$left" | sed 's/^/     /'
exit $bad
