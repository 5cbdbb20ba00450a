// The gemm lowering selects ldmatrix (x4, .trans only where the layout needs
// it) and mma.sync m16n8k16, fully unrolled over the warp's mma tiles, with
// the accumulator in a constant-indexed per-thread array.
//
// 64x64x32, 128 threads: 2x2 warps of 32x32, each 2x4 mma tiles; K = 32 is
// two k-steps. Per k-step: 2 A loads (x4), 2 B loads (x4 = two n-tiles),
// 8 mma.sync.
// RUN: tile-opt %s --test-tile-lower-fragments -split-input-file | FileCheck %s
// RUN: tile-opt %s --test-tile-lower-fragments -split-input-file | grep -c "nvgpu.mma.sync" | FileCheck %s --check-prefix=MMA
// RUN: tile-opt %s --test-tile-lower-fragments -split-input-file | grep -c "nvgpu.ldmatrix" | FileCheck %s --check-prefix=LDM

// 16 (nn) + 16 (tn) + 16 (nt) + 12 (odd n-tiles) + 64 (128x128) + 64 (256 threads)
// MMA: {{^188$}}
// 8 + 8 + 8 + 8 + (2 * (4 + 4)) + (2 * (4 + 4))
// LDM: {{^64$}}

!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>

// CHECK-LABEL: func.func @nn
// CHECK: gpu.thread_id x
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<32xf32>
// CHECK-NOT: tile.alloc_fragment
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<64x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true} : memref<32x64xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: vector.load %[[ACC]][%{{.*}}] : memref<32xf32>, vector<2xf32>
// CHECK: nvgpu.mma.sync(%{{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT: tile.gemm
// CHECK-NOT: #gpu.address_space<private>
// CHECK: return
func.func @nn() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
  }
  return
}

// -----

// A stored K x M: ldmatrix .trans for A; B as before.
// CHECK-LABEL: func.func @tn
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true} : memref<32x64xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true} : memref<32x64xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK-NOT: transpose = false
// CHECK: return
func.func @tn() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l transpose_a : memref<32x64xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// B stored N x K is already column-major for mma: no .trans anywhere.
// CHECK-LABEL: func.func @nt
// CHECK-NOT: transpose = true
// CHECK-COUNT-8: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = false} : memref<64x32xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK-NOT: transpose = true
// CHECK: return
func.func @nt() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l transpose_b : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<64x32xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// 64x48: 2x2 warps of 32x24, i.e. 3 n-tiles per warp: one x4 and one x2 B
// load per k-step (K = 32: 2 steps, 2 * 2 * 3 = 12 mma.sync).
// CHECK-LABEL: func.func @odd_n_tiles
// CHECK: memref.alloca() : memref<24xf32>
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true} : memref<32x48xf16, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: nvgpu.ldmatrix %{{.*}} {numTiles = 2 : i32, transpose = true} : memref<32x48xf16, #gpu.address_space<workgroup>> -> vector<2x2xf16>
// CHECK: return
func.func @odd_n_tiles() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x48xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<64x48xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x48xf16, #gpu.address_space<workgroup>>, memref<64x48xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// The seed tile, 128x128x32 with 128 threads: 2x2 warps of 64x64, 128
// accumulator registers per thread, 4 x 8 mma tiles per warp and k-step.
// The A/B tiles are subviews of multi-buffered allocs, as after software
// pipelining; ldmatrix reads the subview.
// CHECK-LABEL: func.func @seed_tile
// CHECK: memref.alloca() : memref<128xf32>
// CHECK: nvgpu.ldmatrix %{{.*}} : memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>> -> vector<4x2xf16>
// CHECK: return
func.func @seed_tile(%v: index) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_b = tile.alloc_shared : memref<3x128x32xf16, #gpu.address_space<workgroup>>
    %B_b = tile.alloc_shared : memref<3x32x128xf16, #gpu.address_space<workgroup>>
    %A_s = memref.subview %A_b[%v, 0, 0] [1, 128, 32] [1, 1, 1] : memref<3x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    %B_s = memref.subview %B_b[%v, 0, 0] [1, 32, 128] [1, 1, 1] : memref<3x32x128xf16, #gpu.address_space<workgroup>> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l : memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// 256 threads on 128x256: 2x4 warps of 64x64, again 128 registers.
// CHECK-LABEL: func.func @threads256
// CHECK: memref.alloca() : memref<128xf32>
// CHECK: return
func.func @threads256() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(256) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x256xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x256xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x256xf16, #gpu.address_space<workgroup>>, memref<128x256xf32, #gpu.address_space<private>>
  }
  return
}
