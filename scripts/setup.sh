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
          libspdlog-dev libfmt-dev libgtest-dev python3 python3-numpy python3-h5py)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing: ${missing[*]}"
  if [ "$(id -u)" != 0 ]; then echo "error: run as root to install packages (or install: ${missing[*]})" >&2; exit 2; fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

echo "== configuring $build"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
echo "== building (jobs: $jobs)"
cmake --build "$build" -j "$jobs"

case "$mode" in
  run)
    # --overwrite: running the quick start again replaces its own earlier result (a run folder is otherwise kept).
    exec "$build/aerolbm" run "$root/cases/naca0012_re1000_aoa5.yaml" --output "$root/runs/naca0012_re1000_aoa5" \
      --overwrite "${@:2}"
    ;;
  test)
    # `long` holds the larger validation cases (run them with: ctest --test-dir build -L long).
    exec ctest --test-dir "$build" --output-on-failure -j "$jobs" -LE long
    ;;
  *)
    echo "usage: $0 run|test" >&2
    exit 2
    ;;
esac
