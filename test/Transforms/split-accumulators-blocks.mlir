// RUN: tile-opt %s --tile-split-accumulators=chip=sm_90a --split-input-file 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks

// Where the kernel does nothing but compute the accumulator, each part gets
// a block of its own. The seed's 256x256x64
// configuration at 128 threads (512 registers a thread): 2 x 2 parts of
// 128x128, so the 16x16 grid becomes 32x32. Each block index becomes its
// tile (b / 2), which the kernel body uses as it used the index, and its
// part (b % 2), whose offset shifts the copies and the store. No loop is
// left over the parts.

!A = memref<4096x4096xf16>
!As = memref<256x64xf16, #gpu.address_space<workgroup>>
!Bs = memref<64x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<256x256xf32, #gpu.address_space<private>>

// REMARK: remark: this 256x256 accumulator needs 512 registers per thread at 128 threads, and a GEMM about 32 more; sm_90a gives a thread 255; it is computed in 4 parts of 128x128, each in a block of its own
// CHECK-LABEL: func.func @seed_256
// CHECK:         %[[GX:.*]] = arith.constant 32 : index
// CHECK-NEXT:    %[[GY:.*]] = arith.constant 32 : index
// CHECK-NEXT:    tile.kernel grid(%[[GX]], %[[GY]]) threads(128) as (%[[BX:.*]], %[[BY:.*]]) {
// CHECK-NEXT:      %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[TX:.*]] = arith.divui %[[BX]], %[[TWO]]
// CHECK-NEXT:      %[[PX:.*]] = arith.remui %[[BX]], %[[TWO]]
// CHECK-NEXT:      %[[TWO2:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[TY:.*]] = arith.divui %[[BY]], %[[TWO2]]
// CHECK-NEXT:      %[[PY:.*]] = arith.remui %[[BY]], %[[TWO2]]
// CHECK-NEXT:      %[[E:.*]] = arith.constant 128 : index
// CHECK-NEXT:      %[[ROFF:.*]] = arith.muli %[[PY]], %[[E]]
// CHECK-NEXT:      %[[E2:.*]] = arith.constant 128 : index
// CHECK-NEXT:      %[[COFF:.*]] = arith.muli %[[PX]], %[[E2]]
// CHECK-NEXT:      %[[AS:.*]] = tile.alloc_shared : memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:      %[[BS:.*]] = tile.alloc_shared : memref<64x128xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:      %[[CL:.*]] = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
// CHECK-NEXT:      %[[ROW:.*]] = arith.muli %[[TY]], %c256
// CHECK-NEXT:      %[[CROW:.*]] = arith.addi %[[ROW]], %[[ROFF]]
// CHECK-NEXT:      %[[AROW:.*]] = arith.addi %[[ROW]], %[[ROFF]]
// CHECK-NEXT:      %[[COL:.*]] = arith.muli %[[TX]], %c256
// CHECK-NEXT:      %[[CCOL:.*]] = arith.addi %[[COL]], %[[COFF]]
// CHECK-NEXT:      %[[BCOL:.*]] = arith.addi %[[COL]], %[[COFF]]
// CHECK-NEXT:      tile.clear %[[CL]]
// CHECK-NEXT:      tile.pipelined {{.*}} num_stages = 3 as (%[[K:.*]]) {
// CHECK-NEXT:        %[[KO:.*]] = arith.muli %[[K]], %c64
// CHECK-NEXT:        tile.copy %{{.*}}[%[[AROW]], %[[KO]]] to %[[AS]]
// CHECK-NEXT:        tile.copy %{{.*}}[%[[KO]], %[[BCOL]]] to %[[BS]]
// CHECK-NEXT:        tile.gemm %[[AS]], %[[BS]], %[[CL]] :
// CHECK-NEXT:      }
// CHECK-NEXT:      tile.copy %[[CL]] to %{{.*}}[%[[CROW]], %[[CCOL]]] : memref<128x128xf32
// CHECK-NEXT:    }
// CHECK-NOT:     scf.for
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

// 256x128 at 128 threads: two parts along the rows, in the grid's second
// dimension; the first keeps its size and its index. B's tile serves both
// parts whole.

!A = memref<4096x4096xf16>
!As = memref<256x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<256x128xf32, #gpu.address_space<private>>

// REMARK: remark: this 256x128 accumulator {{.*}} it is computed in 2 parts of 128x128, each in a block of its own
// CHECK-LABEL: func.func @rows
// CHECK:         %[[GY:c32_[0-9]+]] = arith.constant 32 : index
// CHECK-NEXT:    tile.kernel grid(%c32, %[[GY]]) threads(128) as (%[[BX:.*]], %[[BY:.*]]) {
// CHECK-NEXT:      %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[TY:.*]] = arith.divui %[[BY]], %[[TWO]]
// CHECK-NEXT:      %[[PY:.*]] = arith.remui %[[BY]], %[[TWO]]
// CHECK:           tile.alloc_shared : memref<128x32xf16
// CHECK-NEXT:      tile.alloc_shared : memref<32x128xf16
// CHECK-NEXT:      tile.alloc_fragment : memref<128x128xf32
// CHECK:           arith.muli %[[TY]], %c256
// CHECK:           arith.muli %[[BX]], %c128
// CHECK-NOT:     scf.for
func.func @rows(%A: !A, %B: !A, %C: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  tile.kernel grid(%c32, %c16) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %c256 : index
    %col = arith.muli %bx, %c128 : index
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

// A grid of one dimension takes the rows' parts where only the rows are
// cut. Pure ops before the clear and after the store (index arithmetic) do
// not keep the parts out of blocks.

!A = memref<4096x4096xf16>
!As = memref<256x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<256x128xf32, #gpu.address_space<private>>

// REMARK: remark: this 256x128 accumulator {{.*}} it is computed in 2 parts of 128x128, each in a block of its own
// CHECK-LABEL: func.func @linear_grid
// CHECK:         %[[G:.*]] = arith.constant 1024 : index
// CHECK:         tile.kernel grid(%[[G]]) threads(128) as (%[[B:.*]]) {
// CHECK-NEXT:      %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[T:.*]] = arith.divui %[[B]], %[[TWO]]
// CHECK-NEXT:      %[[P:.*]] = arith.remui %[[B]], %[[TWO]]
// CHECK:           arith.divui %[[T]], %c32
// CHECK:           arith.remui %[[T]], %c32
// CHECK-NOT:     scf.for
func.func @linear_grid(%A: !A, %B: !A, %C: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index
  %c512 = arith.constant 512 : index
  tile.kernel grid(%c512) threads(128) as (%b) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    %by = arith.divui %b, %c32 : index
    %bx = arith.remui %b, %c32 : index
    %row = arith.muli %by, %c256 : index
    %col = arith.muli %bx, %c128 : index
    tile.clear %C_l : !Cl
    tile.pipelined %c0 to %c128 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !A to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !A
    %unused = arith.addi %row, %col : index
  }
  return
}

// -----

// Over tensors of dynamic size the grid's second dimension is not a
// constant, and multiplied it could pass CUDA's 65535 blocks there: the
// rows' parts join the columns' in the first dimension, whose block index b
// becomes the tile b / 4 and the part b % 4, the row part (b % 4) / 2 and
// the column part (b % 4) % 2. The grid's first size is multiplied at run
// time.

!A = memref<?x?xf16>
!As = memref<256x64xf16, #gpu.address_space<workgroup>>
!Bs = memref<64x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<256x256xf32, #gpu.address_space<private>>

// REMARK: remark: this 256x256 accumulator {{.*}} it is computed in 4 parts of 128x128, each in a block of its own
// CHECK-LABEL: func.func @dynamic
// CHECK:         %[[FOUR:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[GX:.*]] = arith.muli %[[GX0:.*]], %[[FOUR]]
// CHECK-NEXT:    tile.kernel grid(%[[GX]], %[[GY:.*]]) threads(128) as (%[[BX:.*]], %[[BY:.*]]) {
// CHECK-NEXT:      %[[P:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %[[TX:.*]] = arith.divui %[[BX]], %[[P]]
// CHECK-NEXT:      %[[PX:.*]] = arith.remui %[[BX]], %[[P]]
// CHECK-NEXT:      %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[PR:.*]] = arith.divui %[[PX]], %[[TWO]]
// CHECK-NEXT:      %[[PC:.*]] = arith.remui %[[PX]], %[[TWO]]
// CHECK-NEXT:      %[[E:.*]] = arith.constant 128 : index
// CHECK-NEXT:      %[[ROFF:.*]] = arith.muli %[[PR]], %[[E]]
// CHECK-NEXT:      %[[E2:.*]] = arith.constant 128 : index
// CHECK-NEXT:      %[[COFF:.*]] = arith.muli %[[PC]], %[[E2]]
// CHECK:           %[[ROW:.*]] = arith.muli %[[BY]], %c256
// CHECK:           %[[COL:.*]] = arith.muli %[[TX]], %c256
// CHECK:           tile.copy %{{.*}} to %{{.*}}[%{{.*}}, %{{.*}}] : memref<128x128xf32
// CHECK-NOT:     scf.for
func.func @dynamic(%A: !A, %B: !A, %C: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %M = memref.dim %A, %c0 : !A
  %N = memref.dim %B, %c1 : !A
  %K = memref.dim %A, %c1 : !A
  %gx = arith.ceildivui %N, %c256 : index
  %gy = arith.ceildivui %M, %c256 : index
  %kt = arith.ceildivui %K, %c64 : index
  tile.kernel grid(%gx, %gy) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    %row = arith.muli %by, %c256 : index
    %col = arith.muli %bx, %c256 : index
    tile.clear %C_l : !Cl
    tile.pipelined %c0 to %kt step %c1 num_stages = 3 as (%k) {
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

// Tiles that start at the block index itself: the tile index (b / 2) is the
// copies' row, and the part's row offset, built after it, is added after
// both (it used to be added before the offset existed: invalid IR).
// CHECK-LABEL: func.func @raw_index
// CHECK:       tile.kernel grid(%{{.*}}) threads(32) as (%[[B:.*]]) {
// CHECK:         %[[TILE:.*]] = arith.divui %[[B]], %[[TWO:.*]] : index
// CHECK-NEXT:    %[[PART:.*]] = arith.remui %[[B]], %[[TWO]] : index
// CHECK:         %[[OFF:.*]] = arith.muli %[[PART]], %{{.*}} : index
// CHECK-NEXT:    arith.addi %[[TILE]], %[[OFF]] : index
// CHECK-NEXT:    arith.addi %[[TILE]], %[[OFF]] : index
// CHECK-NEXT:    tile.alloc_shared
func.func @raw_index(%A: memref<200x64xf16>, %B: memref<64x64xf16>, %C: memref<200x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c2) threads(32) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x64xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<128x64xf32, #gpu.address_space<private>>
    scf.for %k = %c0 to %c4 step %c1 {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%bx, %ko] to %A_s : memref<200x64xf16> to memref<128x16xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<64x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<128x16xf16, #gpu.address_space<workgroup>>, memref<16x64xf16, #gpu.address_space<workgroup>>, memref<128x64xf32, #gpu.address_space<private>>
    }
    tile.copy %C_l to %C[%bx, %c0] : memref<128x64xf32, #gpu.address_space<private>> to memref<200x64xf16>
  }
  return
}

