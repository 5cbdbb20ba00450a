// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true" -cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true cluster=2" -cse | FileCheck %s --check-prefix=CLUSTER

// The TMA writes shared memory through the async proxy, which a barrier does
// not order after the generic proxy's stores: a clear of a tile that a copy
// then fills needs fence.proxy.async.shared::cta before the barrier, or the
// zeros may land after the copied data. A clear of a tile that no copy fills
// (%s) needs none.
// CHECK-LABEL: gpu.func @clear_filled_kernel
// CHECK: %[[S:.*]] = memref.view {{.*}}[%c0]
// CHECK: %[[A:.*]] = memref.view {{.*}}[%c8192]
// CHECK: vector.store %{{.*}}, %[[S]]
// CHECK-NOT: nvvm.fence.proxy
// CHECK-COUNT-4: vector.store %{{.*}}, %[[A]][%c1,
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.tma.async.load
// CHECK-NOT: nvvm.fence.proxy
// CHECK: gpu.return
func.func @clear_filled(%A: memref<4096x32xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %a = tile.alloc_shared : memref<2x128x32xf16, #gpu.address_space<workgroup>>
    %a0 = memref.subview %a[0, 0, 0] [1, 128, 32] [1, 1, 1] : memref<2x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    %a1 = memref.subview %a[1, 0, 0] [1, 128, 32] [1, 1, 1] : memref<2x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: 4096>, #gpu.address_space<workgroup>>
    tile.clear %s : memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.clear %a1 : memref<128x32xf16, strided<[32, 1], offset: 4096>, #gpu.address_space<workgroup>>
    tile.barrier
    tile.copy_async %A[%c0, %c0] to %a0 : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    tile.commit_group
    scf.for %k = %c2 to %c32 step %c2 {
      %v = arith.remui %k, %c2 : index
      %row = arith.muli %k, %c128 : index
      %av = memref.subview %a[%v, 0, 0] [1, 128, 32] [1, 1, 1] : memref<2x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.wait_group 0
      tile.barrier
      tile.copy_async %A[%row, %c0] to %av : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.commit_group
    }
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// Only a tile that no copy fills is cleared: no fence.
// CHECK-LABEL: gpu.func @clear_other_kernel
// CHECK-NOT: nvvm.fence.proxy
// CHECK: gpu.return
func.func @clear_other(%A: memref<4096x32xf16>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.clear %s : memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.barrier
    tile.copy_async %A[%c0, %c0] to %a : memref<4096x32xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// Writes in a loop that holds no copy and no barrier fence once, after the
// loop.
// CHECK-LABEL: gpu.func @clear_loop_kernel
// CHECK: scf.for
// CHECK-NOT: nvvm.fence.proxy
// CHECK-COUNT-4: vector.store
// CHECK-NOT: nvvm.fence.proxy
// CHECK: {{^ *}}}{{$}}
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: nvvm.fence.proxy
// CHECK: gpu.return
func.func @clear_loop(%A: memref<4096x32xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %c3 step %c1 {
      tile.clear %a : memref<128x32xf16, #gpu.address_space<workgroup>>
    }
    tile.barrier
    tile.copy_async %A[%c0, %c0] to %a : memref<4096x32xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// In a cluster, the other block's multicast boxes write this block's tile:
// the fence covers the cluster's window, before the cluster barrier.
// CLUSTER-LABEL: gpu.func @clear_cluster_kernel
// CLUSTER: vector.store
// CLUSTER: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cluster>}
// CLUSTER-NEXT: scf.for
// CLUSTER: gpu.barrier
// CLUSTER-NEXT: nvvm.cluster.arrive.relaxed
// CLUSTER: nvgpu.tma.async.load {{.*}} multicast_mask
func.func @clear_cluster(%A: memref<512x256xf16>, %B: memref<256x512xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %b = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %col = arith.muli %bx, %c128 : index
    tile.clear %b : memref<32x128xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c8 step %c1 {
      %kk = arith.muli %k, %c32 : index
      tile.barrier
      tile.copy_async %B[%kk, %col] to %b : memref<256x512xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 0
      tile.barrier
    }
  }
  return
}
