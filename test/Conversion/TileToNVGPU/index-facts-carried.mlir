// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu=chip=sm_90 | FileCheck %s

// Columns that a loop over a block's tiles carries from one tile to the next
// (iter_args of an scf.for, the `before` arguments of an scf.while) keep the
// alignment that their start and every step share: IndexFacts' divisors
// follow them to a fixpoint. Before, nothing was known of a carried value:
// these copies went element by element (and TMA boxes fell back).

// The column a loop over a block's tiles carries (64 more each tile) stays a
// multiple of 64: whole 16-byte vectors.
// CHECK-LABEL: gpu.func @for_carried_kernel
// CHECK-NOT: vector<1xf16>
// CHECK-COUNT-8: vector.load %{{.*}} {alignment = 16 : i64} : memref<256x4096xf16>, vector<8xf16>
// CHECK-NOT: vector<1xf16>
// CHECK: gpu.return
func.func @for_carried(%A: memref<256x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c64 : index
    %first = arith.muli %bx, %c256 : index
    %last = scf.for %t = %c0 to %c4 step %c1 iter_args(%col = %first) -> index {
      tile.copy %A[%row, %col] to %s : memref<256x4096xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
      %next = arith.addi %col, %c64 : index
      scf.yield %next : index
    }
    tile.copy %A[%row, %last] to %s : memref<256x4096xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Starting at a multiple of 64 but moving by 4 elements: vectors of 4.
// CHECK-LABEL: gpu.func @for_carried_step4_kernel
// CHECK-NOT: vector<1xf16>
// CHECK: vector.load %{{.*}} {alignment = 8 : i64} : memref<256x4096xf16>, vector<4xf16>
// CHECK-NOT: vector<1xf16>
// CHECK: gpu.return
func.func @for_carried_step4(%A: memref<256x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c64 : index
    %first = arith.muli %bx, %c64 : index
    scf.for %t = %c0 to %c4 step %c1 iter_args(%col = %first) -> index {
      tile.copy %A[%row, %col] to %s : memref<256x4096xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
      %next = arith.addi %col, %c4 : index
      scf.yield %next : index
    }
  }
  return
}

// -----

// Moving by 1: nothing is known.
// CHECK-LABEL: gpu.func @for_carried_step1_kernel
// CHECK: vector.load %{{.*}} : memref<256x4096xf16>, vector<1xf16>
// CHECK-NOT: vector<8xf16>
// CHECK: gpu.return
func.func @for_carried_step1(%A: memref<256x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c64 : index
    %first = arith.muli %bx, %c64 : index
    scf.for %t = %c0 to %c4 step %c1 iter_args(%col = %first) -> index {
      tile.copy %A[%row, %col] to %s : memref<256x4096xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
      %next = arith.addi %col, %c1 : index
      scf.yield %next : index
    }
  }
  return
}

// -----

// Two carried values that swap each iteration: 64 * bx and 64 * bx + 8.
// CHECK-LABEL: gpu.func @for_swapped_kernel
// CHECK-NOT: vector<1xf16>
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<256x4096xf16>, vector<8xf16>
// CHECK-NOT: vector<1xf16>
// CHECK: gpu.return
func.func @for_swapped(%A: memref<256x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c64 : index
    %first = arith.muli %bx, %c64 : index
    %second = arith.addi %first, %c8 : index
    scf.for %t = %c0 to %c4 step %c1 iter_args(%x = %first, %y = %second) -> (index, index) {
      tile.copy %A[%row, %x] to %s : memref<256x4096xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
      scf.yield %y, %x : index, index
    }
  }
  return
}

// -----

// An scf.while over the tiles carrying the column; the `after` region reads
// it through the scf.condition.
// CHECK-LABEL: gpu.func @while_carried_kernel
// CHECK-NOT: vector<1xf16>
// CHECK-COUNT-8: vector.load %{{.*}} {alignment = 16 : i64} : memref<256x4096xf16>, vector<8xf16>
// CHECK-NOT: vector<1xf16>
// CHECK: gpu.return
func.func @while_carried(%A: memref<256x4096xf16>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c4000 = arith.constant 4000 : index
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c64 : index
    %first = arith.muli %bx, %c64 : index
    %end = scf.while (%col = %first) : (index) -> index {
      %more = arith.cmpi ult, %col, %c4000 : index
      scf.condition(%more) %col : index
    } do {
    ^bb0(%c: index):
      tile.copy %A[%row, %c] to %s : memref<256x4096xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
      %next = arith.addi %c, %c64 : index
      scf.yield %next : index
    }
    tile.copy %A[%row, %end] to %s : memref<256x4096xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
  }
  return
}
