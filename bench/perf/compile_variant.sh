#!/usr/bin/env bash
# Compiles one auto GEMM variant to PTX + launch description + cubin, for
# bench/perf/run_variants.sh, and prints ptxas's registers and spills.
#   bench/perf/compile_variant.sh BIN_DIR OUT_DIR NAME STAGES [tile-opt flags]
# Shape and tiles from the environment: M N K (4096) BM BN (128) BK (32) T (128),
# CHIP (sm_90), GEN_ARGS (more gemm.py flags, e.g. --transpose-a).
# Extra flags go to tile-opt, e.g. --tile-to-ptx="chip=sm_90 block-group=1"
# (replacing the default --tile-to-ptx=chip=$CHIP) or an LLVM flag such as
# --nvptx-short-ptr.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=$1 out=$2 name=$3 stages=$4
shift 4
mkdir -p "$out"
chip=${CHIP:-sm_90}
pipeline=(--tile-to-ptx=chip="$chip")
for flag in "$@"; do
  [[ $flag == --tile-to-ptx* ]] && pipeline=()
done
python3 "$root/test/Execution/Inputs/gemm.py" --variant auto --emit kernel \
  --M "${M:-4096}" --N "${N:-4096}" --K "${K:-4096}" --bm "${BM:-128}" \
  --bn "${BN:-128}" --bk "${BK:-32}" --threads "${T:-128}" \
  --num-stages "$stages" ${GEN_ARGS:-} >"$out/$name.mlir"
# The budget table (stderr) goes to a log, shown only if tile-opt fails.
if ! "$bin/tile-opt" "$out/$name.mlir" "${pipeline[@]}" "$@" \
  -o "$out/$name.out.mlir" 2>"$out/$name.opt.log"; then
  cat "$out/$name.opt.log" >&2
  exit 1
fi
"$bin/tile-translate" --tile-emit-ptx "$out/$name.out.mlir" -o "$out/$name.ptx"
"$bin/tile-translate" --tile-emit-launch "$out/$name.out.mlir" -o "$out/$name.launch"
/usr/local/cuda/bin/ptxas -arch="$chip" -v "$out/$name.ptx" -o "$out/$name.cubin" 2>&1 |
  grep -oE "Used [0-9]+ registers|[0-9]+ bytes spill stores" | paste -sd' ' |
  sed "s/^/$name: /"
