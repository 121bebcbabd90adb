#!/usr/bin/env bash
# 2 MPI ranks on 2 GPUs against 1 GPU (label gpu; skipped, exit 77, with fewer than 2 GPUs or without mpirun):
# the default case, coarse, and a small 3D case must give bit-identical fields and forces within 1e-12, with every
# halo transport (CUDA IPC peer copies, host-staged, the automatic choice).
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
compare() {  # compare RUN_A RUN_B
  if /usr/bin/python3 -c "import h5py, numpy" 2>/dev/null; then
    /usr/bin/python3 "$src/tests/mpi/compare_runs.py" "$1" "$2"
  else
    "$bin" compare "$1" "$2" -o "$2.cmp" --no-plots --fail-above 1e-12 >"$work/cmp.log" 2>&1 \
      || { cat "$work/cmp.log"; exit 1; }
    grep -E "AGREE|DIFFER" "$2.cmp/report.md" | head -3
  fi
}
# peer: CUDA IPC copies between the two GPUs (required on a 2-GPU node: the run fails if any link cannot use them);
# staged: through pinned host buffers; auto: what a user gets (CUDA-aware MPI where the library has it).
for transport in peer staged auto; do
  export AEROLBM_MPI_TRANSPORT=$transport
  "$mpiexec" "${flags[@]}" -x AEROLBM_MPI_TRANSPORT -np 2 "$bin" run "$src/cases/naca0012_re1000_aoa5.yaml" \
    -o "$work/two_$transport" "${args[@]}" >"$work/two_$transport.log" 2>&1 || { cat "$work/two_$transport.log"; exit 1; }
  grep -E "MPI:|done:" "$work/two_$transport.log"
  compare "$work/one" "$work/two_$transport"
done
# 3D (D3Q19, the CI Schäfer–Turek cylinder), split along x, with peer copies.
args3=(--backend cuda --steps 300 --set output.every=150 --set "output.formats=[hdf5]" --set checkpoint.every=300)
"$bin" run "$src/cases/ci/schaefer_turek_3d1z.yaml" -o "$work/one3" "${args3[@]}" >"$work/one3.log" 2>&1 \
  || { cat "$work/one3.log"; exit 1; }
AEROLBM_MPI_TRANSPORT=peer "$mpiexec" "${flags[@]}" -x AEROLBM_MPI_TRANSPORT -np 2 "$bin" run \
  "$src/cases/ci/schaefer_turek_3d1z.yaml" -o "$work/two3" "${args3[@]}" >"$work/two3.log" 2>&1 \
  || { cat "$work/two3.log"; exit 1; }
grep -E "MPI:|done:" "$work/two3.log"
compare "$work/one3" "$work/two3"
echo "ok: 2 ranks on 2 GPUs agree with 1 GPU"
