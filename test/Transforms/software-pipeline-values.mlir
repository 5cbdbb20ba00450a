// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline %s | FileCheck %s

// A statement result feeding a later statement of the same stage: the row
// offset loaded from memory. With a dynamic trip count the load is guarded
// like the copy, and its value leaves the scf.if (zero when it is off).

// CHECK-LABEL: func.func @index_from_memory
// CHECK:       %[[N:.*]] = arith.select
// CHECK-NEXT:  %[[G0:.*]] = arith.cmpi sgt, %[[N]], %c0 : index
// CHECK-NEXT:  %[[ROW:.*]] = scf.if %[[G0]] -> (index) {
// CHECK-NEXT:    %[[V:.*]] = memref.load %{{.*}}[%c0] : memref<8xindex>
// CHECK-NEXT:    scf.yield %[[V]] : index
// CHECK-NEXT:  } else {
// CHECK-NEXT:    scf.yield %c0 : index
// CHECK-NEXT:  }
// CHECK-NEXT:  scf.if %[[G0]] {
// CHECK:         tile.copy_async %{{.*}}[%[[ROW]], %c0] to
// CHECK:       scf.for %[[K:.*]] = %c2 to
// CHECK:         %[[R:.*]] = memref.load %{{.*}}[%[[K]]] : memref<8xindex>
// CHECK:         tile.copy_async %{{.*}}[%[[R]], %{{.*}}] to

!A = memref<256x256xf16>
!B = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>
func.func @index_from_memory(%A: !A, %B: !B, %rows: memref<8xindex>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %n step %c1 num_stages = 3 as (%k) {
      %row = memref.load %rows[%k] : memref<8xindex>
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}
