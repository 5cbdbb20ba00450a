#!/usr/bin/env bash
# Regenerates the compiler-written GEMMs in this folder that the runtime's GPU
# tests run (the machine with the GPU has no MLIR, so they are checked in):
#  - tile.gemm with transpose_a and with transpose_b at sizes that are not
#    tile multiples, compiled for sm_80 (the PTX JIT-compiles for any later
#    GPU): gemm_t{a,b}_200x136x72;
#  - the same three layouts (plain, transpose_a, transpose_b) compiled for
#    sm_90a, where tile.gemm becomes wgmma.mma_async (runs on sm_90 GPUs
#    only): gemm_wgmma_{nn,ta,tb}_200x136x72.
#   usage: make-compiled-inputs.sh BIN_DIR   (where tile-opt and tile-translate are)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BIN=${1:?usage: make-compiled-inputs.sh BIN_DIR}
GEN=$HERE/../../Execution/Inputs/gemm.py

# compile NAME CHIP [gemm.py flags]
compile() {
  local name=$1 chip=$2
  shift 2
  local args=(--variant auto --emit kernel "$@" --M 200 --N 136 --K 72
    --bm 64 --bn 64 --bk 32 --threads 128 --num-stages 2)
  local how="gemm.py ${args[*]} | tile-opt --tile-to-ptx=chip=$chip"
  python3 "$GEN" "${args[@]}" |
    "$BIN/tile-opt" --tile-to-ptx=chip="$chip" -o "$HERE/$name.mlir"
  {
    echo "// $how"
    "$BIN/tile-translate" --tile-emit-ptx "$HERE/$name.mlir"
  } >"$HERE/$name.ptx"
  {
    echo "# $how"
    "$BIN/tile-translate" --tile-emit-launch "$HERE/$name.mlir"
  } >"$HERE/$name.launch"
  rm "$HERE/$name.mlir"
}

for t in a b; do
  compile "gemm_t${t}_200x136x72" sm_80 "--transpose-$t"
done
compile gemm_wgmma_nn_200x136x72 sm_90a
compile gemm_wgmma_ta_200x136x72 sm_90a --transpose-a
compile gemm_wgmma_tb_200x136x72 sm_90a --transpose-b
