#!/usr/bin/env bash
# The fused attention kernel on a GPU host, in one call: GPU tests, compute-sanitizer, `aerolbm bench attention`
# and PyTorch's SDPA backends on the same shapes, then one comparison table (markdown) for kernels/PERFORMANCE.md.
# Usage on the GPU host, from the repository root, with the install bundle in ./bundle (as scripts/gpu_session.sh):
#   bash scripts/attention_gpu_session.sh        (logs go to $OUT, or ./gpu-logs)
#   QUICK=1 ...                                  (skips N = 65536 and the sanitizers)
set -uo pipefail
OUT=${OUT:-$PWD/gpu-logs}
mkdir -p "$OUT"
B=$PWD/bundle
export LD_LIBRARY_PATH=$B/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
A=$B/bin/aerolbm
PY=${PYTHON:-python3}
log() { echo "== $*" | tee -a "$OUT/attention_session.log"; }
tokens=4096,16384,65536
[ "${QUICK:-0}" = 1 ] && tokens=4096,16384

log "$(date -u) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem --format=csv,noheader)"
log "attention gpu tests (fp64 reference, every head dim, tails, split-KV on/off)"
timeout 600 "$B/bin/gpu_tests" --gtest_filter='*Attention*' 2>&1 | tee "$OUT/attention_tests.log" |
  grep -E "^attention|OK|FAILED|PASSED|SKIPPED" | tee -a "$OUT/attention_session.log"

if [ "${QUICK:-0}" != 1 ]; then
  log "compute-sanitizer: memcheck, racecheck, synccheck, initcheck (tests/gpu/attention_sanitizers.sh)"
  AEROLBM=$A timeout 900 bash tests/gpu/attention_sanitizers.sh 2>&1 | tee "$OUT/attention_sanitizers.log" |
    tee -a "$OUT/attention_session.log"
fi

log "aerolbm bench attention"
timeout 900 "$A" bench attention --tokens "$tokens" --json "$OUT/bench_attention.json" 2>&1 |
  tee "$OUT/bench_attention.log" | tee -a "$OUT/attention_session.log"

log "PyTorch SDPA: FLASH_ATTENTION and CUDNN_ATTENTION backends, same shapes"
timeout 900 "$PY" postprocess/surrogate/bench_sdpa.py --tokens "$tokens" --backends flash,cudnn \
  --json "$OUT/bench_sdpa.json" --compare "$OUT/bench_attention.json" 2>&1 | tee "$OUT/bench_sdpa.log" |
  tee -a "$OUT/attention_session.log"

log "registers and spills of the attention kernels (cuobjdump -res-usage)"
if command -v cuobjdump > /dev/null; then
  cuobjdump -res-usage "$A" 2>/dev/null | grep -A1 -E "attention_(fwd|combine)" | grep -E "Function|REG" |
    tee "$OUT/attention_resources.log" | tee -a "$OUT/attention_session.log"
fi
log "end $(date -u)"
