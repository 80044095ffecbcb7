#!/usr/bin/env bash
# Installs what the tests need (Debian/Ubuntu), only when it is missing (make run needs none):
# MPI (Open MPI and MPICH), Graphviz, valgrind, groff, clang with libFuzzer, pkg-config, chromium
# with node and playwright-core (npm, in tests/browser) for the browser test, and the MPI
# programs the drop-in runs under (lammps, hpcc, mpi4py, quantum-espresso, ScaLAPACK's testers) with gfortran for its Fortran tests.
set -u
need=()
have() { command -v "$1" >/dev/null 2>&1; }
have mpicc.openmpi && have mpirun.openmpi || need+=(libopenmpi-dev openmpi-bin)
have mpicc.mpich && have mpirun.mpich || need+=(libmpich-dev mpich)
have dot || need+=(graphviz)
have valgrind || need+=(valgrind)
have groff || need+=(groff-base)         # the man page's formatting test
have col || need+=(bsdextrautils)
have clang || need+=(clang)
have python3 || need+=(python3)
have pkg-config || need+=(pkg-config)
[ -x /usr/bin/chromium ] || need+=(chromium)          # goal html's browser test (tests/test_html.sh)
have node && have npm || need+=(nodejs npm)
# the drop-in's real programs (make test-mpi): LAMMPS and its LJ melt input, HPC Challenge, mpi4py
have lmp || need+=(lammps)
[ -f /usr/share/lammps/examples/melt/in.melt ] || need+=(lammps-examples)
have hpcc || need+=(hpcc)
/usr/bin/python3 -c 'import mpi4py, numpy' 2>/dev/null || need+=(python3-mpi4py python3-numpy)
# the drop-in's Fortran tests (mpif90.<lib> needs gfortran) and Quantum ESPRESSO's pw.x with its pseudopotentials
have gfortran || need+=(gfortran)
have pw.x || need+=(quantum-espresso)
[ -f /usr/share/espresso/pseudo/Si.pz-vbc.UPF ] || need+=(quantum-espresso-data)
# ScaLAPACK's testers, built for both libraries (the BLACS tester and the LU tests)
[ -x /usr/lib/x86_64-linux-gnu/scalapack/mpich-tests/xdlu ] || need+=(scalapack-mpi-test)
# The browser test's driver, from npm; it must use Debian's chromium, never download one.
browser_driver() {
  [ -d "$(dirname "$0")/../tests/browser/node_modules/playwright-core" ] && return 0
  echo "deps: installing playwright-core (npm) in tests/browser"
  (cd "$(dirname "$0")/../tests/browser" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --no-audit --no-fund >/dev/null) || {
    echo "deps: npm install in tests/browser failed" >&2; exit 1; }
}
[ ${#need[@]} -eq 0 ] && { browser_driver; exit 0; }
echo "deps: installing ${need[*]}"
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq && $sudo apt-get install -y -qq "${need[@]}" >/dev/null || {
  echo "deps: could not install ${need[*]} (need root or sudo, and Debian's apt); install them and retry" >&2
  exit 1
}
browser_driver
