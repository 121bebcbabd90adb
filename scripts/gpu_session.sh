#!/usr/bin/env bash
# Everything the GPU host runs in one call (device time is scarce): GPU tests, sanitizers, the default case, the
# kernel benchmark tables, the 3D wing cases and the long validation. Usage on the GPU host, from the repository
# root, with the install bundle in ./bundle:
#   bash scripts/gpu_session.sh   (logs go to $OUT, or ./gpu-logs)
# SECTIONS picks parts (default: all): tests default compare restart bench cases output sanitizers long wing farfield
# (and, only when named: kbc ncu resources channel polar refinement re6e6 surrogate)
set -uo pipefail
OUT=${OUT:-$PWD/gpu-logs}
mkdir -p "$OUT"
B=$PWD/bundle
# cuBLAS (surrogate inference) comes from the host's CUDA toolkit, not from the bundle (cmake/Bundle.cmake).
export LD_LIBRARY_PATH=$B/lib:/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export AEROLBM_CASES=$PWD/cases
A=$B/bin/aerolbm
SECTIONS=${SECTIONS:-tests default compare restart bench cases output sanitizers long wing farfield}
want() { case " $SECTIONS " in *" $1 "*) return 0 ;; esac; return 1; }
log() { echo "== $*" | tee -a "$OUT/session.log"; }
log "$(date -u) $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader)"
if want tests; then
  log "gpu tests"
  timeout 300 "$B/bin/gpu_tests" ${GPU_TEST_FILTER:+--gtest_filter=$GPU_TEST_FILTER} 2>&1 | tee "$OUT/gpu_tests.log" | grep -E "rel\.|drag|OK|FAILED|PASSED|C_D|err|CPU = pull" | tee -a "$OUT/session.log"
fi
if want default; then
  log "default case on the GPU"
  timeout 60 "$A" run cases/naca0012_re1000_aoa5.yaml --backend cuda -o /tmp/run_gpu --overwrite > "$OUT/run_gpu.log" 2>&1
  grep "done:" "$OUT/run_gpu.log"; cp /tmp/run_gpu/summary.json "$OUT/summary_gpu.json"
fi
if want compare; then
  log "compare: default case on the CPU (all cores) and the GPU"
  timeout 300 "$A" compare cases/naca0012_re1000_aoa5.yaml -o /tmp/compare > "$OUT/compare.log" 2>&1
  echo "compare exit $?"; grep -E "speed-up|AGREE|DIFFER" "$OUT/compare.log"
  cp /tmp/compare/report.md /tmp/compare/report.json "$OUT/" 2>/dev/null
fi
if want restart; then
  log "restart: 2000 steps = 1000 + --restart + 1000, bit for bit, on the GPU"
  AEROLBM=$A timeout 180 bash tests/cli/restart.sh "$PWD" cuda > "$OUT/restart_gpu.log" 2>&1; tail -2 "$OUT/restart_gpu.log"
fi
if want bench; then
  log "benchmarks"
  {
    "$A" bench --lattice D2Q9 --cells 500000,4000000,64000000 --precision fp32,fp16s --variants pull,aa,tiled --steps 200 --json /tmp/b2.json
    "$A" bench --lattice D3Q19 --cells 16777216 --precision fp32,fp16s --variants pull,aa,tiled --steps 100 --json /tmp/b19.json
    "$A" bench --lattice D3Q27 --cells 16777216 --precision fp32,fp16s --variants pull,aa --steps 100 --json /tmp/b27.json
  } 2>&1 | tee "$OUT/bench.log" | grep -vE "^aerolbm bench"
fi
if want kbc; then
  log "the entropic collision beside BGK on the boxes (issue: >= 90 % of BGK's MLUPs)"
  {
    "$A" bench --lattice D2Q9 --cells 4000000,64000000 --precision fp32,fp16s --variants pull,aa --collision bgk,kbc --steps 200
    "$A" bench --lattice D3Q19 --cells 16777216 --precision fp32,fp16s --variants pull,aa --collision bgk,kbc --steps 100
    "$A" bench --lattice D3Q27 --cells 16777216 --precision fp32,fp16s --variants pull,aa --collision bgk,kbc --steps 100
  } 2>&1 | tee "$OUT/bench_kbc.log" | grep -vE "^aerolbm bench"
fi
if want cases; then
  log "every shipped case beside the box of the same lattice, storage and size (aerolbm bench --case)"
  # CASE_RUNS: what to run for each case, "LABEL:VARIANTS:AEROLBM_BOUNDARY_PASS" (empty: the built-in rule).
  # CASE_FILES: the cases (default: every file in cases/ and cases/ci/).
  mkdir -p /tmp/cases
  for c in ${CASE_FILES:-cases/*.yaml cases/ci/*.yaml}; do
    n=$(basename "$c" .yaml); [ "$(dirname "$c")" = cases/ci ] && n=ci_$n
    for run in ${CASE_RUNS:-auto:pull,aa:}; do
      IFS=':' read -r label variants mode <<< "$run"
      AEROLBM_BOUNDARY_PASS=$mode timeout 240 "$A" bench --case "$c" --variants "$variants" --precision fp32,fp16s \
        --steps ${CASE_STEPS:-200} --json "/tmp/cases/${n}_$label.json" 2>&1 | tee -a "$OUT/cases.log" \
        | grep -vE "^(aerolbm bench|device copy|box:)"
    done
  done
  python3 scripts/case_table.py /tmp/cases/*.json > "$OUT/cases_table.md"
  log "the 3D wing as users run it (frames as in the case file)"
  t0=$(date +%s.%N)
  timeout 120 "$A" run cases/wing_naca0012_ar4.yaml --backend cuda -o /tmp/run_wing_user --overwrite \
    > "$OUT/run_wing_user.log" 2>&1
  echo "exit $?, wall $(python3 -c "print(round($(date +%s.%N) - $t0, 2))") s (process start to exit)" >> "$OUT/run_wing_user.log"
  grep -E "done:|wall " "$OUT/run_wing_user.log" | tee -a "$OUT/session.log"
fi
if want ncu; then
  log "Nsight Compute: the one-pass kernels on the 3D wing and on the box of its size"
  NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
  # NCU_SPECS: "BENCH ARGUMENTS:NAME" items separated by ';' (default: the wing and the box of its size).
  IFS=';' read -ra specs <<< "${NCU_SPECS:---case cases/wing_naca0012_ar4.yaml:wing;--lattice D3Q19 --cells 14155776:box}"
  for spec in "${specs[@]}"; do
    args=${spec%%:*} name=${spec##*:}
    timeout 300 "$NCU" --clock-control none -k regex:"stream_collide|wall_force" -s 20 -c ${NCU_COUNT:-2} \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats \
      "$A" bench $args --variants pull --precision fp32 --steps 20 --repeats 1 > "$OUT/ncu_$name.log" 2>&1
    grep -E "stream_collide|Duration|DRAM Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Local" \
      "$OUT/ncu_$name.log" | head -n 24 | tee -a "$OUT/session.log"
  done
fi
if want resources; then
  log "registers, stack and spills of the step kernels (cuobjdump -res-usage)"
  cuobjdump -res-usage "$A" 2>/dev/null | grep -A1 -E "stream_collide|edge_layer|wall_force|aa_gather" \
    | grep -oE "Function [^:]*|REG:[0-9]+|STACK:[0-9]+|SHARED:[0-9]+|LOCAL:[0-9]+" | paste - - - - - \
    | c++filt | tee "$OUT/resources.log" | head -n 60
fi
if want output; then
  log "output: default case at chord 256 (3.3 M cells), run loop with frames against none, disk bandwidth after"
  # OUTPUT_RUNS: "EVERY:STEPS[:--set ...]" items separated by ';' (default: the issue's two targets, fp32, the
  # case's formats).
  IFS=';' read -ra runs <<< "${OUTPUT_RUNS:-1000:20000;100:2000}"
  for spec in "${runs[@]}"; do
    IFS=':' read -r every steps extra <<< "$spec"
    log "output: a frame every $every of $steps steps ${extra:-}"
    set -f  # $extra holds YAML lists ([hdf5]), not file patterns
    timeout 240 "$A" bench --case cases/naca0012_re1000_aoa5.yaml --set geometry.chord_cells=256 --steps $steps \
      --repeats 1 --frames-every $every --output /tmp/bench_out $extra 2>&1 | grep -E "^(pull|run loop|disk)" \
      | tee -a "$OUT/output.log" | tee -a "$OUT/session.log"
    set +f
  done
fi
if want sanitizers; then
  log "compute-sanitizer (tests/gpu/sanitizers.sh)"
  AEROLBM=$A timeout 500 bash tests/gpu/sanitizers.sh "$PWD" 2>&1 | tee "$OUT/sanitizers.log" | tail -n 20 | tee -a "$OUT/session.log"
fi
if want wing; then
  log "3D wing cases on the GPU (full size, field output as in the case files)"
  for c in wing_naca0012_ar4 wing_naca2412_swept stl_example; do
    timeout 240 "$A" run cases/$c.yaml --backend cuda -o /tmp/run_$c --overwrite > "$OUT/run_$c.log" 2>&1
    echo "$c exit $?: $(grep -E "voxelised|done:" "$OUT/run_$c.log" | tr '\n' ' ')" | tee -a "$OUT/session.log"
    cp /tmp/run_$c/summary.json "$OUT/summary_$c.json" 2>/dev/null
  done
  tail -n 3 /tmp/run_wing_naca0012_ar4/forces.csv | tee -a "$OUT/session.log"
  ls /tmp/run_wing_naca0012_ar4/spanwise | tail -n 1 | sed 's/^/spanwise: /'
  cp "$(ls -d /tmp/run_wing_naca0012_ar4/spanwise/* | tail -n 1)" "$OUT/spanwise_ar4_last.csv" 2>/dev/null
  log "swept wing at Re = 1e5 with Smagorinsky LES (BGK), 3 convective times"
  timeout 200 "$A" run cases/wing_naca2412_swept.yaml --backend cuda -o /tmp/run_swept_les --overwrite \
    --set lattice.les.model=smagorinsky --set lattice.collision=bgk --set physics.reynolds=100000 \
    --set time.convective_times=3 --set time.average_last=1 --set output.every=0 > "$OUT/run_swept_les.log" 2>&1
  echo "swept LES exit $?: $(grep -E "done:|diverged" "$OUT/run_swept_les.log" | tr '\n' ' ')" | tee -a "$OUT/session.log"
  log "finite-wing and Smagorinsky validation on the GPU backend"
  AEROLBM_TEST_BACKEND=cuda timeout 200 "$B/bin/validation_tests" --gtest_filter='FiniteWing*:SchaeferTurek3D1Z.*' 2>&1 \
    | tee "$OUT/validation_3d_gpu.log" | grep -E "C_L|C_D|tip|channel|OK|FAIL" | tee -a "$OUT/session.log"
fi
if want refinement; then
  log "grid refinement on the CUDA backend: CPU = CUDA bit for bit, the refinement validation (docs/grid_refinement.md)"
  timeout 120 "$B/bin/gpu_tests" --gtest_filter='RefinementCuda.*' 2>&1 | tee "$OUT/refinement_gpu.log" \
    | grep -E "differ|OK|FAILED" | tee -a "$OUT/session.log"
  AEROLBM_TEST_BACKEND=cuda timeout 300 "$B/bin/validation_tests" --gtest_filter='Refinement.*:RefinementLong.*' 2>&1 \
    | tee -a "$OUT/refinement_gpu.log" | grep -E "mass|Poiseuille|shear|NACA|OK|FAILED" | tee -a "$OUT/session.log"
  log "refined cases' speed (kernels/PERFORMANCE.md): as shipped (two coarse steps recorded as one graph, the explosion"
  log "and the first crossings in one launch), then one launch at a time, then the two hand-over kernels apart"
  for mode in shipped unrecorded unfused shipped unrecorded unfused; do
    rec=on fused=on
    [ $mode = unrecorded ] && rec=off
    [ $mode = unfused ] && fused=off
    for b in "cases/naca0012_re1000_aoa5_refined.yaml --steps 200" \
             "cases/naca0012_re1000_aoa5_refined.yaml --set geometry.chord_cells=256 --steps 100"; do
      AEROLBM_REFINED_RECORDING=$rec AEROLBM_REFINED_FUSED_HANDOVER=$fused timeout 90 "$A" bench --case $b \
        --variants pull --precision fp32,fp16s --repeats 3 2>&1 | grep -E -A1 "^pull" | sed "s/^/$mode: /" \
        | tee -a "$OUT/session.log"
    done
  done
  for b in "cases/stl_example.yaml --set refinement.boxes=[[-1.0,-1.0,-1.0,2.0,1.0,1.0]] --steps 50" \
           "cases/wing_naca0012_ar4.yaml --set refinement.boxes=[[-0.6,-0.5,0.0,1.6,0.5,2.4]] --steps 30" \
           "cases/cylinder_re3900_refined.yaml --steps 20"; do
    echo "$b" | tee -a "$OUT/session.log"
    timeout 120 "$A" bench --case $b --variants pull --precision fp32,fp16s --repeats 3 2>&1 | grep -E -A1 "^pull" \
      | tee -a "$OUT/session.log"
  done
fi
if want long; then
  log "long validation on the GPU"
  AEROLBM_TEST_BACKEND=cuda timeout 400 "$B/bin/validation_tests" --gtest_filter='*Long*' 2>&1 | tee "$OUT/validation_gpu.log" | grep -E "C_D|OK|FAIL" | tee -a "$OUT/session.log"
fi
if want farfield; then
  log "far field on the GPU backend: pulse, ramp, the default case steady, Schäfer-Turek 2D-2 (D = 20, 40, 80)"
  AEROLBM_TEST_BACKEND=cuda timeout 400 "$B/bin/validation_tests" --gtest_also_run_disabled_tests \
    --gtest_filter='FarField*:InflowRamp*:WindowStatisticsRun*' 2>&1 | tee "$OUT/validation_farfield_gpu.log" \
    | grep -E "pulse|mean u|window|C_D|OK|FAIL" | tee -a "$OUT/session.log"
  log "force histories for the plots: the default case, the shedding cylinder, the 3D wing (no frames)"
  mkdir -p "$OUT/forces"
  for c in naca0012_re1000_aoa5 cylinder_re100 wing_naca0012_ar4; do
    timeout 120 "$A" run cases/$c.yaml --backend cuda -o /tmp/ff_$c --overwrite --set output.every=0 \
      > "$OUT/forces/run_$c.log" 2>&1
    echo "$c exit $?: $(grep -E "averaging window|done:" "$OUT/forces/run_$c.log" | tr '\n' ' ')" | tee -a "$OUT/session.log"
    cp /tmp/ff_$c/forces.csv "$OUT/forces/$c.csv"; cp /tmp/ff_$c/summary.json "$OUT/forces/$c.summary.json"
  done
  # The default case as it was before the far field: fixed-density outlet, slip sides, impulsive start.
  timeout 60 "$A" run cases/naca0012_re1000_aoa5.yaml --backend cuda -o /tmp/ff_closed --overwrite --set output.every=0 \
    --set boundaries.outlet=pressure --set boundaries.lateral=slip --set time.ramp_convective_times=0 \
    > "$OUT/forces/run_closed.log" 2>&1
  echo "default case, closed boundaries, exit $?: $(grep -E "averaging window" "$OUT/forces/run_closed.log")" | tee -a "$OUT/session.log"
  cp /tmp/ff_closed/forces.csv "$OUT/forces/naca0012_closed.csv"
fi
if want channel; then
  # The wall-model face channels on the GPU (docs/high_reynolds.md): the shipped h = 20 case at Re_tau 1000 with the
  # law sampled 3.5 cells out, its CI-sized h = 12 sibling, and Re_tau 5200 at h = 52. CHANNEL_FILTER narrows it
  # (one test per device command if the host's limit is short).
  log "face channels against Lee & Moser on the GPU backend"
  AEROLBM_TEST_BACKEND=cuda timeout ${CHANNEL_TIMEOUT:-580} "$B/bin/validation_tests" \
    --gtest_filter="${CHANNEL_FILTER:-ChannelLong.Faces*}" 2>&1 | tee "$OUT/validation_channel_gpu.log" \
    | grep -E "Re_tau|U_b|log|OK|FAIL" | tee -a "$OUT/session.log"
fi
if want polar; then
  # The surrogate's polar in batched passes (docs/surrogate.md): 33 angles on the GPU with the committed model, and
  # the batched pass against each case alone (SurrogateCuda.BatchedPassMatchesOneAtATime).
  log "surrogate polar, batched, on the GPU"
  timeout 120 "$B/bin/gpu_tests" --gtest_filter='SurrogateCuda.*' 2>&1 | tee "$OUT/surrogate_gpu_tests.log" \
    | grep -E "rel\. error|OK|FAILED" | tee -a "$OUT/session.log"
  timeout 120 "$A" predict cases/naca0012_re1000_aoa5.yaml --set physics.reynolds=500 --polar=-4:12:0.5 \
    --model postprocess/surrogate/model.h5 --backend cuda --repeats 20 -o /tmp/polar --overwrite \
    > "$OUT/polar.log" 2>&1
  grep -E "predicted" "$OUT/polar.log" | tee -a "$OUT/session.log"; cp /tmp/polar/polar.csv /tmp/polar/summary.json "$OUT/" 2>/dev/null
fi
if want re6e6; then
  # NACA 0012 at Re 6e6 on its refined grid (docs/validation.md): one run per angle (RE6E6_ANGLES), extra settings
  # in RE6E6_SET (e.g. "--set physics.mach=0.1"), the state scanned every 10 steps so a blow-up is located, then
  # the polar against Ladson's data. RE6E6_CASE picks the case (the 3D section: cases/naca0012_re6e6_3d_aoa5.yaml,
  # about 220 s an angle on an H100, more with the scans: RE6E6_TIMEOUT, 300 s by default).
  re6e6_case=${RE6E6_CASE:-cases/naca0012_re6e6_aoa5.yaml}
  log "NACA 0012 at Re 6e6, refined ($re6e6_case), angles ${RE6E6_ANGLES:-0 5 10 15} ${RE6E6_SET:-}"
  runs=()
  for a in ${RE6E6_ANGLES:-0 5 10 15}; do
    timeout "${RE6E6_TIMEOUT:-300}" "$A" run "$re6e6_case" --backend cuda -o "/tmp/re6e6_$a" --overwrite \
      --set physics.angle_of_attack_deg="$a" --set output.every=0 --set watchdog.every=10 ${RE6E6_SET:-} \
      > "$OUT/re6e6_$a.log" 2>&1
    echo "alpha $a: exit $?, $(grep -oE 'done:.*|diverged by step [0-9]+.*Likely' "$OUT/re6e6_$a.log" | cut -c1-300)" \
      | tee -a "$OUT/session.log"
    [ -s "/tmp/re6e6_$a/summary.json" ] && runs+=("/tmp/re6e6_$a") && cp "/tmp/re6e6_$a/summary.json" "$OUT/re6e6_$a.json"
  done
  [ ${#runs[@]} -gt 0 ] && "${PY:-python3}" postprocess/plot_polar.py "${runs[@]}" \
    --reference cases/data/ladson_naca0012_re6e6.dat -o "$OUT" 2>&1 | tee -a "$OUT/session.log"
fi
if want surrogate; then
  # The surrogate retrained with its C_L, C_D head (model.h5 version 2, docs/surrogate.md): sweep -> train ->
  # evaluate -> export, about 5 minutes on an H200; the head's metrics are metrics.md's second table.
  log "surrogate: CUDA tests, then retrain with the coefficient head"
  timeout 120 "$B/bin/gpu_tests" --gtest_filter='SurrogateCuda.*' 2>&1 | tee "$OUT/surrogate_gpu_tests.log" \
    | grep -E "rel\. error|OK|FAILED" | tee -a "$OUT/session.log"
  AEROLBM=$A OUT=$OUT/surrogate timeout 500 bash postprocess/surrogate/run_all.sh > "$OUT/surrogate_run_all.log" 2>&1
  echo "run_all exit $?" | tee -a "$OUT/session.log"; head -n 40 "$OUT/surrogate/metrics.md" 2>/dev/null | tee -a "$OUT/session.log"
fi
log "end $(date -u)"
