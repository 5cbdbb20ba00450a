#!/usr/bin/env bash
# Runs every kernel that `test/Target/Inputs/random_gemms.py --keep` compiled
# (DIR/manifest.tsv: index, chip, gemm.py flags) through `tile-run --check`
# against cuBLAS on the GPU. PTX for sm_80..sm_89 runs on a newer GPU through
# the driver's JIT, so one H200 checks every chip's code. Prints one line per
# kernel and a summary; exits non-zero if any kernel fails, errs or hangs.
#   usage: bench/check_random.sh DIR [TILE_RUN]
# CHECK_TIMEOUT (seconds, default 60) bounds each run; SANITIZE=1 also runs
# compute-sanitizer's memcheck on kernels with M, N and K below 1024.
set -uo pipefail
dir=$1
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TILE_RUN=${2:-$ROOT/build-runtime/bin/tile-run}
SANITIZER=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)

small() { # true when every --M/--N/--K value of the flags is below 1024
  local prev=
  for word in $1; do
    case $prev in --M | --N | --K) [ "$word" -lt 1024 ] || return 1 ;; esac
    prev=$word
  done
}

pass=0 fail=0
while IFS=$'\t' read -r index chip flags; do
  log="$dir/$index.check.log"
  timeout "${CHECK_TIMEOUT:-60}" "$TILE_RUN" --ptx "$dir/$index.ptx" --check >"$log" 2>&1
  rc=$?
  verdict=$(grep -oE 'PASS|FAIL' "$log" | tail -1)
  memcheck=
  if [ "$rc" -eq 0 ] && [ "${SANITIZE:-0}" = 1 ] && small "$flags"; then
    timeout "${CHECK_TIMEOUT:-60}" "$SANITIZER" --tool memcheck --error-exitcode 99 \
      "$TILE_RUN" --ptx "$dir/$index.ptx" >"$dir/$index.memcheck.log" 2>&1
    mrc=$?
    memcheck=" memcheck rc=$mrc"
    [ "$mrc" -eq 0 ] || rc=$mrc
  fi
  if [ "$rc" -eq 0 ] && [ "$verdict" = PASS ]; then
    pass=$((pass + 1))
    printf 'ok   %-4s %-7s %s%s\n' "$index" "$chip" "$flags" "$memcheck"
  else
    fail=$((fail + 1))
    printf 'FAIL %-4s %-7s %s rc=%s%s: %s\n' "$index" "$chip" "$flags" "$rc" "$memcheck" \
      "$(grep -m1 -E 'error|FAIL' "$log")"
  fi
done <"$dir/manifest.tsv"
echo "$((pass + fail)) kernels: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
