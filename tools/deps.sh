#!/usr/bin/env bash
# Installs what the demo and the tests need (Debian/Ubuntu), only when it is missing:
# MPI (Open MPI and MPICH), Graphviz, valgrind, clang with libFuzzer, and the MPI programs
# the drop-in runs under (lammps, hpcc, mpi4py).
set -u
need=()
have() { command -v "$1" >/dev/null 2>&1; }
have mpicc.openmpi && have mpirun.openmpi || need+=(libopenmpi-dev openmpi-bin)
have mpicc.mpich && have mpirun.mpich || need+=(libmpich-dev mpich)
have dot || need+=(graphviz)
have valgrind || need+=(valgrind)
have clang || need+=(clang)
have python3 || need+=(python3)
# the drop-in's real programs (make test-mpi): LAMMPS and its LJ melt input, HPC Challenge, mpi4py
have lmp || need+=(lammps)
[ -f /usr/share/lammps/examples/melt/in.melt ] || need+=(lammps-examples)
have hpcc || need+=(hpcc)
/usr/bin/python3 -c 'import mpi4py, numpy' 2>/dev/null || need+=(python3-mpi4py python3-numpy)
[ ${#need[@]} -eq 0 ] && exit 0
echo "deps: installing ${need[*]}"
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq && $sudo apt-get install -y -qq "${need[@]}" >/dev/null || {
  echo "deps: could not install ${need[*]} (need root or sudo, and Debian's apt); install them and retry" >&2
  exit 1
}
