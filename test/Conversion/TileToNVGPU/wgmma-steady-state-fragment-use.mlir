// RUN: tile-opt %s --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-nvgpu=chip=sm_90a | FileCheck %s
// RUN: tile-opt %s --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-nvgpu=chip=sm_90a \
// RUN:   | FileCheck %s --check-prefix=WAIT --implicit-check-not=nvvm.wgmma.commit.group --implicit-check-not=nvvm.wgmma.wait.group

// A pipelined loop that also reads the accumulator (here: stores the running
// sum every step) must not leave a wgmma group in flight: the store would
// read registers the wgmmas still write. Every gemm then ends with
// wait_group 0, and none moves ahead of its step's copies.

// CHECK-LABEL: gpu.func @running_sum_kernel
// CHECK-NOT: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: scf.for %{{.*}} step %c3
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: } {tile.steady_state = 3 : i64}
// CHECK-NOT: nvvm.wgmma.wait.group.sync.aligned 1

// Every gemm of the kernel, the prologue's, the three of the unrolled steady
// state and the epilogue's, commits its group and waits for it at once.
// WAIT-LABEL: gpu.func @running_sum_kernel
// WAIT:      scf.for %{{.*}} step %c1
// WAIT:      nvvm.wgmma.commit.group.sync.aligned
// WAIT-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// WAIT:      } {tile.steady_state = 3 : i64}
// WAIT:      scf.for %{{.*}} step %c3
// WAIT:      nvvm.wgmma.commit.group.sync.aligned
// WAIT-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// WAIT:      nvvm.wgmma.commit.group.sync.aligned
// WAIT-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// WAIT:      nvvm.wgmma.commit.group.sync.aligned
// WAIT-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// WAIT:      } {tile.steady_state = 3 : i64}
// WAIT:      nvvm.wgmma.commit.group.sync.aligned
// WAIT-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// WAIT:      nvvm.wgmma.commit.group.sync.aligned
// WAIT-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// WAIT:      gpu.return

!A = memref<256x512xf16>
!B = memref<512x256xf16>
!C = memref<256x256xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x128xf32, #gpu.address_space<private>>

func.func @running_sum(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %bm = arith.constant 128 : index
  %bk = arith.constant 32 : index
  %kt = arith.constant 16 : index
  tile.kernel grid(%c2, %c2) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %bm : index
    %col = arith.muli %bx, %bm : index
    tile.pipelined %c0 to %kt step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %bk : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      tile.copy %C_l to %C[%row, %col] : !Cl to !C
    }
  }
  return
}
