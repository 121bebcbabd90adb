#!/usr/bin/env bash
# Output folder safety: a folder holding a run is not overwritten without --overwrite; --overwrite removes only
# aerolbm's own outputs (other files stay, links are not followed out of the folder); a lock stops a second run
# from writing into a folder a run is using.
set -u
source "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$@"
ARGS=(--backend cpu --set geometry.chord_cells=16 --set physics.reynolds=200 --set output.every=100)

"$BIN" run "$CASE" "${ARGS[@]}" -o "$WORK/run" --steps 200 > "$WORK/1.log" 2>&1 || { tail -3 "$WORK/1.log"; fail "first run"; }
stamp=$(stat -c %Y.%N "$WORK/run/forces.csv")

# 1. No --overwrite: refused, nothing touched.
out=$("$BIN" run "$CASE" "${ARGS[@]}" -o "$WORK/run" --steps 100 2>&1)
rc=$?
[ $rc -eq 2 ] || fail "second run into a run folder: exit $rc, expected 2"
grep -q "already holds a run (case.yaml, summary.json, forces.csv.*Use --overwrite" <<<"$out" || { echo "$out" | tail -2; fail "message"; }
[ "$(stat -c %Y.%N "$WORK/run/forces.csv")" = "$stamp" ] || fail "the refused run touched forces.csv"

# 2. --overwrite replaces the run but keeps the user's files, and does not follow links out of the folder.
mkdir -p "$WORK/outside"
echo keep > "$WORK/outside/fields_000005.vti"
echo keep > "$WORK/outside/frame_000001.h5"
echo mine > "$WORK/run/notes.txt"
echo mine > "$WORK/run/fields/my_plot.png"
rm -rf "$WORK/run/vtk"
ln -s "$WORK/outside" "$WORK/run/vtk"
ln -s "$WORK/outside/frame_000001.h5" "$WORK/run/fields/frame_000007.h5"
"$BIN" run "$CASE" "${ARGS[@]}" -o "$WORK/run" --steps 100 --overwrite > "$WORK/2.log" 2>&1 || { tail -3 "$WORK/2.log"; fail "--overwrite run"; }
[ -f "$WORK/run/notes.txt" ] && [ -f "$WORK/run/fields/my_plot.png" ] || fail "--overwrite removed a file that is not an output"
[ -f "$WORK/outside/fields_000005.vti" ] && [ -f "$WORK/outside/frame_000001.h5" ] || fail "--overwrite deleted outside the folder"
[ -d "$WORK/run/vtk" ] && [ ! -L "$WORK/run/vtk" ] || fail "vtk/ should be a fresh folder"
[ ! -e "$WORK/run/fields/frame_000002.h5" ] && [ ! -L "$WORK/run/fields/frame_000007.h5" ] || fail "stale frames survived --overwrite"
[ "$(grep -c '^[0-9]' "$WORK/run/forces.csv")" = 10 ] || fail "forces.csv is not the new run's"

# 3. A second run cannot take a folder a run is writing to, not even with --overwrite.
"$BIN" run "$CASE" "${ARGS[@]}" -o "$WORK/busy" --steps 1000000 --ignore-resources > "$WORK/3.log" 2>&1 &
pid=$!
for _ in $(seq 600); do [ -s "$WORK/busy/forces.csv" ] && break; sleep 0.05; done
out=$("$BIN" run "$CASE" "${ARGS[@]}" -o "$WORK/busy" --steps 100 --overwrite 2>&1)
rc=$?
[ $rc -eq 2 ] || fail "second run into a busy folder: exit $rc, expected 2"
grep -q "another aerolbm run (process $pid) is writing to this folder" <<<"$out" || { echo "$out" | tail -2; fail "lock message"; }
kill -0 $pid 2>/dev/null || fail "the first run died"
[ -s "$WORK/busy/case.yaml" ] && [ -s "$WORK/busy/forces.csv" ] || fail "the refused run removed the busy run's files"
kill -TERM $pid
wait $pid
[ $? -eq 143 ] || fail "the busy run did not stop cleanly"
# The lock is released with the process: the folder can now be continued.
"$BIN" run "$CASE" "${ARGS[@]}" --restart "$WORK/busy" --steps 1000000 --ignore-resources --set watchdog.every=10 \
  > "$WORK/4.log" 2>&1 &
pid=$!
for _ in $(seq 600); do grep -q "continuing" "$WORK/4.log" && break; sleep 0.05; done
grep -q "continuing" "$WORK/4.log" || { tail -3 "$WORK/4.log"; fail "the lock was not released"; }
kill -TERM $pid; wait $pid
echo "ok: overwrite protection, only own outputs removed, one run per folder"
