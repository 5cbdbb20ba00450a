// RUN: tile-opt %s --tile-persistent-blocks=blocks=0 -verify-diagnostics
// RUN: tile-opt %s --tile-persistent-blocks=blocks=-4 -verify-diagnostics

// A persistent grid of no (or a negative number of) blocks is refused
// before any kernel is looked at, at the op the pass runs on.

// expected-error @below {{tile-persistent-blocks: blocks must be positive}}
module {
  func.func @f(%C: memref<64x64xf32>) {
    %c4 = arith.constant 4 : index
    tile.kernel grid(%c4) threads(64) as (%bx) {
      %C_l = tile.alloc_fragment : memref<32x32xf32, #gpu.address_space<private>>
      tile.clear %C_l : memref<32x32xf32, #gpu.address_space<private>>
    }
    return
  }
}
