// RUN: tile-opt %s --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-nvgpu="chip=sm_90 tma=true" --tile-prefetch-fragments | FileCheck %s
// RUN: tile-opt %s --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-nvgpu="chip=sm_90 tma=true split-barriers=true" --tile-prefetch-fragments | FileCheck %s --check-prefix=SPLIT

// tile-prefetch-fragments on the steady state of a 3-stage GEMM whose copies
// go through the TMA (14 k-tiles, one unrolled loop of 4 trips). Each trip
// ends with the next trip's head, which in the last trip belongs to the step
// past the end. There that group must not exist: its wait is skipped and its
// boxes and arrival are predicated off, so the counters that the loop
// returns (those of the last real step) still number every group armed.
// Otherwise the past-the-end group would be armed under the number of the
// next group committed after the loop and the kernel could end with its
// boxes in flight.

// CHECK-LABEL: gpu.func @gemm_kernel
// CHECK: scf.for %[[IV:.*]] = {{.*}} iter_args(
// CHECK: %[[MORE:.*]] = arith.cmpi slt, %[[IV]]
// The two unrolled steps inside the trip wait and issue unconditionally.
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: gpu.barrier
// CHECK: nvgpu.mbarrier.arrive.expect_tx {{.*}}, predicate = %[[LEAD:[0-9]+]] :
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: gpu.barrier
// CHECK: nvgpu.mbarrier.arrive.expect_tx {{.*}}, predicate = %[[LEAD]] :
// The next trip's head, past the end in the last trip.
// CHECK: scf.if %[[MORE]] {
// CHECK-NEXT: nvgpu.mbarrier.try_wait.parity
// CHECK-NEXT: }
// CHECK: gpu.barrier
// CHECK: %[[PA:.*]] = arith.andi %[[LEAD]], %[[MORE]] : i1
// CHECK-NEXT: nvgpu.tma.async.load {{.*}}, predicate = %[[PA]] :
// CHECK: %[[PB:.*]] = arith.andi %[[LEAD]], %[[MORE]] : i1
// CHECK-NEXT: nvgpu.tma.async.load {{.*}}, predicate = %[[PB]] :
// CHECK: %[[PB2:.*]] = arith.andi %[[LEAD]], %[[MORE]] : i1
// CHECK-NEXT: nvgpu.tma.async.load {{.*}}, predicate = %[[PB2]] :
// CHECK: %[[PT:.*]] = arith.andi %[[LEAD]], %[[MORE]] : i1
// CHECK-NEXT: nvgpu.mbarrier.arrive.expect_tx {{.*}}, predicate = %[[PT]] :
// CHECK: scf.yield

// With split-barriers=true the past-the-end head's named barrier (warp 0's
// wait, the other warps' arrival) is skipped with its copies.
// SPLIT-LABEL: gpu.func @gemm_kernel
// SPLIT: scf.for %[[IV:.*]] = {{.*}} iter_args(
// SPLIT: %[[MORE:.*]] = arith.cmpi slt, %[[IV]]
// SPLIT: scf.if %[[MORE]] {
// SPLIT-NEXT: nvgpu.mbarrier.try_wait.parity
// SPLIT-NEXT: }
// SPLIT: scf.if %{{.*}} {
// SPLIT-NEXT: scf.if %[[MORE]] {
// SPLIT-NEXT: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// SPLIT-NEXT: }
// SPLIT-NEXT: } else {
// SPLIT-NEXT: scf.if %[[MORE]] {
// SPLIT-NEXT: nvvm.barrier.arrive id = %{{.*}} number_of_threads = %{{.*}}
// SPLIT-NEXT: }
// SPLIT-NEXT: }
// SPLIT: scf.yield

!A = memref<256x448xf16>
!B = memref<448x256xf16>
!C = memref<256x256xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x128xf32, #gpu.address_space<private>>
func.func @gemm(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c14 = arith.constant 14 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c2, %c2) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %c128 : index
    %col = arith.muli %bx, %c128 : index
    tile.pipelined %c0 to %c14 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}

