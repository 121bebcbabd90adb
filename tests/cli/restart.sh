#!/usr/bin/env bash
# Checkpoint/restart: 2000 steps in one go and 1000 steps + --restart + 1000 more give bit-identical fields,
# forces, final state and coefficients. Usage: restart.sh SOURCE_DIR [cpu|cuda] [refined] (the GPU host runs it
# with cuda). `refined`: the same with a refined box around the airfoil (refinement.boxes), whose checkpoint holds
# every level and what is in transit between them; a restart with other boxes or none is refused.
# The CPU run uses two threads: OpenMP's reduction of the wall force is then order-independent (a + b = b + a).
# A restart with a case of another grid is refused with exit status 2.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$@"
BACKEND=${2:-cpu}
SMALL=(--backend "$BACKEND" --threads 2 --set geometry.chord_cells=16 --set physics.reynolds=200
       --set output.every=250 --set forces.every=10 --set checkpoint.every=500 --set time.average_last=1)
REFINED=${3:-}
[ "$REFINED" = refined ] && SMALL+=(--set 'refinement.boxes=[[-0.5,-0.5,1.5,0.5]]')

"$BIN" run "$CASE" "${SMALL[@]}" -o "$WORK/full" --steps 2000 > "$WORK/full.log" 2>&1 || { cat "$WORK/full.log"; fail "full run"; }
"$BIN" run "$CASE" "${SMALL[@]}" -o "$WORK/split" --steps 1000 > "$WORK/a.log" 2>&1 || { cat "$WORK/a.log"; fail "first half"; }
"$BIN" run "$CASE" "${SMALL[@]}" --restart "$WORK/split" --steps 2000 > "$WORK/b.log" 2>&1
rc=$?
[ $rc -eq 0 ] || { cat "$WORK/b.log"; fail "restart exited $rc"; }
grep -q "continuing .* from its checkpoint at step 1000" "$WORK/b.log" || fail "restart did not say where it continues"

# Data lines of forces.csv: same text (9 significant digits of the same doubles).
diff <(grep -v '^#' "$WORK/full/forces.csv") <(grep -v '^#' "$WORK/split/forces.csv") > "$WORK/forces.diff" ||
  { head "$WORK/forces.diff"; fail "forces.csv differs"; }
# VTK frames: byte for byte; the .pvd lists the same series.
for f in "$WORK"/full/vtk/*.vti; do cmp -s "$f" "$WORK/split/vtk/$(basename "$f")" || fail "$(basename "$f") differs"; done
[ "$(ls "$WORK/full/vtk" | wc -l)" = "$(ls "$WORK/split/vtk" | wc -l)" ] || fail "different number of .vti files"
cmp -s "$WORK/full/fields.pvd" "$WORK/split/fields.pvd" || fail "fields.pvd differs"
if [ "$REFINED" = refined ]; then  # each refined level's own frames too
  n=0
  for f in "$WORK"/full/levels/level*/vtk/*.vti; do
    cmp -s "$f" "$WORK/split/${f#"$WORK"/full/}" || fail "${f#"$WORK"/full/} differs"; n=$((n + 1))
  done
  [ "$n" -eq 8 ] || fail "expected 8 level frames, found $n"
fi
cmp -s "$WORK/full/fields.xdmf" "$WORK/split/fields.xdmf" || fail "fields.xdmf differs"

if ! "$PY" -c "import h5py" 2>/dev/null; then
  echo "note: no h5py here; HDF5 frames and checkpoint not compared (the .vti frames above hold the same fields)"
else
"$PY" - "$WORK/full" "$WORK/split" <<'PY' || fail "HDF5 comparison"
import glob, json, os, sys
import h5py, numpy as np
a, b = sys.argv[1], sys.argv[2]
fa, fb = h5py.File(f"{a}/fields.h5", "r"), h5py.File(f"{b}/fields.h5", "r")
assert list(fa.keys()) == list(fb.keys()) and len(fa.keys()) == 8, (list(fa.keys()), list(fb.keys()))
for name in fa.keys():
    ga, gb = fa[name], fb[name]
    assert ga.attrs["step"] == gb.attrs["step"] and ga.attrs["time"] == gb.attrs["time"], name
    assert sorted(ga.keys()) == sorted(gb.keys()), name
    for d in ga.keys():
        x, y = ga[d][...], gb[d][...]
        assert x.dtype == y.dtype and np.array_equal(x.view(np.uint8), y.view(np.uint8)), f"{name}/{d} differs"
ca, cb = h5py.File(f"{a}/checkpoint.h5", "r"), h5py.File(f"{b}/checkpoint.h5", "r")
assert ca.attrs["step"] == cb.attrs["step"] == 2000
pa, pb = ca["populations"][...], cb["populations"][...]
assert np.array_equal(pa.view(np.uint8), pb.view(np.uint8)), "final populations differ"
for k in ("cd", "cl", "force_steps", "frame_times"):
    assert np.array_equal(ca[k][...], cb[k][...]), k
sa, sb = json.load(open(f"{a}/summary.json")), json.load(open(f"{b}/summary.json"))
assert sa["coefficients"] == sb["coefficients"], (sa["coefficients"], sb["coefficients"])
assert sb["restarted_from_step"] == 1000 and sb["steps"] == 2000 and sb["frames"] == sa["frames"] == 8
print("bit-identical:", len(fa.keys()), "frames,", pa.size, "populations, Cd mean", sa["coefficients"]["cd_mean"])
PY
fi

# Another grid, another body, or a finished run cannot be continued: exit 2 with a message, nothing changed.
before=$(cd "$WORK/split" && ls -l --time-style=+%s.%N checkpoint.h5 forces.csv fields.h5)
out=$("$BIN" run "$CASE" "${SMALL[@]}" --set geometry.chord_cells=20 --restart "$WORK/split" --steps 3000 2>&1)
rc=$?
[ $rc -eq 2 ] || fail "restart with another grid: exit $rc, expected 2"
grep -q "lattice" <<<"$out" && grep -q "case.yaml" <<<"$out" || { echo "$out" | tail -3; fail "grid mismatch message"; }
out=$("$BIN" run "$CASE" "${SMALL[@]}" --set physics.angle_of_attack_deg=9 --restart "$WORK/split" --steps 3000 2>&1)
rc=$?
[ $rc -eq 2 ] || fail "restart with another body position: exit $rc, expected 2"
grep -q "another body" <<<"$out" || { echo "$out" | tail -3; fail "geometry mismatch message"; }
out=$("$BIN" run "$CASE" "${SMALL[@]}" --restart "$WORK/split" --steps 2000 2>&1)
[ $? -eq 2 ] && grep -q "at or past the end" <<<"$out" || { echo "$out" | tail -3; fail "restart of a finished run"; }
if [ "$REFINED" = refined ]; then
  out=$("$BIN" run "$CASE" "${SMALL[@]}" --set 'refinement.boxes=[[-0.5,-0.5,1.25,0.5]]' --restart "$WORK/split" --steps 3000 2>&1)
  [ $? -eq 2 ] && grep -q "refinement boxes differ" <<<"$out" || { echo "$out" | tail -3; fail "restart with other boxes"; }
  out=$("$BIN" run "$CASE" "${SMALL[@]}" --set 'refinement.boxes=[]' --restart "$WORK/split" --steps 3000 2>&1)
  [ $? -eq 2 ] && grep -q "population values" <<<"$out" || { echo "$out" | tail -3; fail "restart without the refinement"; }
fi
after=$(cd "$WORK/split" && ls -l --time-style=+%s.%N checkpoint.h5 forces.csv fields.h5)
[ "$before" = "$after" ] || fail "a refused restart touched the run folder"
out=$("$BIN" run "$CASE" "${SMALL[@]}" --restart "$WORK/nothing_here" --steps 2000 2>&1)
[ $? -eq 2 ] && grep -q "cannot read its checkpoint" <<<"$out" || { echo "$out" | tail -3; fail "restart without a checkpoint"; }
echo "ok: restart is bit-identical ($BACKEND${REFINED:+, refined}) and mismatched restarts are refused"
