#!/usr/bin/env bash
# compute-sanitizer over every kernel variant: memcheck and initcheck for pull, aa and tiled, racecheck for the
# tiled kernel (the one with shared memory), on short runs of the default case with output (so the macroscopic,
# frame-field (kernels/cuda/frame_fields.cu), force, watchdog and transfer kernels run too, racecheck included)
# and in fp16s storage. Any reported error fails the test.
# Usage: AEROLBM=path/to/aerolbm sanitizers.sh SOURCE_DIR   (skips with 77 without compute-sanitizer)
set -u
SRC=$1
BIN=${AEROLBM:?set AEROLBM to the aerolbm binary}
SAN=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
[ -x "$SAN" ] || { echo "SKIP: compute-sanitizer not found"; exit 77; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failed=0
# Specs: KERNEL[/PRECISION][+BOUNDARY_PASS]:TOOL (+one: the one-pass kernel; the default, roles: list blocks and
# interior blocks in one launch; +split: the interior kernel, then the list kernel overlapping its tail; the force samples of the two-lattice variants run on a second stream beside the
# next step, so racecheck and synccheck see the two overlap). SAN_SPECS and SAN_WING pick a subset (device time is
# scarce).
for spec in ${SAN_SPECS:-pull:memcheck pull:initcheck pull:racecheck pull:synccheck pull+one:memcheck \
            pull+split:memcheck pull+split:racecheck pull+split:synccheck \
            pull+one:initcheck aa:memcheck aa:initcheck aa:racecheck aa+one:memcheck aa+one:initcheck \
            tiled:memcheck tiled:initcheck tiled:racecheck aa/fp16s:memcheck pull/fp16s:memcheck \
            pull/fp16s+one:memcheck}; do
  variant=${spec%%:*} tool=${spec##*:}
  mode=roles
  case $variant in *+*) mode=${variant##*+}; variant=${variant%+*} ;; esac
  kernel=${variant%%/*} precision=fp32
  [ "$variant" != "$kernel" ] && precision=${variant##*/}
  log="$WORK/${kernel}_${precision}_${mode}_$tool.log"
  rc=0
  AEROLBM_BOUNDARY_PASS=$mode "$SAN" --tool "$tool" --error-exitcode 9 "$BIN" run "$SRC/cases/naca0012_re1000_aoa5.yaml" --backend cuda \
    --steps 24 -o "$WORK/run_${kernel}_${precision}_${mode}_$tool" --set output.every=12 --set geometry.chord_cells=32 \
    --set lattice.kernel="$kernel" --set lattice.precision="$precision" > "$log" 2>&1 || rc=$?
  summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -n 1)
  echo "$kernel $precision $mode $tool: exit $rc ${summary:-}"
  if [ $rc -ne 0 ]; then failed=1; tail -n 30 "$log"; fi
done
# 3D: the mesh voxeliser kernel, the D3Q19 kernels with the Smagorinsky model, per-cell wall forces (moments,
# spanwise loads) and the surface output, on the CI wing.
# (3D: pull splits by default, the inlet and outlet nodes in its plane kernel.)
for tool in ${SAN_WING:-memcheck initcheck one:memcheck roles:memcheck split:racecheck aa+roles:memcheck}; do
  mode=split kernel=pull
  case $tool in aa+*) kernel=aa; tool=${tool#aa+} ;; esac
  case $tool in *:*) mode=${tool%%:*}; tool=${tool#*:} ;; esac
  log="$WORK/wing_${kernel}_${mode}_$tool.log"
  rc=0
  AEROLBM_BOUNDARY_PASS=$mode "$SAN" --tool "$tool" --error-exitcode 9 "$BIN" run "$SRC/cases/ci/wing_naca0012_ar4.yaml" --backend cuda \
    --steps 10 -o "$WORK/run_wing_${kernel}_${mode}_$tool" --set output.every=5 --set forces.every=5 \
    --set lattice.les.model=smagorinsky --set lattice.kernel=$kernel > "$log" 2>&1 || rc=$?
  summary=$(grep -E "ERROR SUMMARY" "$log" | tail -n 1)
  echo "wing D3Q19 les $kernel $mode $tool: exit $rc ${summary:-}"
  if [ $rc -ne 0 ]; then failed=1; tail -n 30 "$log"; fi
done
[ $failed = 0 ] && echo "compute-sanitizer: no errors" || { echo "FAIL: compute-sanitizer reported errors"; exit 1; }
