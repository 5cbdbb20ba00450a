#!/usr/bin/env bash
# Regenerates the hand-written GEMMs' PTX and launch descriptions in this
# folder (the stand-ins for compiler output that the runtime tests use):
# gemm_wmma.cu at the sizes below and, without extra configurations,
# gemm_tma.cu (TMA tensor maps, sm_90) at 200x136x72.
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
EXTRA=0
if [ $# -ge 2 ]; then
  EXTRA=1
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

# The TMA stand-in: A's and B's tiles come through two tensor maps, passed
# after the three buffers (`tensormap` lines: box rows x columns).
if [ "$EXTRA" = 0 ]; then
  m=200 n=136 k=72
  name=gemm_tma_${m}x${n}x${k}
  "$NVCC" -ptx -arch=sm_90 -O3 -DGEMM_M="$m" -DGEMM_N="$n" -DGEMM_K="$k" \
    "$HERE/gemm_tma.cu" -o "$HERE/$name.ptx"
  cat >"$HERE/$name.launch" <<EOT
# gemm_tma.cu, M=$m N=$n K=$k, 64x64x32 tiles through TMA (hand-written stand-in)
kernel gemm_tma_f16
chip sm_90
grid $(((n + 63) / 64)) $(((m + 63) / 64)) 1
block 256 1 1
shared_bytes 0
arg A f16 ${m}x${k}
arg B f16 ${k}x${n}
arg C f16 ${m}x${n}
tensormap A 64x32 swizzle none
tensormap B 32x64 swizzle none
grid_expr ceildiv(N,64) ceildiv(M,64) 1
EOT
fi
