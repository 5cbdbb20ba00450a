// RUN: tile-opt --tile-lower-to-cpu=model-async-copies=false %s | FileCheck %s
// RUN: tile-opt --tile-lower-to-cpu=model-async-copies=false %s | FileCheck %s --check-prefix=CLEAN
// With check-barriers every kernel here lowers as well; a view through an
// unranked memref goes unchecked (it crashed the check before).
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %s | FileCheck %s --check-prefix=CHECKED

// What each tile op becomes on the CPU. The numbers are checked by the
// execution tests (test/Execution); here, the structure, with asynchronous
// copies landing at once (async-copy-model.mlir checks the default model).

!G = memref<64x48xf16>
!S2 = memref<2x16x8xbf16, #gpu.address_space<workgroup>>
!Sv = memref<16x8xbf16, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>
!D = memref<16x8xf32, #gpu.address_space<private>>
!Bf = memref<16x16xbf16, #gpu.address_space<private>>
!F = memref<8x16xf32, #gpu.address_space<private>>

func.func @all_ops(%G: !G, %H: memref<64x48xbf16>, %gx: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%gx, %c4) threads(64) as (%bx, %by) {
    %S = tile.alloc_shared : !S2
    %B = tile.alloc_fragment : !Bf
    %D = tile.alloc_fragment : !D
    %C = tile.alloc_fragment : !F
    tile.clear %C : !F
    %v = memref.subview %S[%c1, 0, 0] [1, 16, 8] [1, 1, 1] : !S2 to !Sv
    tile.copy_async %H[%bx, %k] to %v : memref<64x48xbf16> to !Sv
    tile.commit_group
    tile.wait_group 0
    tile.barrier
    tile.copy %v to %D : !Sv to !D
    tile.pipelined %c0 to %k step %c1 num_stages = 2 as (%i) {
      tile.gemm %v, %B, %C transpose_a : !Sv, !Bf, !F
    }
    tile.copy %C to %G[%by, %bx] : !F to !G
  }
  return
}

// No tile op and no GPU address space survives, anywhere in the module.
// CLEAN-NOT: tile.
// CLEAN-NOT: #gpu.address_space

// The grid: one loop per dimension, block index d up to grid size d.
// CHECK-LABEL: func.func @all_ops(
// CHECK-SAME:    %[[G:[a-z0-9]+]]: memref<64x48xf16>, %[[H:[a-z0-9]+]]: memref<64x48xbf16>, %[[GX:[a-z0-9]+]]: index, %[[K:[a-z0-9]+]]: index)
// CHECK-DAG:   %[[C4:.*]] = arith.constant 4 : index
// CHECK:       scf.for %[[BX:.*]] = %{{.*}} to %[[GX]] step
// CHECK-NEXT:    scf.for %[[BY:.*]] = %{{.*}} to %[[C4]] step

// Tiles: plain heap buffers per thread block, versions and all, each filled
// with NaN (bf16 0x7FC0) first: a read before a write gives NaN, not what
// the memory held.
// CHECK-NEXT:      %[[S:.*]] = memref.alloc() : memref<2x16x8xbf16>
// CHECK-NEXT:      %[[NAN:.*]] = arith.constant 0x7FC0 : bf16
// CHECK:           memref.store %[[NAN]], %[[S]][
// CHECK:           %[[B:.*]] = memref.alloc() : memref<16x16xbf16>
// CHECK:           %[[D:.*]] = memref.alloc() : memref<16x8xf32>
// CHECK:           %[[C:.*]] = memref.alloc() : memref<8x16xf32>
// CHECK-NEXT:      arith.constant 0x7FC00000 : f32

// tile.clear: zero stores over the whole tile.
// CHECK:           %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:           memref.store %[[ZERO]], %[[C]][

// The version subview keeps its strided layout, without the address space.
// CHECK:           %[[V:.*]] = memref.subview %[[S]][%{{.*}}, 0, 0] [1, 16, 8] [1, 1, 1] : memref<2x16x8xbf16> to memref<16x8xbf16, strided<[8, 1], offset: ?>>

// tile.copy_async: a synchronous copy at offset + i, reading zero outside
// the source (unsigned compare: negative indices are outside too). The
// destination has no offsets and holds the whole extent: no test there.
// CHECK:           %[[ROW:.*]] = arith.addi %[[BX]], %{{.*}} : index
// CHECK:           %[[ROWOK:.*]] = arith.cmpi ult, %[[ROW]], %{{.*}} : index
// CHECK-NEXT:      %[[COL:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK:           %[[COLOK:.*]] = arith.cmpi ult, %[[COL]], %{{.*}} : index
// CHECK-NEXT:      %[[OK:.*]] = arith.andi %[[ROWOK]], %[[COLOK]] : i1
// CHECK-NEXT:      %[[VAL:.*]] = scf.if %[[OK]] -> (bf16) {
// CHECK-NEXT:        memref.load %[[H]][%[[ROW]], %[[COL]]]
// CHECK:           } else {
// CHECK-NEXT:        arith.constant 0.000000e+00 : bf16
// CHECK:           memref.store %[[VAL]], %[[V]][

// Commit, wait and barrier are gone (CLEAN-NOT above). A tile-to-tile copy
// with float conversion: widen bf16 to f32, no bounds tests.
// CHECK-NOT:       arith.cmpi
// CHECK:           %[[E:.*]] = memref.load %[[V]]
// CHECK-NEXT:      %[[W:.*]] = arith.extf %[[E]] : bf16 to f32
// CHECK-NEXT:      memref.store %[[W]], %[[D]]

// tile.pipelined without a rewrite: a serial loop with the same bounds.
// tile.gemm transpose_a: C[m][n] += f32(A[k][m]) * f32(B[k][n]), k innermost.
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[K]] step
// CHECK:             scf.for %[[M:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:          scf.for %[[N:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:            %[[INIT:.*]] = memref.load %[[C]][%[[M]], %[[N]]]
// CHECK-NEXT:            %[[SUM:.*]] = scf.for %[[KK:.*]] = {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (f32)
// CHECK-NEXT:              %[[A:.*]] = memref.load %[[V]][%[[KK]], %[[M]]]
// CHECK-NEXT:              %[[A32:.*]] = arith.extf %[[A]] : bf16 to f32
// CHECK-NEXT:              %[[BV:.*]] = memref.load %[[B]][%[[KK]], %[[N]]]
// CHECK-NEXT:              %[[B32:.*]] = arith.extf %[[BV]] : bf16 to f32
// CHECK-NEXT:              %[[P:.*]] = arith.mulf %[[A32]], %[[B32]] : f32
// CHECK-NEXT:              %[[NEXT:.*]] = arith.addf %[[ACC]], %[[P]] : f32
// CHECK-NEXT:              scf.yield %[[NEXT]]
// CHECK:                 memref.store %[[SUM]], %[[C]][%[[M]], %[[N]]]

// Fragment to global with offsets: rounds f32 to f16, skips stores outside
// the destination.
// CHECK:           %[[GR:.*]] = arith.addi %[[BY]], %{{.*}} : index
// CHECK:           %[[GC:.*]] = arith.addi %[[BX]], %{{.*}} : index
// CHECK:           %[[IN:.*]] = arith.andi
// CHECK-NEXT:      scf.if %[[IN]] {
// CHECK-NEXT:        %[[F:.*]] = memref.load %[[C]]
// CHECK-NEXT:        %[[T:.*]] = arith.truncf %[[F]] : f32 to f16
// CHECK-NEXT:        memref.store %[[T]], %[[G]][%[[GR]], %[[GC]]]

// Each block frees its tiles at its end.
// CHECK:           memref.dealloc %[[S]]
// CHECK-NEXT:      memref.dealloc %[[B]]
// CHECK-NEXT:      memref.dealloc %[[D]]
// CHECK-NEXT:      memref.dealloc %[[C]]
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// An unranked view of a tile loses its address space with the tile.
// CHECK-LABEL: func.func @unranked_view
// CHECK:         %[[U:.*]] = memref.cast %{{.*}} : memref<4xf32> to memref<*xf32>
// CHECK-NEXT:    memref.cast %[[U]] : memref<*xf32> to memref<4xf32>
// CHECKED-LABEL: func.func @unranked_view
// CHECKED:         memref.cast %{{.*}} : memref<*xf32> to memref<4xf32>
func.func @unranked_view(%o: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %t = tile.alloc_shared : memref<4xf32, #gpu.address_space<workgroup>>
    tile.clear %t : memref<4xf32, #gpu.address_space<workgroup>>
    %u = memref.cast %t : memref<4xf32, #gpu.address_space<workgroup>> to memref<*xf32, #gpu.address_space<workgroup>>
    %r = memref.cast %u : memref<*xf32, #gpu.address_space<workgroup>> to memref<4xf32, #gpu.address_space<workgroup>>
    tile.copy %r to %o : memref<4xf32, #gpu.address_space<workgroup>> to memref<4xf32>
  }
  return
}
