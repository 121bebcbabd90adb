#!/usr/bin/env bash
# Crash consistency: a run with frequent output is killed with SIGKILL at random moments, twice; after each kill
# every output file is complete and readable (tests/cli/check_run_folder.py), and --restart continues it. The
# run that was killed twice and continued ends bit-identical to one that ran straight through.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$@"
# 12000 steps: after the checkpoint the second leg waits for, the run must outlast the random delay (up to 0.45 s)
# on a fast, idle machine too (2000 steps once finished first, on a CI run; 4000 steps, 0.75 s on 2 cores since
# the CPU's boundary cells stopped reading their neighbours' flags one by one, did too).
ARGS=(--backend cpu --threads 2 --steps 12000 --set geometry.chord_cells=16 --set physics.reynolds=200
      --set output.every=50 --set forces.every=5 --set checkpoint.every=200)

"$BIN" run "$CASE" "${ARGS[@]}" -o "$WORK/ref" > "$WORK/ref.log" 2>&1 || { tail "$WORK/ref.log"; fail "reference run"; }

for leg in 1 2; do
  before=$(stat -c %y "$WORK/run/checkpoint.h5" 2>/dev/null || echo none)
  if [ $leg = 1 ]; then
    "$BIN" run "$CASE" "${ARGS[@]}" -o "$WORK/run" > "$WORK/leg$leg.log" 2>&1 &
  else
    "$BIN" run "$CASE" "${ARGS[@]}" --restart "$WORK/run" > "$WORK/leg$leg.log" 2>&1 &
  fi
  pid=$!
  # Wait for a new checkpoint, then kill at a random moment in the next stretch of frames and force lines.
  for _ in $(seq 600); do
    now=$(stat -c %y "$WORK/run/checkpoint.h5" 2>/dev/null || echo none)
    [ "$now" != none ] && [ "$now" != "$before" ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.05
  done
  sleep "0.$((RANDOM % 400 + 50))"
  kill -9 $pid 2>/dev/null
  wait $pid 2>/dev/null
  rc=$?
  [ $rc -eq 137 ] || fail "leg $leg: expected the kill (137), got exit $rc (the run finished too fast?)"
  "$PY" "$CHECK" "$WORK/run" || fail "after kill $leg"
done

"$BIN" run "$CASE" "${ARGS[@]}" --restart "$WORK/run" > "$WORK/final.log" 2>&1 || { tail "$WORK/final.log"; fail "final restart"; }
"$PY" "$CHECK" "$WORK/run" || fail "after the final leg"
ls "$WORK/run/fields" "$WORK/run/vtk" | grep -q '\.tmp$' && fail "temp files left after a completed run"
diff <(grep -v '^#' "$WORK/ref/forces.csv") <(grep -v '^#' "$WORK/run/forces.csv") > /dev/null || fail "forces.csv differs"
for f in "$WORK"/ref/vtk/*.vti; do cmp -s "$f" "$WORK/run/vtk/$(basename "$f")" || fail "$(basename "$f") differs"; done
# Every HDF5 frame dataset by dataset, in one Python process (one per frame cost a second each on 2 cores).
"$PY" - "$WORK/ref/fields" "$WORK/run/fields" <<'PY' || fail "HDF5 frames differ"
import os, sys, h5py, numpy as np
ref, run = sys.argv[1], sys.argv[2]
names = sorted(n for n in os.listdir(ref) if n.endswith(".h5"))
assert names, "no HDF5 frames in the reference run"
for n in names:
    a, b = h5py.File(os.path.join(ref, n), "r"), h5py.File(os.path.join(run, n), "r")
    assert sorted(a.keys()) == sorted(b.keys()), n
    for k in a.keys():
        assert np.array_equal(a[k][...], b[k][...]), f"{n}: {k}"
print(len(names), "HDF5 frames equal")
PY
[ "$(ls "$WORK/ref/fields" | wc -l)" = "$(ls "$WORK/run/fields" | wc -l)" ] || fail "frame count differs"
echo "ok: two kill -9 left consistent folders; the continued run equals the uninterrupted one"
