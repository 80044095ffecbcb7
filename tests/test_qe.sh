#!/usr/bin/env bash
# Quantum ESPRESSO's pw.x (Debian's quantum-espresso, a Fortran program) under the drop-in:
# a 2-atom silicon SCF (tests/mpi/qe_si.in: the packaged Si.pz-vbc.UPF, ecutwfc 12 Ry, two k
# points, seconds per run) at np 2 and 4, natively and with libgoalmpi.so preloaded: the same
# final total energy and SCF iteration count, and GOAL_MPI_STATS shows its collectives served
# from Fortran with nothing passed on. Recorded (GOAL_MPI_RECORD) at np 2: the same energy,
# the world checks, and holds pw.x's point-to-point messages (sends outside any collective's
# anchors; from Fortran: under Open MPI through the drop-in's Fortran entry points). pw.x is
# linked with the MPI library ldd names (Debian: Open MPI only); skipped, said, when pw.x is
# missing (make deps installs it).
set -u
. tests/lib.sh
B=${B:-build}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
if ! command -v pw.x >/dev/null; then echo "skip: pw.x missing (Debian's quantum-espresso; make deps)"; t_done; exit; fi
lib=openmpi; ldd "$(command -v pw.x)" | grep -q libmpich && lib=mpich
echo "skip $([ $lib = openmpi ] && echo mpich || echo openmpi): pw.x is linked with $lib only"
build "$B/$lib/libgoalmpi.so" || { t "$lib: libgoalmpi.so builds" 0 x false; t_done; exit; }
so=$(cd $B/$lib && pwd)/libgoalmpi.so
cp tests/mpi/qe_si.in $T/si.in
# "np file [preload]": pw.x's output, run in $T.
pw() {
  local n=$1 out=$2 so=${3:-} rec=()
  rm -rf "$T/out"
  if [ $lib = openmpi ]; then
    [ -n "${GOAL_MPI_RECORD:-}" ] && rec=(-x GOAL_MPI_RECORD)
    (cd $T && GOAL_MPI_STATS=1 timeout 300 mpirun.openmpi --oversubscribe ${so:+-x GOAL_MPI_STATS -x LD_PRELOAD=$so} "${rec[@]}" -np $n pw.x -in si.in >$out 2>&1)
  else
    [ -n "${GOAL_MPI_RECORD:-}" ] && rec=(-env GOAL_MPI_RECORD "$GOAL_MPI_RECORD")
    (cd $T && timeout 300 mpirun.mpich ${so:+-env GOAL_MPI_STATS 1 -env LD_PRELOAD $so} "${rec[@]}" -np $n pw.x -in si.in >$out 2>&1)
  fi
}
# The final energy and the iteration count, or nothing when the run did not converge.
energy() { grep -E '^!    total energy|convergence has been achieved in' "$1"; }
# "native goal": the same energy lines, printed.
same_energy() { [ -n "$(energy "$1")" ] && [ "$(energy "$1")" = "$(energy "$2")" ] && energy "$2"; }
# "file coll": served by libgoal with nothing passed on, and calls from Fortran among them.
from_fortran() {
  grep -E "^$2: [1-9][0-9]* libgoal \([1-9][0-9]* from Fortran\), 0 passed on$" "$1"
}
# "world": its sends outside the collectives' anchors (start: "..._iI: nop", end: "..._end: nop").
p2p_sends() {
  awk '/_i[0-9]+: nop;$/ { c = 1 } /_end: nop;$/ { c = 0 } !c && / send [0-9]/ { n++ } END { print n + 0, "point-to-point sends" }' "$1"
}
# "file": no collective passed on.
none_passed() { ! grep -E '^[a-z_]+: [0-9]+ libgoal, [1-9][0-9]* passed on' "$1" && echo "none passed on"; }
for n in 2 4; do
  pw $n $T/native.$n; pw $n $T/goal.$n "$so"
  t "$lib np $n: the drop-in's total energy and SCF iterations are the native run's" 0 '^!    total energy += +-[0-9.]+ Ry' \
    same_energy $T/native.$n $T/goal.$n
  for c in bcast allreduce alltoall barrier; do
    t "$lib np $n: $c served, from Fortran" 0 "^$c: [1-9][0-9]* libgoal \\([1-9]" from_fortran $T/goal.$n $c
  done
  t "$lib np $n: nothing passed on" 0 "^none passed on$" none_passed $T/goal.$n
done
GOAL_MPI_RECORD=$T/rec pw 2 $T/rec.2 "$so"
t "$lib np 2 recorded: the native run's energy" 0 '^!    total energy' same_energy $T/native.2 $T/rec.2
t "$lib np 2 recorded: the world checks" 0 '^ok: 2 ranks, [1-9][0-9]* messages matched' $GOAL check $T/rec.goal
t "$lib np 2 recorded: point-to-point from Fortran" 0 '^[1-9][0-9]* point-to-point sends$' p2p_sends $T/rec.goal
t_done
