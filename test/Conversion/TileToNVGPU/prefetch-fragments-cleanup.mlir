// RUN: tile-opt %s --tile-pipeline-planning --tile-software-pipeline --canonicalize \
// RUN:   --tile-lower-to-nvgpu=chip=sm_90 --tile-prefetch-fragments | FileCheck %s

// Seven k-tiles at depth 3: the software pipeline builds a rolled loop of
// two steps and an unrolled loop of one trip (three steps), which
// --canonicalize inlines. Its copies then follow the rolled loop, and the
// zero fill past the end that a prefetched loop issues on its last trip
// would race with the first of them (both write one version): the rolled
// loop is not prefetched (it carries no fragments).

// CHECK-LABEL: gpu.func @gemm_kernel
// CHECK:       scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{[a-z0-9_]+}} {
// CHECK:       nvgpu.device_async_copy
// CHECK:       gpu.return

!A = memref<128x224xf16>
!B = memref<224x128xf16>
!C = memref<128x128xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x128xf32, #gpu.address_space<private>>

func.func @gemm(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bm = arith.constant 128 : index
  %bn = arith.constant 128 : index
  %bk = arith.constant 32 : index
  %M = arith.constant 128 : index
  %N = arith.constant 128 : index
  %K = arith.constant 224 : index
  %gx = arith.ceildivui %N, %bn : index
  %gy = arith.ceildivui %M, %bm : index
  %kt = arith.ceildivui %K, %bk : index
  tile.kernel grid(%gx, %gy) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %bm : index
    %col = arith.muli %bx, %bn : index
    tile.pipelined %c0 to %kt step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %bk : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}
