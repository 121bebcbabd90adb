#!/usr/bin/env bash
# One-command set-up for a fresh Debian 12 machine (as root): install what is missing, configure, build, then
#   run  — run the default case (cases/naca0012_re1000_aoa5.yaml) on the GPU if there is one, else on the CPU;
#   test — run the test suite (CPU tests; GPU tests run where a GPU is present and skip otherwise).
# Idempotent: a second call installs nothing and rebuilds only what changed.
set -euo pipefail
mode=${1:-run}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${AEROLBM_BUILD_DIR:-$root/build}
jobs=${AEROLBM_JOBS:-$(nproc)}

packages=(build-essential cmake ninja-build pkg-config libyaml-cpp-dev libhdf5-dev libvtk9-dev libcli11-dev
          libspdlog-dev libfmt-dev libgtest-dev python3 python3-numpy python3-h5py python3-matplotlib
          libopenmpi-dev openmpi-bin libhdf5-openmpi-dev)
# libhdf5-openmpi-dev: the MPI build of HDF5 beside the serial one (libhdf5-dev); MPI builds link it and write
# frame files collectively (README, "Parallel HDF5"), serial builds keep the serial HDF5.
# The tests also run the plotting scripts (pytest) and ParaView offscreen (Debian's ParaView renders through X),
# and fuzz (scripts/fuzz.sh): clang with the libFuzzer/ASan runtimes, llvm-symbolizer for readable traces; the
# surrogate training test (tests/surrogate) trains on the CPU with Debian's PyTorch and reads sweep files with yaml.
if [ "$mode" = test ]; then
  packages+=(python3-pytest xvfb xauth clang libclang-rt-14-dev llvm-14 python3-torch python3-yaml)
fi

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
updated=no
apt_install() {  # apt_install PACKAGE...: installs, removing what conflicts with them
  if [ "$(id -u)" != 0 ]; then echo "error: run as root to install packages (or install: $*)" >&2; exit 2; fi
  export DEBIAN_FRONTEND=noninteractive
  [ $updated = yes ] || { apt-get update -qq; updated=yes; }
  apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}
missing=()
for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  # Where an earlier `test` left ParaView's Python in place (see below), libvtk9-dev comes back only if
  # python3-paraview goes: apt does not remove it by itself ("generated breaks"), so say so (trailing '-').
  if installed python3-paraview && [[ " ${missing[*]} " == *" libvtk9-dev "* ]]; then missing+=(python3-paraview-); fi
  apt_install "${missing[@]}"
fi

# CUDA code is compiled for the GPU this machine has; without one (CI) for Hopper only, as a compile check (each
# architecture costs minutes of ptxas). AEROLBM_CUDA_ARCHS overrides, e.g. "90;80" for a bundle for both.
if [ -n "${AEROLBM_CUDA_ARCHS:-}" ]; then archs=$AEROLBM_CUDA_ARCHS
elif command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then archs=native
else archs=90
fi
echo "== configuring $build (CUDA architectures, where a CUDA compiler exists: $archs)"
# MPI (mpirun -np N aerolbm run ...) is built where Open MPI is installed, which the packages above ensure;
# AEROLBM_MPI=OFF in the environment builds without it.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CUDA_ARCHITECTURES=$archs" \
  "-DAEROLBM_MPI=${AEROLBM_MPI:-ON}" >/dev/null
echo "== building (jobs: $jobs)"
cmake --build "$build" -j "$jobs"

case "$mode" in
  run)
    # --overwrite: running the quick start again replaces its own earlier result (a run folder is otherwise kept).
    exec "$build/aerolbm" run "$root/cases/naca0012_re1000_aoa5.yaml" --output "$root/runs/naca0012_re1000_aoa5" \
      --overwrite "${@:2}"
    ;;
  test)
    # Stages: the ASan+UBSan build and suite (scripts/sanitize.sh; it configures a second build, so it needs
    # libvtk9-dev and runs before the ParaView swap below), the suite (`long` holds the larger validation cases: run
    # them with ctest --test-dir build -L long), each fuzz target for 60 s (scripts/fuzz.sh). Every stage runs even if
    # an earlier one failed, and any failure fails the whole. AEROLBM_QUICK_TEST=1 runs the suite only.
    status=0 tests=ok sanitize=skipped fuzz=skipped
    quick=${AEROLBM_QUICK_TEST:-0}
    if [ "$quick" != 1 ]; then
      sanitize=ok
      AEROLBM_JOBS=$jobs bash "$root/scripts/sanitize.sh" || { status=1; sanitize=FAILED; }
    fi
    # The ParaView tests need pvpython from python3-paraview, which Debian 12 declares in conflict with
    # python3-vtk9 (both ship the vtkmodules Python package), and libvtk9-dev -- needed to configure and build --
    # depends on python3-vtk9. So ParaView goes in only now, after the builds: installing it removes libvtk9-dev
    # and python3-vtk9 (the VTK runtime libraries the binaries use stay). The next run of this script puts
    # libvtk9-dev back above (removing python3-paraview), builds, and swaps again here.
    if ! installed python3-paraview || ! installed paraview; then
      echo "== installing ParaView for the ParaView tests (removes libvtk9-dev until the next set-up run)"
      apt_install paraview python3-paraview libvtk9-dev- python3-vtk9-
    fi
    ctest --test-dir "$build" --output-on-failure -j "$jobs" -LE long || { status=1; tests=FAILED; }
    if [ "$quick" != 1 ]; then
      fuzz=ok
      AEROLBM_JOBS=$jobs bash "$root/scripts/fuzz.sh" "${AEROLBM_FUZZ_SECONDS:-60}" || { status=1; fuzz=FAILED; }
    fi
    echo "== test summary: tests $tests, sanitizers $sanitize, fuzzing $fuzz"
    exit $status
    ;;
  *)
    echo "usage: $0 run|test" >&2
    exit 2
    ;;
esac
