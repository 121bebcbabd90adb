#!/usr/bin/env bash
# The Python module on a GPU host, in one call (about 3 minutes): builds aerolbm._core for this host's python3
# against the install bundle (its lib/libaerolbm_session.so holds the solver and the CUDA backend, so only the
# binding, one C++ file, is compiled here: no CUDA build), then
#   1. the GPU tests of the module (tests/python/test_gpu.py: zero-copy DLPack / __cuda_array_interface__ to
#      PyTorch, CuPy, Numba, JAX; the GPU's results against the CPU's),
#   2. the same D2Q9 BGK step in NumPy, PyTorch eager and torch.compile, Numba-CUDA, a CuPy RawKernel, JAX jit and
#      aerolbm's kernel, checked and timed side by side (examples/python/compare_steps.py: docs/python_vs_cuda.md),
#   3. the PyTorch training loop on fields streamed from a running simulation (examples/python/train_on_stream.py),
#   4. PyTorch's attention backends (math, FlashAttention-2, cuDNN) beside `aerolbm bench attention`.
# Usage on the GPU host, from the repository root, with the install bundle (cmake --install build --prefix bundle)
# in ./bundle:
#   bash scripts/python_gpu_session.sh          (logs go to $OUT, or ./gpu-logs: 8 files)
# PYTHON picks the interpreter (default python3), AEROLBM_BUNDLE the bundle, SECTIONS the parts (default: all of
# build tests steps train attention; build is always done).
set -uo pipefail
OUT=${OUT:-$PWD/gpu-logs}
mkdir -p "$OUT"
B=${AEROLBM_BUNDLE:-$PWD/bundle}
PY=$(command -v "${PYTHON:-python3}")
BUILD=${AEROLBM_PYTHON_BUILD:-/tmp/aerolbm-python-build}
SECTIONS=${SECTIONS:-tests steps train attention}
LOG=$OUT/python_session.log
# cuBLAS (the surrogate's CUDA path) comes from the host's toolkit, as in scripts/gpu_session.sh.
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 AEROLBM=$B/bin/aerolbm AEROLBM_CASES=$PWD/cases
export XLA_PYTHON_CLIENT_PREALLOCATE=false  # JAX takes memory as it needs it, beside PyTorch and CuPy
T0=$(date +%s)
DEADLINE=${DEADLINE_S:-230}  # the whole call stays under 4 minutes: each part gets at most what is left
want() { case " $SECTIONS " in *" $1 "*) return 0 ;; esac; return 1; }
left() {  # seconds for the next part: at most $1, at least 5, never past the deadline
  local rest=$(( DEADLINE - ($(date +%s) - T0) ))
  [ "$rest" -lt "$1" ] && echo $(( rest > 5 ? rest : 5 )) || echo "$1"
}
log() { echo "== [$(( $(date +%s) - T0 )) s] $*" | tee -a "$LOG"; }

log "$(date -u) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
log "python $("$PY" -c 'import sys; print(sys.version.split()[0])') at $PY"
if [ ! -f "$B/lib/libaerolbm_session.so" ]; then
  log "error: $B/lib/libaerolbm_session.so is missing: install the bundle from a build of this commit (AEROLBM_PYTHON" \
      "is on by default): cmake --install build --prefix bundle"
  exit 2
fi

log "build: aerolbm._core for this python against $B/lib/libaerolbm_session.so (python/CMakeLists.txt)"
pybind11_dir=$("$PY" -m pybind11 --cmakedir 2>/dev/null)
generator=()
command -v ninja >/dev/null 2>&1 && generator=(-G Ninja)
{
  timeout 150 cmake -S python -B "$BUILD" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release "-DAEROLBM_BUNDLE=$B" \
    "-DPython_EXECUTABLE=$PY" "-Dpybind11_DIR=$pybind11_dir" && timeout 150 cmake --build "$BUILD"
} > "$OUT/build.log" 2>&1
rc=$?
log "build exit $rc"
if [ $rc -ne 0 ]; then tail -n 30 "$OUT/build.log" | tee -a "$LOG"; exit 1; fi
export PYTHONPATH=$BUILD${PYTHONPATH:+:$PYTHONPATH}
"$PY" -c "import aerolbm; i = aerolbm.build_info(); print('aerolbm', i['version'], 'from', aerolbm.__file__); print(i['devices'])" 2>&1 | tee -a "$LOG"

if want tests; then
  log "tests/python/test_gpu.py"
  timeout "$(left 60)" "$PY" -m pytest -q -p no:cacheprovider -rs tests/python/test_gpu.py > "$OUT/pytest.log" 2>&1
  echo "pytest exit $?" >> "$OUT/pytest.log"
  tail -n 6 "$OUT/pytest.log" | tee -a "$LOG"
fi

if want steps; then
  log "the D2Q9 BGK step side by side (examples/python/compare_steps.py, 1024^2 and 4096^2)"
  timeout "$(left 130)" "$PY" examples/python/compare_steps.py --device cuda --sizes 1024,4096 \
    --markdown "$OUT/python_vs_cuda.md" --json "$OUT/python_vs_cuda.json" > "$OUT/compare_steps.log" 2>&1
  echo "compare_steps exit $?" >> "$OUT/compare_steps.log"
  grep -E "^  check|exit|copy bandwidth" "$OUT/compare_steps.log" | tee -a "$LOG"
  cat "$OUT/python_vs_cuda.md" 2>/dev/null | tee -a "$LOG"
fi

if want train; then
  log "training on streamed device fields (examples/python/train_on_stream.py --backend cuda)"
  timeout "$(left 30)" "$PY" examples/python/train_on_stream.py --backend cuda --chord-cells 32 --iterations 150 --check \
    > "$OUT/train.log" 2>&1
  echo "train exit $?" >> "$OUT/train.log"
  tail -n 4 "$OUT/train.log" | tee -a "$LOG"
fi

if want attention; then
  log "attention: aerolbm bench attention beside PyTorch SDPA (math, flash, cudnn)"
  {
    timeout "$(left 25)" "$B/bin/aerolbm" bench attention --tokens 4096,16384 --json /tmp/aerolbm_bench_attention.json
    echo "bench attention exit $?"
    timeout "$(left 30)" "$PY" postprocess/surrogate/bench_sdpa.py --tokens 4096,16384 --backends math,flash,cudnn \
      --repeats 5 --json /tmp/aerolbm_bench_sdpa.json --compare /tmp/aerolbm_bench_attention.json
    echo "bench_sdpa exit $?"
  } > "$OUT/attention.log" 2>&1
  grep -E "^\||exit" "$OUT/attention.log" | tee -a "$LOG"
fi
log "end $(date -u)"
