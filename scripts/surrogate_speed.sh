#!/usr/bin/env bash
# Prediction vs simulation of the same case on the same GPU (issue 5's "≥ 1000× faster" figure):
#   bash scripts/surrogate_speed.sh MODEL.h5 [CASE.yaml] [BUILD_DIR]
# The simulation runs the case as the training sweep does (postprocess/surrogate/sweep.yaml: 64 cells per chord,
# 12 convective times, no field output); the prediction runs the same case. Both run folders go to
# runs/speed_sim and runs/speed_pred; the ratio of the simulation's wall time to the prediction's inference time
# (median of device-timed passes) is printed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
model=${1:?usage: surrogate_speed.sh MODEL.h5 [CASE.yaml] [BUILD_DIR]}
case_file=${2:-$root/cases/naca0012_re1000_aoa5.yaml}
bin=${3:-$root/build}/aerolbm
sets=(--set geometry.chord_cells=64 --set time.convective_times=12 --set time.average_last=4 --set output.every=0
      --set checkpoint.every=0 --set physics.reynolds=500)
"$bin" run "$case_file" "${sets[@]}" --backend cuda --output "$root/runs/speed_sim" --overwrite
"$bin" predict "$case_file" --set physics.reynolds=500 --model "$model" --backend cuda --repeats 20 \
  --out "$root/runs/speed_pred" --overwrite
/usr/bin/python3 - "$root/runs/speed_sim/summary.json" "$root/runs/speed_pred/summary.json" <<'PY'
import json, sys
sim, pred = (json.load(open(p)) for p in sys.argv[1:3])
t_sim, t_pred = sim["wall_time_s"], pred["inference_time_s"]
print(f"simulation: {t_sim:.3f} s wall ({sim['steps']} steps, {sim['mlups']:.0f} MLUPs), Cl {sim['coefficients']['cl_mean']:.4f}, Cd {sim['coefficients']['cd_mean']:.4f}")
print(f"prediction: {t_pred*1e3:.3f} ms (median, device events; first pass {pred['inference_first_pass_s']*1e3:.1f} ms), Cl {pred['coefficients']['cl_mean']:.4f}, Cd {pred['coefficients']['cd_mean']:.4f}")
print(f"speed-up: {t_sim / t_pred:.0f}x")
PY
