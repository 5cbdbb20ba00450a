// A pipelined K loop that runs several times in one block: gemm.py
// --tiles-per-block T wraps the clear, the K loop and the store of C in an
// scf.for over T tiles of a row of C. The next tile's prologue copies
// overwrite the buffer versions the previous tile's last gemms read, so a
// barrier must separate them (check-barriers turns a missing one into NaN);
// N = 150 is 5 tiles of 32, so with T = 2 and T = 3 the last block's last
// tile lies past N and must write nothing. Each must give the plain loop's
// numbers exactly, also where the tile loop carries the tile's column from
// one tile to the next (--tile-loop carried). (The serial kernel also goes through
// --tile-software-pipeline, which places the barriers of code outside
// pipelined loops; without them check-barriers gives NaN.)
//
// RUN: %python %S/Inputs/gemm.py --tiles-per-block 2 --M 100 --N 150 --K 200 \
// RUN:   | tile-opt --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --tiles-per-block 2 --num-stages 3 --M 100 --N 150 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline -o %t.s3.mlir
// RUN: FileCheck %s --check-prefix=S3 < %t.s3.mlir
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.s3.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --tiles-per-block 3 --num-stages 4 --dynamic --M 100 --N 150 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --tiles-per-block 3 --tile-loop carried --num-stages 3 --M 100 --N 150 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --tiles-per-block 3 --variant manual --stage 0,0,1 --order 1,0,2 --M 100 --N 150 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline \
// RUN:       --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s

// The tile loop holds the whole pipeline: prologue, steady state, epilogue
// and the store, then the barrier before the next tile's prologue copies.
// S3:      scf.for %{{.*}} = %c0 to %c2 step %c1 {
// S3:        tile.clear
// S3:        tile.copy_async
// S3:        tile.commit_group
// S3:        scf.for
// S3:        } {tile.steady_state = 3 : i64}
// S3:        tile.wait_group 0
// S3:        tile.copy %{{.*}} to %arg2
// S3-NEXT:   tile.barrier
// S3-NEXT: }

// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 15000{{$}}
