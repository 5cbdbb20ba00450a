// RUN: tile-opt %s --tile-specialize-interior-steps | FileCheck %s

// A copy's index in a K loop computed by a chain of ops that each use the
// previous value twice (x = y - y): the pass's walk that reads an index as
// scale * counter + offset remembers what it found for each value, so the
// chain takes one visit per link. Without that, it branched at each link,
// and this loop's 40 links took 2^17 visits, each trying to fold the chain
// to a constant with its budget of 1024 folds (tile-opt hung). The column
// does not move with the counter: nothing to specialize, the loop stays.

// CHECK-LABEL: func.func @chain_in_loop
// CHECK:       scf.for
// CHECK-NOT:   tile.counter_bound
// CHECK:       tile.copy
// CHECK-NEXT:  }
// CHECK-NOT:   scf.for
func.func @chain_in_loop(%A: memref<4096x4095xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c64, %c64) threads(128) as (%bx, %by) {
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    %x0 = arith.subi %c64, %c1 : index
    scf.for %k = %c0 to %c2 step %c1 {
      %x1 = arith.subi %x0, %x0 : index
      %x2 = arith.subi %x1, %x1 : index
      %x3 = arith.subi %x2, %x2 : index
      %x4 = arith.subi %x3, %x3 : index
      %x5 = arith.subi %x4, %x4 : index
      %x6 = arith.subi %x5, %x5 : index
      %x7 = arith.subi %x6, %x6 : index
      %x8 = arith.subi %x7, %x7 : index
      %x9 = arith.subi %x8, %x8 : index
      %x10 = arith.subi %x9, %x9 : index
      %x11 = arith.subi %x10, %x10 : index
      %x12 = arith.subi %x11, %x11 : index
      %x13 = arith.subi %x12, %x12 : index
      %x14 = arith.subi %x13, %x13 : index
      %x15 = arith.subi %x14, %x14 : index
      %x16 = arith.subi %x15, %x15 : index
      %x17 = arith.subi %x16, %x16 : index
      %x18 = arith.subi %x17, %x17 : index
      %x19 = arith.subi %x18, %x18 : index
      %x20 = arith.subi %x19, %x19 : index
      %x21 = arith.subi %x20, %x20 : index
      %x22 = arith.subi %x21, %x21 : index
      %x23 = arith.subi %x22, %x22 : index
      %x24 = arith.subi %x23, %x23 : index
      %x25 = arith.subi %x24, %x24 : index
      %x26 = arith.subi %x25, %x25 : index
      %x27 = arith.subi %x26, %x26 : index
      %x28 = arith.subi %x27, %x27 : index
      %x29 = arith.subi %x28, %x28 : index
      %x30 = arith.subi %x29, %x29 : index
      %x31 = arith.subi %x30, %x30 : index
      %x32 = arith.subi %x31, %x31 : index
      %x33 = arith.subi %x32, %x32 : index
      %x34 = arith.subi %x33, %x33 : index
      %x35 = arith.subi %x34, %x34 : index
      %x36 = arith.subi %x35, %x35 : index
      %x37 = arith.subi %x36, %x36 : index
      %x38 = arith.subi %x37, %x37 : index
      %x39 = arith.subi %x38, %x38 : index
      %x40 = arith.subi %x39, %x39 : index
      tile.copy %A[%by, %x40] to %s : memref<4096x4095xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
    }
  }
  return
}
