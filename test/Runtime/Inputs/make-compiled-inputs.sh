#!/usr/bin/env bash
# Regenerates the compiler-written GEMMs in this folder that the runtime's GPU
# tests run (the machine with the GPU has no MLIR, so they are checked in):
#  - tile.gemm with transpose_a and with transpose_b at sizes that are not
#    tile multiples, compiled for sm_80 (the PTX JIT-compiles for any later
#    GPU): gemm_t{a,b}_200x136x72;
#  - the same three layouts (plain, transpose_a, transpose_b) compiled for
#    sm_90a, where tile.gemm becomes wgmma.mma_async (runs on sm_90 GPUs
#    only): gemm_wgmma_{nn,ta,tb}_200x136x72;
#  - with tma=true, where the async copies go through the TMA and mbarriers
#    (sm_90 GPUs only): the plain layout with mma.sync, the transposed ones
#    with wgmma (gemm_tma_*_200x136x72), and 48 KiB of tiles in 3 stages,
#    whose mbarriers take the block past the 48 KiB a launch gets without
#    opting in (gemm_tma_s3_256x384x160);
#  - with tma-store=true in persistent kernels (a few blocks loop over the
#    tiles), where each tile's C goes through a shared staging tile and a TMA
#    store whose edge boxes the TMA clips: mma.sync and, transposed, wgmma
#    (gemm_tma_store_*_200x136x72);
#  - with cluster=2, where pairs of blocks in a cluster share B's tiles
#    through TMA multicast (sm_90 GPUs only), at a size whose grid is even
#    both ways but whose edges are ragged, so that the interior version of a
#    block and the edge version of its partner multicast into each other:
#    mma.sync, and wgmma with A stored KxM in 3 stages
#    (gemm_tma_cluster_*_200x240x72);
#  - with cluster=4 cluster-cols=2, where clusters of four blocks compute a
#    2 x 2 patch of tiles, the two blocks of a row share A's tiles and the
#    two of a column B's, each multicast to just those two: mma.sync, and
#    wgmma with B stored NxK in 3 stages (gemm_tma_patch_*_200x240x72);
#  - with wgmma and two warpgroups, where thread 0 issues the copies in a
#    branch of its own and the unrolled steady state has one barrier per
#    step (TmaCopies.cpp, wideWgmma): 128x256x32 tiles in 4 stages with B
#    stored NxK, and, with TMA stores in a persistent kernel, 128x128x32
#    tiles in 3 stages (gemm_tma_wide_*).
#  - a hand-written GEMM whose tensors are smaller than its tiles, copied
#    without offsets (gemm_whole_tensors.mlir), for sm_80 and sm_90a:
#    gemm_whole_tensors_{sm80,sm90a}_20x24x20.
#  - the seed GEMM at a K that is not a multiple of the tile's, compiled for
#    sm_90 (mma.sync): tile-specialize-interior-steps splits the K loop, and
#    tile-prefetch-fragments pipelines the interior part with its epilogue
#    peeled; 3 stages, and 4 stages with B stored NxK in bf16
#    (gemm_split_*_256x256x1000);
#  - accumulators too large for the registers at 128 threads, which
#    tile-split-accumulators computes in 128x128 parts, each in a block of
#    its own, at sizes whose edge blocks have parts partly or wholly outside
#    C: the seed's 256x256x64 in 3 stages with wgmma
#    (gemm_parts_wgmma_520x600x200), 128x256x32 with tma=true and B stored
#    NxK (gemm_parts_tma_tb_300x520x136), and 256x128x32 with A stored KxM
#    for sm_80 (gemm_parts_sm80_ta_300x520x136); over tensors of dynamic
#    size, where the rows' parts join the columns' in the grid's first
#    dimension: 256x256x64 with wgmma and tile.divisibility = 8
#    (gemm_parts_dynamic_d8_sm90a); and with split-accumulators-blocks=false,
#    the parts one after another in a loop (gemm_parts_loop_wgmma_520x600x200);
#  - the seed GEMM over tensors of dynamic size (gemm_dynamic.mlir), one PTX
#    for every size: with its tile.divisibility = 8 for sm_90a
#    (gemm_dynamic_d8_sm90a), and without it for sm_80
#    (gemm_dynamic_any_sm80);
#  - with tma=true for sm_90a, TMA boxes over tensor maps that the launch
#    encodes from the shapes: the seed GEMM over tensors of dynamic size
#    (gemm_dynamic.mlir; the prologue's copies are guarded by the trip
#    count: gemm_dynamic_d8_tma_sm90a), and over M x 256 times 256 x N
#    tensors whose M and N are dynamic (gemm_dynamic_mn.mlir:
#    gemm_dynamic_mn_tma_sm90a).
#   usage: make-compiled-inputs.sh BIN_DIR   (where tile-opt and tile-translate are)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BIN=${1:?usage: make-compiled-inputs.sh BIN_DIR}
GEN=$HERE/../../Execution/Inputs/gemm.py

# compile_with NAME "TILE-TO-PTX OPTIONS" gemm.py flags...
compile_with() {
  local name=$1 options=$2
  shift 2
  local args=(--variant auto --emit kernel "$@")
  python3 "$GEN" "${args[@]}" |
    "$BIN/tile-opt" --tile-to-ptx="$options" -o "$HERE/$name.mlir"
  write_ptx_and_launch "$name" "gemm.py ${args[*]} | tile-opt --tile-to-ptx='$options'"
}

# compile_file NAME "TILE-TO-PTX OPTIONS" FILE (in this folder)
compile_file() {
  local name=$1 options=$2 file=$3
  "$BIN/tile-opt" "$HERE/$file" --tile-to-ptx="$options" -o "$HERE/$name.mlir"
  write_ptx_and_launch "$name" "tile-opt $file --tile-to-ptx='$options'"
}

# write_ptx_and_launch NAME HOW: NAME.ptx and NAME.launch of NAME.mlir, each
# headed by HOW.
write_ptx_and_launch() {
  local name=$1 how=$2
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

# compile NAME "TILE-TO-PTX OPTIONS" [gemm.py flags]: 200x136x72 in 64x64x32
# tiles, 2 stages.
compile() {
  local name=$1 options=$2
  shift 2
  compile_with "$name" "$options" "$@" --M 200 --N 136 --K 72 \
    --bm 64 --bn 64 --bk 32 --threads 128 --num-stages 2
}

for t in a b; do
  compile "gemm_t${t}_200x136x72" chip=sm_80 "--transpose-$t"
done
compile gemm_wgmma_nn_200x136x72 chip=sm_90a
compile gemm_wgmma_ta_200x136x72 chip=sm_90a --transpose-a
compile gemm_wgmma_tb_200x136x72 chip=sm_90a --transpose-b
compile gemm_tma_nn_200x136x72 "chip=sm_90 tma=true"
compile gemm_tma_wgmma_ta_200x136x72 "chip=sm_90a tma=true" --transpose-a
compile gemm_tma_wgmma_tb_200x136x72 "chip=sm_90a tma=true" --transpose-b
compile_with gemm_tma_s3_256x384x160 "chip=sm_90 tma=true" --M 256 --N 384 \
  --K 160 --bm 128 --bn 128 --bk 32 --threads 128 --num-stages 3
compile gemm_tma_store_nn_200x136x72 \
  "chip=sm_90 tma=true tma-store=true persistent-blocks=2"
compile gemm_tma_store_wgmma_ta_200x136x72 \
  "chip=sm_90a tma=true tma-store=true persistent-blocks=3" --transpose-a
compile_with gemm_tma_cluster_nn_200x240x72 "chip=sm_90 tma=true cluster=2" \
  --M 200 --N 240 --K 72 --bm 64 --bn 64 --bk 32 --threads 128 --num-stages 2
compile_with gemm_tma_cluster_wgmma_ta_200x240x72 "chip=sm_90a tma=true cluster=2" \
  --transpose-a --M 200 --N 240 --K 72 --bm 64 --bn 64 --bk 32 --threads 128 \
  --num-stages 3
compile_with gemm_tma_patch_nn_200x240x72 \
  "chip=sm_90 tma=true cluster=4 cluster-cols=2" \
  --M 200 --N 240 --K 72 --bm 64 --bn 64 --bk 32 --threads 128 --num-stages 2
compile_with gemm_tma_patch_wgmma_tb_200x240x72 \
  "chip=sm_90a tma=true cluster=4 cluster-cols=2" --transpose-b \
  --M 200 --N 240 --K 72 --bm 64 --bn 64 --bk 32 --threads 128 --num-stages 3
compile_with gemm_tma_wide_wgmma_tb_200x520x328 "chip=sm_90a tma=true" \
  --transpose-b --M 200 --N 520 --K 328 --bm 128 --bn 256 --bk 32 \
  --threads 256 --num-stages 4
compile_with gemm_tma_wide_store_wgmma_264x264x200 \
  "chip=sm_90a tma=true tma-store=true persistent-blocks=3" --M 264 --N 264 \
  --K 200 --bm 128 --bn 128 --bk 32 --threads 256 --num-stages 3
compile_with gemm_split_s3_256x256x1000 chip=sm_90 --M 256 --N 256 --K 1000 \
  --bm 128 --bn 128 --bk 32 --threads 128 --num-stages 3
compile_with gemm_split_s4_tb_256x256x1000 chip=sm_90 --transpose-b \
  --dtype bf16 --M 256 --N 256 --K 1000 --bm 128 --bn 128 --bk 32 \
  --threads 128 --num-stages 4
compile_with gemm_parts_wgmma_520x600x200 chip=sm_90a --M 520 --N 600 \
  --K 200 --bm 256 --bn 256 --bk 64 --threads 128 --num-stages 3
compile_with gemm_parts_tma_tb_300x520x136 "chip=sm_90 tma=true" \
  --transpose-b --M 300 --N 520 --K 136 --bm 128 --bn 256 --bk 32 \
  --threads 128 --num-stages 3
compile_with gemm_parts_sm80_ta_300x520x136 chip=sm_80 --transpose-a \
  --M 300 --N 520 --K 136 --bm 256 --bn 128 --bk 32 --threads 128 \
  --num-stages 3
compile_with gemm_parts_loop_wgmma_520x600x200 \
  "chip=sm_90a split-accumulators-blocks=false" --M 520 --N 600 --K 200 \
  --bm 256 --bn 256 --bk 64 --threads 128 --num-stages 3
compile_with gemm_parts_dynamic_d8_sm90a chip=sm_90a --dynamic \
  --divisibility 8 --M 520 --N 600 --K 200 --bm 256 --bn 256 --bk 64 \
  --threads 128 --num-stages 3
compile_file gemm_whole_tensors_sm80_20x24x20 chip=sm_80 gemm_whole_tensors.mlir
compile_file gemm_whole_tensors_sm90a_20x24x20 chip=sm_90a gemm_whole_tensors.mlir
compile_file gemm_dynamic_d8_sm90a chip=sm_90a gemm_dynamic.mlir
sed 's/ {tile.divisibility = 8 : i64}//g' "$HERE/gemm_dynamic.mlir" \
  >"$HERE/gemm_dynamic_any.mlir"
compile_file gemm_dynamic_any_sm80 chip=sm_80 gemm_dynamic_any.mlir
rm "$HERE/gemm_dynamic_any.mlir"
compile_file gemm_dynamic_d8_tma_sm90a "chip=sm_90a tma=true" gemm_dynamic.mlir
compile_file gemm_dynamic_mn_tma_sm90a "chip=sm_90a tma=true" gemm_dynamic_mn.mlir
