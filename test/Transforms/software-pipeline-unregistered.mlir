// RUN: tile-opt %s --allow-unregistered-dialect --tile-pipeline-planning --tile-software-pipeline | FileCheck %s

// An op of an unregistered dialect in a kernel with a pipelined loop: the
// cleanup after the rewrite looks at every op's dialect, and this one has
// none (an assertion before).

// CHECK-LABEL: func.func @unregistered
// CHECK:       "test.marker"() : () -> ()
// CHECK:       tile.copy_async
// CHECK:       scf.for
func.func @unregistered(%A: memref<256x32xf16>, %C: memref<32x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf16, #gpu.address_space<workgroup>>
    %f = tile.alloc_fragment : memref<32x32xf32, #gpu.address_space<private>>
    tile.clear %f : memref<32x32xf32, #gpu.address_space<private>>
    "test.marker"() : () -> ()
    tile.pipelined %c0 to %c8 step %c1 num_stages = 3 as (%k) {
      %row = arith.muli %k, %c32 : index
      tile.copy %A[%row, %c0] to %s : memref<256x32xf16> to memref<32x32xf16, #gpu.address_space<workgroup>>
      tile.gemm %s, %s, %f : memref<32x32xf16, #gpu.address_space<workgroup>>, memref<32x32xf16, #gpu.address_space<workgroup>>, memref<32x32xf32, #gpu.address_space<private>>
    }
    tile.copy %f to %C : memref<32x32xf32, #gpu.address_space<private>> to memref<32x32xf32>
  }
  return
}
