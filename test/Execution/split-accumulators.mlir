// CPU execution of --tile-split-accumulators: GEMMs whose accumulator does
// not fit the registers are computed in parts, each in a block of its own
// where the kernel allows it (blocks=false: one after another in a loop),
// and every element must match the plain loop nest's exactly (each is the
// same sum in the same order). A part that read the wrong rows of A or
// columns of B gives wrong numbers; a part stored at the wrong offset
// leaves elements unwritten. Each run also checks the pass's remark, so
// that a kernel it left whole cannot pass unnoticed.
//
// At 32 threads a thread has 255 registers: 128x64 (256 registers) is cut
// into 2 parts of 64x64, 64x128 likewise along the columns, and 128x128 (512)
// into 4. Sizes that are not multiples of the tiles (the last parts of edge
// blocks lie partly or wholly outside C), transposed operands, bf16, two
// GEMMs a step, depths 1 to 4 with trip counts below the depth, a hand
// schedule, a serial loop, copies inside scf.if, a K loop that counts
// elements from an offset, and tensors of dynamic size (whose grid's second
// dimension is not a constant, so that the rows' parts join the columns' in
// its first). Then with the passes that follow in tile-to-ptx: the
// interior-block versions and persistent blocks, over parts in blocks and
// over the parts' loops; over tensors of dynamic size, also where the last
// tile of columns has one part inside C and one outside (N = 320: the
// interior version takes the blocks of complete tiles), and where every
// tile is complete (every block takes the interior version). Last, tensors
// smaller than the tile, whose parts past M = 64 rows (or N = 50 columns)
// no block stores into and the pass leaves out: in blocks, in a loop, with
// persistent blocks and a K loop from an offset, and with one part left.
// Last, blocks that each compute three tiles of a row of C in a loop around
// the clear, the K loop and the store (--tiles-per-block; the last blocks'
// last tiles lie past N): the parts are cut inside that loop, in blocks and
// one after another, over tensors of dynamic size with the interior
// versions, with persistent blocks, and in an scf.while loop.
//
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 100 --N 200 --K 61 --bm 128 --bn 64 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.1 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=TWO < %t.1
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 2 --M 100 --N 200 --K 61 --bm 64 --bn 128 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_80 --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.2 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=TWO < %t.2
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --M 300 --N 130 --K 40 --bm 128 --bn 128 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90 --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.3 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=FOUR < %t.3
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --transpose-a --transpose-b --dtype bf16 --c-type f32 \
// RUN:     --M 300 --N 130 --K 61 --bm 128 --bn 128 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline=unroll-steady-state=false \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.4 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=FOUR < %t.4
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --two-gemms --M 100 --N 200 --K 64 --bm 128 --bn 64 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.5 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=TWO < %t.5
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --M 100 --N 200 --K 20 --bm 128 --bn 64 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.6 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=TWO < %t.6
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 1 --M 100 --N 200 --K 61 --bm 128 --bn 64 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.7 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=TWO < %t.7
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,1 --order 0,1,2 --M 100 --N 200 --K 61 --bm 128 --bn 64 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.8 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=TWO < %t.8
// RUN: %python %S/Inputs/gemm.py --variant plain --M 100 --N 200 --K 61 --bm 128 --bn 64 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.9 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=TWO < %t.9
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --gemm-in-if --copy-b-in-if --offset-in-if \
// RUN:     --M 100 --N 200 --K 61 --bm 128 --bn 64 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.10 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=TWO < %t.10
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --k-step element --k-offset 3 \
// RUN:     --M 100 --N 200 --K 61 --bm 128 --bn 64 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.11 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=TWO < %t.11
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --dynamic --M 300 --N 130 --K 61 --bm 128 --bn 128 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-specialize-interior-blocks --tile-specialize-interior-steps \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.12 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=FOUR < %t.12
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 300 --N 330 --K 61 --bm 128 --bn 128 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-specialize-interior-blocks --tile-persistent-blocks=blocks=5 \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.13 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=FOUR < %t.13
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 100 --N 200 --K 61 --bm 128 --bn 64 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators="chip=sm_90a blocks=false" --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.14 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=TWO-LOOP < %t.14
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --M 300 --N 130 --K 40 --bm 128 --bn 128 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators="chip=sm_90 blocks=false" --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.15 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=FOUR-LOOP < %t.15
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 300 --N 330 --K 61 --bm 128 --bn 128 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators="chip=sm_90a blocks=false" --tile-software-pipeline \
// RUN:       --tile-specialize-interior-blocks --tile-persistent-blocks=blocks=5 \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.16 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=FOUR-LOOP < %t.16
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 300 --N 330 --K 61 --bm 128 --bn 128 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-specialize-interior-blocks --tile-specialize-interior-steps \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.17 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=FOUR < %t.17
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --dynamic --M 256 --N 320 --K 64 --bm 128 --bn 128 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-specialize-interior-blocks --tile-specialize-interior-steps \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.18 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=FOUR < %t.18
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --dynamic --M 256 --N 256 --K 64 --bm 128 --bn 128 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-specialize-interior-blocks --tile-specialize-interior-steps \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.19 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=FOUR < %t.19
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 64 --N 256 --K 32 --bm 128 --bn 128 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.20 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=TWO-OF-FOUR < %t.20
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 64 --N 256 --K 32 --bm 128 --bn 128 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators="chip=sm_90a blocks=false" --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.21 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=TWO-OF-FOUR-LOOP < %t.21
// RUN: %python %S/Inputs/gemm.py --variant plain --M 64 --N 256 --K 32 --bm 128 --bn 128 --bk 16 --threads 32 --k-offset 5 --two-gemms \
// RUN:   | tile-opt --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-specialize-interior-blocks --tile-persistent-blocks="blocks=3 block-group=3" \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.22 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=TWO-OF-FOUR < %t.22
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 40 --N 50 --K 40 --bm 128 --bn 128 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.23 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=ONE-OF-FOUR < %t.23
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --tiles-per-block 3 --M 100 --N 400 --K 61 --bm 128 --bn 64 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.24 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=TWO < %t.24
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --tiles-per-block 3 --M 100 --N 400 --K 61 --bm 128 --bn 64 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators="chip=sm_90a blocks=false" --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.25 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=TWO-LOOP < %t.25
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --tiles-per-block 3 --dynamic --M 300 --N 400 --K 61 --bm 128 --bn 128 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-specialize-interior-blocks --tile-specialize-interior-steps \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.26 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=FOUR < %t.26
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --tiles-per-block 3 --M 300 --N 700 --K 61 --bm 128 --bn 128 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-specialize-interior-blocks --tile-persistent-blocks=blocks=5 \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.27 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=FOUR < %t.27
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --tiles-per-block 3 --tile-loop while --M 100 --N 400 --K 61 --bm 128 --bn 64 --bk 16 --threads 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-split-accumulators=chip=sm_90a --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm 2>%t.28 | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=TWO < %t.28

// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}

// TWO:  remark: this {{[0-9]+x[0-9]+}} accumulator needs 256 registers per thread at 32 threads, {{.*}} it is computed in 2 parts of 64x64, each in a block of its own
// FOUR: remark: this 128x128 accumulator needs 512 registers per thread at 32 threads, {{.*}} it is computed in 4 parts of 64x64, each in a block of its own
// TWO-LOOP:  remark: this {{[0-9]+x[0-9]+}} accumulator needs 256 registers per thread at 32 threads, {{.*}} it is computed in 2 parts of 64x64, one after another
// FOUR-LOOP: remark: this 128x128 accumulator needs 512 registers per thread at 32 threads, {{.*}} it is computed in 4 parts of 64x64, one after another
// TWO-OF-FOUR: remark: this 128x128 accumulator {{.*}} it is cut in 4 parts of 64x64, of which 2 reach into the tensor it is stored into and are computed, each in a block of its own
// TWO-OF-FOUR-LOOP: remark: this 128x128 accumulator {{.*}} it is cut in 4 parts of 64x64, of which 2 reach into the tensor it is stored into and are computed, one after another
// ONE-OF-FOUR: remark: this 128x128 accumulator {{.*}} it is cut in 4 parts of 64x64, of which 1 reaches into the tensor it is stored into and is computed{{$}}
