#!/usr/bin/env bash
# Regenerates the hand-written GEMM's PTX and launch descriptions in this
# folder (the stand-ins for compiler output that the runtime tests use).
#   usage: make-inputs.sh [NVCC [OUT_DIR "name M N K STAGES"...]]
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
NVCC=${1:-/usr/local/cuda/bin/nvcc}

# name M N K STAGES
configs=(
  "gemm_256x512x128 256 512 128 3"
  "gemm_200x136x32 200 136 32 3"       # edges everywhere; 1 k-tile < 3 stages
  "gemm_1000x3000x777 1000 3000 777 3" # K not a multiple of 8: scalar loads
)
# Extra configurations (name M N K STAGES) from the arguments after NVCC;
# bench/compile_all.sh uses this to write large ones into bench/ptx/.
OUT_DIR=$HERE
if [ $# -ge 2 ]; then
  OUT_DIR=$2
  configs=("${@:3}")
fi
for cfg in "${configs[@]}"; do
  read -r name m n k s <<<"$cfg"
  "$NVCC" -ptx -arch=sm_80 -O3 -DGEMM_M="$m" -DGEMM_N="$n" -DGEMM_K="$k" \
    -DSTAGES="$s" "$HERE/gemm_wmma.cu" -o "$OUT_DIR/$name.ptx"
  cat >"$OUT_DIR/$name.launch" <<EOT
# gemm_wmma.cu, M=$m N=$n K=$k, $s stages (hand-written stand-in)
kernel gemm_f16
chip sm_80
grid $(((n + 127) / 128)) $(((m + 127) / 128)) 1
block 256 1 1
shared_bytes $((s * (128 * 40 + 32 * 136) * 2))
arg A f16 ${m}x${k}
arg B f16 ${k}x${n}
arg C f16 ${m}x${n}
grid_expr ceildiv(N,128) ceildiv(M,128) 1
EOT
done
