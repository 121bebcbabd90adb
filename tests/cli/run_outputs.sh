#!/usr/bin/env bash
# A short run of the default case (coarsened) writes the whole run folder, and the files hold what they claim.
set -eu
source "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$@"
"$BIN" run "$SRC/cases/naca0012_re1000_aoa5.yaml" --backend cpu -o "$WORK/run" --steps 300 \
  --set output.every=100 --set forces.every=10 --set geometry.chord_cells=32 --set flow.angle_of_attack_deg=8 \
  > "$WORK/log" 2>&1 || { cat "$WORK/log"; exit 1; }
for f in summary.json forces.csv fields.h5 fields.xdmf fields.pvd case.yaml vtk/fields_000000.vti vtk/fields_000002.vti; do
  [ -s "$WORK/run/$f" ] || { echo "missing $f"; ls -R "$WORK/run"; exit 1; }
done
grep -q "τ = " "$WORK/log" || { echo "the lattice-unit summary was not printed"; exit 1; }
grep -q "angle_of_attack_deg: 8" "$WORK/run/case.yaml" || { echo "case.yaml lacks the override"; exit 1; }
[ "$(grep -c fields_0 "$WORK/run/fields.pvd")" = 3 ] || { echo "fields.pvd should list 3 frames"; exit 1; }
"$PY" - "$WORK/run" <<'PY'
import json, sys, csv
run = sys.argv[1]
s = json.load(open(f"{run}/summary.json"))
for k in ("case", "backend", "device", "lattice", "grid", "steps", "wall_time_s", "mlups", "coefficients"):
    assert k in s, k
assert s["steps"] == 300 and s["backend"] == "cpu" and s["lattice"] == "D2Q9"
assert s["grid"]["nx"] == 320 and s["grid"]["ny"] == 160, s["grid"]
c = s["coefficients"]
for k in ("cd_mean", "cl_mean", "cd_final", "cl_final", "strouhal"):
    assert k in c, k
rows = [r for r in open(f"{run}/forces.csv") if not r.startswith("#")]
assert rows[0].strip() == "step,time,Fx,Fy,Cd,Cl", rows[0]
data = list(csv.reader(rows[1:]))
assert len(data) == 30 and int(data[-1][0]) == 300, len(data)
print("summary ok:", c)
PY
if "$PY" -c "import h5py" 2>/dev/null; then
"$PY" - "$WORK/run" <<'PY'
import h5py, sys, numpy as np
f = h5py.File(f"{sys.argv[1]}/fields.h5", "r")
assert sorted(f.keys()) == ["frame_000000", "frame_000001", "frame_000002"], list(f.keys())
g = f["frame_000002"]
assert g.attrs["step"] == 300
v = g["velocity"][...]
assert v.shape == (1, 160, 320, 3), v.shape
m = g["mask"][...]
assert 0 < m.sum() < m.size
free = v[0, 80, 5, 0]
assert 0.9 < free < 1.1, free   # inflow at the free-stream speed (u/U = 1)
assert np.all(v[0][m[0] == 1] == 0)
print("fields ok")
PY
fi
