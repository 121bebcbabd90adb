# The preamble the tests/cli scripts share. Each script sets its shell options, then sources this file with its
# arguments:
#   source "$(dirname "${BASH_SOURCE[0]}")/common.sh" "$@"
# and finds here:
#   SRC      the source tree (the script's first argument)
#   BIN      the aerolbm binary ($AEROLBM; ctest sets it)
#   PY       the Python with numpy and h5py (Debian's /usr/bin/python3)
#   CHECK    check_run_folder.py beside this file: every file of a run folder complete and consistent
#   CASE     the default case, which the scripts shrink with --set
#   WORK     a private temporary folder, removed at exit; a background run whose process id is in $pid is
#            killed first
#   fail MESSAGE            prints "FAIL: MESSAGE" and exits 1
#   expect_bad NAME TEXT ARGS...
#            `aerolbm ARGS` must exit 2 with TEXT in its message (any case) and leave none of the paths in the
#            array NO_OUTPUT (default: $WORK/out) behind; a miss is printed, counted in $failed (0 or 1) and the
#            script goes on, so that one run reports every bad input
SRC=${1:?usage: $0 SOURCE_DIR [...]}
BIN=${AEROLBM:?set AEROLBM to the aerolbm binary}
PY=/usr/bin/python3
CHECK="$(dirname "${BASH_SOURCE[0]}")/check_run_folder.py"
CASE="$SRC/cases/naca0012_re1000_aoa5.yaml"
WORK=$(mktemp -d)
pid=
failed=0
# `|| true`: under `set -e` a failing command in the trap would become the script's exit status.
trap 'if [ -n "$pid" ]; then kill -9 "$pid" 2>/dev/null || true; fi; rm -rf "$WORK"' EXIT
NO_OUTPUT=("$WORK/out")

fail() { echo "FAIL: $*"; exit 1; }

expect_bad() {
  local name=$1 want=$2 out rc p
  shift 2
  out=$("$BIN" "$@" 2>&1) && rc=0 || rc=$?
  if [ $rc -ne 2 ]; then
    echo "FAIL $name: exit status $rc, expected 2"; echo "$out"; failed=1; return 0
  fi
  if ! grep -qiF -- "$want" <<<"$out"; then
    echo "FAIL $name: message lacks '$want':"; echo "$out"; failed=1; return 0
  fi
  for p in "${NO_OUTPUT[@]}"; do
    if [ -e "$p" ]; then
      echo "FAIL $name: output written ($p)"; failed=1; rm -rf "${NO_OUTPUT[@]}"; return 0
    fi
  done
  echo "ok   $name"
}
