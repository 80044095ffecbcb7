#!/usr/bin/env bash
# GOAL_MPI_RECORD (mpi/goalmpi_record.c, docs/record.md) under Open MPI and MPICH: the drop-in
# records tests/mpi/test_record.c (every recorded call) at np 1-5; goal check must match every
# message, and the point-to-point messages of the world must be those the program logged it
# sent (destination and bytes, per rank). Then: a program without MPI_Finalize (goal record
# assembles its parts; a missing part is named), GOAL_MPI_RECORD_MAX, an unwritable PREFIX,
# persistent requests and matched probes (tests/mpi/test_record_p2p.c, .f90)
# (LAMMPS: tests/test_record_lammps.sh).
cd "$(dirname "$0")/.." || exit 1
. tests/lib.sh
B=${B:-build}
BA=$(cd "$B" 2>/dev/null && pwd || echo "$PWD/$B")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
run() {   # run LIB NP CMD...: under the drop-in, with the GOAL_MPI_* variables set
  local lib=$1 n=$2 v env=(); shift 2
  for v in GOAL_MPI_RECORD GOAL_MPI_RECORD_MAX GOAL_MPI_ALGOS; do
    [ -n "${!v+x}" ] || continue
    if [ $lib = openmpi ]; then env+=(-x "$v"); else env+=(-env "$v" "${!v}"); fi
  done
  if [ $lib = openmpi ]; then timeout $HANG mpirun.openmpi --oversubscribe "${env[@]}" -x LD_PRELOAD="$BA/openmpi/libgoalmpi.so" -np "$n" "$@"
  else timeout $HANG mpirun.mpich "${env[@]}" -env LD_PRELOAD "$BA/mpich/libgoalmpi.so" -np "$n" "$@"; fi
}
# The world's point-to-point sends (3000 bytes and more) of rank r as "DEST BYTES", sorted;
# world_recvs: its receives as "SOURCE BYTES".
world_msgs() {   # world_msgs GOAL R KIND WORD
  awk -v r="$2" -v re="$3 [0-9]+,[0-9]+ $4 [0-9]+" '/^rank #/ { gsub(/[#,{]/, "", $2); in_r = ($2 == r) }
    in_r && match($0, re) { split(substr($0, RSTART, RLENGTH), f, /[ ,]/); if (f[3] >= 3000) print f[5], f[3] }' "$1" | sort
}
world_sends() { world_msgs "$1" "$2" send to; }
world_recvs() { world_msgs "$1" "$2" recv from; }
same_sends() {   # same_sends GOAL LOG NP: every rank's sends are those it logged
  local r
  for ((r = 0; r < $3; r++)); do
    diff <(world_sends "$1" $r) <(sort "$2.$r") >/dev/null || { echo "rank $r: the world's sends differ from the log"; return 1; }
  done
  echo "sends of $3 ranks as logged"
}
check_run() {   # check_run LIB NP: a recording at np, checked and compared
  local lib=$1 n=$2 pre="$tmp/$1-$2" res
  res=$(GOAL_MPI_RECORD=$pre GOAL_MPI_ALGOS="bcast=mpi;alltoall=mpi" run $lib $n "$B/mpi/test_record.$lib" "$pre.log" 2>&1)
  t "${lib}_np${n}_line" 0 "^record: $pre.goal: $n ranks, [1-9][0-9]* actions, measured [1-9][0-9]* ns$" printf '%s\n' "$res"
  t "${lib}_np${n}_check" 0 "^ok: $n ranks?, [0-9]+ messages? matched" $GOAL check "$pre.goal"
  t "${lib}_np${n}_sends" 0 "sends of $n ranks as logged" same_sends "$pre.goal" "$pre.log" $n
  # the bcast passed on (GOAL_MPI_ALGOS: mpi) keeps its anchors and root; parts removed
  t "${lib}_np${n}_passed_on" 0 "bcast_c0_n1_b64_r$((n - 1))_i0: nop" cat "$pre.goal"
  t "${lib}_np${n}_parts_removed" 0 "^0$" bash -c "ls $pre.*.part 2>/dev/null | wc -l"
}
for lib in openmpi mpich; do
  if ! command -v mpicc.$lib >/dev/null || ! command -v mpirun.$lib >/dev/null; then echo "FAIL $lib: mpicc.$lib / mpirun.$lib missing (make deps)"; fail=$((fail + 1)); continue; fi
  if ! build "$B/$lib/libgoalmpi.so" "$B/mpi/test_record.$lib"; then
    echo "FAIL $lib: build"; fail=$((fail + 1)); continue
  fi
  for n in 1 2 3 4 5; do check_run $lib $n; done
  # the drop-in's own test (every intercepted call, every completion call) recorded: its
  # checks still pass, and the recording matches
  pre="$tmp/$lib-dropin"
  if build "$B/mpi/test_dropin.$lib"; then
    t "${lib}_dropin_recorded" 0 "^[1-9][0-9]* passed, 0 failed$" env GOAL_MPI_RECORD=$pre bash -c "$(declare -f run); HANG=$HANG BA=$BA run $lib 3 $B/mpi/test_dropin.$lib"
    t "${lib}_dropin_check" 0 "^ok: 3 ranks, [1-9][0-9]* messages matched" $GOAL check "$pre.goal"
  else
    echo "FAIL $lib: tests/mpi/test_dropin.c build"; fail=$((fail + 1))
  fi
  # no MPI_Finalize: the parts stay; goal record assembles and checks them, then names a missing one
  pre="$tmp/$lib-nofin"
  GOAL_MPI_RECORD=$pre run $lib 3 "$B/mpi/test_record.$lib" "$pre.log" nofinalize >/dev/null 2>&1
  t "${lib}_nofinalize_parts" 0 "^3$" bash -c "ls $pre.*.part | wc -l"
  t "${lib}_nofinalize_record" 0 "^ok: 3 ranks, [0-9]+ messages matched" $GOAL record "$pre"
  t "${lib}_nofinalize_named" 0 "rank 2 did not call MPI_Finalize" $GOAL record "$pre"
  t "${lib}_nofinalize_sends" 0 "sends of 3 ranks as logged" same_sends "$pre.goal" "$pre.log" 3
  rm -f "$pre.1.part"
  t "${lib}_missing_part" 1 "rank 1 is missing" $GOAL record "$pre"
  # GOAL_MPI_RECORD_MAX: recording stops with one line per rank; the program is undisturbed
  pre="$tmp/$lib-max"
  res=$(GOAL_MPI_RECORD=$pre GOAL_MPI_RECORD_MAX=40 run $lib 2 "$B/mpi/test_record.$lib" "$pre.log" 2>&1); rc=$?
  t "${lib}_max_said" 0 "rank 0: GOAL_MPI_RECORD_MAX actions recorded: recording stops here" printf '%s\n' "$res"
  t "${lib}_max_once" 0 "^2$" bash -c "printf '%s\n' \"\$1\" | grep -c 'recording stops'" - "$res"
  t "${lib}_max_program" 0 "^0 same$" bash -c "echo $rc \$(cat $pre.log.0 $pre.log.1 | cmp -s - <(cat $tmp/$lib-2.log.0 $tmp/$lib-2.log.1) && echo same)"
  t "${lib}_max_world" 0 "^record: $pre.goal: 2 ranks, 80 actions" printf '%s\n' "$res"
  # an unwritable PREFIX: one line at MPI_Init, the program runs on, nothing is written
  pre="$tmp/nodir/$lib"
  res=$(GOAL_MPI_RECORD=$pre run $lib 2 "$B/mpi/test_record.$lib" "$tmp/$lib-nodir.log" 2>&1); rc=$?
  t "${lib}_unwritable" 0 "^1 $rc 0$" bash -c "printf '%s\n' \"\$1\" | grep -c 'libgoalmpi: GOAL_MPI_RECORD=$pre: cannot write $pre.0.part: No such file or directory; not recording' | tr '\n' ' '; echo $rc \$(printf '%s\n' \"\$1\" | grep -c '^record:')" - "$res"
  t "${lib}_unwritable_program" 0 "^same$" bash -c "cat $tmp/$lib-nodir.log.0 $tmp/$lib-nodir.log.1 | cmp -s - <(cat $tmp/$lib-2.log.0 $tmp/$lib-2.log.1) && echo same"
done
# Persistent point-to-point requests (a ring started 4 times: MPI_Startall + MPI_Waitall,
# MPI_Start + MPI_Wait) and matched probes (MPI_Mprobe + MPI_Mrecv, MPI_Improbe + MPI_Imrecv,
# from MPI_ANY_SOURCE), tests/mpi/test_record_p2p.c: each rank's messages of the world are
# exactly the 6 sends and 6 receives it logged (peer and bytes), and goal check matches them.
same_msgs() {   # same_msgs GOAL LOG NP: every rank's sends and receives are those it logged, 6 each
  local r
  for ((r = 0; r < $3; r++)); do
    [ "$(world_sends "$1" $r | wc -l) $(world_recvs "$1" $r | wc -l)" = "6 6" ] || { echo "rank $r: not 6 sends and 6 receives"; return 1; }
    diff <(world_sends "$1" $r) <(sort "$2.$r") >/dev/null || { echo "rank $r: the world's sends differ from the log"; return 1; }
    diff <(world_recvs "$1" $r) <(sort "$2.$r.recv") >/dev/null || { echo "rank $r: the world's receives differ from the log"; return 1; }
  done
  echo "messages of $3 ranks as logged"
}
for lib in openmpi mpich; do
  if ! build "$B/mpi/test_record_p2p.$lib"; then
    echo "FAIL $lib: tests/mpi/test_record_p2p.c build (make deps)"; fail=$((fail + 1)); continue
  fi
  for n in 2 3; do
    pre="$tmp/$lib-p2p-$n"
    res=$(GOAL_MPI_RECORD=$pre run $lib $n "$B/mpi/test_record_p2p.$lib" "$pre.log" 2>&1)
    t "${lib}_p2p_np${n}_line" 0 "^record: $pre.goal: $n ranks, [1-9][0-9]* actions" printf '%s\n' "$res"
    t "${lib}_p2p_np${n}_check" 0 "^ok: $n ranks, $((6 * n)) messages matched" $GOAL check "$pre.goal"
    t "${lib}_p2p_np${n}_msgs" 0 "^messages of $n ranks as logged$" same_msgs "$pre.goal" "$pre.log" $n
  done
done
# Fortran (tests/mpi/test_fortran.f90 through `use mpi`, test_fortran08.f90 through mpi_f08):
# the drop-in's Fortran entry points call its C ones, so every collective is recorded (a start
# anchor per call and rank, as the stats count them), and so are the point-to-point messages
# of their ring (pointtopoint: 12 to the right, 4004 ... 4048 bytes), each once: Open MPI's
# Fortran layer reaches them through those entry points, MPICH's calls the C ones itself.
ring_sends() {   # ring_sends NP R: rank R's ring messages as world_sends prints them
  local k
  for ((k = 1; k <= 12; k++)); do echo "$((($2 + 1) % $1)) $((4000 + 4 * k))"; done | sort
}
same_ring() {   # same_ring GOAL NP: every rank's large sends are its ring messages
  local r
  for ((r = 0; r < $2; r++)); do
    diff <(world_sends "$1" $r) <(ring_sends $2 $r) || { echo "rank $r: the world's sends are not the ring's"; return 1; }
  done
  echo "ring sends of $2 ranks recorded once"
}
for lib in openmpi mpich; do
  for f in test_fortran test_fortran08; do
    if ! command -v mpif90.$lib >/dev/null || ! build "$B/mpi/$f.$lib" 2>/dev/null; then
      echo "FAIL $lib: mpif90.$lib cannot build tests/mpi/$f.f90 (make deps)"; fail=$((fail + 1)); continue
    fi
    pre="$tmp/$lib-$f"
    res=$(cd "$tmp" && GOAL_MPI_RECORD=$pre GOAL_MPI_STATS=1 run $lib 3 "$BA/mpi/$f.$lib" 2>&1)
    calls=$(printf '%s\n' "$res" | sed -n 's/^libgoalmpi .*: \([0-9]*\) collective calls.*/\1/p')
    t "${lib}_${f}_passed" 0 "^[1-9][0-9]* passed, 0 failed$" printf '%s\n' "$res"
    t "${lib}_${f}_check" 0 "^ok: 3 ranks, [1-9][0-9]* messages matched" $GOAL check "$pre.goal"
    t "${lib}_${f}_anchors" 0 "^$((3 * ${calls:-0})) [1-9]" bash -c "echo \$(grep -cE '^  [a-z_]+_c[0-9]+_n[0-9]+_b[0-9]+_rm?[0-9]+_i[0-9]+: nop' $pre.goal) ${calls:-0}"
    t "${lib}_${f}_ring" 0 "^ring sends of 3 ranks recorded once$" same_ring "$pre.goal" 3
  done
done
# The same rings from Fortran (tests/mpi/test_record_p2p.f90 through `use mpi`, and through
# mpi_f08 built with -DGOAL_F08): the persistent requests and matched probes reach the
# recorder through the drop-in's Fortran entry points (Open MPI; MPICH's mpi_f08 probes) or
# the library's (MPICH); each rank's messages are those of the rings, once.
p2p_expected() {   # p2p_expected NP R send|recv: rank R's ring messages as world_msgs prints them
  local n=$1 r=$2 peer k
  if [ "$3" = send ]; then peer=$(((r + 1) % n)); k=$r; else peer=$(((r + n - 1) % n)); k=$peer; fi
  for _ in 1 2 3 4; do echo "$peer 3200"; done
  echo "$peer $((3300 + k))"; echo "$peer $((3400 + k))"
}
same_p2p() {   # same_p2p GOAL NP
  local r
  for ((r = 0; r < $2; r++)); do
    diff <(world_sends "$1" $r) <(p2p_expected $2 $r send | sort) >/dev/null || { echo "rank $r: sends differ"; return 1; }
    diff <(world_recvs "$1" $r) <(p2p_expected $2 $r recv | sort) >/dev/null || { echo "rank $r: receives differ"; return 1; }
  done
  echo "ring messages of $2 ranks recorded once"
}
for lib in openmpi mpich; do
  for f in mpi mpi_f08; do
    if ! command -v mpif90.$lib >/dev/null || ! build "$B/mpi/test_record_p2p_$f.$lib" 2>/dev/null; then
      echo "FAIL $lib: mpif90.$lib cannot build tests/mpi/test_record_p2p.f90 for $f (make deps)"; fail=$((fail + 1)); continue
    fi
    pre="$tmp/$lib-p2p-$f"
    res=$(exe="$(cd "$B/mpi" && pwd)/test_record_p2p_$f.$lib" && cd "$tmp" && GOAL_MPI_RECORD=$pre run $lib 3 "$exe" 2>&1)
    t "${lib}_p2p_${f}_passed" 0 "^18 passed, 0 failed$" printf '%s\n' "$res"
    t "${lib}_p2p_${f}_check" 0 "^ok: 3 ranks, [1-9][0-9]* messages matched" $GOAL check "$pre.goal"
    t "${lib}_p2p_${f}_msgs" 0 "^ring messages of 3 ranks recorded once$" same_p2p "$pre.goal" 3
  done
done
# LAMMPS's LJ melt: tests/test_record_lammps.sh (recorded, checked, simulated, analysed, re-planned).
t_done
