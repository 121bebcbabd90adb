#!/usr/bin/env bash
# Grid study for the surrogate's training data (docs/surrogate.md; the surrogate issue asks for data whose C_L and C_D
# are within 1 % of a grid twice as fine). Runs a few sections of the training sweep's ranges as the sweep runs them
# (its base case, 12 convective times, the mean over the last 4) at 64, 128, 256 and 512 cells per chord and prints
# C_L, C_D at each resolution and their change to the next finer grid. Usage, from the repository root:
#   bash scripts/surrogate_resolution.sh [AEROLBM] [OUT]     (defaults: bundle/bin/aerolbm, surrogate-resolution)
# Env: CHORDS (default "64 128 256 512"), BACKEND (default cuda), CT and AVG (convective times run and averaged,
# default 12 and 4 as the sweep; the H100 showed C_L still drifting by up to 16 % across that window at 10°, so a
# grid study wants a longer run). On an H100 the 512 runs take about 26 s each at CT = 12.
set -euo pipefail
A=${1:-$PWD/bundle/bin/aerolbm}
OUT=${2:-$PWD/surrogate-resolution}
CHORDS=${CHORDS:-64 128 256 512}
BACKEND=${BACKEND:-cuda}
CT=${CT:-12}
AVG=${AVG:-4}
PY=${PYTHON:-python3}
mkdir -p "$OUT"
BASE=postprocess/surrogate/sweep.yaml
[ -f "$BASE" ] || { echo "run from the repository root ($BASE not found)" >&2; exit 2; }
# code, angle of attack, Reynolds number: the corners and the middle of the sweep's ranges.
# CASES (env) replaces them: "code aoa re;code aoa re;...".
if [ -n "${CASES:-}" ]; then IFS=';' read -ra CASES <<< "$CASES"
else CASES=("0012 0 1000" "0012 10 1000" "2412 5 500" "4415 8 1000" "0008 -4 200"); fi
echo "case,chord_cells,cl,cd,seconds,cl_drift,cd_drift" > "$OUT/resolution.csv"
for c in "${CASES[@]}"; do
  read -r code aoa re <<< "$c"
  for n in $CHORDS; do
    run="$OUT/naca${code}_a${aoa}_re${re}_n${n}"
    t0=$(date +%s%N)
    "$A" run cases/naca0012_re1000_aoa5.yaml --backend "$BACKEND" -o "$run" --overwrite \
      --set "geometry.code=\"$code\"" --set physics.angle_of_attack_deg="$aoa" --set physics.reynolds="$re" \
      --set geometry.chord_cells="$n" --set time.convective_times="$CT" --set time.average_last="$AVG" \
      --set output.every=0 --set checkpoint.every=0 > "$run.log" 2>&1 || { echo "$run failed: $run.log" >&2; continue; }
    t1=$(date +%s%N)
    "$PY" - "$run/summary.json" "naca${code}_a${aoa}_re${re}" "$n" "$(( (t1 - t0) / 1000000 ))" >> "$OUT/resolution.csv" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
c = s["coefficients"]
st = c.get("statistics", {})
drift = [st.get(k, {}).get("drift_relative", float("nan")) for k in ("cl", "cd")]
print(f"{sys.argv[2]},{sys.argv[3]},{c['cl_mean']:.6f},{c['cd_mean']:.6f},{float(sys.argv[4]) / 1000:.1f},"
      f"{drift[0]:.4f},{drift[1]:.4f}")
PY
  done
done
"$PY" - "$OUT/resolution.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {}
for r in rows:
    by.setdefault(r["case"], []).append(r)
print("| case | cells per chord | C_L | C_D | C_L change to the next finer | C_D change | C_L, C_D drift over the window |")
print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for case, rs in by.items():
    rs.sort(key=lambda r: int(r["chord_cells"]))
    for k, r in enumerate(rs):
        cl, cd = float(r["cl"]), float(r["cd"])
        if k + 1 < len(rs):
            fl, fd = float(rs[k + 1]["cl"]), float(rs[k + 1]["cd"])
            dl = f"{100 * (cl - fl) / abs(fl):+.2f} %" if fl else "—"
            dd = f"{100 * (cd - fd) / abs(fd):+.2f} %"
        else:
            dl = dd = "—"
        dr = f"{100 * float(r['cl_drift']):+.1f} %, {100 * float(r['cd_drift']):+.1f} %"
        print(f"| {case} | {r['chord_cells']} | {cl:.4f} | {cd:.4f} | {dl} | {dd} | {dr} |")
PY
