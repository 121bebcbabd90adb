#!/usr/bin/env bash
# The surrogate on sections it never saw: runs postprocess/surrogate/fresh_sweep.yaml (40 sections drawn after the
# committed model was trained, from the training sweep's ranges) with `aerolbm sweep`, predicts each with
# `aerolbm predict` (the exported model, as users run it) and prints the head's C_L, C_D, C_M errors against the
# solver's, with the metrics evaluate.py uses (mean |pred − ref| / mean |ref|, Spearman).
# Usage, from the repository root: bash scripts/surrogate_fresh.sh [AEROLBM] [OUT] [MODEL]
# Env: BACKEND (default cuda; cpu works: about 8 s per case for the sweep and 7 s per prediction on 2 cores).
set -euo pipefail
A=${1:-$PWD/bundle/bin/aerolbm}
OUT=${2:-$PWD/surrogate-fresh}
MODEL=${3:-$PWD/postprocess/surrogate/model.h5}
BACKEND=${BACKEND:-cuda}
PY=${PYTHON:-/usr/bin/python3}
[ -f postprocess/surrogate/fresh_sweep.yaml ] || { echo "run from the repository root" >&2; exit 2; }
mkdir -p "$OUT"
[ -f "$OUT/fresh.h5" ] || "$A" sweep postprocess/surrogate/fresh_sweep.yaml --out "$OUT/fresh.h5" --backend "$BACKEND" \
  > "$OUT/sweep.log" 2>&1
"$PY" - "$OUT/fresh.h5" > "$OUT/cases.txt" <<'PY'
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    for k, (m, p, t, a, re) in enumerate(f["params"][()]):
        print(k, f"{round(m * 100):d}{round(p * 10):d}{round(t * 100):02d}", repr(float(a)), repr(float(re)))
PY
while read -r k code aoa re; do
  "$A" predict cases/naca0012_re1000_aoa5.yaml --model "$MODEL" --backend "$BACKEND" -o "$OUT/pred_$k" --overwrite \
    --set "geometry.code=\"$code\"" --set physics.angle_of_attack_deg="$aoa" --set physics.reynolds="$re" \
    > "$OUT/pred_$k.log" 2>&1 || { echo "predict $k failed: $OUT/pred_$k.log" >&2; exit 1; }
done < "$OUT/cases.txt"
"$PY" - "$OUT" <<'PY'
import json, os, sys
import h5py
import numpy as np
out = sys.argv[1]
with h5py.File(os.path.join(out, "fresh.h5"), "r") as f:
    ref = {k: f["coefficients/" + k][()] for k in ("cl", "cd", "cm") if "coefficients/" + k in f}
n = len(ref["cl"])
pred = {"cl": [], "cd": [], "cm": []}
for k in range(n):
    c = json.load(open(os.path.join(out, f"pred_{k}", "summary.json")))["coefficients"]
    pred["cl"].append(c["cl_mean"])
    pred["cd"].append(c["cd_mean"])
    pred["cm"].append(c["cpitch_mean"] if c.get("cpitch_mean") is not None else np.nan)
def rank(x):
    r = np.empty(len(x)); r[np.argsort(x)] = np.arange(len(x)); return r
print(f"| coefficient | cases | mean abs. error | mean abs. error / mean abs. value | Spearman |")
print("| --- | ---: | ---: | ---: | ---: |")
for k in ("cl", "cd", "cm"):
    if k not in ref or np.any(np.isnan(pred[k])):
        continue
    p, r = np.array(pred[k]), np.array(ref[k])
    mae = np.mean(np.abs(p - r))
    sp = np.corrcoef(rank(p), rank(r))[0, 1]
    print(f"| {k} | {n} | {mae:.5f} | {100 * mae / np.mean(np.abs(r)):.2f} % | {sp:.4f} |")
PY
