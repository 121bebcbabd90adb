#!/usr/bin/env bash
# Multi-GPU session for a host with 2 GPUs and Open MPI: 2 ranks on 2 GPUs against 1 GPU (bit-identical), then
# weak scaling (256³ D3Q19 fp32 per GPU) and strong scaling (one grid on 1 and 2 GPUs) with the automatic halo
# transport (CUDA IPC peer copies between the GPUs of one node); STAGED=1 adds the host-staged runs for comparison.
# Logs and JSON go to $OUT (default ./mpi-gpu-logs).
#   usage, from the repository root:  bash scripts/mpi_gpu_session.sh
# The binary: $AEROLBM, else ./bundle/bin/aerolbm (a bundle of a CUDA + MPI build, made where the libraries are:
#   cmake -S . -B build-g -G Ninja -DAEROLBM_MPI=ON -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build build-g &&
#   cmake --install build-g --prefix bundle
# The bundle leaves Open MPI out: this host's libmpi.so.40 is found next to its mpirun.)
set -uo pipefail
OUT=${OUT:-$PWD/mpi-gpu-logs}
mkdir -p "$OUT"
A=${AEROLBM:-$PWD/bundle/bin/aerolbm}
MPIRUN=${MPIRUN:-$(command -v mpirun)}
mpi_lib=$(dirname "$(dirname "$(readlink -f "$MPIRUN")")")/lib
export LD_LIBRARY_PATH=$mpi_lib:$(dirname "$(dirname "$A")")/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
flags=(--bind-to none -x LD_LIBRARY_PATH -x AEROLBM_MPI_TRANSPORT)
[ "$(id -u)" = 0 ] && flags+=(--allow-run-as-root)
log() { echo "== $*" | tee -a "$OUT/session.log"; }
log "$(date -u) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tr '\n' ' ')"
log "$("$MPIRUN" --version 2>&1 | head -1); ompi_info cuda: $(ompi_info --parsable --all 2>/dev/null | grep -m1 mpi_built_with_cuda_support:value)"
ldd "$A" | grep -E "mpi|not found" | tee -a "$OUT/session.log"

log "correctness: 2 ranks on 2 GPUs against 1 GPU (tests/gpu/mpi_two_gpus.sh), CUDA-aware where available and host-staged"
AEROLBM=$A MPIEXEC=$MPIRUN timeout 300 bash tests/gpu/mpi_two_gpus.sh "$PWD" 2>&1 | tee "$OUT/two_gpus.log" | tail -8
echo "exit ${PIPESTATUS[0]}" | tee -a "$OUT/session.log"

bench() {  # bench NAME ARGS...: one bench run, its table in the log and its JSON in $OUT/NAME.json
  local name=$1
  shift
  log "$name: $*"
  timeout 240 "$@" --lattice D3Q19 --precision fp32 --variants pull --steps 200 --repeats 5 --json "$OUT/$name.json" \
    2>&1 | tee "$OUT/$name.log" | grep -vE "^aerolbm bench"
}
log "weak scaling: 256³ = 16,777,216 cells per GPU"
export AEROLBM_MPI_TRANSPORT=auto
bench weak_1gpu "$A" bench --backend cuda --cells 16777216
bench weak_2gpu "$MPIRUN" "${flags[@]}" -np 2 "$A" bench --backend cuda --cells 16777216 --scaling weak
[ -n "${STAGED:-}" ] && AEROLBM_MPI_TRANSPORT=staged bench weak_2gpu_staged "$MPIRUN" "${flags[@]}" -np 2 "$A" bench --backend cuda --cells 16777216 --scaling weak
log "strong scaling: 512 x 512 x 512 = 134,217,728 cells on 1 and on 2 GPUs"
bench strong_1gpu "$A" bench --backend cuda --cells 134217728
bench strong_2gpu "$MPIRUN" "${flags[@]}" -np 2 "$A" bench --backend cuda --cells 134217728 --scaling strong
[ -n "${STAGED:-}" ] && AEROLBM_MPI_TRANSPORT=staged bench strong_2gpu_staged "$MPIRUN" "${flags[@]}" -np 2 "$A" bench --backend cuda --cells 134217728 --scaling strong

log "strong scaling of a real case: default airfoil at chord 512 (13 M cells, D2Q9), 3000 steps, no field output"
for np in 1 2; do
  "$MPIRUN" "${flags[@]}" -np $np "$A" run cases/naca0012_re1000_aoa5.yaml --backend cuda --steps 3000 \
    --set geometry.chord_cells=512 --set output.every=0 --set checkpoint.every=0 -o "/tmp/mpi_case_np$np" --overwrite \
    > "$OUT/case_np$np.log" 2>&1
  grep -E "MPI:|done:" "$OUT/case_np$np.log" | sed "s/^/np=$np: /" | tee -a "$OUT/session.log"
done

log "summary (efficiency = MLUPs on 2 GPUs / (2 x MLUPs on 1); speed-up = MLUPs on 2 / MLUPs on 1)"
/usr/bin/env python3 - "$OUT" <<'PY' | tee -a "$OUT/session.log"
import json, os, sys
out = sys.argv[1]
def mlups(name):
    try:
        return json.load(open(os.path.join(out, name + ".json")))["results"][0]["mlups"]
    except Exception:
        return None
w1, s1 = mlups("weak_1gpu"), mlups("strong_1gpu")
for kind, base in (("weak", w1), ("strong", s1)):
    for suffix, how in (("", "default transport"), ("_staged", "host-staged")):
        m = mlups(f"{kind}_2gpu{suffix}")
        if base and m:
            ratio = m / (2 * base) if kind == "weak" else m / base
            label = "efficiency" if kind == "weak" else "speed-up"
            print(f"{kind:6s} {how:18s}: 1 GPU {base:9.0f} MLUPs, 2 GPUs {m:9.0f} MLUPs, {label} "
                  f"{ratio * 100 if kind == 'weak' else ratio:.3g}{' %' if kind == 'weak' else 'x'}")
PY
log "end $(date -u)"
