// RUN: tile-opt %s --tile-persistent-blocks=blocks=1 -split-input-file -verify-diagnostics
// RUN: not tile-opt %s --tile-persistent-blocks=blocks=0 -split-input-file 2>&1 \
// RUN:   | FileCheck %s --check-prefix=BLOCKS

// BLOCKS: error: tile-persistent-blocks: blocks must be positive
// BLOCKS-NOT: see current operation

!Cl = memref<32x32xf32, #gpu.address_space<private>>
!Ss = memref<32x32xf16, #gpu.address_space<workgroup>>

// A dynamic grid size is fine (persistent-blocks.mlir); one that folds to a
// constant below 1 passes the op verifier, which reads literals only.
func.func @zero_grid(%C: memref<64x64xf16>) {
  %c1 = arith.constant 1 : index
  %zero = arith.subi %c1, %c1 : index
  // expected-error @below {{tile-persistent-blocks: the grid size 0 is not positive}}
  tile.kernel grid(%zero) threads(64) as (%bx) {
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
  }
  return
}

// -----

!Cl = memref<32x32xf32, #gpu.address_space<private>>

func.func @no_loop(%C: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  // expected-error @below {{tile-persistent-blocks: the kernel has no reduction (no loop, gemm or wait after its prologue)}}
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %col = arith.muli %bx, %c32 : index
    tile.copy %C_l to %C[%c0, %col] : !Cl to memref<64x64xf16>
  }
  return
}

// -----

!Cl = memref<32x32xf32, #gpu.address_space<private>>
!Ss = memref<32x32xf16, #gpu.address_space<workgroup>>

func.func @tail_uses_shared(%A: memref<64x64xf16>, %C: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  // expected-note @below {{in this kernel}}
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %S = tile.alloc_shared : !Ss
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %col = arith.muli %bx, %c32 : index
    scf.for %k = %c0 to %c2 step %c1 {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%ko, %col] to %S : memref<64x64xf16> to !Ss
      tile.gemm %S, %S, %C_l : !Ss, !Ss, !Cl
    }
    // expected-error @+1 {{tile-persistent-blocks: after the pipeline, the kernel does more than store fragments}}
    tile.copy %C_l to %S : !Cl to !Ss
    tile.copy %S to %C[%c0, %col] : !Ss to memref<64x64xf16>
  }
  return
}

// -----

!Cl = memref<32x32xf32, #gpu.address_space<private>>
!Ss = memref<32x32xf16, #gpu.address_space<workgroup>>

func.func @tail_writes_shared(%A: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  // expected-note @below {{in this kernel}}
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %S = tile.alloc_shared : !Ss
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %col = arith.muli %bx, %c32 : index
    scf.for %k = %c0 to %c2 step %c1 {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%ko, %col] to %S : memref<64x64xf16> to !Ss
      tile.gemm %S, %S, %C_l : !Ss, !Ss, !Cl
    }
    // expected-error @+1 {{tile-persistent-blocks: after the pipeline, the kernel does more than store fragments}}
    tile.copy %C_l to %S : !Cl to !Ss
  }
  return
}

// -----

// 2^32 x 2^32 blocks: the block count would wrap around to 0.
func.func @grid_overflows(%A: memref<64x64xf16>) {
  %huge = arith.constant 4294967296 : index
  // expected-error @+1 {{tile-persistent-blocks: the grid has more than 2^63 - 1 blocks}}
  tile.kernel grid(%huge, %huge) threads(128) as (%bx, %by) {
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<64x64xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

!Cl = memref<32x32xf32, #gpu.address_space<private>>

// A block that leaves after its tile would leave the loop over its next
// tiles with it (the exit was moved into that loop, and the tiles after it
// went uncomputed).
func.func @exit(%C: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  // expected-note @below {{in this kernel}}
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    scf.for %k = %c0 to %c2 step %c1 {
      tile.clear %C_l : !Cl
    }
    %col = arith.muli %bx, %c32 : index
    tile.copy %C_l to %C[%c0, %col] : !Cl to memref<64x64xf16>
    %first = arith.cmpi eq, %bx, %c0 : index
    scf.if %first {
      // expected-error @below {{tile-persistent-blocks: the kernel exits early ('nvvm.exit'); in a persistent kernel each block runs several tiles, and an exit would leave the rest uncomputed}}
      nvvm.exit
    }
  }
  return
}
