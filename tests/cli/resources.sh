#!/usr/bin/env bash
# Resource estimates before a run: a run that needs more host memory than MemAvailable, or more disk than the
# output folder's file system has free, is refused with exit status 2 and the numbers, before anything is
# allocated or written (the output folder is not even created).
set -u
source "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$@"

# A periodic D3Q27 box of 1536^3 cells in fp64: two lattices alone are 1.6 TB.
cat > "$WORK/box.yaml" <<'YAML'
schema_version: 1
case: {name: huge_box}
physics: {reynolds: 100, mach: 0.05}
geometry: {type: none, reference_cells: 32}
domain: {size_chords: [48, 48, 48]}
lattice: {stencil: D3Q27, precision: fp64}
boundaries: {inlet: periodic, outlet: periodic, lateral: periodic}
time: {steps: 10}
output: {every: 0}
YAML
out=$(ulimit -v 4000000; "$BIN" run "$WORK/box.yaml" --backend cpu -o "$WORK/huge" 2>&1)
rc=$?
[ $rc -eq 2 ] || { echo "$out" | tail -3; fail "huge grid: exit $rc, expected 2"; }
grep -q "not enough host memory: the run needs about [0-9.]* TB" <<<"$out" && grep -q "is available (MemAvailable)" <<<"$out" ||
  { echo "$out" | tail -3; fail "host memory message lacks the numbers"; }
[ ! -e "$WORK/huge" ] || fail "the refused run created its output folder"

# A small grid with a frame every step for ten million steps: far more output than any test disk holds.
out=$("$BIN" run "$SRC/cases/naca0012_re1000_aoa5.yaml" --backend cpu -o "$WORK/many" --steps 10000000 \
      --set geometry.chord_cells=16 --set physics.reynolds=200 --set output.every=1 2>&1)
rc=$?
[ $rc -eq 2 ] || { echo "$out" | tail -3; fail "huge output: exit $rc, expected 2"; }
grep -q "not enough disk space for the outputs in .*: about .* (10000000 frames x .* kB, checkpoint" <<<"$out" &&
  grep -q "is free. Raise output.every" <<<"$out" || { echo "$out" | tail -3; fail "disk message lacks the numbers"; }
[ ! -e "$WORK/many" ] || fail "the refused run created its output folder"
echo "ok: runs that do not fit are refused with the numbers"
