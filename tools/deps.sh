#!/usr/bin/env bash
# Installs what the tests need (Debian/Ubuntu), only when it is missing (make run needs none):
# MPI (Open MPI and MPICH), Graphviz, valgrind, clang with libFuzzer, pkg-config.
set -u
need=()
have() { command -v "$1" >/dev/null 2>&1; }
have mpicc.openmpi && have mpirun.openmpi || need+=(libopenmpi-dev openmpi-bin)
have mpicc.mpich && have mpirun.mpich || need+=(libmpich-dev mpich)
have dot || need+=(graphviz)
have valgrind || need+=(valgrind)
have clang || need+=(clang)
have python3 || need+=(python3)
have pkg-config || need+=(pkg-config)
[ ${#need[@]} -eq 0 ] && exit 0
echo "deps: installing ${need[*]}"
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq && $sudo apt-get install -y -qq "${need[@]}" >/dev/null || {
  echo "deps: could not install ${need[*]} (need root or sudo, and Debian's apt); install them and retry" >&2
  exit 1
}
