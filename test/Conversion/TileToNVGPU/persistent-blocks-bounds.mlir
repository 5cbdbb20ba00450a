// RUN: tile-opt %s --tile-pipeline-planning --tile-software-pipeline \
// RUN:   --tile-persistent-blocks=blocks=5 --tile-lower-to-nvgpu=chip=sm_80 | FileCheck %s
// RUN: tile-opt %s --tile-pipeline-planning --tile-software-pipeline \
// RUN:   --tile-persistent-blocks="blocks=5 block-group=1" --tile-lower-to-nvgpu=chip=sm_80 | FileCheck %s

// Whole tiles of a 3x4 grid on 5 persistent blocks: the tile indices come
// from the grouped order (row = (3 - y) * 32 with 0 <= y <= 3, a subtraction
// that cannot wrap) or from row-major order (row = (t / 3 mod 4) * 32), and
// either way index bounds see row <= 96 and column <= 64, so every
// cp.async copies all 8 elements, without the zero-fill count and clamp of
// a copy that may leave the tensor.

// CHECK-LABEL: gpu.func @whole_tiles_kernel
// CHECK: nvgpu.device_async_copy %{{.*}}, 8 {bypassL1}
// CHECK-NOT: nvgpu.device_async_copy %{{.*}}, 8, %
// CHECK-NOT: arith.minui %{{.*}}, %c127
func.func @whole_tiles(%A: memref<128x64xf16>, %B: memref<64x96xf16>,
                       %C: memref<128x96xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c3, %c4) threads(64) as (%bx, %by) {
    %A_s = tile.alloc_shared : memref<32x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x32xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<32x32xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<32x32xf32, #gpu.address_space<private>>
    %row = arith.muli %by, %c32 : index
    %col = arith.muli %bx, %c32 : index
    tile.pipelined %c0 to %c4 step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%row, %ko] to %A_s : memref<128x64xf16> to memref<32x16xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %col] to %B_s : memref<64x96xf16> to memref<16x32xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<32x16xf16, #gpu.address_space<workgroup>>, memref<16x32xf16, #gpu.address_space<workgroup>>, memref<32x32xf32, #gpu.address_space<private>>
    }
    tile.copy %C_l to %C[%row, %col] : memref<32x32xf32, #gpu.address_space<private>> to memref<128x96xf16>
  }
  return
}
