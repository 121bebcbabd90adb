#!/usr/bin/env bash
# 2 MPI ranks on 2 GPUs against 1 GPU (label gpu; skipped, exit 77, with fewer than 2 GPUs or without mpirun):
# the default case, coarse, must give bit-identical fields and forces within 1e-12.
#   usage: mpi_two_gpus.sh SOURCE_DIR      (AEROLBM = the binary; MPIEXEC = mpirun, default from PATH)
set -uo pipefail
src=$1
bin=${AEROLBM:?set AEROLBM to the aerolbm binary}
mpiexec=${MPIEXEC:-mpirun}
gpus=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU" || true)
if [ "${gpus:-0}" -lt 2 ]; then echo "skipped: needs 2 GPUs, found ${gpus:-0}"; exit 77; fi
command -v "$mpiexec" >/dev/null 2>&1 || { echo "skipped: no $mpiexec"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(--bind-to none)
[ "$(id -u)" = 0 ] && flags+=(--allow-run-as-root)
[ -n "${LD_LIBRARY_PATH:-}" ] && flags+=(-x LD_LIBRARY_PATH)
args=(--backend cuda --steps 2000 --set geometry.chord_cells=96 --set output.every=500 --set "output.formats=[hdf5]"
      --set checkpoint.every=500)
set -e
"$bin" run "$src/cases/naca0012_re1000_aoa5.yaml" -o "$work/one" "${args[@]}" >"$work/one.log" 2>&1 || { cat "$work/one.log"; exit 1; }
for staging in 0 1; do
  # 0: CUDA-aware MPI where the library has it (device buffers), 1: host-staged through pinned buffers.
  export AEROLBM_MPI_HOST_STAGED=$staging
  "$mpiexec" "${flags[@]}" -x AEROLBM_MPI_HOST_STAGED -np 2 "$bin" run "$src/cases/naca0012_re1000_aoa5.yaml" \
    -o "$work/two$staging" "${args[@]}" >"$work/two$staging.log" 2>&1 || { cat "$work/two$staging.log"; exit 1; }
  grep -E "MPI:|done:" "$work/two$staging.log"
  if /usr/bin/python3 -c "import h5py, numpy" 2>/dev/null; then
    /usr/bin/python3 "$src/tests/mpi/compare_runs.py" "$work/one" "$work/two$staging"
  else
    "$bin" compare "$work/one" "$work/two$staging" -o "$work/cmp$staging" --no-plots --fail-above 1e-12 >"$work/cmp.log" 2>&1 \
      || { cat "$work/cmp.log"; exit 1; }
    grep -E "AGREE|DIFFER" "$work/cmp$staging/report.md" | head -3
  fi
done
echo "ok: 2 ranks on 2 GPUs agree with 1 GPU"
