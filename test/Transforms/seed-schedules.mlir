// The three passes on the seed's own files (examples/), as the seed runs
// them: planning resolves matmul_auto and matmul_manual and leaves
// matmul_plain (a serial scf.for) alone; the budget reports 16384 B per
// stage for 128x128x32 fp16 tiles.

// RUN: tile-opt --tile-pipeline-planning %tile_src_root/examples/matmul_auto.mlir | FileCheck %s --check-prefix=AUTO
// AUTO: tile.pipelined {{.*}} num_stages = 3 stage = [0, 0, 2] order = [0, 1, 2]

// RUN: tile-opt --tile-pipeline-planning %tile_src_root/examples/matmul_manual.mlir | FileCheck %s --check-prefix=MANUAL
// MANUAL: tile.pipelined {{.*}} num_stages = 2 stage = [0, 0, 1] order = [0, 1, 2]

// RUN: tile-opt --tile-pipeline-planning %tile_src_root/examples/matmul_plain.mlir | FileCheck %s --check-prefix=PLAIN
// PLAIN-NOT: tile.pipelined
// PLAIN: scf.for

// RUN: tile-opt --tile-smem-budget=chip=sm_80 %tile_src_root/examples/matmul_auto.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET-AUTO
// BUDGET-AUTO:      kernel @matmul_auto (chip sm_80, limit 166912 B per block)
// BUDGET-AUTO-NEXT:   stages=1       16384 B  [OK]
// BUDGET-AUTO-NEXT:   stages=3       49152 B  [OK]

// RUN: tile-opt --tile-smem-budget=chip=sm_86 %tile_src_root/examples/matmul_plain.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=BUDGET-PLAIN
// A kernel without pipelined loops has the one-stage row only.
// BUDGET-PLAIN:      kernel @matmul_plain (chip sm_86, limit 101376 B per block)
// BUDGET-PLAIN-NEXT:   stages=1       16384 B  [OK]
// BUDGET-PLAIN-NEXT:   registers 128 per thread

// RUN: tile-opt --tile-print-schedule %tile_src_root/examples/matmul_manual.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=PRINT
// PRINT:      depth 2, showing the first 6 of 128 iterations
// PRINT:      t=0   prologue  | copy it0 -> %[[A:[0-9]+]][v0] | copy it0 -> %[[B:[0-9]+]][v0]{{$}}
// PRINT-NEXT: t=1   steady    | copy it1 -> %[[A]][v1] | copy it1 -> %[[B]][v1] | gemm it0 <- %[[A]][v0] <- %[[B]][v0]
// PRINT:      t=6   epilogue  | gemm it5 <- %[[A]][v1] <- %[[B]][v1]
