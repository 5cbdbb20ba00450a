#!/usr/bin/env bash
# Regenerates the compiler-written GEMMs in this folder that the runtime's GPU
# tests run (the machine with the GPU has no MLIR, so they are checked in):
# tile.gemm with transpose_a and with transpose_b at sizes that are not tile
# multiples, compiled for sm_80 (the PTX JIT-compiles for any later GPU).
#   usage: make-compiled-inputs.sh BIN_DIR   (where tile-opt and tile-translate are)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BIN=${1:?usage: make-compiled-inputs.sh BIN_DIR}
GEN=$HERE/../../Execution/Inputs/gemm.py
for t in a b; do
  name=gemm_t${t}_200x136x72
  args=(--variant auto --emit kernel --transpose-$t --M 200 --N 136 --K 72
    --bm 64 --bn 64 --bk 32 --threads 128 --num-stages 2)
  python3 "$GEN" "${args[@]}" |
    "$BIN/tile-opt" --tile-to-ptx=chip=sm_80 -o "$HERE/$name.mlir"
  {
    echo "// gemm.py ${args[*]} | tile-opt --tile-to-ptx=chip=sm_80"
    "$BIN/tile-translate" --tile-emit-ptx "$HERE/$name.mlir"
  } >"$HERE/$name.ptx"
  {
    echo "# gemm.py ${args[*]} | tile-opt --tile-to-ptx=chip=sm_80"
    "$BIN/tile-translate" --tile-emit-launch "$HERE/$name.mlir"
  } >"$HERE/$name.launch"
  rm "$HERE/$name.mlir"
done
