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
# test mode also fuzzes (scripts/fuzz.sh): clang with libFuzzer/ASan runtimes, llvm-symbolizer for readable traces.
[ "$mode" = test ] && packages+=(clang libclang-rt-14-dev llvm-14)
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
    exec "$build/aerolbm" run "$root/cases/naca0012_re1000_aoa5.yaml" --output "$root/runs/naca0012_re1000_aoa5" \
      "${@:2}"
    ;;
  test)
    # `long` holds the larger validation cases (run them with: ctest --test-dir build -L long).
    # Then the same suite under ASan+UBSan (scripts/sanitize.sh) and each fuzz target for 60 s (scripts/fuzz.sh);
    # every stage runs even if an earlier one failed, and any failure fails the whole. Measured on a shared 2-core
    # machine: the sanitizer build + tests took ~25 CPU-minutes (~12 min on 2 free cores), the fuzz build + 2×60 s
    # ~3.5 min. AEROLBM_QUICK_TEST=1 skips both stages.
    status=0 tests=ok sanitize=skipped fuzz=skipped
    ctest --test-dir "$build" --output-on-failure -j "$jobs" -LE long || { status=1; tests=FAILED; }
    if [ "${AEROLBM_QUICK_TEST:-0}" != 1 ]; then
      sanitize=ok fuzz=ok
      AEROLBM_JOBS=$jobs bash "$root/scripts/sanitize.sh" || { status=1; sanitize=FAILED; }
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
