#!/usr/bin/env bash
# Disk full during a run, simulated with a file-size limit (ulimit -f: writes past it fail with EFBIG, as on a
# full disk). The run stops with exit status 1 and a message naming the file; the frames written before stay
# complete and readable and forces.csv keeps only whole lines.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$@"
# 160 x 80 cells; a frame of the mask alone is ~20 kB, below the 40 kB limit; a checkpoint is ~460 kB.
ARGS=(--backend cpu --set geometry.chord_cells=16 --set physics.reynolds=200 --set output.every=100
      --set output.fields=[mask] --set forces.every=1)

# 1. forces.csv outgrows a 60 kB limit (~100 bytes a line with the moment's two columns) near step 600.
(ulimit -f 60; exec "$BIN" run "$CASE" "${ARGS[@]}" --set checkpoint.every=0 -o "$WORK/a" --steps 5000) \
  > "$WORK/a.log" 2>&1
rc=$?
[ $rc -eq 1 ] || { tail -3 "$WORK/a.log"; fail "forces.csv over the limit: exit $rc, expected 1"; }
grep -q "error: run failed: cannot write '.*forces.csv': File too large" "$WORK/a.log" ||
  { tail -2 "$WORK/a.log"; fail "message does not name forces.csv and the cause"; }
"$PY" "$CHECK" "$WORK/a" || fail "folder inconsistent after the write failure"
"$PY" - "$WORK/a" <<'PY' || fail "earlier frames missing"
import sys, h5py
f = h5py.File(f"{sys.argv[1]}/fields.h5", "r")
assert len(f.keys()) >= 4, list(f.keys())   # a frame every 100 steps up to the failure near step 600
print(len(f.keys()), "frames intact")
PY

# 2. The checkpoint cannot be written: the run stops there, naming checkpoint.h5; no partial checkpoint appears.
(ulimit -f 40; exec "$BIN" run "$CASE" "${ARGS[@]}" --set forces.every=10 --set checkpoint.every=500 -o "$WORK/b" \
  --steps 600) > "$WORK/b.log" 2>&1
rc=$?
[ $rc -eq 1 ] || { tail -3 "$WORK/b.log"; fail "checkpoint over the limit: exit $rc, expected 1"; }
grep -q "checkpoint.h5.*File too large" "$WORK/b.log" || { tail -2 "$WORK/b.log"; fail "message does not name the checkpoint"; }
[ ! -e "$WORK/b/checkpoint.h5" ] && [ ! -e "$WORK/b/checkpoint.h5.tmp" ] || fail "a partial checkpoint was left"
"$PY" "$CHECK" "$WORK/b" || fail "folder inconsistent after the checkpoint failure"
echo "ok: write failures stop the run with the file named; earlier frames intact"
