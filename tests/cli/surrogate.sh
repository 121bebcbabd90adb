#!/usr/bin/env bash
# aerolbm predict and aerolbm sweep from the command line: bad model and sweep files exit 2 with a message that
# names what is wrong and write nothing; a good (random) model writes a run folder like `aerolbm run`, reporting
# the coefficient head's C_L, C_D (version 2) or the field-integrated ones (version 1) as cl, cd, and the
# field-integrated ones as cl_field, cd_field either way.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$@"
NO_OUTPUT=("$WORK/out" "$WORK/ds.h5")  # expect_bad: neither may appear
case_file=$SRC/cases/naca2412_re1000_aoa4.yaml
[ -f "$case_file" ] || case_file=$SRC/cases/naca0012_re1000_aoa5.yaml

# Bad model files (no Python needed).
expect_bad "predict: no model file" "no file" predict "$case_file" --model "$WORK/absent.h5" --out "$WORK/out"
echo "junk" > "$WORK/junk.h5"
expect_bad "predict: not HDF5" "not an HDF5 file" predict "$case_file" --model "$WORK/junk.h5" --out "$WORK/out"
# Bad sweep files.
printf 'format: aerolbm-sweep\nversion: 1\nbase_case: %s\nsampling: random\ncount: 2\nparameters:\n  camber: {values: [0.0]}\n  camber_position: {values: [0.4]}\n  thickness: {values: [0.085]}\n  aoa_deg: {range: [0, 4]}\n  reynolds: {values: [500]}\nsplit: {test_fraction: 0.5}\n' "$SRC/cases/naca0012_re1000_aoa5.yaml" > "$WORK/bad_sweep.yaml"
expect_bad "sweep: off-table thickness" "bad_sweep.yaml:9" sweep "$WORK/bad_sweep.yaml" --out "$WORK/ds.h5" --backend cpu
sed 's/^sampling: random/sampling: randm/' "$WORK/bad_sweep.yaml" > "$WORK/bad2.yaml"
expect_bad "sweep: bad choice" "did you mean 'random'" sweep "$WORK/bad2.yaml" --out "$WORK/ds.h5" --backend cpu

# A sweep that stops and continues (progress store DATASET.partial): 3 tiny cases, one at a time, run whole; then
# stopped by --time-limit after its first case (exit 3) and continued; then killed (kill -9) once its first case
# is kept, and continued. Both continued datasets must equal the whole run's in every dataset but the wall times,
# and in every attribute.
sweep_yaml() {  # $1: seed
  printf 'format: aerolbm-sweep\nversion: 1\nbase_case: %s\nset:\n  geometry.chord_cells: 16\n  domain.size_chords: [6, 3]\n  domain.body_position_chords: [2, 1.5]\ntime:\n  convective_times: 40\n  average_last: 1\nsample_grid: {nx: 32, ny: 16, x: [-1.0, 3.0], y: [-1.0, 1.0]}\nsurface_points: 32\nsampling: random\ncount: 3\nseed: %s\nparameters:\n  camber: {values: [0.0, 0.02]}\n  camber_position: {values: [0.4]}\n  thickness: {values: [0.12]}\n  aoa_deg: {range: [0.0, 6.0]}\n  reynolds: {values: [150]}\nsplit: {test_fraction: 0.34}\n' "$SRC/cases/naca0012_re1000_aoa5.yaml" "$1"
}
sweep_yaml 5 > "$WORK/resume.yaml"
SW=(sweep "$WORK/resume.yaml" --backend cpu --concurrent 1 --threads 1)
cases_kept() { ls "$1.partial" 2>/dev/null | grep -c '^case_.*\.h5$'; }
"$BIN" "${SW[@]}" --out "$WORK/whole.h5" > "$WORK/log" 2>&1 || { cat "$WORK/log"; fail "sweep: the whole run failed"; }
[ -f "$WORK/whole.h5" ] && [ ! -e "$WORK/whole.h5.partial" ] || fail "sweep: no dataset, or the progress store was left behind"
# Stopped by the time limit: the first case always starts, and 0.1 s is shorter than it takes (0.3 s on a shared
# 2-core machine: 40 convective times at 16 cells per chord).
"$BIN" "${SW[@]}" --out "$WORK/limited.h5" --time-limit 0.1 > "$WORK/log" 2>&1 && rc=0 || rc=$?
n=$(cases_kept "$WORK/limited.h5")
if [ $rc -ne 3 ] || [ -e "$WORK/limited.h5" ] || [ "$n" -ne 1 ] || ! grep -q "1 of 3 cases done" "$WORK/log"; then
  echo "FAIL sweep --time-limit: exit $rc (expected 3), $n cases kept (expected 1), dataset written or not:"; cat "$WORK/log"; failed=1
else
  echo "ok   sweep --time-limit stops after one case (exit 3)"
fi
# With a case's time known, a limit shorter than it starts nothing: exit 2, the store untouched.
NO_OUTPUT=("$WORK/limited.h5")
expect_bad "sweep --time-limit shorter than a case" "Give a longer --time-limit" "${SW[@]}" --out "$WORK/limited.h5" --time-limit 0.1
[ "$(cases_kept "$WORK/limited.h5")" -eq 1 ] || { echo "FAIL: the refused call changed the progress store"; failed=1; }
# Another sweep file (a different seed) must not continue this store.
sweep_yaml 6 > "$WORK/other.yaml"
expect_bad "sweep: progress store of another sweep" "limited.h5.partial belongs to another sweep file" \
  sweep "$WORK/other.yaml" --backend cpu --concurrent 1 --threads 1 --out "$WORK/limited.h5"
[ "$(cases_kept "$WORK/limited.h5")" -eq 1 ] || { echo "FAIL: the other sweep changed the progress store"; failed=1; }
NO_OUTPUT=("$WORK/out" "$WORK/ds.h5")
"$BIN" "${SW[@]}" --out "$WORK/limited.h5" > "$WORK/log" 2>&1 || { cat "$WORK/log"; fail "sweep: continuing after --time-limit failed"; }
grep -q "1 of 3 cases done, 2 left" "$WORK/log" || { echo "FAIL: the continued sweep did not start from the store:"; cat "$WORK/log"; failed=1; }
[ ! -e "$WORK/limited.h5.partial" ] || { echo "FAIL: the progress store is left after the sweep ended"; failed=1; }
# Killed (kill -9) once the first case is kept, before the second ends.
"$BIN" "${SW[@]}" --out "$WORK/killed.h5" > "$WORK/log" 2>&1 &
pid=$!
for _ in $(seq 600); do [ "$(cases_kept "$WORK/killed.h5")" -ge 1 ] && break; sleep 0.05; done
kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; pid=
n=$(cases_kept "$WORK/killed.h5")
if [ "$n" -lt 1 ] || [ "$n" -ge 3 ] || [ -e "$WORK/killed.h5" ]; then
  echo "FAIL sweep kill -9: $n of 3 cases kept at the kill (expected 1 or 2), or a dataset written:"; cat "$WORK/log"; failed=1
fi
"$BIN" "${SW[@]}" --out "$WORK/killed.h5" > "$WORK/log" 2>&1 || { cat "$WORK/log"; fail "sweep: continuing after kill -9 failed"; }
grep -q "$n of 3 cases done" "$WORK/log" || { echo "FAIL: the sweep after kill -9 did not start from the store:"; cat "$WORK/log"; failed=1; }
"$PY" - "$WORK/whole.h5" "$WORK/limited.h5" "$WORK/killed.h5" <<'PYEOF' || failed=1
import sys, h5py, numpy as np
def items(path):
    out = {}
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            key = "/" + name
            out[key + "@"] = {k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in obj.attrs.items()}
            if isinstance(obj, h5py.Dataset):
                out[key] = (obj.dtype.str, obj.shape, obj[()].tobytes())
        visit("", f); f.visititems(visit)
    return out
whole = items(sys.argv[1])
assert whole["/params"][1] == (3, 5) and whole["/timing/seconds"][1] == (3,), whole["/params"][:2]
assert whole["/@"]["failed_cases"] == "" and whole["/@"]["backend"] == "cpu", whole["/@"]
# The pitching moment beside C_L, C_D, from the stored cases too (the continued sweeps below must equal it).
assert whole["/coefficients/cm"][1] == (3,), whole.get("/coefficients/cm")
cm = np.frombuffer(whole["/coefficients/cm"][2], dtype=whole["/coefficients/cm"][0])
assert np.all(np.isfinite(cm)) and np.all(np.abs(cm) < 0.5), cm
for other in sys.argv[2:]:
    got = items(other)
    assert got.keys() == whole.keys(), (other, sorted(set(got) ^ set(whole)))
    for k in whole:
        if k == "/timing/seconds":  # the cases' wall times differ from run to run
            assert got[k][:2] == whole[k][:2], (other, k)
        else:
            assert got[k] == whole[k], (other, k, "differs from the whole run's")
print("ok   sweep continued after --time-limit and after kill -9: datasets equal the whole run's")
PYEOF

"$PY" "$SRC/tests/surrogate/write_random_model.py" "$WORK/model.h5"
rc=$?
if [ $rc -eq 77 ]; then echo "SKIPPED (numpy/h5py missing): the predict runs"; exit $failed; fi
[ $rc -eq 0 ] || { echo "FAIL: could not write the test model"; exit 1; }
"$PY" "$SRC/tests/surrogate/write_random_model.py" "$WORK/model_v1.h5" --version 1 || fail "could not write the v1 model"
"$PY" "$SRC/tests/surrogate/write_random_model.py" "$WORK/model_cm.h5" --coefficients 3 || fail "could not write the C_M model"
"$PY" - "$WORK/model.h5" "$WORK/v3.h5" "$WORK/noq.h5" "$WORK/badhead.h5" <<'PYEOF'
import shutil, sys, h5py, numpy as np
for p in sys.argv[2:]: shutil.copy(sys.argv[1], p)
with h5py.File(sys.argv[2], "r+") as f: f.attrs["version"] = 3
with h5py.File(sys.argv[3], "r+") as f: del f["weights/blocks.1.q.W"]
with h5py.File(sys.argv[4], "r+") as f:  # the head's first layer one pooling head short
    del f["weights/coef.mlp.0.W"]; f["weights/coef.mlp.0.W"] = np.zeros((32, 64), np.float32)
PYEOF
expect_bad "predict: wrong version" "version 3" predict "$case_file" --model "$WORK/v3.h5" --out "$WORK/out"
expect_bad "predict: missing dataset" "/weights/blocks.1.q.W" predict "$case_file" --model "$WORK/noq.h5" --out "$WORK/out"
expect_bad "predict: malformed coefficient head" "/weights/coef.mlp.0.W (weights of linear layer coef.mlp.0, [out, in]) has shape [32, 64], expected [32, 96]" \
  predict "$case_file" --model "$WORK/badhead.h5" --out "$WORK/out"

# A good model: the run folder of `aerolbm run`, with the prediction's Cl/Cd and inference time.
if "$BIN" predict "$case_file" --model "$WORK/model.h5" --backend cpu --out "$WORK/pred" > "$WORK/log" 2>&1; then
  for f in summary.json case.yaml fields.h5 fields.xdmf fields.pvd; do
    [ -e "$WORK/pred/$f" ] || { echo "FAIL predict: $f missing"; failed=1; }
  done
  "$PY" - "$WORK/pred" <<'PYEOF' || failed=1
import json, math, sys, h5py
s = json.load(open(sys.argv[1] + "/summary.json"))
assert s["kind"] == "prediction" and s["backend"] == "cpu", s
co = s["coefficients"]
for k in ("cl_mean", "cd_mean", "cl_field", "cd_field", "cl_pressure", "cd_pressure"):
    assert math.isfinite(co[k]), s
# version 2: cl, cd are the network's head, the field-integrated ones beside them (a random network's head and
# field disagree)
assert co["source"] == "network" and "coefficient head" in co["method"], co
assert co["cl_final"] == co["cl_mean"] and co["cl_mean"] != co["cl_field"] and co["cd_mean"] != co["cd_field"], co
assert co["cpitch_mean"] is None, co  # this head predicts C_L, C_D only
assert s["inference_time_s"] > 0 and s["grid"]["nx"] == 24 and s["grid"]["ny"] == 12, s
with h5py.File(sys.argv[1] + "/fields.h5") as f:
    g = f[sorted(k for k in f.keys() if k.startswith("frame_"))[0]]
    names = set(g.keys())
    assert {"velocity", "pressure", "mask"} <= names, names
    assert g["pressure"].shape[-2:] == (12, 24), g["pressure"].shape
print("ok   predict run folder")
PYEOF
  # A polar: one prediction per angle, each the one a single predict at that angle gives.
  NO_OUTPUT=("$WORK/polar")
  expect_bad "predict --polar: not numbers" "'x' is not a number" predict "$case_file" --model "$WORK/model.h5" --backend cpu --polar=-2:x:2 --out "$WORK/polar"
  expect_bad "predict --polar: backwards" "FROM is above TO" predict "$case_file" --model "$WORK/model.h5" --backend cpu --polar 4:-2:2 --out "$WORK/polar"
  expect_bad "predict --polar: two numbers" "FROM:TO:STEP" predict "$case_file" --model "$WORK/model.h5" --backend cpu --polar=-2:4 --out "$WORK/polar"
  NO_OUTPUT=("$WORK/out" "$WORK/ds.h5")
  if "$BIN" predict "$case_file" --model "$WORK/model.h5" --backend cpu --polar=-2:4:2 --out "$WORK/polar" > "$WORK/log" 2>&1 &&
     "$BIN" predict "$case_file" --model "$WORK/model.h5" --backend cpu --set physics.angle_of_attack_deg=2 --out "$WORK/at2" > "$WORK/log2" 2>&1; then
    "$PY" - "$WORK/polar" "$WORK/at2" <<'PYEOF' || failed=1
import csv, json, math, sys
rows = list(csv.DictReader(open(sys.argv[1] + "/polar.csv")))
assert [float(r["alpha_deg"]) for r in rows] == [-2, 0, 2, 4], rows
cols = ("cl", "cd", "cl_field", "cd_field", "cl_pressure", "cd_pressure")
for r in rows:
    assert all(math.isfinite(float(r[k])) for k in cols), r
s = json.load(open(sys.argv[1] + "/summary.json"))
assert s["kind"] == "polar prediction" and s["angles"] == 4 and s["coefficients_source"] == "network", s
one = json.load(open(sys.argv[2] + "/summary.json"))["coefficients"]
at2 = rows[2]
for col, key in (("cl", "cl_mean"), ("cd", "cd_mean"), ("cl_field", "cl_field"), ("cd_field", "cd_field")):
    assert math.isclose(float(at2[col]), one[key], rel_tol=1e-6, abs_tol=1e-12), (col, at2, one)
assert float(rows[0]["cl"]) != float(rows[3]["cl"]), "the angle reaches the model"
assert float(rows[0]["cl_field"]) != float(rows[3]["cl_field"]), "the angle reaches the field"
print("ok   predict --polar")
PYEOF
  else
    echo "FAIL predict --polar:"; cat "$WORK/log" "$WORK/log2"; failed=1
  fi
  # A head with the pitching moment (3 outputs): cpitch_mean in the summary, a cm column in the polar, each the
  # single prediction's.
  if "$BIN" predict "$case_file" --model "$WORK/model_cm.h5" --backend cpu --set physics.angle_of_attack_deg=2 --out "$WORK/pred_cm" > "$WORK/log" 2>&1 &&
     "$BIN" predict "$case_file" --model "$WORK/model_cm.h5" --backend cpu --polar=0:4:2 --out "$WORK/polar_cm" > "$WORK/log2" 2>&1; then
    "$PY" - "$WORK/pred_cm" "$WORK/polar_cm" <<'PYEOF' || failed=1
import csv, json, math, sys
co = json.load(open(sys.argv[1] + "/summary.json"))["coefficients"]
assert co["source"] == "network" and math.isfinite(co["cpitch_mean"]), co
rows = list(csv.DictReader(open(sys.argv[2] + "/polar.csv")))
assert len(rows) == 3 and all(math.isfinite(float(r["cm"])) for r in rows), rows
assert math.isclose(float(rows[1]["cm"]), co["cpitch_mean"], rel_tol=1e-6, abs_tol=1e-12), (rows[1], co)
assert float(rows[0]["cm"]) != float(rows[2]["cm"]), "the angle reaches the moment"
print("ok   predict with a C_L, C_D, C_M head (summary cpitch_mean, polar cm column)")
PYEOF
  else
    echo "FAIL predict with a C_M head:"; cat "$WORK/log" "$WORK/log2"; failed=1
  fi
  # A version-1 model (no head): cl, cd are the field-integrated ones, in the summary and in a polar.
  if "$BIN" predict "$case_file" --model "$WORK/model_v1.h5" --backend cpu --out "$WORK/pred_v1" > "$WORK/log" 2>&1 &&
     "$BIN" predict "$case_file" --model "$WORK/model_v1.h5" --backend cpu --polar=0:4:2 --out "$WORK/polar_v1" > "$WORK/log2" 2>&1; then
    "$PY" - "$WORK/pred_v1" "$WORK/polar_v1" <<'PYEOF' || failed=1
import csv, json, math, sys
co = json.load(open(sys.argv[1] + "/summary.json"))["coefficients"]
assert co["source"] == "field" and "no coefficient head" in co["method"], co
assert math.isfinite(co["cl_mean"]) and co["cl_mean"] == co["cl_field"] and co["cd_mean"] == co["cd_field"], co
rows = list(csv.DictReader(open(sys.argv[2] + "/polar.csv")))
assert len(rows) == 3 and all(r["cl"] == r["cl_field"] and r["cd"] == r["cd_field"] for r in rows), rows
assert json.load(open(sys.argv[2] + "/summary.json"))["coefficients_source"] == "field"
print("ok   predict with a version-1 model (field-integrated cl, cd)")
PYEOF
  else
    echo "FAIL predict with a version-1 model:"; cat "$WORK/log" "$WORK/log2"; failed=1
  fi
  # The folder is not overwritten without --overwrite.
  expect_bad "predict: folder holds a run" "--overwrite" predict "$case_file" --model "$WORK/model.h5" --backend cpu --out "$WORK/pred"
else
  echo "FAIL predict with a good model:"; cat "$WORK/log"; failed=1
fi
exit $failed
