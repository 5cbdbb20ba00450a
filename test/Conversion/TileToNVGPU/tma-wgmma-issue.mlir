// TMA copies in wgmma kernels. With more than one warpgroup, thread 0's
// issue code sits on warpgroup 0's path to its next wgmma, and the other
// warpgroup waits for it at the next barrier; so there:
//  - the issue code is a branch on thread 0 with unpredicated ops, not a
//    branch on warp 0 with ops predicated on thread 0;
//  - the gemm has no fence.proxy.async: the TMA writes every shared tile
//    through the async proxy, which wgmma reads through;
//  - the unrolled steady state has no barrier after a step's mbarrier wait:
//    every thread waits itself, and the barrier after the wgmma wait keeps
//    the copies from overwriting a version the other warpgroup still reads.
//    The rolled loop, where no other barrier comes before the copies, keeps
//    it.
// With one warpgroup the first two stay as they are (measured, not needed:
// docs/performance.md, "Issue code off the critical path"), and the third
// holds there too, since one warpgroup also has a barrier after its wgmma
// wait. Where a generic write to shared memory (a clear) may need the
// barriers, all three stay.

// RUN: %python %tile_src_root/test/Execution/Inputs/gemm.py --variant auto --emit kernel --M 256 --N 512 --K 512 --bm 128 --bn 256 --bk 32 --threads 256 --num-stages 4 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-nvgpu="chip=sm_90a tma=true" \
// RUN:   | FileCheck %s --check-prefix=WIDE --implicit-check-not=nvvm.fence.proxy
// WIDE: %[[TID:.*]] = gpu.thread_id x
// WIDE: %[[LEADER:.*]] = arith.cmpi eq, %[[TID]], %c0
// WIDE: scf.if %[[LEADER]] {
// WIDE: nvgpu.tma.async.load %{{.*}} to %{{[a-z_0-9]+}} : <tensor
// WIDE: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c24576 :
// The rolled loop: the wait, then the barrier before the copies.
// WIDE: scf.for %{{.*}} step %c1
// WIDE: nvgpu.mbarrier.try_wait.parity
// WIDE-NOT: nvvm.wgmma
// WIDE: gpu.barrier
// WIDE: scf.if %[[LEADER]] {
// WIDE: } {tile.steady_state = 4 : i64}
// The unrolled loop: per step, wait, gemm, wgmma wait 1, barrier, copies.
// WIDE-NEXT: scf.for %{{.*}} step %c4
// WIDE: nvgpu.mbarrier.try_wait.parity
// WIDE-NOT: gpu.barrier
// WIDE: nvvm.wgmma.fence.aligned
// WIDE: nvvm.wgmma.wait.group.sync.aligned 1
// WIDE-NEXT: gpu.barrier
// WIDE: scf.if %[[LEADER]] {
// WIDE: nvgpu.mbarrier.try_wait.parity
// WIDE-NOT: gpu.barrier
// WIDE: nvvm.wgmma.fence.aligned
// WIDE: } {tile.steady_state = 4 : i64}

// RUN: %python %tile_src_root/test/Execution/Inputs/gemm.py --variant auto --emit kernel --M 256 --N 256 --K 512 --bm 128 --bn 128 --bk 32 --threads 128 --num-stages 3 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-nvgpu="chip=sm_90a tma=true" \
// RUN:   | FileCheck %s --check-prefix=ONE
// ONE: %[[TID:.*]] = gpu.thread_id x
// ONE: %[[LEADER:.*]] = arith.cmpi eq, %[[TID]], %c0
// ONE: %[[WARP0:.*]] = arith.cmpi ult, %[[TID]], %c32
// ONE: scf.if %[[WARP0]] {
// ONE: nvgpu.tma.async.load {{.*}}, predicate = %[[LEADER]] :
// ONE: nvgpu.mbarrier.arrive.expect_tx {{.*}}, predicate = %[[LEADER]] :
// ONE: } {tile.steady_state = 3 : i64}
// ONE-NEXT: scf.for %{{.*}} step %c3
// ONE: nvgpu.mbarrier.try_wait.parity
// ONE-NOT: gpu.barrier
// ONE: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// ONE-NEXT: nvvm.wgmma.fence.aligned
// ONE: nvvm.wgmma.wait.group.sync.aligned 1
// ONE-NEXT: gpu.barrier
// ONE: scf.if %[[WARP0]] {

// Two warpgroups, but a shared tile cleared with generic stores: the fences
// and the barriers after the waits stay.
// RUN: tile-opt %s --tile-lower-to-nvgpu="chip=sm_90a tma=true" | FileCheck %s --check-prefix=CLEAR
// CLEAR-LABEL: gpu.func @cleared_kernel
// CLEAR: nvgpu.mbarrier.try_wait.parity
// CLEAR-NOT: nvvm.wgmma
// CLEAR: gpu.barrier
// CLEAR: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CLEAR-NEXT: nvvm.wgmma.fence.aligned
func.func @cleared(%A: memref<128x64xf16>, %B: memref<64x256xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(256) as (%bx) {
    %a = tile.alloc_shared : memref<128x64xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<64x256xf16, #gpu.address_space<workgroup>>
    %z = tile.alloc_shared : memref<8x64xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : memref<128x256xf32, #gpu.address_space<private>>
    tile.clear %z : memref<8x64xf16, #gpu.address_space<workgroup>>
    tile.clear %acc : memref<128x256xf32, #gpu.address_space<private>>
    tile.copy_async %A[%c0, %c0] to %a : memref<128x64xf16> to memref<128x64xf16, #gpu.address_space<workgroup>>
    tile.copy_async %B[%c0, %c0] to %b : memref<64x256xf16> to memref<64x256xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
    tile.gemm %a, %b, %acc : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>, memref<128x256xf32, #gpu.address_space<private>>
  }
  return
}
