// bf16 uses the same ldmatrix loads and warp tiling as f16; the mma is an
// nvvm.mma.sync with bf16 multiplicands packed in i32 (nvgpu.mma.sync does
// not lower bf16 in MLIR 22). 64x64x32, 128 threads: 16 mma per gemm.
// RUN: tile-opt %s --test-tile-lower-fragments | FileCheck %s
// RUN: tile-opt %s --test-tile-lower-fragments | grep -c "nvvm.mma.sync" | FileCheck %s --check-prefix=MMA
// MMA: {{^16$}}

// CHECK-LABEL: func.func @bf16
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<64x32xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true} : memref<32x64xbf16, #gpu.address_space<workgroup>> -> vector<4x2xbf16>
// CHECK: vector.bitcast %{{.*}} : vector<2xbf16> to vector<1xi32>
// CHECK: nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvgpu.mma.sync
// CHECK: return
func.func @bf16() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<64x32xbf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x64xbf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l : memref<64x32xbf16, #gpu.address_space<workgroup>>, memref<32x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}
