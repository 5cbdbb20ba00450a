// RUN: tile-opt %s --tile-pipeline-planning --tile-software-pipeline \
// RUN:   --tile-specialize-interior-blocks --tile-persistent-blocks=blocks=5 | FileCheck %s
// RUN: tile-opt %s --tile-pipeline-planning --tile-software-pipeline \
// RUN:   --tile-specialize-interior-blocks --tile-persistent-blocks=blocks=5 \
// RUN:   --tile-lower-to-nvgpu=chip=sm_80 | FileCheck %s --check-prefix=COPIES

// A 100x70 GEMM of 32x32 tiles: a 3x4 grid whose last column and row leave
// the tensors, so tile-specialize-interior-blocks gave the body an interior
// and an edge version. On 5 persistent blocks each tile chooses between them
// on its own indices: the first tile's prologue, every trip of the tile
// loop, and inside each version the next tile's prologue (the next tile is
// interior or not on its own). Each choice is a tile.block_versions scf.if
// whose condition is the kernel's, cloned for that tile.

// CHECK-LABEL: func.func @ragged
// CHECK:       tile.kernel grid(%{{.*}}) threads(64) as (%[[P:.*]]) {
// CHECK:         %[[T0:.*]] = arith.minui %[[P]], %{{.*}} : index
// CHECK:         arith.cmpi ult
// CHECK:         arith.cmpi ult
// CHECK-NEXT:    %[[IN0:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:    scf.if %[[IN0]] {
// CHECK:           arith.minui
// CHECK:           tile.copy_async
// CHECK:           tile.commit_group
// CHECK-NEXT:    } else {
// CHECK:           tile.copy_async
// CHECK:           tile.commit_group
// CHECK-NEXT:    } {tile.block_versions}
// CHECK:         scf.for %[[T:.*]] = %[[P]] to %{{.*}} step %{{.*}} {
// CHECK:           arith.cmpi ult
// CHECK:           arith.cmpi ult
// CHECK-NEXT:      %[[IN:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:      scf.if %[[IN]] {
// CHECK:             tile.clear
// CHECK:             scf.for
// CHECK:             } {tile.steady_state = 2 : i64}
// CHECK:             %[[NEXT:.*]] = arith.addi %[[T]], %{{.*}} : index
// CHECK:             scf.if %{{.*}} {
// CHECK:               scf.if %{{.*}} {
// CHECK:                 tile.copy_async
// CHECK:               } else {
// CHECK:                 tile.copy_async
// CHECK:               } {tile.block_versions}
// CHECK-NEXT:        }
// CHECK-NEXT:        tile.copy %{{.*}} to %{{.*}} : memref<32x32xf32{{.*}}> to memref<100x70xf16>
// CHECK-NEXT:      } else {
// CHECK:             tile.clear
// CHECK:             scf.for
// CHECK:             } {tile.steady_state = 2 : i64}
// CHECK:             scf.if %{{.*}} {
// CHECK:               scf.if %{{.*}} {
// CHECK:               } else {
// CHECK:               } {tile.block_versions}
// CHECK-NEXT:        }
// CHECK-NEXT:        tile.copy %{{.*}} to %{{.*}} : memref<32x32xf32{{.*}}> to memref<100x70xf16>
// CHECK-NEXT:      } {tile.block_versions}
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// The interior versions' copies move all 8 elements unchecked; the edge
// versions' keep the zero-fill count of a copy that may leave the tensor.
// COPIES-LABEL: gpu.func @ragged_kernel
// COPIES-DAG: nvgpu.device_async_copy %{{.*}}, 8 {bypassL1}
// COPIES-DAG: nvgpu.device_async_copy %{{.*}}, 8, %{{.*}} {bypassL1}

!A = memref<100x64xf16>
!B = memref<64x70xf16>
!C = memref<100x70xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>
!Bs = memref<16x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<32x32xf32, #gpu.address_space<private>>

func.func @ragged(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c3, %c4) threads(64) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %c32 : index
    %col = arith.muli %bx, %c32 : index
    tile.pipelined %c0 to %c4 step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}
