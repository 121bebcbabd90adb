#!/usr/bin/env bash
# The whole surrogate pipeline on the GPU host in one call: sweep (the solver) -> train -> evaluate -> export.
# From the repository root, with the install bundle in ./bundle (docs/bundle.md):
#   OUT=/some/folder bash postprocess/surrogate/run_all.sh
# Env: OUT (results: model.h5, metrics.md/json, train_log.csv, logs; default ./surrogate-out), WORK (dataset.h5
# and the training folder; default /tmp/surrogate-work), AEROLBM (default ./bundle/bin/aerolbm), PYTHON (default
# python3), SWEEP (default postprocess/surrogate/sweep.yaml), CONFIG (default postprocess/surrogate/config.json),
# SWEEP_ARGS (extra arguments for `aerolbm sweep`), SWEEP_TIME_LIMIT (seconds: `aerolbm sweep --time-limit`; the
# script then exits 3 when the sweep stopped with cases left: call it again to continue). An existing
# $WORK/dataset.h5 from the same sweep file is reused; a stopped or killed sweep ($WORK/dataset.h5.partial)
# continues where it stopped.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$PWD/surrogate-out}
WORK=${WORK:-/tmp/surrogate-work}
PYTHON=${PYTHON:-python3}
SWEEP=${SWEEP:-$HERE/sweep.yaml}
CONFIG=${CONFIG:-$HERE/config.json}
if [ -z "${AEROLBM:-}" ]; then
  AEROLBM=$PWD/bundle/bin/aerolbm
  export LD_LIBRARY_PATH=$PWD/bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
mkdir -p "$OUT" "$WORK"
LOG=$OUT/run_all.log
log() { echo "== $(date -u +%H:%M:%S) $*" | tee -a "$LOG"; }

log "preflight: $PYTHON with torch, numpy, h5py; $AEROLBM with sweep"
"$PYTHON" -c "import torch, numpy, h5py; print('torch', torch.__version__, 'cuda', torch.cuda.is_available(),
torch.cuda.get_device_name(0) if torch.cuda.is_available() else '')" 2>&1 | tee -a "$LOG"
"$PYTHON" "$HERE/check_attention.py" 2>&1 | tee -a "$LOG" || log "warning: the attention paths differ by more than 1e-5 (above)"
sweep_help=$("$AEROLBM" sweep --help 2>&1 || true)
grep -qE "^Usage:.*\bsweep\b" <<< "$sweep_help" || { log "error: $AEROLBM has no 'sweep' subcommand"; exit 2; }
command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$LOG"

DATASET=$WORK/dataset.h5
if [ -f "$DATASET" ] && [ ! -d "$DATASET.partial" ] && cmp -s "$SWEEP" "$WORK/dataset.sweep.yaml"; then
  log "sweep: reusing $DATASET (made from the same $SWEEP)"
else
  if [ -d "$DATASET.partial" ]; then
    log "sweep: continuing the stopped sweep in $DATASET.partial ($SWEEP -> $DATASET)"
  else
    log "sweep: $SWEEP -> $DATASET"
    : > "$OUT/sweep.log"
  fi
  rm -f "$DATASET" "$WORK/dataset.sweep.yaml"
  start=$SECONDS
  rc=0
  "$AEROLBM" sweep "$SWEEP" --out "$DATASET" ${SWEEP_TIME_LIMIT:+--time-limit "$SWEEP_TIME_LIMIT"} ${SWEEP_ARGS:-} \
    2>&1 | tee -a "$OUT/sweep.log" | tail -n 5 || rc=${PIPESTATUS[0]}
  if [ "$rc" -eq 3 ]; then
    log "sweep stopped before SWEEP_TIME_LIMIT=${SWEEP_TIME_LIMIT:-} s after $((SECONDS - start)) s; its finished cases are in $DATASET.partial: run this script again (same WORK, SWEEP) to continue"
    exit 3
  fi
  [ "$rc" -eq 0 ] || { log "error: the sweep exited with status $rc (see $OUT/sweep.log)"; exit "$rc"; }
  cp "$SWEEP" "$WORK/dataset.sweep.yaml"
  log "sweep took $((SECONDS - start)) s"
fi

log "train: $CONFIG"
rm -rf "$WORK/train"
start=$SECONDS
"$PYTHON" "$HERE/train.py" --config "$CONFIG" --dataset "$DATASET" --out "$WORK/train" 2>&1 | tee "$OUT/train.log" \
  | grep -E "^(device|note|trained)|0/| 1/" || true
[ -f "$WORK/train/model.pt" ] || { log "error: training wrote no model (see $OUT/train.log)"; exit 1; }
log "train took $((SECONDS - start)) s"
cp "$WORK/train/train_log.csv" "$WORK/train/train_summary.json" "$CONFIG" "$OUT/"

log "evaluate"
"$PYTHON" "$HERE/evaluate.py" --model "$WORK/train/model.pt" --dataset "$DATASET" --out "$OUT" 2>&1 | tee "$OUT/evaluate.log"

log "export"
"$PYTHON" "$HERE/export.py" --model "$WORK/train/model.pt" --dataset "$DATASET" --out "$OUT/model.h5" 2>&1 \
  | tee "$OUT/export.log"
log "done: $OUT/model.h5, $OUT/metrics.md"
