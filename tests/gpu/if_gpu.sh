#!/usr/bin/env bash
# Runs a GPU test command only where the aerolbm binary sees a CUDA device; otherwise exits 77 (ctest: skipped).
# Usage: AEROLBM=path/to/aerolbm if_gpu.sh COMMAND ARGS...
BIN=${AEROLBM:?set AEROLBM to the aerolbm binary}
if ! "$BIN" info 2>/dev/null | grep -Eq "CUDA devices +[1-9]"; then
  echo "SKIP: no CUDA device visible to $BIN"
  exit 77
fi
exec "$@"
