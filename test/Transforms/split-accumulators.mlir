// RUN: tile-opt %s --tile-split-accumulators="chip=sm_90a blocks=false" --split-input-file 2>/dev/null | FileCheck %s

// The parts in loops (blocks=false); split-accumulators-blocks.mlir has the
// parts in blocks of their own, as these kernels get them by default.

// The seed's 256x256x64 configuration at 128 threads: the accumulator needs
// 512 registers a thread, so it is computed as 2 x 2 parts of 128x128, in a
// loop over the row parts around one over the column parts. A's tile is cut
// along its rows, B's along its columns; A's copy reads the part's rows, B's
// its columns, and the store writes the part's block of C. The block's
// offsets stay outside the loops, and so does each sum that adds a part's
// offset to one of them.

!A = memref<4096x4096xf16>
!As = memref<256x64xf16, #gpu.address_space<workgroup>>
!Bs = memref<64x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<256x256xf32, #gpu.address_space<private>>

// CHECK-LABEL: func.func @seed_256
// CHECK:       tile.kernel
// CHECK-NEXT:    %[[AS:.*]] = tile.alloc_shared : memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[BS:.*]] = tile.alloc_shared : memref<64x128xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:    %[[CL:.*]] = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
// CHECK-NEXT:    %[[ROW:.*]] = arith.muli %{{.*}}, %c256
// CHECK-NEXT:    %[[COL:.*]] = arith.muli %{{.*}}, %c256
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %c2{{.*}} step
// CHECK-NEXT:      %[[ROFF:.*]] = arith.muli %[[I]], %c128
// CHECK:           scf.for %[[J:.*]] = %{{.*}} to %c2{{.*}} step
// CHECK-NEXT:        %[[COFF:.*]] = arith.muli %[[J]], %c128
// CHECK-NEXT:        tile.clear %[[CL]] : memref<128x128xf32
// CHECK-NEXT:        %[[AROW:.*]] = arith.addi %[[ROW]], %[[ROFF]]
// CHECK-NEXT:        %[[BCOL:.*]] = arith.addi %[[COL]], %[[COFF]]
// CHECK-NEXT:        tile.pipelined {{.*}} num_stages = 3 as (%[[K:.*]]) {
// CHECK-NEXT:          %[[KO:.*]] = arith.muli %[[K]], %c64
// CHECK-NEXT:          tile.copy %{{.*}}[%[[AROW]], %[[KO]]] to %[[AS]]
// CHECK-NEXT:          tile.copy %{{.*}}[%[[KO]], %[[BCOL]]] to %[[BS]]
// CHECK-NEXT:          tile.gemm %[[AS]], %[[BS]], %[[CL]] :
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[CROW:.*]] = arith.addi %[[ROW]], %[[ROFF]]
// CHECK-NEXT:        %[[CCOL:.*]] = arith.addi %[[COL]], %[[COFF]]
// CHECK-NEXT:        tile.copy %[[CL]] to %{{.*}}[%[[CROW]], %[[CCOL]]] : memref<128x128xf32
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:  }
func.func @seed_256(%A: !A, %B: !A, %C: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  tile.kernel grid(%c16, %c16) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    %row = arith.muli %by, %c256 : index
    %col = arith.muli %bx, %c256 : index
    tile.clear %C_l : !Cl
    tile.pipelined %c0 to %c64 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c64 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !A to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !A
  }
  return
}

// -----

// 128x256 at 128 threads (256 registers): two parts along the columns. A's
// tile serves both whole; the row offsets do not change.

!A = memref<4096x4096xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

// CHECK-LABEL: func.func @columns
// CHECK:         %[[AS:.*]] = tile.alloc_shared : memref<128x32xf16
// CHECK-NEXT:    %[[BS:.*]] = tile.alloc_shared : memref<32x128xf16
// CHECK-NEXT:    %[[CL:.*]] = tile.alloc_fragment : memref<128x128xf32
// CHECK-NOT:     scf.for
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %c2{{.*}} step
// CHECK-NEXT:      %[[COFF:.*]] = arith.muli %[[J]], %c128
// CHECK-NOT:       scf.for
// CHECK:           tile.copy %{{.*}}[%[[ROW:.*]], %{{.*}}] to %[[AS]]
// CHECK:           tile.copy %{{.*}}[%{{.*}}, %{{.*}}] to %[[BS]]
// CHECK:         %[[CCOL:.*]] = arith.addi %{{.*}}, %[[COFF]]
// CHECK-NEXT:    tile.copy %[[CL]] to %{{.*}}[%[[ROW]], %[[CCOL]]]
func.func @columns(%A: !A, %B: !A, %C: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  tile.kernel grid(%c16, %c32) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %c128 : index
    %col = arith.muli %bx, %c256 : index
    tile.pipelined %c0 to %c128 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !A to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !A
  }
  return
}

// -----

// Transposed operands, in a serial loop: A stored KxM is cut along its
// columns and its copy's column index moves; B stored NxK is cut along its
// rows. At 512 threads a thread has 128 registers, so the 256x256
// accumulator (128 registers, and the GEMM's 32) is cut once, along the
// rows, into 128x256 (64). A copy without indices gets them.

!At = memref<4096x4096xf16>
!As = memref<32x256xf16, #gpu.address_space<workgroup>>
!Bs = memref<256x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<256x256xf32, #gpu.address_space<private>>

// CHECK-LABEL: func.func @transposed
// CHECK:         %[[AS:.*]] = tile.alloc_shared : memref<32x128xf16
// CHECK-NEXT:    %[[BS:.*]] = tile.alloc_shared : memref<256x32xf16
// CHECK-NEXT:    %[[CL:.*]] = tile.alloc_fragment : memref<128x256xf32
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %c2{{.*}} step
// CHECK-NEXT:      %[[ROFF:.*]] = arith.muli %[[I]], %c128
// CHECK-NEXT:      tile.clear %[[CL]]
// CHECK-NEXT:      %[[AROW:.*]] = arith.addi %c0{{.*}}, %[[ROFF]]
// CHECK-NEXT:      scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NEXT:        %[[KO:.*]] = arith.muli %[[K]]
// CHECK-NEXT:        tile.copy %{{.*}}[%[[KO]], %[[AROW]]] to %[[AS]]
// CHECK-NEXT:        tile.copy %{{.*}}[%{{.*}}, %[[KO]]] to %[[BS]]
// CHECK-NEXT:        tile.gemm %[[AS]], %[[BS]], %[[CL]] transpose_a transpose_b
// CHECK:           %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:      tile.copy %[[CL]] to %{{.*}}[%[[ROFF]], %[[ZERO]]] : memref<128x256xf32
func.func @transposed(%A: !At, %B: !At, %C: !At) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c1, %c1) threads(512) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    scf.for %k = %c0 to %c128 step %c1 {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%ko, %c0] to %A_s : !At to !As
      tile.copy %B[%c0, %ko] to %B_s : !At to !Bs
      tile.gemm %A_s, %B_s, %C_l transpose_a transpose_b : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C : !Cl to !At
  }
  return
}

// -----

// The seed's own kernel (128x128, 128 threads: 128 registers and the
// GEMM's 32 fit 255) is left as it is.

!A = memref<4096x4096xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x128xf32, #gpu.address_space<private>>

// CHECK-LABEL: func.func @fits
// CHECK-NOT:     scf.for
// CHECK:         tile.alloc_fragment : memref<128x128xf32
// CHECK-NOT:     scf.for
// CHECK:         tile.pipelined
// CHECK-NOT:     scf.for
func.func @fits(%A: !A, %B: !A, %C: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c32, %c32) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.pipelined %c0 to %c32 step %c1 num_stages = 3 as (%k) {
      tile.copy %A[%c0, %k] to %A_s : !A to !As
      tile.copy %B[%k, %c0] to %B_s : !A to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C : !Cl to !A
  }
  return
}
