// RUN: tile-opt %s | tile-opt | FileCheck %s
// RUN: tile-opt %s --mlir-print-op-generic | tile-opt | FileCheck %s
// RUN: tile-opt %s | tile-opt > %t.1 && tile-opt %s --mlir-print-op-generic | tile-opt > %t.2 && diff %t.1 %t.2

!G = memref<256x256xf16>
!S = memref<64x32xf16, #gpu.address_space<workgroup>>
!St = memref<32x64xf16, #gpu.address_space<workgroup>>
!F = memref<64x64xf32, #gpu.address_space<private>>

// CHECK-LABEL: func.func @kernel_grid
// CHECK: tile.kernel grid(%{{.*}}) threads(32) as (%bx) {
// CHECK: tile.kernel grid(%{{.*}}, %{{.*}}) threads(128) as (%bx, %by) {
// CHECK: tile.kernel grid(%{{.*}}, %{{.*}}, %{{.*}}) threads(256) as (%bx, %by, %bz) {
// CHECK-SAME: {{$}}
// CHECK: } attributes {note = "kept"}
func.func @kernel_grid(%n: index) {
  tile.kernel grid(%n) threads(32) as (%i) {
  }
  tile.kernel grid(%n, %n) threads(128) as (%i, %j) {
  }
  tile.kernel grid(%n, %n, %n) threads(256) as (%i, %j, %l) {
  } attributes {note = "kept"}
  return
}

// CHECK-LABEL: func.func @tiles
// CHECK: %[[S:.*]] = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK: %[[F:.*]] = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
// CHECK: tile.clear %[[F]] : memref<64x64xf32, #gpu.address_space<private>>
// CHECK: tile.clear %[[S]] : memref<64x32xf16, #gpu.address_space<workgroup>>
func.func @tiles(%n: index) {
  tile.kernel grid(%n) threads(128) as (%i) {
    %s = tile.alloc_shared : !S
    %f = tile.alloc_fragment : !F
    tile.clear %f : !F
    tile.clear %s : !S
  }
  return
}

// A buffer of a thread's own (non-tile ops run in every thread) is fine as
// long as no tile op uses it.
// CHECK-LABEL: func.func @thread_scratch
// CHECK: memref.alloca() : memref<4xindex>
// CHECK: memref.alloca() : memref<2xf32, #gpu.address_space<private>>
func.func @thread_scratch(%n: index, %x: f32) {
  tile.kernel grid(%n) threads(128) as (%i) {
    %c0 = arith.constant 0 : index
    %a = memref.alloca() : memref<4xindex>
    memref.store %i, %a[%c0] : memref<4xindex>
    %p = memref.alloca() : memref<2xf32, #gpu.address_space<private>>
    memref.store %x, %p[%c0] : memref<2xf32, #gpu.address_space<private>>
  }
  return
}

// CHECK-LABEL: func.func @copies
// CHECK: tile.copy %{{.*}}[%{{.*}}, %{{.*}}] to %{{.*}} : memref<256x256xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK: tile.copy %{{.*}} to %{{.*}} : memref<64x32xf16, #gpu.address_space<workgroup>> to memref<64x32xf16, #gpu.address_space<private>>
// CHECK: tile.copy %{{.*}} to %{{.*}}[%{{.*}}, %{{.*}}] : memref<64x64xf32, #gpu.address_space<private>> to memref<?x?xf16>
// CHECK: tile.copy_async %{{.*}}[%{{.*}}, %{{.*}}] to %{{.*}} : memref<256x256xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT: tile.commit_group
// CHECK-NEXT: tile.wait_group 0
// CHECK-NEXT: tile.barrier
func.func @copies(%A: !G, %C: memref<?x?xf16>, %i: index, %j: index) {
  tile.kernel grid(%i) threads(128) as (%b) {
    %s = tile.alloc_shared : !S
    %r = tile.alloc_fragment : memref<64x32xf16, #gpu.address_space<private>>
    %f = tile.alloc_fragment : !F
    tile.copy %A[%i, %j] to %s : !G to !S
    tile.copy %s to %r : !S to memref<64x32xf16, #gpu.address_space<private>>
    tile.copy %f to %C[%i, %j] : !F to memref<?x?xf16>
    tile.copy_async %A[%i, %j] to %s : !G to !S
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}

// CHECK-LABEL: func.func @gemms
// CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
// CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} transpose_b : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} transpose_a transpose_b : memref<32x64xbf16, #gpu.address_space<workgroup>>, memref<64x32xbf16, #gpu.address_space<private>>
// CHECK: tile.gemm %{{.*}}, %{{.*}}, %{{.*}} : memref<64x32xf32, #gpu.address_space<private>>, memref<32x64xf32, #gpu.address_space<workgroup>>
func.func @gemms(%n: index) {
  tile.kernel grid(%n) threads(128) as (%b) {
    %a = tile.alloc_shared : !S
    %bt = tile.alloc_shared : !St
    %f = tile.alloc_fragment : !F
    tile.gemm %a, %bt, %f : !S, !St, !F
    tile.gemm %a, %a, %f transpose_b : !S, !S, !F
    %x = tile.alloc_shared : memref<32x64xbf16, #gpu.address_space<workgroup>>
    %y = tile.alloc_fragment : memref<64x32xbf16, #gpu.address_space<private>>
    tile.gemm %x, %y, %f transpose_a transpose_b : memref<32x64xbf16, #gpu.address_space<workgroup>>, memref<64x32xbf16, #gpu.address_space<private>>, !F
    %p = tile.alloc_fragment : memref<64x32xf32, #gpu.address_space<private>>
    %q = tile.alloc_shared : memref<32x64xf32, #gpu.address_space<workgroup>>
    tile.gemm %p, %q, %f : memref<64x32xf32, #gpu.address_space<private>>, memref<32x64xf32, #gpu.address_space<workgroup>>, !F
  }
  return
}

// CHECK-LABEL: func.func @pipelined
// CHECK: tile.pipelined %{{.*}} to %{{.*}} step %{{.*}} as (%k) {
// CHECK: tile.pipelined %{{.*}} to %{{.*}} step %{{.*}} num_stages = 3 as (%k) {
// CHECK: tile.pipelined %{{.*}} to %{{.*}} step %{{.*}} stage = [0, 1] as (%k) {
// CHECK: tile.pipelined %{{.*}} to %{{.*}} step %{{.*}} num_stages = 2 stage = [0, 1] order = [1, 0] as (%k) {
// CHECK: } attributes {tag}
func.func @pipelined(%A: !G, %lb: index, %ub: index, %step: index) {
  tile.kernel grid(%ub) threads(128) as (%b) {
    %s = tile.alloc_shared : !S
    %f = tile.alloc_fragment : !F
    tile.pipelined %lb to %ub step %step as (%k) {
      tile.copy %A[%k, %k] to %s : !G to !S
    }
    tile.pipelined %lb to %ub step %step num_stages = 3 as (%k) {
      tile.copy %A[%k, %k] to %s : !G to !S
    }
    tile.pipelined %lb to %ub step %step stage = [0, 1] as (%k) {
      tile.copy %A[%k, %k] to %s : !G to !S
      tile.clear %f : !F
    }
    tile.pipelined %lb to %ub step %step num_stages = 2 stage = [0, 1] order = [1, 0] as (%k) {
      tile.copy %A[%k, %k] to %s : !G to !S
      tile.clear %f : !F
    } attributes {tag}
  }
  return
}

// Destinations whose places are distinct although a stride is small: a
// one-row view (its stride 0 along the row never steps), a tile wider than
// the tensor it is stored into, which writes only the tensor's 32 columns
// of each row, and a view of dynamic size at the tensor's ragged edge (a
// subview stays inside its tensor: at most 32 columns).
// CHECK-LABEL: func.func @distinct_places
// CHECK-COUNT-3: tile.copy
func.func @distinct_places(%C: memref<64x64xf32>, %D: memref<64x32xf32>, %m: index, %n: index) {
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c64) threads(128) as (%bx) {
    %F = tile.alloc_fragment : memref<32x64xf32, #gpu.address_space<private>>
    tile.clear %F : memref<32x64xf32, #gpu.address_space<private>>
    %row = memref.subview %C[%bx, 0] [1, 64] [0, 1] : memref<64x64xf32> to memref<1x64xf32, strided<[0, 1], offset: ?>>
    tile.copy %F to %row : memref<32x64xf32, #gpu.address_space<private>> to memref<1x64xf32, strided<[0, 1], offset: ?>>
    tile.copy %F to %D : memref<32x64xf32, #gpu.address_space<private>> to memref<64x32xf32>
    %edge = memref.subview %D[%bx, 0] [%m, %n] [1, 1] : memref<64x32xf32> to memref<?x?xf32, strided<[32, 1], offset: ?>>
    tile.copy %F to %edge : memref<32x64xf32, #gpu.address_space<private>> to memref<?x?xf32, strided<[32, 1], offset: ?>>
  }
  return
}
