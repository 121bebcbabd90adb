#!/usr/bin/env bash
# The divergence watchdog: a case known to blow up (the default case on TRT at tau 0.517 diverges near step 1000)
# stops with exit status 1, the step, the first bad cell and what to change; the frames before it stay readable.
set -u
SRC=$1
BIN=${AEROLBM:?set AEROLBM to the aerolbm binary}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
out=$("$BIN" run "$SRC/cases/naca0012_re1000_aoa5.yaml" --backend cpu -o "$WORK/run" --steps 1600 \
      --set lattice.collision=trt --set output.every=400 --set output.formats=[hdf5] 2>&1)
rc=$?
[ $rc -eq 1 ] || { echo "expected exit status 1, got $rc"; echo "$out" | tail -5; exit 1; }
for want in "diverged by step" "first bad cell" "reference lengths from the body pivot" "chord_cells"; do
  grep -qF "$want" <<<"$out" || { echo "message lacks '$want':"; echo "$out" | tail -3; exit 1; }
done
[ -s "$WORK/run/fields.h5" ] || { echo "frames written before the divergence are missing"; exit 1; }
echo "ok: $(grep -o 'diverged by step [0-9]*' <<<"$out")"
