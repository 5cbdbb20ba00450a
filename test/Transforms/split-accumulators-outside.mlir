// RUN: tile-opt %s --tile-split-accumulators=chip=sm_90a --split-input-file 2>%t.remarks | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
// RUN: tile-opt %s --tile-split-accumulators="chip=sm_90a blocks=false" --split-input-file 2>/dev/null \
// RUN:   | FileCheck %s --check-prefix=LOOP

// Parts that no block stores into are not computed. A part starts
// p * (part extent) past the store's index, which is at least 0 here (a
// block index times the tile size): with C of 64 rows, the 128x128
// accumulator's 64-row parts past the first lie below C for every block.
// At 32 threads the accumulator is cut in 2 x 2 parts of 64x64; the rows'
// second part is left out, so only the columns' parts take blocks (the grid
// grows from 2 to 4 in x, not to 8), A's tile is cut to 64 rows but read from
// the tile's first row, and the store's row index is not shifted. In a loop
// (blocks=false) there is one loop, over the columns' 2 parts.

!A = memref<64x256xf16>
!B = memref<256x256xf16>
!C = memref<64x256xf32>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x128xf32, #gpu.address_space<private>>

// REMARK: remark: this 128x128 accumulator {{.*}} it is cut in 4 parts of 64x64, of which 2 reach into the tensor it is stored into and are computed, each in a block of its own
// CHECK-LABEL: func.func @rows_below_c
// CHECK:         %[[GX:.*]] = arith.constant 4 : index
// CHECK-NEXT:    tile.kernel grid(%[[GX]], %c1) threads(32) as (%[[BX:.*]], %[[BY:.*]]) {
// CHECK-NEXT:      %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[TX:.*]] = arith.divui %[[BX]], %[[TWO]]
// CHECK-NEXT:      %[[PX:.*]] = arith.remui %[[BX]], %[[TWO]]
// CHECK-NEXT:      %[[E:.*]] = arith.constant 64 : index
// CHECK-NEXT:      %[[COFF:.*]] = arith.muli %[[PX]], %[[E]]
// CHECK-NEXT:      %[[AS:.*]] = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:      %[[BS:.*]] = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:      %[[CL:.*]] = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
// CHECK-NEXT:      %[[ROW:.*]] = arith.muli %[[BY]], %c128
// CHECK-NEXT:      %[[COL:.*]] = arith.muli %[[TX]], %c128
// CHECK-NEXT:      %[[CCOL:.*]] = arith.addi %[[COL]], %[[COFF]]
// CHECK-NEXT:      %[[BCOL:.*]] = arith.addi %[[COL]], %[[COFF]]
// CHECK-NEXT:      tile.clear %[[CL]]
// CHECK-NEXT:      tile.pipelined {{.*}} as (%[[K:.*]]) {
// CHECK-NEXT:        %[[KO:.*]] = arith.muli %[[K]], %c32
// CHECK-NEXT:        tile.copy %{{.*}}[%[[ROW]], %[[KO]]] to %[[AS]]
// CHECK-NEXT:        tile.copy %{{.*}}[%[[KO]], %[[BCOL]]] to %[[BS]]
// CHECK-NEXT:        tile.gemm %[[AS]], %[[BS]], %[[CL]] :
// CHECK-NEXT:      }
// CHECK-NEXT:      tile.copy %[[CL]] to %{{.*}}[%[[ROW]], %[[CCOL]]] : memref<64x64xf32

// LOOP-LABEL: func.func @rows_below_c
// LOOP:         tile.kernel grid(%c2, %c1) threads(32)
// LOOP:           %[[LB:.*]] = arith.constant 0 : index
// LOOP-NEXT:      %[[UB:.*]] = arith.constant 2 : index
// LOOP-NEXT:      %[[ST:.*]] = arith.constant 1 : index
// LOOP-NEXT:      %[[E:.*]] = arith.constant 64 : index
// LOOP-NEXT:      scf.for %[[P:.*]] = %[[LB]] to %[[UB]] step %[[ST]] {
// LOOP-NEXT:        arith.muli %[[P]], %[[E]]
// LOOP-NOT:       scf.for
// LOOP:         return
func.func @rows_below_c(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c2, %c1) threads(32) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    %row = arith.muli %by, %c128 : index
    %col = arith.muli %bx, %c128 : index
    tile.clear %C_l : !Cl
    tile.pipelined %c0 to %c8 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}

// -----

// C of 40x50 inside the first 64x64 part of the only block: one part is
// computed, with neither a loop nor a larger grid, and nothing is shifted.

!A = memref<40x64xf16>
!B = memref<64x50xf16>
!C = memref<40x50xf32>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x128xf32, #gpu.address_space<private>>

// REMARK: remark: this 128x128 accumulator {{.*}} it is cut in 4 parts of 64x64, of which 1 reaches into the tensor it is stored into and is computed{{$}}
// CHECK-LABEL: func.func @one_part
// CHECK:         tile.kernel grid(%c1, %c1) threads(32) as (%[[BX:.*]], %[[BY:.*]]) {
// CHECK-NEXT:      %[[AS:.*]] = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:      %[[BS:.*]] = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:      %[[CL:.*]] = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
// CHECK-NOT:       arith.addi
// CHECK:           tile.copy %[[CL]] to %{{.*}}[%c0, %c0] : memref<64x64xf32
// CHECK-NEXT:    }
// LOOP-LABEL: func.func @one_part
// LOOP-NOT:     scf.for
// LOOP:         return
func.func @one_part(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1, %c1) threads(32) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.pipelined %c0 to %c2 step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%c0, %c0] : !Cl to !C
  }
  return
}

// -----

// Each store counts: the first reaches only the first column part of the
// tile, the second (N = 256) both, so both are computed. Rows start at
// 64 * by + 64 >= 64 in a tensor of 128 rows: only the first row part
// reaches into either.

!A = memref<128x64xf16>
!B = memref<64x256xf16>
!C1 = memref<128x64xf32>
!C2 = memref<128x256xf32>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x128xf32, #gpu.address_space<private>>

// REMARK: remark: this 128x128 accumulator {{.*}} it is cut in 4 parts of 64x64, of which 2 reach into the tensors it is stored into and are computed, each in a block of its own
// CHECK-LABEL: func.func @two_stores
// CHECK:         tile.kernel grid(%{{.*}}, %c1) threads(32)
func.func @two_stores(%A: !A, %B: !B, %C1: !C1, %C2: !C2) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c1, %c1) threads(32) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    %r = arith.muli %by, %c64 : index
    %row = arith.addi %r, %c64 : index
    tile.clear %C_l : !Cl
    tile.pipelined %c0 to %c2 step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C1[%row, %c0] : !Cl to !C1
    tile.copy %C_l to %C2[%row, %c0] : !Cl to !C2
  }
  return
}

// -----

// A store index without a known lower bound (a function argument could be
// negative) keeps every part, as does a tensor of dynamic size.

!A = memref<64x64xf16>
!C = memref<64x64xf32>
!D = memref<?x256xf32>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x128xf32, #gpu.address_space<private>>

// REMARK: remark: this 128x128 accumulator {{.*}} it is computed in 4 parts of 64x64, each in a block of its own
// REMARK: remark: this 128x128 accumulator {{.*}} it is computed in 4 parts of 64x64, each in a block of its own
// CHECK-LABEL: func.func @unknown_index
// CHECK:         tile.kernel grid(%{{.*}}, %{{.*}}) threads(32)
// CHECK-NEXT:      arith.constant 2 : index
// CHECK-LABEL: func.func @dynamic_rows
// CHECK:         tile.kernel grid(%{{.*}}, %{{.*}}) threads(32)
// CHECK-NEXT:      arith.constant 2 : index
func.func @unknown_index(%A: !A, %B: !A, %C: !C, %row: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1, %c1) threads(32) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.pipelined %c0 to %c2 step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %row] to %B_s : !A to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %row] : !Cl to !C
  }
  return
}
func.func @dynamic_rows(%A: !A, %B: !A, %D: !D) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1, %c1) threads(32) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.pipelined %c0 to %c2 step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !A to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %D[%c0, %c0] : !Cl to !D
  }
  return
}
