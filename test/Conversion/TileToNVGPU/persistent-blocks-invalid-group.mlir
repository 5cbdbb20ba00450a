// RUN: tile-opt %s --tile-persistent-blocks="blocks=4 block-group=65536" -verify-diagnostics
// RUN: not tile-opt %s --tile-persistent-blocks="blocks=4 block-group=4611686018427387904" 2>&1 \
// RUN:   | FileCheck %s
// RUN: tile-opt %s --tile-persistent-blocks="blocks=4 block-group=65535" | FileCheck %s --check-prefix=MOST

// A block-group of more rows of tiles than a grid can have (65535) is
// refused at the op the pass runs on, as tile-lower-to-nvgpu refuses it:
// over a grid known only at run time, group * grid_x would overflow.
// CHECK: error: tile-persistent-blocks: block-group=4611686018427387904 is more rows of tiles than a grid can have (at most 65535)

// The most rows a grid can have is accepted.
// MOST: tile.kernel grid
// MOST: arith.muli %{{.*}}, %c65535 : index
// MOST: scf.for

// expected-error @below {{tile-persistent-blocks: block-group=65536 is more rows of tiles than a grid can have (at most 65535)}}
module {
  func.func @f(%C: memref<?x?xf32>, %gx: index, %gy: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    tile.kernel grid(%gx, %gy) threads(64) as (%bx, %by) {
      %C_l = tile.alloc_fragment : memref<32x32xf32, #gpu.address_space<private>>
      tile.clear %C_l : memref<32x32xf32, #gpu.address_space<private>>
      scf.for %k = %c0 to %c4 step %c1 {
        tile.clear %C_l : memref<32x32xf32, #gpu.address_space<private>>
      }
    }
    return
  }
}
