#!/usr/bin/env bash
# First steps and embedding: the README's tours are examples/tour.c and algo_reduce.c and run; make install /
# uninstall with PREFIX and DESTDIR (headers, tool, man page, goal.pc for pkg-config);
# make run needs only a C compiler.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
root=$(cd "$(dirname "$0")/.." && pwd)
B=$(dirname "$GOAL")
case $B in /*) ;; *) B=${B#./} ;; esac

# The tour in the README is the example, which runs, frees what it creates.
sed -n '/^## A tour in C$/,/^```$/p' "$root/README.md" | sed '1,/^```c$/d;$d' >"$tmp/readme_tour.c"
t tour_is_example 0 '^same$' sh -c "diff '$tmp/readme_tour.c' '$root/examples/tour.c' >&2 && echo same"
t tour_runs 0 '^rank 3 holds "chained"$' "$B/examples/tour"
if command -v valgrind >/dev/null && ! ldd "$B/examples/tour" 2>/dev/null | grep -q libasan; then
  t tour_frees 0 'rank 3 holds' valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=9 "$B/examples/tour"
fi

# The README's generated algorithm is examples/algo_reduce.c, which adds up 1..7 on 7 ranks.
sed -n '/^## Generate an algorithm$/,/^```$/p' "$root/README.md" | sed '1,/^```c$/d;$d' >"$tmp/readme_algo.c"
t algo_is_example 0 '^same$' sh -c "diff '$tmp/readme_algo.c' '$root/examples/algo_reduce.c' >&2 && echo same"
t algo_example_runs 0 '^allreduce_dissemination \(nway 2\): 28 28 28 28 28 28 28$' "$B/examples/algo_reduce"

# A zeroed op is sum and a zeroed dtype Int32 now, but the binary schedule is unchanged:
# ops-0.1.w was written by libgoal 0.1 before that change (max = 0, Int8 = 0 in its enums).
t format_unchanged 0 '^same$' sh -c "'$GOAL' asm '$root/tests/data/run/ops.goal' -o '$tmp/ops.w' && cmp '$tmp/ops.w' '$root/tests/data/run/ops-0.1.w' && echo same"
t format_reads_old 0 'e2: exec maxFloat64 with 0,16 16,16;' "$GOAL" dis "$root/tests/data/run/ops-0.1.w"
t format_reads_old_int 0 'e3: exec minUInt8 with 0,2 2,2;' "$GOAL" dis "$root/tests/data/run/ops-0.1.w"

# make run builds and runs the demo without installing anything.
t run_needs_no_deps 0 '^none$' sh -c "make -n -C '$root' B='$B' run | grep -c deps.sh >/dev/null && echo deps || echo none"

# make install into a DESTDIR, compile the tour against it with pkg-config, uninstall.
dest=$tmp/dest
make --no-print-directory -s -C "$root" B="$B" install DESTDIR="$dest" PREFIX=/opt/goal >"$tmp/install.log" 2>&1
t install_headers 0 'goal_sched.h' ls "$dest/opt/goal/include"
t install_tool 0 '^goal [0-9]' "$dest/opt/goal/bin/goal" --version
t install_man 0 '^same$' sh -c "'$GOAL' help --man | cmp -s - '$dest/opt/goal/share/man/man1/goal.1' && echo same"
t install_pc_prefix 0 '^prefix=/opt/goal$' cat "$dest/opt/goal/lib/pkgconfig/goal.pc"
pc="PKG_CONFIG_PATH=$dest/opt/goal/lib/pkgconfig PKG_CONFIG_SYSROOT_DIR=$dest"
t pkg_config_cflags 0 "^-I$dest/opt/goal/include" sh -c "$pc pkg-config --cflags goal"
cp "$root/examples/tour.c" "$tmp/tour.c"
t pkg_config_build 0 '^rank 3 holds "chained"$' sh -c "cd '$tmp' && ${CC:-cc} -std=c99 -Wall -Werror \$($pc pkg-config --cflags goal) tour.c -o tour \$($pc pkg-config --libs goal) && ./tour"
make --no-print-directory -s -C "$root" B="$B" uninstall DESTDIR="$dest" PREFIX=/opt/goal >>"$tmp/install.log" 2>&1
t uninstall_removes_all 0 '^0$' sh -c "find '$dest' -type f | wc -l | tr -d ' '"
t_done
