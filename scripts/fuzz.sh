#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz) with clang + ASan + UBSan in their own build folder and runs each for
# a while over its seed corpus. Fails if any target crashes, leaks, hangs or breaks an invariant; the input that
# did it is saved in the crash folder (replay it: BUILD/fuzz_<target> FILE). Debian 12: clang libclang-rt-14-dev.
#   usage: scripts/fuzz.sh [seconds per target (60)] [target ...]     targets: case_file selig stl (default: all)
#   env:   AEROLBM_FUZZ_BUILD_DIR (build-fuzz)  AEROLBM_FUZZ_CRASH_DIR (BUILD/crashes)
#          AEROLBM_FUZZ_WORK_DIR (BUILD/corpus: the corpus grows here; the seeds in tests/fuzz/corpus are read only)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(case_file selig stl)
build=${AEROLBM_FUZZ_BUILD_DIR:-$root/build-fuzz}
crashes=${AEROLBM_FUZZ_CRASH_DIR:-$build/crashes}
work=${AEROLBM_FUZZ_WORK_DIR:-$build/corpus}

if ! command -v clang++ >/dev/null; then
  echo "error: clang++ not found (Debian 12: apt-get install clang libclang-rt-14-dev)" >&2
  exit 2
fi
echo "== fuzz: configuring $build (clang, libFuzzer + ASan + UBSan)"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DAEROLBM_FUZZ=ON -DAEROLBM_CUDA=OFF \
  -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ >/dev/null
SECONDS=0
cmake --build "$build" -j "${AEROLBM_JOBS:-$(nproc)}" --target "${targets[@]/#/fuzz_}"
echo "== fuzz: built in $SECONDS s"

mkdir -p "$crashes"
# detect_leaks: a leak is a failure like a crash. OOM above 2 GB and 10 s per input count as failures too
# (libFuzzer's defaults, written out so that they are visible).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
status=0
for t in "${targets[@]}"; do
  seeds=$root/tests/fuzz/corpus/$t
  [ -d "$seeds" ] || { echo "error: no seed corpus $seeds (targets: case_file selig stl)" >&2; exit 2; }
  mkdir -p "$work/$t"
  log=$build/fuzz_$t.log
  echo "== fuzz: $t for ${seconds}s (log: $log)"
  set +e
  "$build/fuzz_$t" "$work/$t" "$seeds" "$root/tests/fuzz/regressions/$t" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=2048 -max_len=8192 -print_final_stats=1 \
    -artifact_prefix="$crashes/$t-" >"$log" 2>&1
  rc=$?
  set -e
  # The last status line carries the totals: "#N DONE cov: C ft: F corp: K/S ... exec/s: E".
  grep -E '^#[0-9]+' "$log" | tail -1 | sed "s/^/   $t: /" || true
  grep -E '^stat::number_of_executed_units' "$log" | sed "s/^/   $t: /" || true
  if [ $rc -ne 0 ]; then
    status=1
    echo "FAIL: fuzz target $t stopped with status $rc; input saved under $crashes/:" >&2
    ls -1 "$crashes" | grep "^$t-" | sed 's/^/   /' >&2 || true
    grep -E 'ERROR|FUZZ INVARIANT|SUMMARY|terminate called|what\(\)' "$log" | head -5 | sed 's/^/   /' >&2 || true
  fi
done
[ $status -eq 0 ] && echo "== fuzz: no crash in ${targets[*]} (${seconds}s each)"
exit $status
