// B prefetched into one shared buffer (Inputs/late_load.py): each
// iteration's gemm reads the B tile the previous iteration copied, then the
// copy of the next tile refills the buffer. Planning keeps that copy in the
// gemm's stage (stage = [0, d-1, d-1] for depth d, with a warning that says
// why from depth 2 on; none at depth 1, where nothing is issued ahead); the
// rewrite keeps B_s unversioned and synchronous (one 8x8 tile, B's copies
// plain tile.copy ops, no tile.copy_async from B) while A_s is pipelined (d
// versions, copied with tile.copy_async). The product of the rewritten IR
// that was checked must still match the plain loop's exactly, for depths 1 to
// 4 and trip counts 1, 2, 4 and 13.
//
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 1 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.1.8.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 1 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.1.8.mlir
// RUN: tile-opt --tile-pipeline-planning %t.1.8.mlir -o %t.1.8.planned.mlir 2>&1 | count 0
// RUN: FileCheck %s --check-prefix=PLAN1 < %t.1.8.planned.mlir
// RUN: tile-opt --tile-software-pipeline %t.1.8.planned.mlir -o %t.1.8.rewritten.mlir
// RUN: FileCheck %s --check-prefixes=R1,REWRITE --implicit-check-not='tile.copy_async %arg1' < %t.1.8.rewritten.mlir
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.1.8.rewritten.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 1 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.1.13.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 1 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.1.13.mlir
// RUN: tile-opt --tile-pipeline-planning %t.1.13.mlir -o %t.1.13.planned.mlir 2>&1 | count 0
// RUN: FileCheck %s --check-prefix=PLAN1 < %t.1.13.planned.mlir
// RUN: tile-opt --tile-software-pipeline %t.1.13.planned.mlir -o %t.1.13.rewritten.mlir
// RUN: FileCheck %s --check-prefixes=R1,REWRITE --implicit-check-not='tile.copy_async %arg1' < %t.1.13.rewritten.mlir
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.1.13.rewritten.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 1 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.1.101.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 1 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.1.101.mlir
// RUN: tile-opt --tile-pipeline-planning %t.1.101.mlir -o %t.1.101.planned.mlir 2>&1 | count 0
// RUN: FileCheck %s --check-prefix=PLAN1 < %t.1.101.planned.mlir
// RUN: tile-opt --tile-software-pipeline %t.1.101.planned.mlir -o %t.1.101.rewritten.mlir
// RUN: FileCheck %s --check-prefixes=R1,REWRITE --implicit-check-not='tile.copy_async %arg1' < %t.1.101.rewritten.mlir
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.1.101.rewritten.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 2 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.2.8.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 2 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.2.8.mlir
// RUN: tile-opt --tile-pipeline-planning %t.2.8.mlir -o %t.2.8.planned.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=PLAN2 < %t.2.8.planned.mlir
// RUN: tile-opt --tile-software-pipeline %t.2.8.planned.mlir -o %t.2.8.rewritten.mlir
// RUN: FileCheck %s --check-prefixes=R2,REWRITE --implicit-check-not='tile.copy_async %arg1' < %t.2.8.rewritten.mlir
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.2.8.rewritten.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 2 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.2.13.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 2 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.2.13.mlir
// RUN: tile-opt --tile-pipeline-planning %t.2.13.mlir -o %t.2.13.planned.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=PLAN2 < %t.2.13.planned.mlir
// RUN: tile-opt --tile-software-pipeline %t.2.13.planned.mlir -o %t.2.13.rewritten.mlir
// RUN: FileCheck %s --check-prefixes=R2,REWRITE --implicit-check-not='tile.copy_async %arg1' < %t.2.13.rewritten.mlir
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.2.13.rewritten.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 2 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.2.101.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 2 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.2.101.mlir
// RUN: tile-opt --tile-pipeline-planning %t.2.101.mlir -o %t.2.101.planned.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=PLAN2 < %t.2.101.planned.mlir
// RUN: tile-opt --tile-software-pipeline %t.2.101.planned.mlir -o %t.2.101.rewritten.mlir
// RUN: FileCheck %s --check-prefixes=R2,REWRITE --implicit-check-not='tile.copy_async %arg1' < %t.2.101.rewritten.mlir
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.2.101.rewritten.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.3.8.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.3.8.mlir
// RUN: tile-opt --tile-pipeline-planning %t.3.8.mlir -o %t.3.8.planned.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=PLAN3 < %t.3.8.planned.mlir
// RUN: tile-opt --tile-software-pipeline %t.3.8.planned.mlir -o %t.3.8.rewritten.mlir
// RUN: FileCheck %s --check-prefixes=R3,REWRITE --implicit-check-not='tile.copy_async %arg1' < %t.3.8.rewritten.mlir
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.3.8.rewritten.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.3.13.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.3.13.mlir
// RUN: tile-opt --tile-pipeline-planning %t.3.13.mlir -o %t.3.13.planned.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=PLAN3 < %t.3.13.planned.mlir
// RUN: tile-opt --tile-software-pipeline %t.3.13.planned.mlir -o %t.3.13.rewritten.mlir
// RUN: FileCheck %s --check-prefixes=R3,REWRITE --implicit-check-not='tile.copy_async %arg1' < %t.3.13.rewritten.mlir
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.3.13.rewritten.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --K 29 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.3.29.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --K 29 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.3.29.mlir
// RUN: tile-opt --tile-pipeline-planning %t.3.29.mlir -o %t.3.29.planned.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=PLAN3 < %t.3.29.planned.mlir
// RUN: tile-opt --tile-software-pipeline %t.3.29.planned.mlir -o %t.3.29.rewritten.mlir
// RUN: FileCheck %s --check-prefixes=R3,REWRITE --implicit-check-not='tile.copy_async %arg1' < %t.3.29.rewritten.mlir
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.3.29.rewritten.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.3.101.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.3.101.mlir
// RUN: tile-opt --tile-pipeline-planning %t.3.101.mlir -o %t.3.101.planned.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=PLAN3 < %t.3.101.planned.mlir
// RUN: tile-opt --tile-software-pipeline %t.3.101.planned.mlir -o %t.3.101.rewritten.mlir
// RUN: FileCheck %s --check-prefixes=R3,REWRITE --implicit-check-not='tile.copy_async %arg1' < %t.3.101.rewritten.mlir
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.3.101.rewritten.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.4.8.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.4.8.mlir
// RUN: tile-opt --tile-pipeline-planning %t.4.8.mlir -o %t.4.8.planned.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=PLAN4 < %t.4.8.planned.mlir
// RUN: tile-opt --tile-software-pipeline %t.4.8.planned.mlir -o %t.4.8.rewritten.mlir
// RUN: FileCheck %s --check-prefixes=R4,REWRITE --implicit-check-not='tile.copy_async %arg1' < %t.4.8.rewritten.mlir
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.4.8.rewritten.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.4.13.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.4.13.mlir
// RUN: tile-opt --tile-pipeline-planning %t.4.13.mlir -o %t.4.13.planned.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=PLAN4 < %t.4.13.planned.mlir
// RUN: tile-opt --tile-software-pipeline %t.4.13.planned.mlir -o %t.4.13.rewritten.mlir
// RUN: FileCheck %s --check-prefixes=R4,REWRITE --implicit-check-not='tile.copy_async %arg1' < %t.4.13.rewritten.mlir
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.4.13.rewritten.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --K 29 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.4.29.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --K 29 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.4.29.mlir
// RUN: tile-opt --tile-pipeline-planning %t.4.29.mlir -o %t.4.29.planned.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=PLAN4 < %t.4.29.planned.mlir
// RUN: tile-opt --tile-software-pipeline %t.4.29.planned.mlir -o %t.4.29.rewritten.mlir
// RUN: FileCheck %s --check-prefixes=R4,REWRITE --implicit-check-not='tile.copy_async %arg1' < %t.4.29.rewritten.mlir
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.4.29.rewritten.mlir | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.4.101.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.4.101.mlir
// RUN: tile-opt --tile-pipeline-planning %t.4.101.mlir -o %t.4.101.planned.mlir 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: FileCheck %s --check-prefix=PLAN4 < %t.4.101.planned.mlir
// RUN: tile-opt --tile-software-pipeline %t.4.101.planned.mlir -o %t.4.101.rewritten.mlir
// RUN: FileCheck %s --check-prefixes=R4,REWRITE --implicit-check-not='tile.copy_async %arg1' < %t.4.101.rewritten.mlir
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.4.101.rewritten.mlir | %tile_cpu_runner | FileCheck %s

// WARN:      warning: this copy stays in the consumer stage instead of being issued ahead in stage 0: there, statement #2 ('tile.copy', stage 0) overwrites shared tile
// WARN-NEXT: tile.copy %B[%kn, %col] to %B_s
// WARN:      note: statement #1 ('tile.gemm', stage {{[1-3]}}) reads shared tile

// PLAN1: tile.pipelined {{.*}} num_stages = 1 stage = [0, 0, 0] order = [0, 1, 2]
// PLAN2: tile.pipelined {{.*}} num_stages = 2 stage = [0, 1, 1] order = [0, 1, 2]
// PLAN3: tile.pipelined {{.*}} num_stages = 3 stage = [0, 2, 2] order = [0, 1, 2]
// PLAN4: tile.pipelined {{.*}} num_stages = 4 stage = [0, 3, 3] order = [0, 1, 2]

// R1:           tile.alloc_shared : memref<16x8xf16,
// R2:           tile.alloc_shared : memref<2x16x8xf16,
// R3:           tile.alloc_shared : memref<3x16x8xf16,
// R4:           tile.alloc_shared : memref<4x16x8xf16,
// REWRITE-NEXT: [[B_S:%[0-9]+]] = tile.alloc_shared : memref<8x8xf16,
// REWRITE:      tile.copy %arg1[%c0, {{%[0-9]+}}] to [[B_S]] :
// REWRITE:      tile.copy_async %arg0
// REWRITE:      tile.copy %arg1[{{.*}}] to [[B_S]] :
// REWRITE-NOT:  tile.pipelined

// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 240{{$}}
