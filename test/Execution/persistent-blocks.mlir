// CPU execution of --tile-persistent-blocks: a fixed number of blocks loop
// over the tiles of the software-pipelined GEMM, each issuing the next
// tile's prologue copies before the current tile's C store. Every element
// must match the plain loop nest's exactly. The CPU models the asynchronous
// copies (docs/execution.md), so a next-tile prologue whose copies or commit
// group went missing or landed in the wrong buffer gives wrong numbers; so
// does a wrong tile -> (bx, by) mapping, which computes some tiles twice and
// others never (unwritten). Grids of 4x4 tiles on 1, 3, 5, 7 and 15 blocks
// (one block for all tiles, uneven shares, one tile short of a block per
// tile), 2..4 stages, rolled and unrolled steady states, a hand schedule,
// trip counts below the depth, transposed bf16 operands, and a kernel with
// synchronous copies and no prologue to move. The tiles run in the grouped
// order (BlockOrder.h): one group of all 4 rows by default, and groups of 3
// rows and a short last group of 1 with block-group=3, or row-major order
// with block-group=1. Over tensors of dynamic size (--dynamic) the tile
// count is computed at run time: 16 tiles on 3 and 7 blocks, on 16 where
// 40 are asked for (the grid is the smaller count), and a K of 5 elements whose one k-tile is below
// the depth, so that the prologue's guarded second step issues nothing.
//
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=true \
// RUN:       --tile-persistent-blocks=blocks=1 --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=true \
// RUN:       --tile-persistent-blocks=blocks=3 --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=false \
// RUN:       --tile-persistent-blocks=blocks=5 --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 2 --M 64 --N 32 --K 64 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=true \
// RUN:       --tile-persistent-blocks=blocks=7 --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --M 60 --N 30 --K 16 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=true \
// RUN:       --tile-persistent-blocks=blocks=15 --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,1 --order 0,1,2 --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline \
// RUN:       --tile-persistent-blocks=blocks=3 --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --transpose-a --transpose-b --dtype bf16 --c-type f32 \
// RUN:     --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline \
// RUN:       --tile-persistent-blocks=blocks=3 --tile-specialize-interior-blocks --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant plain --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-persistent-blocks=blocks=3 --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline \
// RUN:       --tile-persistent-blocks="blocks=5 block-group=3" --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline \
// RUN:       --tile-persistent-blocks="blocks=3 block-group=1" --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --dynamic --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=true \
// RUN:       --tile-persistent-blocks=blocks=3 --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 2 --dynamic --M 64 --N 32 --K 64 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=false \
// RUN:       --tile-persistent-blocks=blocks=7 --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --dynamic --M 60 --N 30 --K 5 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline \
// RUN:       --tile-persistent-blocks=blocks=40 --tile-specialize-interior-blocks --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --dynamic --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline \
// RUN:       --tile-persistent-blocks="blocks=5 block-group=3" --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant plain --dynamic --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-persistent-blocks="blocks=3 block-group=1" --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// With tile-specialize-interior-blocks first (the order of tile-to-ptx), each
// tile chooses the interior or the edge version on its own indices; taking
// the interior version for an edge tile leaves parts of C unwritten.
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-specialize-interior-blocks \
// RUN:       --tile-persistent-blocks=blocks=3 --tile-specialize-interior-steps --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 2 --transpose-a --dtype bf16 --c-type f32 --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=false --tile-specialize-interior-blocks \
// RUN:       --tile-persistent-blocks="blocks=5 block-group=3" --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --dynamic --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-specialize-interior-blocks \
// RUN:       --tile-persistent-blocks="blocks=7 block-group=1" --tile-specialize-interior-steps --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant plain --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-specialize-interior-blocks --tile-persistent-blocks=blocks=3 --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
//
// The rewrite happens in these (a 4x4 grid on fewer blocks):
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 --emit kernel \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline \
// RUN:       --tile-persistent-blocks=blocks=3 | FileCheck %s --check-prefix=IR
// RUN: %python %S/Inputs/gemm.py --variant plain --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 --emit kernel \
// RUN:   | tile-opt --tile-persistent-blocks=blocks=3 | FileCheck %s --check-prefix=IR

// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}

// IR: tile.kernel grid(%{{.*}}) threads({{[0-9]+}}) as (%{{[a-z0-9_]+}}) {
// IR: scf.for
// IR: tile.barrier
