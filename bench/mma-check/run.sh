#!/bin/bash
# Checks the fragment lowering (ldmatrix / mma.sync gemm, fragment copies)
# on a GPU, without the rest of the GPU lowering:
#   gen_kernels.py -> tile-opt --test-tile-lower-fragments -> outline.py
#   (tile.kernel -> gpu.launch, shared tiles as workgroup attributions)
#   -> upstream mlir-opt to PTX -> extract.py -> check.cu on the GPU.
# usage: bench/mma-check/run.sh <outdir> [chip]   (from the repository root)
# Prints max |err| vs a CPU reference per kernel when a GPU is present;
# otherwise prepares <outdir> (PTX + launch.txt + manifest.txt + check.cu)
# for a machine that has one: there run `nvcc -O2 -o check check.cu -lcuda
# && ./check .`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: run.sh <outdir> [chip]}
chip=${2:-sm_90}
tile_opt=${TILE_OPT:-build/bin/tile-opt}
mlir_opt=${MLIR_OPT:-/usr/lib/llvm-22/bin/mlir-opt}
mkdir -p "$out"
python3 "$here/gen_kernels.py" "$out"
"$tile_opt" "$out/kernels.mlir" --test-tile-lower-fragments -o "$out/lowered.mlir"
python3 "$here/outline.py" "$out/lowered.mlir" > "$out/launch.mlir"
"$mlir_opt" "$out/launch.mlir" --pass-pipeline="builtin.module(gpu-kernel-outlining, \
nvvm-attach-target{chip=$chip features=+ptx80 O=3}, gpu.module(convert-scf-to-cf, \
convert-nvgpu-to-nvvm, expand-strided-metadata, \
convert-gpu-to-nvvm{use-bare-ptr-memref-call-conv=1}, canonicalize, cse, \
reconcile-unrealized-casts), gpu-module-to-binary{format=isa})" -o "$out/binary.mlir"
python3 "$here/extract.py" "$out/binary.mlir" "$out"
cp "$here/check.cu" "$out/"
if command -v nvidia-smi > /dev/null && nvidia-smi > /dev/null 2>&1; then
  (cd "$out" && nvcc -O2 -o check check.cu -lcuda && ./check .)
else
  echo "no GPU here: $out holds the PTX and check.cu for a machine with one"
fi
