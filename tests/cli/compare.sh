#!/usr/bin/env bash
# aerolbm compare on real runs: two CPU runs of one case with 1 and 2 threads agree, their mean fields
# (output.averages) too; a copy with its velocity (and mean velocity) scaled by 1.01 and its lift shifted is
# reported (relative L2 0.01, ΔCl) and fails --fail-above; runs of two resolutions are compared on the coarser grid
# and the report says so (and that one has no mean fields); bad input exits 2 and writes nothing.
set -eu
source "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$@"
cd "$WORK"
# Small and quick: Re 200 keeps tau clear of 0.5 at 16 and 32 cells per chord.
SET=(--set physics.reynolds=200 --set flow.angle_of_attack_deg=6 --set domain.size_chords=[8,4]
     --set domain.body_position_chords=[2.5,2])
run() { "$BIN" run "$SRC/cases/naca0012_re1000_aoa5.yaml" --backend cpu "${SET[@]}" "$@" > "$WORK/log" 2>&1 ||
          { cat "$WORK/log"; fail "aerolbm run $*"; }; }
MEAN=(--set output.averages.enabled=true)
run -o a --threads 2 --steps 300 --set output.every=100 --set geometry.chord_cells=32 "${MEAN[@]}"
run -o b --threads 1 --steps 300 --set output.every=100 --set geometry.chord_cells=32 "${MEAN[@]}"
run -o coarse --threads 2 --steps 150 --set output.every=50 --set geometry.chord_cells=16

# 1. Agreement: thread counts do not change the physics.
"$BIN" compare a b -o cmp --fail-above 1e-6 > out.txt 2>&1 || { cat out.txt; fail "compare a b exited $?"; }
grep -q "^AGREE" out.txt || { cat out.txt; fail "a and b should agree"; }
grep -q "speed-up of B over A" out.txt || fail "no speed-up line"
for f in report.md report.json errors.h5; do [ -s "cmp/$f" ] || fail "cmp/$f missing"; done
[ ! -e cmp/images.tmp ] && ! ls cmp | grep -q '\.tmp$' || fail "temporary files left in cmp/"
$PY - <<'PY' || fail "report.json of the agreeing runs"
import json
r = json.load(open("cmp/report.json"))
assert r["verdict"]["agree"] is True, r["verdict"]
assert r["grid"]["same_grid"] and not r["grid"]["interpolated"]
assert len(r["frames"]) == 3, len(r["frames"])
for f in r["frames"]:
    assert set(f["fields"]) == {"velocity", "pressure", "vorticity"}, f["fields"].keys()
    for name, e in f["fields"].items():
        assert e["rel_l2"] < 1e-6 and e["points"] > 1000, (name, e)
    assert f["mask_cells_differing"] == 0
t = r["timing"]
assert abs(t["speedup_B_over_A"] - t["wall_time_s_A"] / t["wall_time_s_B"]) < 1e-9
for k in ("cd_mean", "cl_mean", "cd_final", "cl_final"):
    assert abs(r["coefficients"][k]["diff"]) < 1e-9, (k, r["coefficients"][k])
m = r["mean_fields"]
assert m["compared"] is True, m["note"]
assert m["A"]["samples"] == 30 and m["B"]["samples"] == 30, m   # every forces.every = 10 steps of 300
assert set(m["fields"]) == {"velocity", "pressure", "velocity_rms", "pressure_rms"}, m["fields"].keys()
for name, e in m["fields"].items():
    assert e["rel_l2"] < 1e-6 and e["points"] > 1000, (name, e)
assert m["fields"]["velocity_rms"]["reference_max"] > 0  # the start of an unsteady run fluctuates
print("agreement ok")
PY
grep -q "Speed-up" cmp/report.md && grep -q "| velocity |" cmp/report.md && grep -q "Verdict" cmp/report.md ||
  fail "report.md lacks speed-up, field table or verdict"
grep -q "## Mean fields" cmp/report.md && grep -q "| velocity_rms |" cmp/report.md || fail "report.md lacks mean fields"

# 2. A perturbed copy of b: velocity × 1.01 in every frame, Cl + 0.05 in forces.csv and summary.json.
cp -r b p
$PY - <<'PY'
import h5py, json
with h5py.File("p/fields.h5", "r+") as f:
    for g in f:
        if g.startswith("frame_"):
            f[g]["velocity"][...] = f[g]["velocity"][...] * 1.01
with h5py.File("p/mean/fields.h5", "r+") as f:
    f["frame_000000"]["velocity"][...] = f["frame_000000"]["velocity"][...] * 1.01
lines = open("p/forces.csv").read().splitlines()
out, cols = [], None
for l in lines:
    if l.startswith("#"):
        out.append(l); continue
    if cols is None:
        cols = l.split(","); out.append(l); continue
    v = l.split(","); k = cols.index("Cl"); v[k] = repr(float(v[k]) + 0.05); out.append(",".join(v))
open("p/forces.csv", "w").write("\n".join(out) + "\n")
s = json.load(open("p/summary.json"))
s["coefficients"]["cl_mean"] += 0.05
s["coefficients"]["cl_final"] += 0.05
json.dump(s, open("p/summary.json", "w"), indent=2)
PY
rc=0; "$BIN" compare a p -o cmp_p --fail-above 1e-3 > out.txt 2>&1 || rc=$?
[ $rc = 1 ] || { cat out.txt; fail "perturbed run: expected exit 1 under --fail-above, got $rc"; }
grep -q "^DIFFER" out.txt || { cat out.txt; fail "perturbed run should DIFFER"; }
grep -q "exceeds --fail-above" out.txt || fail "no --fail-above message"
$PY - <<'PY' || fail "report.json of the perturbed run"
import json
r = json.load(open("cmp_p/report.json"))
assert r["verdict"]["agree"] is False
for f in r["frames"]:
    e = f["fields"]["velocity"]["rel_l2"]
    assert abs(e - 0.01) < 1e-4, e              # exactly the 1 % put in
    assert f["fields"]["pressure"]["rel_l2"] < 1e-6
e = r["mean_fields"]["fields"]["velocity"]["rel_l2"]
assert abs(e - 0.01) < 1e-4, e
assert "mean velocity relative L2" in r["verdict"]["text"], r["verdict"]["text"]
dcl = r["coefficients"]["cl_mean"]["diff"]
assert abs(dcl - 0.05) < 1e-9, dcl
assert abs(r["force_history"]["max_abs_dcl"] - 0.05) < 1e-6, r["force_history"]
assert abs(r["largest_error"]["value"] - 0.05) < 1e-6, r["largest_error"]
print("perturbation ok")
PY
# Without --fail-above the same comparison reports and exits 0.
"$BIN" compare a p -o cmp_p2 --no-plots > out.txt 2>&1 || fail "compare without --fail-above should exit 0"
grep -q "skipped (--no-plots)" cmp_p2/report.md || fail "report.md should say the images were skipped"

# 3. Different resolutions: the finer run is interpolated onto the coarser grid, and the report says so.
"$BIN" compare coarse a -o cmp_r --no-plots > out.txt 2>&1 || { cat out.txt; fail "compare coarse a"; }
grep -q "interpolated bilinearly onto the cell centres of the coarser" cmp_r/report.md || fail "no interpolation note"
# 3b. A refined run (16 cells per chord, a box at 32 around the airfoil) against the uniform run at 32, over the
# same times (half the steps of twice the length): its top-level frames are level 0's grid, so the uniform run is
# interpolated onto it; its level 1 is compared at its own resolution, over the box's own cells (not its band),
# against the uniform run at the same points. Near the body the two agree to a few per cent.
run -o refined --threads 2 --steps 150 --set output.every=50 --set geometry.chord_cells=16 \
  --set 'refinement.boxes=[[-0.5,-0.5,1.5,0.5]]'
rc=0; "$BIN" compare refined a -o cmp_ref --no-plots > out.txt 2>&1 || rc=$?
[ $rc -le 1 ] || { cat out.txt; fail "compare refined a exited $rc"; }
grep -q "interpolated bilinearly onto the cell centres of the coarser" cmp_ref/report.md || fail "refined: no interpolation note"
grep -q "## Refined levels" cmp_ref/report.md || fail "refined: report.md lacks the levels' section"
$PY - <<'PY' || fail "report.json of the refined run against the uniform one"
import json
r = json.load(open("cmp_ref/report.json"))
assert r["grid"]["interpolated"], r["grid"]
assert len(r["frames"]) == 3, len(r["frames"])
f = r["frames"][-1]["fields"]["velocity"]
assert f["rel_l2"] < 0.05 and f["points"] > 1000, f
(l,) = r["levels"]
assert l["run"] == "A" and l["level"] == 1, l
# The box is 2 x 1 chords at 32 cells per chord: 64 x 32 own cells, in a grid with a band of two on every side.
assert (l["grid"]["nx"], l["grid"]["ny"]) == (68, 36) and l["own_points"] == 64 * 32, l
assert len(l["frames"]) == 3, len(l["frames"])
for fr in l["frames"]:
    e = fr["fields"]["velocity"]
    # the airfoil's solid cells are left out, every fluid cell of the box is compared
    assert 1500 < e["points"] < 64 * 32 and 1e-5 < e["rel_l2"] < 0.05, e
print("refined levels ok:", [fr["fields"]["velocity"]["rel_l2"] for fr in l["frames"]])
PY
# 3c. Two refined runs that compute the same numbers (1 and 2 threads) agree on every level, to the bit (their
# forces to rounding: sums in another order); a copy
# whose level 1 velocity is scaled by 1.01 (level 0's frames untouched) DIFFERs there, by exactly that.
run -o refined1 --threads 1 --steps 150 --set output.every=50 --set geometry.chord_cells=16 \
  --set 'refinement.boxes=[[-0.5,-0.5,1.5,0.5]]'
"$BIN" compare refined refined1 -o cmp_rr --no-plots --fail-above 1e-12 > out.txt 2>&1 || { cat out.txt; fail "compare refined refined1"; }
cp -r refined1 rp
$PY - <<'PY'
import h5py
with h5py.File("rp/levels/level1/fields.h5", "r+") as f:
    for g in f:
        if g.startswith("frame_"):
            f[g]["velocity"][...] = f[g]["velocity"][...] * 1.01
PY
rc=0; "$BIN" compare refined rp -o cmp_rp --no-plots --fail-above 1e-3 > out.txt 2>&1 || rc=$?
[ $rc = 1 ] || { cat out.txt; fail "refined, level 1 perturbed: expected exit 1 under --fail-above, got $rc"; }
$PY - <<'PY' || fail "report.json of the refined runs"
import json
r = json.load(open("cmp_rr/report.json"))
assert r["verdict"]["agree"] and r["grid"]["same_grid"], r["verdict"]
(l,) = r["levels"]
for fr in l["frames"]:
    for name, e in fr["fields"].items():
        assert e["rel_l2"] == 0 and e["points"] > 1500, (name, e)
r = json.load(open("cmp_rp/report.json"))
assert not r["verdict"]["agree"] and "level 1 velocity relative L2" in r["verdict"]["text"], r["verdict"]["text"]
for f in r["frames"]:
    assert f["fields"]["velocity"]["rel_l2"] == 0, f   # level 0's frames were not touched
for fr in r["levels"][0]["frames"]:
    assert abs(fr["fields"]["velocity"]["rel_l2"] - 0.01) < 1e-6, fr["fields"]["velocity"]
    assert fr["fields"]["pressure"]["rel_l2"] == 0
print("refined runs ok")
PY
$PY - <<'PY' || fail "report.json of the resolution comparison"
import json
r = json.load(open("cmp_r/report.json"))
assert r["grid"]["interpolated"] and r["grid"]["comparison_grid"] == "A", r["grid"]
assert len(r["frames"]) == 3, len(r["frames"])
e = r["frames"][-1]["fields"]["velocity"]
# Same flow at two resolutions: close, but not identical (discretisation error).
assert 1e-4 < e["rel_l2"] < 0.2, e
assert r["force_history"]["interpolated_in_time"] is False or r["force_history"]["samples"] > 0
assert r["mean_fields"]["compared"] is False and "A has no mean" in r["mean_fields"]["note"], r["mean_fields"]
print("resolution ok:", e["rel_l2"])
PY

# 4. Bad input: exit 2, a message naming the problem, and no report folder.
bad() {  # bad EXPECTED_TEXT ARGS...
  local want=$1; shift
  rm -rf out_bad
  local rc=0; "$BIN" compare "$@" -o out_bad > out.txt 2>&1 || rc=$?
  [ $rc = 2 ] || { cat out.txt; fail "compare $*: expected exit 2, got $rc"; }
  grep -q -- "$want" out.txt || { cat out.txt; fail "compare $*: message lacks '$want'"; }
  [ ! -e out_bad ] || fail "compare $*: wrote out_bad/ despite bad input"
}
bad "does not exist" a nowhere
cp -r a t1 && rm t1/summary.json
bad "summary.json: missing" a t1
cp -r a t2 && head -c 100 a/summary.json > t2/summary.json
bad "summary.json: not valid JSON" a t2
cp -r a t3 && head -c 3000 a/fields.h5 > t3/fields.h5
bad "fields.h5" a t3
# fields.h5 is an index of links to one file per frame (fields/frame_*.h5): cut the last frame file short.
cp -r a t4 && last=$(ls a/fields/ | sort | tail -n 1) && head -c 20000 "a/fields/$last" > "t4/fields/$last"
bad "frame_" a t4
cp -r a t5 && printf 'garbage that is not HDF5\n' > t5/fields.h5
bad "not a readable HDF5 file" a t5
cp -r a t6 && head -n -3 a/forces.csv > t6/forces.csv && printf '300,0.5,1' >> t6/forces.csv
bad "forces.csv" a t6
cp -r a t7 && rm t7/fields.h5
bad "fields.h5: missing" a t7
run -o other --steps 100 --set output.every=100 --set geometry.chord_cells=32 --set domain.size_chords=[9,4]
bad "different domains" a other
bad "is a folder" a
bad "At Most 2" a b p
rm -rf out_bad; rc=0; "$BIN" compare "$SRC/cases/naca0012_re1000_aoa5.yaml" -o out_bad > out.txt 2>&1 || rc=$?
if "$BIN" info | grep -q "CUDA devices      0"; then
  [ $rc = 2 ] && grep -q "needs a CUDA device" out.txt && grep -q "aerolbm compare runs/a runs/b" out.txt ||
    { cat out.txt; fail "compare CASE.yaml without a GPU: expected exit 2 with the two-folder advice"; }
  [ ! -e out_bad ] || fail "compare CASE.yaml without a GPU wrote out_bad/"
fi
echo "compare: all checks passed"
