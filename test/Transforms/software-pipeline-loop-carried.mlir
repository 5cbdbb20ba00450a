// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=false %s 2>/dev/null | FileCheck %s

// A gemm that reads B_s before the copy refills it uses the previous
// iteration's tile. Planning keeps that copy in the gemm's stage (a warning
// says why); the rewrite keeps B_s as one unversioned buffer, copies it
// synchronously, and puts a barrier between the gemm's read and the refill,
// while A_s is still pipelined three deep.

!A = memref<256x256xf16>
!B = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>

// CHECK-LABEL: func.func @late_load
// CHECK:       %[[A_S:.*]] = tile.alloc_shared : memref<3x64x32xf16, #gpu.address_space<workgroup>>
// CHECK:       %[[B_S:.*]] = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
// The first gemm reads what the clear wrote.
// CHECK:       tile.clear %[[B_S]]
// CHECK-NEXT:  tile.barrier
// CHECK:       scf.for
// CHECK-NEXT:    tile.wait_group 1
// CHECK-NEXT:    tile.barrier
// CHECK:         tile.copy_async %{{.*}} to %{{.*}} : memref<256x256xf16> to memref<64x32xf16, strided
// CHECK-NEXT:    tile.commit_group
// CHECK:         tile.gemm %{{.*}}, %[[B_S]], %{{.*}} :
// CHECK-NEXT:    tile.barrier
// CHECK:         tile.copy %{{.*}} to %[[B_S]] :
// CHECK-NEXT:  }
// CHECK:       tile.gemm %{{.*}}, %[[B_S]], %{{.*}} :
// CHECK-NEXT:  tile.barrier
// CHECK-NEXT:  tile.copy %{{.*}} to %[[B_S]] :
func.func @late_load(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %B_s : !Bs
    tile.pipelined %c0 to %c8 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
    }
  }
  return
}

// A fragment is never multi-buffered, but it may hand one iteration's tile
// to the next stage when the reader runs first in the time step: the gemm
// of iteration k - 1 reads A_f before the copy of iteration k refills it.
// CHECK-LABEL: func.func @fragment_next_stage
// CHECK:       %[[A_F:.*]] = tile.alloc_fragment : memref<64x32xf16, #gpu.address_space<private>>
// CHECK:       scf.for
// CHECK:         tile.gemm %[[A_F]],
// CHECK:         tile.copy %{{.*}} to %[[A_F]] :
// CHECK:         tile.copy_async
// CHECK-NEXT:    tile.commit_group
// CHECK-NEXT:  }
func.func @fragment_next_stage(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_f = tile.alloc_fragment : memref<64x32xf16, #gpu.address_space<private>>
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 stage = [0, 0, 1] order = [1, 2, 0] as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_f : !A to memref<64x32xf16, #gpu.address_space<private>>
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_f, %B_s, %C_l : memref<64x32xf16, #gpu.address_space<private>>, !Bs, !Cl
    }
  }
  return
}
