#!/usr/bin/env bash
# Everything the GPU host runs in one call (device time is scarce): GPU tests, sanitizers, the default case, and
# the kernel benchmark tables. Usage on the GPU host, from the repository root, with the install bundle in ./bundle:
#   bash scripts/gpu_session.sh   (logs go to $OUT, or ./gpu-logs)
set -uo pipefail
OUT=${OUT:-$PWD/gpu-logs}
mkdir -p "$OUT"
B=$PWD/bundle
export LD_LIBRARY_PATH=$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export AEROLBM_CASES=$PWD/cases
A=$B/bin/aerolbm
log() { echo "== $*" | tee -a "$OUT/session.log"; }
log "$(date -u) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader)"
log "gpu tests"
timeout 180 "$B/bin/gpu_tests" 2>&1 | tee "$OUT/gpu_tests.log" | grep -E "rel\.|drag|OK|FAILED|PASSED|C_D"
log "default case on the GPU"
timeout 60 "$A" run cases/naca0012_re1000_aoa5.yaml --backend cuda -o /tmp/run_gpu --overwrite > "$OUT/run_gpu.log" 2>&1
grep "done:" "$OUT/run_gpu.log"; cp /tmp/run_gpu/summary.json "$OUT/summary_gpu.json"
log "compare: default case on the CPU (all cores) and the GPU"
timeout 300 "$A" compare cases/naca0012_re1000_aoa5.yaml -o /tmp/compare > "$OUT/compare.log" 2>&1
echo "compare exit $?"; grep -E "speed-up|AGREE|DIFFER" "$OUT/compare.log"
cp /tmp/compare/report.md /tmp/compare/report.json "$OUT/" 2>/dev/null
log "restart: 2000 steps = 1000 + --restart + 1000, bit for bit, on the GPU"
AEROLBM=$A timeout 180 bash tests/cli/restart.sh "$PWD" cuda > "$OUT/restart_gpu.log" 2>&1; tail -2 "$OUT/restart_gpu.log"
log "benchmarks"
[ "${QUICK:-0}" = 1 ] || {
  "$A" bench --lattice D2Q9 --cells 500000,4000000,64000000 --precision fp32,fp16s --variants pull,aa,tiled --steps 200 --json /tmp/b2.json
  "$A" bench --lattice D3Q19 --cells 16777216 --precision fp32,fp16s --variants pull,aa,tiled --steps 100 --json /tmp/b19.json
  "$A" bench --lattice D3Q27 --cells 16777216 --precision fp32,fp16s --variants pull,aa --steps 100 --json /tmp/b27.json
} 2>&1 | tee "$OUT/bench.log" | grep -vE "^aerolbm bench"
/usr/bin/env python3 - <<'PY' > "$OUT/bench.json" 2>/dev/null
import json
print(json.dumps([json.load(open(f)) for f in ("/tmp/b2.json", "/tmp/b19.json", "/tmp/b27.json")], indent=1))
PY
log "output cost: default case at chord 256 (3.3 M cells, 52 MB of fields per frame), 1000 steps"
for every in 0 100; do
  timeout 60 "$A" run cases/naca0012_re1000_aoa5.yaml --backend cuda --steps 1000 -o /tmp/run_out$every --overwrite \
    --set geometry.chord_cells=256 --set output.every=$every --set forces.every=100 2>&1 | grep "done:" | sed "s/^/every=$every: /"
done
log "compute-sanitizer: memcheck + initcheck per variant, racecheck on tiled (tests/gpu/sanitizers.sh)"
AEROLBM=$A timeout 400 bash tests/gpu/sanitizers.sh "$PWD" 2>&1 | tee "$OUT/sanitizers.log" | tee -a "$OUT/session.log"
[ "${QUICK:-0}" = 1 ] || [ "${SKIP_LONG:-0}" = 1 ] && { log "end (no long validation) $(date -u)"; exit 0; }
log "long validation on the GPU"
AEROLBM_TEST_BACKEND=cuda timeout 300 "$B/bin/validation_tests" --gtest_filter='*Long*' 2>&1 | tee "$OUT/validation_gpu.log" | grep -E "C_D|OK|FAIL"
log "end $(date -u)"
