#!/usr/bin/env bash
# One-command set-up for a fresh Debian 12 machine (as root): install what is missing, configure, build, then
#   run  — run the default case (cases/naca0012_re1000_aoa5.yaml) on the GPU if there is one, else on the CPU;
#   test — run the test suite (CPU tests; GPU tests run where a GPU is present and skip otherwise);
#   check — test, then the two slower tiers: the suite again under ASan + UBSan (scripts/sanitize.sh) and each fuzz
#           target for 30 s (scripts/fuzz.sh). docs/testing.md says what each tier runs and how long it takes.
# Idempotent: a second call installs nothing and rebuilds only what changed.
set -euo pipefail
SECONDS=0  # bash counts from here: the stage times below (docs/testing.md quotes them)
mode=${1:-run}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${AEROLBM_BUILD_DIR:-$root/build}
jobs=${AEROLBM_JOBS:-$(nproc)}

packages=(build-essential cmake ninja-build pkg-config libyaml-cpp-dev libhdf5-dev libvtk9-dev libcli11-dev
          libspdlog-dev libfmt-dev libgtest-dev python3 python3-numpy python3-h5py python3-matplotlib
          libopenmpi-dev openmpi-bin libhdf5-openmpi-dev python3-dev pybind11-dev python3-pybind11)
# python3-dev, pybind11-dev, python3-pybind11: the Python module (import aerolbm; python/CMakeLists.txt), built
# for /usr/bin/python3 and put on its path below.
# libhdf5-openmpi-dev: the MPI build of HDF5 beside the serial one (libhdf5-dev); MPI builds link it and write
# frame files collectively (docs/mpi.md, "Parallel HDF5"), serial builds keep the serial HDF5.
# The tests also run the plotting scripts (pytest) and ParaView offscreen (Debian's ParaView renders through X; it
# is unpacked into the build folder, see paraview_prefix below), and fuzz (scripts/fuzz.sh): clang with the
# libFuzzer/ASan runtimes, llvm-symbolizer for readable traces; the surrogate training test (tests/surrogate) trains
# on the CPU with Debian's PyTorch and reads sweep files with yaml.
if [ "$mode" = test ] || [ "$mode" = check ]; then
  packages+=(python3-pytest xvfb xauth python3-torch python3-yaml)
fi
[ "$mode" = check ] && packages+=(clang libclang-rt-14-dev llvm-14)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
updated=no
apt_get() {  # apt_get install PACKAGE... | apt_get satisfy DEPENDS: installs, removes nothing (a conflict is an error)
  if [ "$(id -u)" != 0 ]; then echo "error: run as root to install packages (or: apt-get $*)" >&2; exit 2; fi
  export DEBIAN_FRONTEND=noninteractive
  [ $updated = yes ] || { apt-get update -qq; updated=yes; }
  apt-get "$1" -y -qq --no-install-recommends --no-remove "${@:2}" >/dev/null
}
missing=()
for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  # An older version of this script installed python3-paraview, which conflicts with libvtk9-dev's python3-vtk9;
  # this one removes nothing, so it says what to do.
  if installed python3-paraview && [[ " ${missing[*]} " == *" libvtk9-dev "* ]]; then
    echo "error: python3-paraview (left by an older set-up) conflicts with libvtk9-dev; remove it first:" \
         "apt-get remove python3-paraview" >&2; exit 2
  fi
  apt_get install "${missing[@]}"
fi

# ParaView for the ParaView tests. Debian 12's python3-paraview (pvpython) conflicts with python3-vtk9, on which
# libvtk9-dev (needed to build) depends, so the two cannot be installed together. Instead paraview and
# python3-paraview are downloaded (apt-get download) and unpacked (dpkg -x) into $build/paraview; their dependencies,
# which conflict with nothing, are installed as usual. $build/paraview/pvpython runs ParaView's pvpython from there
# (tests/CMakeLists.txt hands it to the test). The prefix is kept, keyed by the two packages' versions, so a later
# run downloads nothing unless Debian updates ParaView.
paraview_key() {  # "paraview=VERSION python3-paraview=VERSION" as apt's lists offer them, or nothing
  apt-cache policy paraview python3-paraview 2>/dev/null | awk '/^[^ ]/ { name = substr($1, 1, length($1) - 1) }
    /^ *Candidate:/ && $2 != "(none)" { key = key (n++ ? " " : "") name "=" $2 } END { if (n == 2) print key }'
}
paraview_prefix() {
  local dir=$build/paraview tmp=$build/paraview.tmp key deb lib
  key=$(paraview_key)
  if [ -z "$key" ] && [ $updated = no ] && [ "$(id -u)" = 0 ]; then
    apt-get update -qq; updated=yes  # no package lists yet (a fresh machine with everything else installed)
    key=$(paraview_key)
  fi
  if [ -z "$key" ]; then
    echo "warning: apt offers no paraview and python3-paraview here; the ParaView test will be skipped" >&2
    return 0
  fi
  if [ "$(cat "$dir/.key" 2>/dev/null)" != "$key" ]; then
    echo "== unpacking ParaView ($key) into $dir"
    rm -rf "$dir" "$tmp"; mkdir -p "$tmp/debs"
    # APT::Sandbox::User=root: apt's download user (_apt) may not be allowed to write into the build folder.
    (cd "$tmp/debs" && apt-get download -qq -o APT::Sandbox::User=root $key)
    for deb in "$tmp"/debs/*.deb; do
      dpkg -x "$deb" "$tmp"
      dpkg-deb -f "$deb" Depends | tr ',' '\n' >> "$tmp/.depends"
    done
    rm -rf "$tmp/debs"
    lib=$(dirname "$(find "$tmp/usr/lib" -name 'libvtkRemotingCore-pv*.so.1' -print -quit)")
    printf '%s\n' '#!/bin/sh' \
      "# ParaView's pvpython from Debian's $key, unpacked here by scripts/setup.sh." \
      'here=$(cd "$(dirname "$0")" && pwd)' \
      "export LD_LIBRARY_PATH=\"\$here/${lib#"$tmp/"}\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}\"" \
      'export PYTHONPATH="$here/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}"' \
      'exec "$here/usr/bin/pvpython" "$@"' > "$tmp/pvpython"
    chmod +x "$tmp/pvpython"
    echo "$key" > "$tmp/.key"
    mv "$tmp" "$dir"
  fi
  # Their dependencies (less the two packages unpacked here), installed as usual where apt finds any missing.
  local deps plan
  deps=$(grep -v -E '^ *$|^ *(python3-)?paraview( |$)' "$dir/.depends" | paste -sd, -)
  if ! plan=$(apt-get satisfy -s --no-install-recommends "$deps" 2>&1) || grep -q '^Inst ' <<< "$plan"; then
    echo "== installing ParaView's dependencies"
    apt_get satisfy "$deps"
  fi
}
{ [ "$mode" = test ] || [ "$mode" = check ]; } && paraview_prefix

# CUDA code is compiled for the GPU this machine has. Without one (CI) nothing can run it, so it is compiled as a
# check only, to Hopper's PTX (90-virtual): the whole front end and NVVM run, ptxas does not (ptxas took 70 % of
# the D3Q27 kernels' compile, docs/testing.md; a binary built so would compile its kernels from the PTX at their
# first launch on a Hopper GPU). AEROLBM_CUDA_ARCHS overrides, e.g. "90;80" for machine code for both.
if [ -n "${AEROLBM_CUDA_ARCHS:-}" ]; then archs=$AEROLBM_CUDA_ARCHS
elif command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then archs=native
else archs=90-virtual
fi
echo "== configuring $build (CUDA architectures, where a CUDA compiler exists: $archs)"
# MPI (mpirun -np N aerolbm run ...) is built where Open MPI is installed, which the packages above ensure;
# AEROLBM_MPI=OFF in the environment builds without it.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CUDA_ARCHITECTURES=$archs" \
  "-DAEROLBM_MPI=${AEROLBM_MPI:-ON}" >/dev/null
echo "== building (jobs: $jobs)"
t_build=$SECONDS
cmake --build "$build" -j "$jobs"
t_build=$((SECONDS - t_build))
t_setup=$SECONDS

# `import aerolbm` for /usr/bin/python3: a .pth file in its site folder names the build's python/ folder (the
# module and its package files; python/CMakeLists.txt). Rewritten only when it would change.
register_python_module() {
  local py=/usr/bin/python3 dir=$build/python site pth
  compgen -G "$dir/aerolbm/_core*.so" >/dev/null || { echo "note: the Python module was not built (see cmake's output)"; return 0; }
  site=$("$py" -c 'import site; print(site.getsitepackages()[0])' 2>/dev/null) || return 0
  pth=$site/aerolbm-build.pth
  if [ "$(id -u)" != 0 ] && [ ! -w "$site" ]; then
    echo "note: import aerolbm needs PYTHONPATH=$dir (or run this script as root)"
    return 0
  fi
  if [ "$(cat "$pth" 2>/dev/null)" != "$dir" ]; then
    mkdir -p "$site" && echo "$dir" > "$pth" && echo "== $py: import aerolbm from $dir ($pth)"
  fi
}
register_python_module

case "$mode" in
  run)
    # --overwrite: running the quick start again replaces its own earlier result (a run folder is otherwise kept).
    exec "$build/aerolbm" run "$root/cases/naca0012_re1000_aoa5.yaml" --output "$root/runs/naca0012_re1000_aoa5" \
      --overwrite "${@:2}"
    ;;
  test|check)
    # test: the suite (`long` holds the larger validation cases: run them with ctest --test-dir build -L long on a
    # GPU host). check adds two stages: the ASan+UBSan build and suite (scripts/sanitize.sh, in a second build
    # folder) before it, each fuzz target for 30 s (scripts/fuzz.sh) after it. Every stage runs even if an earlier
    # one failed, and any failure fails the whole. The last lines say how each stage ended and how long it took.
    status=0 tests=ok sanitize=skipped fuzz=skipped t_sanitize=0 t_fuzz=0
    full=0
    [ "$mode" = check ] && full=1
    if [ $full = 1 ]; then
      sanitize=ok t_sanitize=$SECONDS
      AEROLBM_JOBS=$jobs bash "$root/scripts/sanitize.sh" || { status=1; sanitize=FAILED; }
      t_sanitize=$((SECONDS - t_sanitize))
    fi
    t_tests=$SECONDS
    ctest --test-dir "$build" --output-on-failure -j "$jobs" -LE long || { status=1; tests=FAILED; }
    t_tests=$((SECONDS - t_tests))
    if [ $full = 1 ]; then
      fuzz=ok t_fuzz=$SECONDS
      AEROLBM_JOBS=$jobs bash "$root/scripts/fuzz.sh" "${AEROLBM_FUZZ_SECONDS:-30}" || { status=1; fuzz=FAILED; }
      t_fuzz=$((SECONDS - t_fuzz))
    fi
    echo "== test summary: tests $tests, sanitizers $sanitize, fuzzing $fuzz"
    echo "== times: set-up and build ${t_setup} s (the build ${t_build} s), sanitizers ${t_sanitize} s, suite" \
         "${t_tests} s, fuzzing ${t_fuzz} s; ${SECONDS} s in all"
    exit $status
    ;;
  *)
    echo "usage: $0 run|test|check" >&2
    exit 2
    ;;
esac
