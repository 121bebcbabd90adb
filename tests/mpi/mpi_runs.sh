#!/usr/bin/env bash
# MPI runs against one process (label mpi): the same case run by one process and by mpirun -np N must give
# bit-identical field frames and final populations, and forces within 1e-12 relative (tests/mpi/compare_runs.py).
# The HDF5 frames of the MPI runs are written collectively (every rank its block) in builds with a parallel HDF5,
# gathered to rank 0 otherwise: AEROLBM_HDF5_OUTPUT (collective | gathered, set by ctest from the build) is the
# path each MPI run's log must name, so a collective build cannot silently fall back.
#   usage: mpi_runs.sh SOURCE_DIR 2d|3d|restart      (AEROLBM, MPIEXEC from ctest; /usr/bin/python3 with h5py)
# Small grids and a few hundred steps: each scenario takes seconds on 2 cores (oversubscribed).
set -euo pipefail
src=$1
mode=$2
bin=${AEROLBM:?set AEROLBM to the aerolbm binary}
mpiexec=${MPIEXEC:-mpirun}
py=${AEROLBM_PYTHON:-/usr/bin/python3}
hdf5_output=${AEROLBM_HDF5_OUTPUT:-}
case "$hdf5_output" in
  collective) hdf5_line="HDF5 frames written collectively by" ;;
  gathered) hdf5_line="HDF5 frames gathered to rank 0" ;;
  "") hdf5_line="" ;;
  *) echo "AEROLBM_HDF5_OUTPUT must be collective or gathered, got '$hdf5_output'" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Open MPI: more ranks than cores is fine here; CI runs as root; containers often forbid the single-copy (CMA)
# mechanism of the shared-memory transport.
mpi_flags=(--oversubscribe --bind-to none --mca btl_vader_single_copy_mechanism none)
[ "$(id -u)" = 0 ] && mpi_flags+=(--allow-run-as-root)
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMP_NUM_THREADS=1

serial() { "$bin" run "$@" --backend cpu --threads 1 >"$work/log_serial_$$" 2>&1 || { cat "$work/log_serial_$$"; exit 1; }; }
ranks() {  # ranks N ARGS...
  local n=$1
  shift
  local log="$work/log_np$n"
  if ! "$mpiexec" "${mpi_flags[@]}" -np "$n" "$bin" run "$@" --backend cpu --threads 1 >"$log" 2>&1; then
    echo "mpirun -np $n failed:"
    cat "$log"
    exit 1
  fi
  # Only rank 0 logs: one "done" line, not one per rank.
  local done_lines
  done_lines=$(grep -c "done:" "$log" || true)
  if [ "$done_lines" != 1 ] && ! grep -q "continuing" "$log"; then
    echo "expected one 'done:' line from rank 0, got $done_lines:"
    cat "$log"
    exit 1
  fi
  # Which HDF5 output path the run took (every scenario writes HDF5 frames), said once, by rank 0.
  if [ -n "$hdf5_line" ] && [ "$(grep -c "$hdf5_line" "$log" || true)" != 1 ]; then
    echo "expected the log line '$hdf5_line' once (AEROLBM_HDF5_OUTPUT=$hdf5_output):"
    cat "$log"
    exit 1
  fi
}
same() { "$py" "$src/tests/mpi/compare_runs.py" "$@"; }

case "$mode" in
  2d)
    # The default case, coarse: interpolated walls, velocity inlet, pressure outlet, slip faces. Every field, the
    # derivatives (vorticity, Q) included: at block faces they read the neighbour rank's cells. VTK frames too
    # (gathered to rank 0 beside the HDF5 frames; compared byte for byte), and the mean fields (output.averages:
    # accumulated per rank, gathered to rank 0).
    naca=(--steps 300 --set geometry.chord_cells=24 --set output.every=100 --set "output.formats=[hdf5, vtk]"
          --set "output.fields=[velocity, pressure, density, vorticity, q_criterion, mask]" --set checkpoint.every=100
          --set output.averages.enabled=true)
    serial "$src/cases/naca0012_re1000_aoa5.yaml" -o "$work/one" "${naca[@]}"
    ranks 2 "$src/cases/naca0012_re1000_aoa5.yaml" -o "$work/np2" "${naca[@]}"
    grep -q "split 2x1x1" "$work/log_np2" || { echo "expected slabs along x by default"; cat "$work/log_np2"; exit 1; }
    same "$work/one" "$work/np2"
    ranks 3 "$src/cases/naca0012_re1000_aoa5.yaml" -o "$work/np3" "${naca[@]}" --ranks-grid 1x3
    same "$work/one" "$work/np3"
    # 2 x 2 blocks: the corner ghosts are filled through the face neighbours.
    ranks 4 "$src/cases/naca0012_re1000_aoa5.yaml" -o "$work/np4" "${naca[@]}" --ranks-grid 2x2
    same "$work/one" "$work/np4"
    # Bad input under mpirun: exit 2, one message (rank 0's), nothing written.
    for bad in "--ranks-grid 3x1" "--ranks-grid 1x1x2" "--set lattice.kernel=aa"; do
      set +e
      # shellcheck disable=SC2086
      "$mpiexec" "${mpi_flags[@]}" -np 2 "$bin" run "$src/cases/naca0012_re1000_aoa5.yaml" -o "$work/bad" "${naca[@]}" \
        $bad --backend cpu >"$work/log_bad" 2>&1
      status=$?
      set -e
      n=$(grep -c "^error:" "$work/log_bad" || true)
      if [ $status != 2 ] || [ "$n" != 1 ] || [ -e "$work/bad" ]; then
        echo "$bad: expected exit 2, one error line and no run folder; got exit $status, $n lines:"
        cat "$work/log_bad"
        exit 1
      fi
    done
    ;;
  3d)
    # D3Q19 cylinder between no-slip walls (open inlet/outlet), and the same body in a box periodic in every
    # direction driven by a body force (periodic axes split over ranks wrap through MPI neighbours).
    cat >"$work/cyl3d.yaml" <<'YAML'
schema_version: 1
case: {name: cylinder3d_mpi}
physics: {reynolds: 40, mach: 0.1}
geometry: {type: cylinder, diameter_cells: 8}
domain: {size_chords: [5, 2.5, 0.75], body_position_chords: [1.5, 1.25, 0.375]}
lattice: {stencil: D3Q19, collision: trt, kernel: pull}
boundaries: {inlet: velocity, outlet: pressure, lateral: wall, wall: interpolated}
time: {steps: 120}
output: {every: 60, formats: [hdf5], fields: [velocity, pressure, density, vorticity, q_criterion, mask]}
forces: {every: 5}
checkpoint: {every: 60}
YAML
    serial "$work/cyl3d.yaml" -o "$work/one"
    ranks 2 "$work/cyl3d.yaml" -o "$work/np2"
    same "$work/one" "$work/np2"
    ranks 3 "$work/cyl3d.yaml" -o "$work/np3" --ranks-grid 1x1x3
    same "$work/one" "$work/np3"
    sed -e 's/inlet: velocity, outlet: pressure, lateral: wall/inlet: periodic, outlet: periodic, lateral: periodic/' \
        -e 's/mach: 0.1}/mach: 0.1, body_force: [2.0e-5, 0, 0]}/' "$work/cyl3d.yaml" >"$work/box3d.yaml"
    serial "$work/box3d.yaml" -o "$work/box1"
    ranks 2 "$work/box3d.yaml" -o "$work/box2" --ranks-grid 2x1x1
    same "$work/box1" "$work/box2"
    ranks 3 "$work/box3d.yaml" -o "$work/box3" --ranks-grid 1x3x1
    same "$work/box1" "$work/box3"
    ;;
  restart)
    # A checkpoint holds the whole grid: written by 2 ranks at step 200 (a frame step, so the frames line up) it continues on 3, written by 3 on one process, and
    # both end bit-identical to an uninterrupted single-process run.
    naca=(--set geometry.chord_cells=24 --set output.every=100 --set "output.formats=[hdf5]" --set checkpoint.every=100
          --set "output.fields=[velocity, pressure, vorticity, q_criterion, mask]")
    case=$src/cases/naca0012_re1000_aoa5.yaml
    serial "$case" -o "$work/one" --steps 300 "${naca[@]}"
    ranks 2 "$case" -o "$work/a" --steps 200 "${naca[@]}"
    ranks 3 "$case" --restart "$work/a" --steps 300 "${naca[@]}"
    same "$work/one" "$work/a"
    ranks 3 "$case" -o "$work/b" --steps 200 "${naca[@]}"
    serial "$case" --restart "$work/b" --steps 300 "${naca[@]}"
    same "$work/one" "$work/b"
    ;;
  *)
    echo "usage: $0 SOURCE_DIR 2d|3d|restart" >&2
    exit 2
    ;;
esac
echo "ok: $mode"
