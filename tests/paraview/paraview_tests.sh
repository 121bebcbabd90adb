#!/usr/bin/env bash
# The ParaView test, in a real ParaView (Debian's paraview + python3-paraview, which scripts/setup.sh test unpacks
# into BUILD/paraview; pvpython is $PVPYTHON, else that prefix's (AEROLBM_PVPYTHON from ctest), else one on PATH):
# a small run is opened with pvpython through fields.pvd and fields.xdmf (arrays, ranges, times as written in
# fields.h5), rendered with postprocess/paraview/render_views.py and through the committed state file, and the
# images are checked not to be blank; the run's mean fields (RUN/mean, output.averages) open in both readers with
# their arrays and render; an output.precision: fp16 run's fields.xdmf opens with the 16-bit values; a refined
# run's levels open, each on its own grid, and together as one AMR data set. Anything
# ParaView prints as a warning or error fails the test.
# Skips (exit 77) only when pvpython or Xvfb is genuinely absent.
set -eu
SRC=$1
BIN=${AEROLBM:?set AEROLBM to the aerolbm binary}
if [ -z "${PVPYTHON:-}" ] && [ -x "${AEROLBM_PVPYTHON:-}" ]; then PVPYTHON=$AEROLBM_PVPYTHON; fi
PVPYTHON=${PVPYTHON:-$(command -v pvpython || true)}
if [ -z "$PVPYTHON" ] || ! command -v Xvfb >/dev/null; then
  echo "SKIP: pvpython or Xvfb not found (scripts/setup.sh test unpacks ParaView into the build folder and"
  echo "      installs xvfb; or set PVPYTHON to a pvpython)"
  exit 77
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
"$BIN" run "$SRC/cases/naca0012_re1000_aoa5.yaml" --backend cpu -o "$WORK/run" --steps 300 \
  --set output.every=100 --set geometry.chord_cells=32 --set output.averages.enabled=true > "$WORK/run.log" 2>&1 ||
  { cat "$WORK/run.log"; exit 1; }
/usr/bin/python3 "$SRC/tests/paraview/expected_arrays.py" "$WORK/run" "$WORK/expected.json"
/usr/bin/python3 "$SRC/tests/paraview/expected_arrays.py" "$WORK/run/mean" "$WORK/expected_mean.json"

# Debian's ParaView renders through X (no EGL/OSMesa build): a virtual X server stands in for a display. The test
# runs its own Xvfb rather than xvfb-run: `-displayfd` picks a free display and reports its number only once the
# server accepts connections, and `-ac` needs no xauth cookie. (In one CI run xvfb-run's server was unreachable on
# both attempts, "bad X server connection"; the server's log was not kept, so now it is printed on failure.)
XPID=
start_x() {
  stop_x
  : > "$WORK/xdisplay"
  Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp -ac -noreset 3> "$WORK/xdisplay" 2> "$WORK/xvfb.log" &
  XPID=$!
  local i
  for i in $(seq 300); do
    [ -s "$WORK/xdisplay" ] && break
    kill -0 "$XPID" 2>/dev/null || break
    sleep 0.1
  done
  if [ ! -s "$WORK/xdisplay" ]; then
    echo "Xvfb did not start (its log follows)"; cat "$WORK/xvfb.log"; return 1
  fi
  export DISPLAY=":$(head -n1 "$WORK/xdisplay")"
}
stop_x() {
  if [ -n "$XPID" ]; then kill "$XPID" 2>/dev/null || true; wait "$XPID" 2>/dev/null || true; XPID=; fi
}
trap 'stop_x; rm -rf "$WORK"' EXIT
pvcheck() {
  local rc=0 attempt
  : > "$WORK/pv.out"; : > "$WORK/pv.err"
  # A virtual X server that is not reachable ("bad X server connection") is a failure of the test harness, not of
  # the files: try again with a fresh server in that case only, and show the server's log.
  for attempt in 1 2 3; do
    rc=0
    start_x || { rc=1; continue; }
    "$PVPYTHON" "$SRC/tests/paraview/pv_check.py" "$@" > "$WORK/pv.out" 2> "$WORK/pv.err" || rc=$?
    grep -q "bad X server connection" "$WORK/pv.err" || break
    echo "pvcheck: the virtual X server ($DISPLAY) was not reachable (attempt $attempt); Xvfb's log:"
    cat "$WORK/xvfb.log"
  done
  stop_x
  cat "$WORK/pv.out"
  if [ $rc -ne 0 ]; then
    echo "pvpython failed (exit status $rc):"; cat "$WORK/pv.err"; exit 1
  fi
  # VTK/ParaView messages: "Warning: In ...", "ERROR: In ...", or loguru's "WARN|" / "ERR|" columns.
  if grep -E "Warning|WARN\||ERROR|ERR\||Traceback" "$WORK/pv.err"; then
    echo "ParaView printed warnings or errors while opening or rendering the run (above)"; exit 1
  fi
}
pvcheck "$WORK/run" "$WORK/expected.json" "$WORK/images"
pvcheck state "$WORK/run" "$WORK/images"
# The mean fields (output.averages): RUN/mean opens in both readers with its arrays, and its views render.
pvcheck mean "$WORK/run" "$WORK/expected_mean.json" "$WORK/images/mean"
# output.precision: fp16: the HDF5 floats are IEEE half; the XDMF reader gets them as 32-bit floats, the same values.
"$BIN" run "$SRC/cases/naca0012_re1000_aoa5.yaml" --backend cpu -o "$WORK/run16" --steps 200 \
  --set output.every=100 --set geometry.chord_cells=32 --set output.precision=fp16 > "$WORK/run16.log" 2>&1 ||
  { cat "$WORK/run16.log"; exit 1; }
/usr/bin/python3 "$SRC/tests/paraview/expected_arrays.py" "$WORK/run16" "$WORK/expected16.json"
pvcheck xdmf "$WORK/run16" "$WORK/expected16.json"
# A refined run (refinement.boxes, two levels): level 0's frames as any run's, each level's own frames in
# RUN/levels/level<N>/ open in both readers with their grids, origins, arrays and ranges.
"$BIN" run "$SRC/cases/naca0012_re1000_aoa5_refined.yaml" --backend cpu -o "$WORK/refined" --steps 200 \
  --set output.every=100 > "$WORK/refined.log" 2>&1 || { cat "$WORK/refined.log"; exit 1; }
/usr/bin/python3 "$SRC/tests/paraview/expected_arrays.py" "$WORK/refined" "$WORK/expected_refined.json"
pvcheck xdmf "$WORK/refined" "$WORK/expected_refined.json"
for level in 1 2; do
  /usr/bin/python3 "$SRC/tests/paraview/expected_arrays.py" "$WORK/refined/levels/level$level" "$WORK/expected_l$level.json"
  pvcheck level "$WORK/refined/levels/level$level" "$WORK/expected_l$level.json"
done
# ... and all three as one overlapping AMR data set (vtk/fields_<N>.vthb), the levels tiling the domain.
pvcheck amr "$WORK/refined" "$WORK/expected_refined.json" 3
# 3D: the CI wing (surface Cp polydata, Q-criterion iso-surface) through postprocess/paraview/render_wing.py.
"$BIN" run "$SRC/cases/ci/wing_naca0012_ar4.yaml" --backend cpu -o "$WORK/wing" --steps 400 \
  --set output.every=200 --set "output.fields=[velocity,pressure,vorticity,q_criterion,mask]" \
  --set output.formats=[vtk] > "$WORK/wing.log" 2>&1 || { cat "$WORK/wing.log"; exit 1; }
pvcheck wing "$WORK/wing" "$WORK/images"
echo "paraview: all checks passed"
