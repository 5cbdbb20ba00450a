// The seed GEMM under every schedule the pipeliner must support: depths 1 to
// 4 (`num_stages`) and schedules given by hand (`stage`/`order`). Each must
// reproduce the plain loop's numbers exactly. M=100, N=70, K=200 with
// 32x32x16 tiles: partial M and N tiles and 13 K steps, the last partial.
//
// Each schedule goes through --tile-pipeline-planning and
// --tile-software-pipeline; the rewritten IR is checked (so that the test
// cannot silently fall back to the serial loop) and then the same file runs
// through --tile-lower-to-cpu. Depth d gives d versions of each shared tile,
// d - 1 commit groups issued before the loop, waits that leave d - 2 groups
// in flight and a steady-state loop; depth 1 keeps single tiles and one loop
// that waits for every copy (S1). stage = [0, 1, 2] with order = [1, 0, 2]
// gives A_s 3 versions and B_s 2 (MIX).
//
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 1 --M 100 --N 70 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline -o %t.auto1.mlir
// RUN: FileCheck %s --check-prefix=S1 < %t.auto1.mlir
// RUN: tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm %t.auto1.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 2 --M 100 --N 70 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline -o %t.auto2.mlir
// RUN: FileCheck %s --check-prefix=S2 < %t.auto2.mlir
// RUN: tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm %t.auto2.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 100 --N 70 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline -o %t.auto3.mlir
// RUN: FileCheck %s --check-prefix=S3 < %t.auto3.mlir
// RUN: tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm %t.auto3.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --M 100 --N 70 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline -o %t.auto4.mlir
// RUN: FileCheck %s --check-prefix=S4 < %t.auto4.mlir
// RUN: tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm %t.auto4.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,1 --order 0,1,2 --M 100 --N 70 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline -o %t.m001.mlir
// RUN: FileCheck %s --check-prefix=S2 < %t.m001.mlir
// RUN: tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm %t.m001.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,3 --order 0,1,2 --M 100 --N 70 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline -o %t.m003.mlir
// RUN: FileCheck %s --check-prefix=S4 < %t.m003.mlir
// RUN: tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm %t.m003.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,1,2 --order 1,0,2 --M 100 --N 70 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline -o %t.m012.mlir
// RUN: FileCheck %s --check-prefix=MIX < %t.m012.mlir
// RUN: tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm %t.m012.mlir | %tile_cpu_runner | FileCheck %s

// K loops with a non-zero lower bound and counting elements (step 16).
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --k-offset 5 --M 100 --N 70 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline -o %t.auto3off.mlir
// RUN: FileCheck %s --check-prefix=S3 < %t.auto3off.mlir
// RUN: tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm %t.auto3off.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,1 --k-step element --k-offset 7 --M 100 --N 70 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline -o %t.m001elem.mlir
// RUN: FileCheck %s --check-prefix=S2 < %t.m001elem.mlir
// RUN: tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm %t.m001elem.mlir | %tile_cpu_runner | FileCheck %s
// A negative lower bound, the gemm under a condition that always holds (the
// generator's condition was k >= 0, false for the first steps here).
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --gemm-in-if --k-offset -3 --M 100 --N 70 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s

// S1:      tile.alloc_shared : memref<32x16xf16,
// S1-NEXT: tile.alloc_shared : memref<16x32xf16,
// S1-NOT:  tile.commit_group
// S1:      scf.for
// S1:      tile.copy_async
// S1:      tile.wait_group 0
// S1-NOT:  tile.steady_state

// S2:      tile.alloc_shared : memref<2x32x16xf16,
// S2-NEXT: tile.alloc_shared : memref<2x16x32xf16,
// S2-NOT:  scf.for
// S2:      tile.copy_async
// S2:      tile.commit_group
// S2-NOT:  tile.commit_group
// S2:      scf.for
// S2:      tile.wait_group 0
// S2:      tile.copy_async
// S2:      } {tile.steady_state = 2 : i64}

// S3:      tile.alloc_shared : memref<3x32x16xf16,
// S3-NEXT: tile.alloc_shared : memref<3x16x32xf16,
// S3-NOT:  scf.for
// S3:      tile.copy_async
// S3-NOT:  scf.for
// S3:      tile.commit_group
// S3-NOT:  scf.for
// S3:      tile.commit_group
// S3-NOT:  tile.commit_group
// S3:      scf.for
// S3:      tile.wait_group 1
// S3:      tile.copy_async
// S3:      } {tile.steady_state = 3 : i64}

// S4:      tile.alloc_shared : memref<4x32x16xf16,
// S4-NEXT: tile.alloc_shared : memref<4x16x32xf16,
// S4-NOT:  scf.for
// S4:      tile.copy_async
// S4-NOT:  scf.for
// S4:      tile.commit_group
// S4-NOT:  scf.for
// S4:      tile.commit_group
// S4-NOT:  scf.for
// S4:      tile.commit_group
// S4-NOT:  tile.commit_group
// S4:      scf.for
// S4:      tile.wait_group 2
// S4:      tile.copy_async
// S4:      } {tile.steady_state = 4 : i64}

// MIX:      tile.alloc_shared : memref<3x32x16xf16,
// MIX-NEXT: tile.alloc_shared : memref<2x16x32xf16,
// MIX-NOT:  scf.for
// MIX:      tile.copy_async
// MIX:      scf.for
// MIX:      tile.wait_group 1
// MIX:      tile.copy_async
// MIX:      } {tile.steady_state = 3 : i64}

// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 7000{{$}}
