#!/usr/bin/env bash
# Graceful stop: SIGTERM (exit 143) and SIGINT (exit 130) end a run after its current chunk of steps with a
# checkpoint of exactly the step reached, all outputs flushed and summary.json saying "stopped"; --restart then
# finishes it. The same signal twice at once (as `timeout` sends it) is one request. A second signal ends the run at
# once (here while a chunk that spans the whole run is computing).
set -u
source "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$@"
ARGS=(--backend cpu --set geometry.chord_cells=16 --set physics.reynolds=200 --set output.every=200
      --set forces.every=10 --set checkpoint.every=0)

# Starts a run in the background and waits until forces.csv has $2 data lines.
start() {
  "$BIN" run "$CASE" "${ARGS[@]}" "${@:3}" > "$WORK/$1.log" 2>&1 &
  pid=$!
  for _ in $(seq 600); do
    n=$(grep -c '^[0-9]' "$WORK/$1/forces.csv" 2>/dev/null)
    [ "${n:-0}" -ge "$2" ] && return 0
    kill -0 $pid 2>/dev/null || fail "$1 ended before the signal: $(tail -2 "$WORK/$1.log")"
    sleep 0.05
  done
  fail "$1 did not get going"
}

for sig in TERM INT; do
  want=$([ $sig = TERM ] && echo 143 || echo 130)
  start stop_$sig 30 -o "$WORK/stop_$sig" --steps 200000
  kill -$sig $pid
  wait $pid
  rc=$?
  [ $rc -eq $want ] || { tail -3 "$WORK/stop_$sig.log"; fail "SIG$sig: exit $rc, expected $want"; }
  grep -q "Continue with: .*--restart" "$WORK/stop_$sig.log" || fail "SIG$sig: no hint how to continue"
  "$PY" "$CHECK" "$WORK/stop_$sig" || fail "SIG$sig: folder inconsistent"
  "$PY" - "$WORK/stop_$sig" <<'PY' || fail "SIG$sig: checkpoint, summary and forces disagree"
import json, sys, h5py
run = sys.argv[1]
s = json.load(open(f"{run}/summary.json"))
c = h5py.File(f"{run}/checkpoint.h5", "r")
last = [l for l in open(f"{run}/forces.csv") if l[0].isdigit()][-1]
step = int(c.attrs["step"])
assert s["status"] == "stopped" and s["steps"] == step == int(last.split(",")[0]), (s["status"], s["steps"], step, last)
assert 0 < step < 200000 and step % 10 == 0, step
print("stopped at step", step)
PY
done

# The same stop delivered twice at once (as `timeout` does: to the run, then to its process group) is one request:
# the run still finishes its chunk and writes its checkpoint.
start double 30 -o "$WORK/double" --steps 200000
kill -TERM $pid; kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 143 ] || { tail -3 "$WORK/double.log"; fail "two signals at once: exit $rc, expected 143"; }
[ -e "$WORK/double/checkpoint.h5" ] || fail "two signals at once: no checkpoint (taken as a second request)"
grep -q '"status": "stopped"' "$WORK/double/summary.json" || fail "two signals at once: summary not written"
# And through timeout itself (coreutils, not --foreground), late enough that the handlers are installed on a
# loaded machine.
timeout -s TERM 6 "$BIN" run "$CASE" "${ARGS[@]}" --set output.every=0 -o "$WORK/timeout" --steps 5000000 > "$WORK/timeout.log" 2>&1
rc=$?
[ $rc -eq 124 ] || { tail -3 "$WORK/timeout.log"; fail "timeout: exit $rc, expected 124"; }
[ -e "$WORK/timeout/checkpoint.h5" ] || { tail -3 "$WORK/timeout.log"; fail "stopped by timeout: no checkpoint"; }

# --time-limit: the same stop at a given wall time, exit 3 (stopped early, continue with --restart).
"$BIN" run "$CASE" "${ARGS[@]}" -o "$WORK/limit" --steps 200000 --time-limit 2 > "$WORK/limit.log" 2>&1
rc=$?
[ $rc -eq 3 ] || { tail -3 "$WORK/limit.log"; fail "--time-limit: exit $rc, expected 3"; }
grep -q "time limit.*Continue with: .*--restart" "$WORK/limit.log" || fail "--time-limit: no hint how to continue"
"$PY" "$CHECK" "$WORK/limit" || fail "--time-limit: folder inconsistent"
"$PY" - "$WORK/limit" <<'PY' || fail "--time-limit: checkpoint, summary and forces disagree"
import json, sys, h5py
run = sys.argv[1]
s = json.load(open(f"{run}/summary.json"))
step = int(h5py.File(f"{run}/checkpoint.h5", "r").attrs["step"])
assert s["status"] == "stopped" and s["steps"] == step and 0 < step < 200000, (s["status"], s["steps"], step)
PY

# The stopped run continues to the end.
"$BIN" run "$CASE" "${ARGS[@]}" --restart "$WORK/stop_TERM" --steps "$(( $(grep -o '"steps": [0-9]*' "$WORK/stop_TERM/summary.json" | grep -o '[0-9]*$') + 100 ))" \
  > "$WORK/cont.log" 2>&1 || { tail -3 "$WORK/cont.log"; fail "restart after the stop"; }
grep -q '"status": "complete"' "$WORK/stop_TERM/summary.json" || fail "continued run not complete"

# Second signal: with the watchdog and forces this far apart the whole run is one chunk, so the first signal
# waits for its end; the second one must not.
ARGS+=(--set watchdog.every=100000000 --set forces.every=100000000 --set output.every=0)
"$BIN" run "$CASE" "${ARGS[@]}" -o "$WORK/twice" --steps 100000000 --ignore-resources > "$WORK/twice.log" 2>&1 &
pid=$!
for _ in $(seq 600); do grep -q "backend cpu" "$WORK/twice.log" && break; sleep 0.05; done
sleep 0.5
kill -TERM $pid
sleep 1
kill -0 $pid 2>/dev/null || fail "the first signal did not wait for the current chunk"
t0=$(date +%s.%N)
kill -TERM $pid
wait $pid
rc=$?
t1=$(date +%s.%N)
[ $rc -eq 143 ] || fail "second signal: exit $rc, expected 143"
"$PY" -c "import sys; sys.exit(0 if $t1 - $t0 < 2 else 1)" || fail "the second signal did not stop the run at once"
[ ! -e "$WORK/twice/summary.json" ] || fail "the second signal should not have waited for the outputs"
echo "ok: SIGTERM 143 and SIGINT 130 with checkpoint and flushed outputs; second signal immediate"
