// RUN: tile-opt %s --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-nvgpu=chip=sm_90 | FileCheck %s

// A multi-buffered tile used before its pipelined loop: the software
// pipeline gives the use the first version, cast back to the tile's own
// type, and the GPU lowering follows the cast to the versioned buffer (it
// used to refuse the memref.cast as a use of the shared tile by an op other
// than a tile op). The clear stores into version 0 of the 2x64x32 buffer,
// in 16-byte chunks: the cast keeps the version's alignment (it used to stop
// the alignment proof, and the clear stored one f16 at a time).
// CHECK-LABEL: gpu.func @use_before_kernel
// CHECK:       %[[BUF:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<2x64x32xf16, #gpu.address_space<workgroup>>
// CHECK:       vector.store %{{.*}}, %[[BUF]][%c0, %{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<2x64x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK:       scf.for
func.func @use_before(%A: memref<256x256xf16>, %B: memref<256x256xf16>, %C: memref<256x256xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<64x64xf32, #gpu.address_space<private>>
    tile.clear %A_s : memref<64x32xf16, #gpu.address_space<workgroup>>
    tile.pipelined %c0 to %c8 step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : memref<256x256xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<256x256xf16> to memref<32x64xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
    }
    tile.copy %C_l to %C : memref<64x64xf32, #gpu.address_space<private>> to memref<256x256xf16>
  }
  return
}
