#!/usr/bin/env bash
# Runs every kernel that `test/Target/Inputs/random_gemms.py --keep` compiled
# (DIR/manifest.tsv: index, chip, gemm.py flags, and for a kernel over
# dynamic sizes the MxNxK shapes to run it at) through `tile-run --check`
# against cuBLAS on the GPU. PTX for sm_80..sm_89 runs on a newer GPU through
# the driver's JIT, so one H200 checks every chip's code; where a cubin sits
# beside the PTX (sm_90, sm_90a) it runs that instead, sparing the JIT.
# Prints one line per kernel and a summary; exits non-zero if any kernel
# fails, errs or hangs.
#   usage: bench/check_random.sh DIR [TILE_RUN]
# CHECK_TIMEOUT (seconds, default 60) bounds each check; SANITIZE (a list of
# compute-sanitizer tools, e.g. "memcheck racecheck synccheck") also runs
# those tools on kernels with M, N and K below 1024, each run bounded by
# SANITIZE_TIMEOUT (seconds, default 120, as in bench/sanitize.sh: racecheck
# takes a minute where one block does all of a small GEMM's work). A run that
# reaches its limit is a failure, named as a timeout.
set -uo pipefail
dir=${1:?usage: bench/check_random.sh DIR [TILE_RUN]}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TILE_RUN=${2:-$ROOT/build-runtime/bin/tile-run}
if [ ! -f "$dir/manifest.tsv" ]; then
  echo "error: $dir/manifest.tsv: no such file (random_gemms.py --keep DIR writes it)" >&2
  exit 2
fi
if [ ! -x "$TILE_RUN" ]; then
  echo "error: $TILE_RUN: no such executable (build tile-run first)" >&2
  exit 2
fi
SANITIZER=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)

small() { # true when every --M/--N/--K value of the flags is below 1024
  local prev=
  for word in $1; do
    case $prev in --M | --N | --K) [ "$word" -lt 1024 ] || return 1 ;; esac
    prev=$word
  done
}

shape_args() { # FLAGS MxNxK: tile-run's --shape options for that GEMM
  local m n k a b
  IFS=x read -r m n k <<<"$2"
  a="${m}x${k}" b="${k}x${n}"
  [[ " $1 " == *" --transpose-a "* ]] && a="${k}x${m}"
  [[ " $1 " == *" --transpose-b "* ]] && b="${n}x${k}"
  echo "--shape A=$a --shape B=$b --shape C=${m}x${n}"
}

pass=0 fail=0
while IFS=$'\t' read -r index chip flags shapes; do
  log="$dir/$index.check.log"
  kernel=$dir/$index.ptx
  [ -f "$dir/$index.cubin" ] && kernel=$dir/$index.cubin
  # A kernel over dynamic sizes runs at each of its shapes (the first is the
  # drawn one, which the sanitizers use); a static one at its own.
  sizes=() first=()
  for shape in $shapes; do
    sizes+=("$(shape_args "$flags" "$shape")")
  done
  [ ${#sizes[@]} -eq 0 ] && sizes=("")
  read -ra first <<<"${sizes[0]}"
  rc=0 verdict=PASS runs= # runs: what timed out, and each sanitizer run
  : >"$log"
  for size in "${sizes[@]}"; do
    read -ra shape <<<"$size"
    timeout "${CHECK_TIMEOUT:-60}" "$TILE_RUN" --ptx "$kernel" --launch "$dir/$index.launch" \
      "${shape[@]}" --check >>"$log" 2>&1
    src=$?
    [ "$src" -eq 124 ] && runs+=" check ${size:+at ${shape[*]} }timed out after ${CHECK_TIMEOUT:-60} s"
    [ "$rc" -eq 0 ] && rc=$src
    [ "$(grep -oE 'PASS|FAIL' "$log" | tail -1)" = PASS ] || verdict=FAIL
  done
  if [ "$rc" -eq 0 ] && small "$flags"; then
    for tool in ${SANITIZE:-}; do
      extra=()
      [ "$tool" = racecheck ] && extra=(--racecheck-report all)
      slog="$dir/$index.$tool.log"
      timeout "${SANITIZE_TIMEOUT:-120}" "$SANITIZER" --tool "$tool" "${extra[@]}" \
        --error-exitcode 99 "$TILE_RUN" --ptx "$kernel" --launch "$dir/$index.launch" \
        "${first[@]}" >"$slog" 2>&1
      trc=$?
      if [ "$trc" -eq 124 ]; then
        runs+=" $tool timed out after ${SANITIZE_TIMEOUT:-120} s"
      else
        runs+=" $tool rc=$trc"
      fi
      if [ "$trc" -ne 0 ] || ! grep -qE '(ERROR SUMMARY: 0 errors|0 hazards displayed \(0 errors, 0 warnings\))' "$slog"; then
        if [ "$trc" -ne 0 ]; then rc=$trc; else rc=98; fi
      fi
    done
  fi
  if [ "$rc" -eq 0 ] && [ "$verdict" = PASS ]; then
    pass=$((pass + 1))
    printf 'ok   %-4s %-7s %s%s\n' "$index" "$chip" "$flags" "$runs"
  else
    fail=$((fail + 1))
    printf 'FAIL %-4s %-7s %s rc=%s%s: %s\n' "$index" "$chip" "$flags" "$rc" "$runs" \
      "$(grep -m1 -E 'error|FAIL' "$log")"
  fi
done <"$dir/manifest.tsv"
echo "$((pass + fail)) kernels: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
