#!/usr/bin/env bash
# A short run of the default case (coarsened) writes the whole run folder, and the files hold what they claim.
set -eu
source "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$@"
"$BIN" run "$SRC/cases/naca0012_re1000_aoa5.yaml" --backend cpu -o "$WORK/run" --steps 300 \
  --set output.every=100 --set forces.every=10 --set geometry.chord_cells=32 --set flow.angle_of_attack_deg=8 \
  > "$WORK/log" 2>&1 || { cat "$WORK/log"; exit 1; }
for f in summary.json forces.csv fields.h5 fields.xdmf fields.pvd case.yaml vtk/fields_000000.vti vtk/fields_000002.vti \
  surface/surface_000000.csv surface/surface_000002.csv; do
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
for k in ("cd_mean", "cl_mean", "cd_final", "cl_final", "strouhal", "cd_pressure_mean", "cd_friction_mean",
          "cpitch_mean"):
    assert k in c, k
# The section at 5° pitches about its quarter chord (the moment of the per-cell forces; forces.md).
assert c["cpitch_mean"] is not None and c["statistics"]["cpitch"]["mean"] == c["cpitch_mean"], c
# The drag's parts add up to the drag, and on an airfoil at Re 1000 both push it back.
assert abs(c["cd_pressure_mean"] + c["cd_friction_mean"] - c["cd_mean"]) < 1e-9 * abs(c["cd_mean"]) + 1e-12, c
assert c["cd_pressure_mean"] > 0 and c["cd_friction_mean"] > 0, c
rows = [r for r in open(f"{run}/forces.csv") if not r.startswith("#")]
assert rows[0].strip() == "step,time,Fx,Fy,Cd,Cl,Cd_pressure,Cd_friction,Mz,Cpitch", rows[0]
data = list(csv.reader(rows[1:]))
assert len(data) == 30 and int(data[-1][0]) == 300, len(data)
for r in data:
    cd, cdp, cdf = float(r[4]), float(r[6]), float(r[7])
    assert abs(cdp + cdf - cd) <= 2e-8 * max(1.0, abs(cd)), r   # 9 significant digits each
print("summary ok:", c)
# The surface table of the last frame: one line per outline point, a stagnation point (Cp near 1) and suction,
# a skin friction that is positive somewhere and as large as its vector.
lines = [l for l in open(f"{run}/surface/surface_000002.csv") if not l.startswith("#")]
assert lines[0].strip() == "x,y,nx,ny,Cp,Cf,Cf_x,Cf_y", lines[0]
pts = [[float(x) for x in l.split(",")] for l in lines[1:]]
assert len(pts) > 50, len(pts)
cp = [p[4] for p in pts]
assert 0.6 < max(cp) < 1.3 and min(cp) < -0.3, (min(cp), max(cp))
assert max(p[5] for p in pts) > 0
for p in pts:
    assert abs(abs(p[5]) - (p[6] ** 2 + p[7] ** 2) ** 0.5) <= 1e-6 * (1 + abs(p[5])), p
print("surface ok:", len(pts), "points, Cp", min(cp), max(cp))
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
