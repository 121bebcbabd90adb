#!/usr/bin/env bash
# compute-sanitizer over the fused attention kernels: memcheck, racecheck (shared memory), synccheck and initcheck
# on small shapes with tails on both sequence lengths, every head dim, split-KV off, automatic and forced (so the
# combine kernel runs too). `aerolbm bench attention` also compares the output with the CPU reference, so a
# wrong result fails as well. Any reported error fails the test.
# Usage: AEROLBM=path/to/aerolbm attention_sanitizers.sh   (skips with 77 without compute-sanitizer)
set -u
BIN=${AEROLBM:?set AEROLBM to the aerolbm binary}
SAN=${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}
[ -x "$SAN" ] || { echo "SKIP: compute-sanitizer not found"; exit 77; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
failed=0
for tool in memcheck racecheck synccheck initcheck; do
  log="$WORK/$tool.log"
  rc=0
  "$SAN" --tool "$tool" --error-exitcode 9 "$BIN" bench attention --batch 1 --heads 2 --tokens 300,1 \
    --keys 200,4097 --head-dims 32,64,128 --no-model --force-splits 3 --warmup 0 --repeats 1 --min-ms 0 \
    --check-rows 4 > "$log" 2>&1 || rc=$?
  summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$log" | tail -n 1)
  echo "attention $tool: exit $rc ${summary:-}"
  if [ $rc -ne 0 ]; then failed=1; tail -n 40 "$log"; fi
done
[ $failed = 0 ] && echo "compute-sanitizer (attention): no errors" || { echo "FAIL: compute-sanitizer reported errors"; exit 1; }
