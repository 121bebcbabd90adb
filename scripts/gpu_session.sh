#!/usr/bin/env bash
# Everything the GPU host runs in one call (device time is scarce): GPU tests, sanitizer, default case and MLUPs.
# Usage on the GPU host, from the repository root, with the install bundle carried in ./bundle:
#   bash scripts/gpu_session.sh   (logs go to $OUT, or ./gpu-logs)
set -uo pipefail
OUT=${OUT:-$PWD/gpu-logs}
mkdir -p "$OUT"
B=$PWD/bundle
export LD_LIBRARY_PATH=$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export AEROLBM_CASES=$PWD/cases
log() { echo "== $*" | tee -a "$OUT/session.log"; }
log "$(date -u) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader)"
"$B/bin/aerolbm" info 2>&1 | tee -a "$OUT/session.log"
log "gpu tests"
"$B/bin/gpu_tests" 2>&1 | tee "$OUT/gpu_tests.log" | tail -25
log "default case on the GPU"
"$B/bin/aerolbm" run cases/naca0012_re1000_aoa5.yaml --backend cuda -o /tmp/run_gpu > "$OUT/run_gpu.log" 2>&1
tail -3 "$OUT/run_gpu.log"; cp /tmp/run_gpu/summary.json "$OUT/summary_gpu.json"
log "default case on the host CPU (16 cores), 1000 steps"
"$B/bin/aerolbm" run cases/naca0012_re1000_aoa5.yaml --backend cpu --steps 1000 -o /tmp/run_cpu --set output.every=0 2>&1 | tail -2
for L in 256 1024; do
  log "larger grid: chord_cells=$L, no output"
  "$B/bin/aerolbm" run cases/naca0012_re1000_aoa5.yaml --backend cuda --steps 2000 -o /tmp/run_big$L \
    --set geometry.chord_cells=$L --set output.every=0 --set forces.every=1000 2>&1 | grep "done:"
done
log "compute-sanitizer memcheck (short run)"
compute-sanitizer --tool memcheck --error-exitcode 9 "$B/bin/aerolbm" run cases/naca0012_re1000_aoa5.yaml \
  --backend cuda --steps 40 -o /tmp/run_san --set output.every=20 --set geometry.chord_cells=32 > "$OUT/memcheck.log" 2>&1
echo "memcheck exit $?"; tail -3 "$OUT/memcheck.log"
log "long validation on the GPU (Schäfer-Turek D=40)"
AEROLBM_TEST_BACKEND=cuda timeout 300 "$B/bin/validation_tests" --gtest_filter='*Long*' 2>&1 | tee "$OUT/validation_gpu.log" | grep -E "C_D|OK|FAIL|BGK|TRT"
log "end $(date -u)"
