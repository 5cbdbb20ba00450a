// On sm_90a, a kernel whose GEMMs all fit wgmma gives its fragments the
// warpgroup layout and lowers each tile.gemm to one wgmma.mma_async m64nNk16
// per 64-row slice and k-step of 16, reading A and B from shared memory
// through descriptors: no ldmatrix, no mma.sync. Outside a pipelined
// steady-state loop (as everywhere here) the gemm is synchronous:
// fence.proxy.async + wgmma.fence before the first mma_async, commit +
// wait_group 0 after the last.
//
// A descriptor is ((address & 0x3FFFF) >> 4) | fields, with
// fields = ((LBO >> 4) << 16) | ((SBO >> 4) << 32) | (mode << 62): mode 1, 2,
// 3 for 128-, 64-, 32-byte rows; SBO = 8 rows; LBO = 16 for K-major operands
// and the panel stride (rows * 128 bytes) for MN-major ones. Every further
// k-step and 64-row slice adds a constant (byte offset >> 4) to it.
//
// Where wgmma does not fit (sm_90, f32 operands, K % 16 != 0, threads not a
// multiple of 128, rows not a multiple of 64 per warpgroup, an MN-major
// operand whose warpgroup columns are not whole 128-byte panels, any one
// gemm of the kernel), the kernel keeps mma.sync (or the FMA loop).
//
// RUN: tile-opt %s --test-tile-lower-fragments=chip=sm_90a -split-input-file | FileCheck %s
// RUN: tile-opt %s --test-tile-lower-fragments=chip=sm_90a -split-input-file | grep -c "nvvm.wgmma.mma_async" | FileCheck %s --check-prefix=WGMMA
// RUN: tile-opt %s --test-tile-lower-fragments=chip=sm_90a -split-input-file | grep -c "nvvm.wgmma.wait.group.sync.aligned 0" | FileCheck %s --check-prefix=WAIT
// RUN: tile-opt %s --test-tile-lower-fragments=chip=sm_90 -split-input-file | FileCheck %s --check-prefix=SM90
// RUN: tile-opt %s --test-tile-lower-fragments=chip=sm_90 -split-input-file | not grep -e "nvvm.wgmma" -e "nvvm.fence.proxy"

// 4 (seed) + 4 (tn) + 4 (nt) + 8 (tt, K = 64) + 2 (K = 16) + 2 + 4 (256
// threads) + 2 (n = 32); the fallbacks have none.
// WGMMA: {{^30$}}
// One synchronous wgmma group per gemm that uses wgmma.
// WAIT: {{^8$}}

// sm_90 (without "a") has no wgmma and no proxy fence anywhere in this file.

// The seed tile, 128x128x32 f16 with 128 threads: one warpgroup, two 64-row
// slices of m64n128, K = 32 is two k-steps: 4 mma_async. A and B are
// subviews of multi-buffered allocs, as after software pipelining, so the
// start address adds the view's offset (in bytes) to the aligned pointer.
//
// A (128x32 f16, K-major): 64-byte rows, mode 2, SBO 512, LBO 16:
//   (1 << 16) | (32 << 32) | (2 << 62) = -9223371899415756800 (as i64).
// B (32x128 f16, stored [K][N]: MN-major, two 128-byte panels): mode 1,
//   SBO 1024, LBO 32 * 128 = 4096:
//   (256 << 16) | (64 << 32) | (1 << 62) = 4611686293322072064.
// Advances: A's second slice is 64 rows * 64 bytes >> 4 = 256, A's second
// k-step 32 bytes >> 4 = 2 (and both 258); B's second k-step is 16 rows *
// 128 bytes >> 4 = 128.
//
// CHECK-LABEL: func.func @seed_tile
// CHECK-NOT: nvgpu.ldmatrix
// CHECK: %[[ACC:.*]] = memref.alloca() : memref<128xf32>
// CHECK: %[[AV:.*]] = memref.subview {{.*}} to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK: %[[BV:.*]] = memref.subview {{.*}} to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
// CHECK: %{{.*}}, %[[A_OFF:.*]], %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %[[AV]]
// CHECK-NEXT: %[[A_PTR:.*]] = memref.extract_aligned_pointer_as_index %[[AV]]
// CHECK-NEXT: %[[A_C2:.*]] = arith.constant 2 : index
// CHECK: %[[A_OFFB:[0-9]+]] = arith.muli %[[A_OFF]], %[[A_C2]] : index
// CHECK: %[[A_SUM:[0-9]+]] = arith.addi %[[A_OFFB]], %{{[0-9]+}} : index
// CHECK: %[[A_BYTES:[0-9]+]] = arith.addi %[[A_PTR]], %[[A_SUM]] : index
// CHECK-NEXT: %[[A_ADDR:[0-9]+]] = arith.index_castui %[[A_BYTES]] : index to i64
// CHECK-NEXT: %[[MASK:.*]] = arith.constant 262143 : i64
// CHECK-NEXT: %[[A_LOW:[0-9]+]] = arith.andi %[[A_ADDR]], %[[MASK]] : i64
// CHECK-NEXT: %[[SHIFT:.*]] = arith.constant 4 : i64
// CHECK-NEXT: %[[A_START:[0-9]+]] = arith.shrui %[[A_LOW]], %[[SHIFT]] : i64
// CHECK-NEXT: %[[A_FIELDS:.*]] = arith.constant -9223371899415756800 : i64
// CHECK-NEXT: %[[DESC_A:[0-9]+]] = arith.ori %[[A_START]], %[[A_FIELDS]] : i64
// CHECK: memref.extract_strided_metadata %[[BV]]
// CHECK-NEXT: %[[B_PTR:.*]] = memref.extract_aligned_pointer_as_index %[[BV]]
// CHECK: %[[B_ADDR:[0-9]+]] = arith.index_castui %{{[0-9]+}} : index to i64
// CHECK-NEXT: %[[B_MASK:.*]] = arith.constant 262143 : i64
// CHECK-NEXT: %[[B_LOW:[0-9]+]] = arith.andi %[[B_ADDR]], %[[B_MASK]] : i64
// CHECK-NEXT: %[[B_SHIFT:.*]] = arith.constant 4 : i64
// CHECK-NEXT: %[[B_START:[0-9]+]] = arith.shrui %[[B_LOW]], %[[B_SHIFT]] : i64
// CHECK-NEXT: %[[B_FIELDS:.*]] = arith.constant 4611686293322072064 : i64
// CHECK-NEXT: %[[DESC_B:[0-9]+]] = arith.ori %[[B_START]], %[[B_FIELDS]] : i64
//
// Slice 0's accumulator is registers 0..63, slice 1's 64..127, each a
// 64-float struct (the m64n128 f32 fragment of one thread). Each goes
// through an empty volatile asm whose outputs are its inputs (the operand
// fence in front of wgmma.fence), so that LLVM cannot place moves into
// them between the fence and the wgmmas.
// CHECK: %[[R0_IDX:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[R0:[0-9]+]] = memref.load %[[ACC]][%[[R0_IDX]]] : memref<128xf32>
// CHECK: %[[R63_IDX:.*]] = arith.constant 63 : index
// CHECK-NEXT: %[[R63:[0-9]+]] = memref.load %[[ACC]][%[[R63_IDX]]] : memref<128xf32>
// CHECK-NEXT: %[[S0:[0-9]+]] = llvm.inline_asm has_side_effects "", "{{(=f,){64}(([0-9]|[1-5][0-9]|6[0-2]),){63}63}}" %[[R0]], {{.*}}, %[[R63]] : ({{(f32, ){63}f32}}) -> !llvm.struct<({{(f32, ){63}f32}})>
// CHECK-NEXT: %[[R64_IDX:.*]] = arith.constant 64 : index
// CHECK-NEXT: %[[R64:[0-9]+]] = memref.load %[[ACC]][%[[R64_IDX]]] : memref<128xf32>
// CHECK: %[[R127_IDX:.*]] = arith.constant 127 : index
// CHECK-NEXT: %[[R127:[0-9]+]] = memref.load %[[ACC]][%[[R127_IDX]]] : memref<128xf32>
// CHECK-NEXT: %[[S1:[0-9]+]] = llvm.inline_asm has_side_effects "", "{{.*}}" %[[R64]], {{.*}}, %[[R127]]
//
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// k-step 0, slice 0 and 1:
// CHECK-NEXT: %[[D00:[0-9]+]] = nvvm.wgmma.mma_async %[[DESC_A]], %[[DESC_B]], %[[S0]], <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>] : !llvm.struct<({{(f32, ){63}f32}})> -> !llvm.struct<({{(f32, ){63}f32}})>
// CHECK-NEXT: %[[C256:.*]] = arith.constant 256 : i64
// CHECK-NEXT: %[[A01:[0-9]+]] = arith.addi %[[DESC_A]], %[[C256]] : i64
// CHECK-NEXT: %[[D01:[0-9]+]] = nvvm.wgmma.mma_async %[[A01]], %[[DESC_B]], %[[S1]], <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// k-step 1 accumulates onto k-step 0's results:
// CHECK-NEXT: %[[C128:.*]] = arith.constant 128 : i64
// CHECK-NEXT: %[[B1:[0-9]+]] = arith.addi %[[DESC_B]], %[[C128]] : i64
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : i64
// CHECK-NEXT: %[[A10:[0-9]+]] = arith.addi %[[DESC_A]], %[[C2]] : i64
// CHECK-NEXT: %[[D10:[0-9]+]] = nvvm.wgmma.mma_async %[[A10]], %[[B1]], %[[D00]], <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK-NEXT: %[[C258:.*]] = arith.constant 258 : i64
// CHECK-NEXT: %[[A11:[0-9]+]] = arith.addi %[[DESC_A]], %[[C258]] : i64
// CHECK-NEXT: %[[D11:[0-9]+]] = nvvm.wgmma.mma_async %[[A11]], %[[B1]], %[[D01]], <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <row>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// The results go back to the registers they came from.
// CHECK-NEXT: %[[W0:[0-9]+]] = llvm.extractvalue %[[D10]][0]
// CHECK-NEXT: %[[W0_IDX:.*]] = arith.constant 0 : index
// CHECK-NEXT: memref.store %[[W0]], %[[ACC]][%[[W0_IDX]]] : memref<128xf32>
// CHECK: %[[W127:[0-9]+]] = llvm.extractvalue %[[D11]][63]
// CHECK-NEXT: %[[W127_IDX:.*]] = arith.constant 127 : index
// CHECK-NEXT: memref.store %[[W127]], %[[ACC]][%[[W127_IDX]]] : memref<128xf32>
// CHECK-NOT: nvvm.wgmma.mma_async
// CHECK-NOT: nvgpu.ldmatrix
// CHECK-NOT: nvgpu.mma.sync
// CHECK-NOT: tile.gemm
// CHECK: return
//
// On sm_90 the same kernel keeps the warp-tiled mma.sync lowering (as do
// all the kernels below that use wgmma on sm_90a).
// SM90-LABEL: func.func @seed_tile
// SM90-NOT: nvvm.wgmma
// SM90: nvgpu.ldmatrix
// SM90: nvgpu.mma.sync(%{{.*}}) {mmaShape = [16, 8, 16]}
// SM90-NOT: nvvm.wgmma
// SM90: return
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

// transpose_a: A stored [K][M] = 32x128 is MN-major (layout col), two
// 128-byte panels: mode 1, SBO 1024, LBO 32 * 128 = 4096, the fields B has in
// @seed_tile. A's second slice is the next panel (4096 bytes >> 4 = 256), its
// second k-step 16 rows on (16 * 128 bytes >> 4 = 128).
// CHECK-LABEL: func.func @tn
// CHECK: %[[A:.*]] = tile.alloc_shared : memref<32x128xf16
// CHECK: memref.extract_aligned_pointer_as_index %[[A]]
// CHECK: %[[A_FIELDS:.*]] = arith.constant 4611686293322072064 : i64
// CHECK-NEXT: %[[DESC_A:[0-9]+]] = arith.ori %{{[0-9]+}}, %[[A_FIELDS]] : i64
// CHECK: %[[B_FIELDS:.*]] = arith.constant 4611686293322072064 : i64
// CHECK-NEXT: %[[DESC_B:[0-9]+]] = arith.ori %{{[0-9]+}}, %[[B_FIELDS]] : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: nvvm.wgmma.mma_async %[[DESC_A]], %[[DESC_B]], %{{[0-9]+}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <col>], B[<f16>, <one>, <row>]
// CHECK-NEXT: %[[C256:.*]] = arith.constant 256 : i64
// CHECK-NEXT: %[[A01:[0-9]+]] = arith.addi %[[DESC_A]], %[[C256]] : i64
// CHECK-NEXT: nvvm.wgmma.mma_async %[[A01]], %[[DESC_B]], {{.*}} A[<f16>, <one>, <col>], B[<f16>, <one>, <row>]
// CHECK-NEXT: arith.constant 128 : i64
// CHECK-NEXT: arith.addi %[[DESC_B]]
// CHECK-NEXT: %[[C128:.*]] = arith.constant 128 : i64
// CHECK-NEXT: %[[A10:[0-9]+]] = arith.addi %[[DESC_A]], %[[C128]] : i64
// CHECK-NEXT: nvvm.wgmma.mma_async %[[A10]], {{.*}} A[<f16>, <one>, <col>], B[<f16>, <one>, <row>]
// CHECK-NEXT: %[[C384:.*]] = arith.constant 384 : i64
// CHECK-NEXT: %[[A11:[0-9]+]] = arith.addi %[[DESC_A]], %[[C384]] : i64
// CHECK-NEXT: nvvm.wgmma.mma_async %[[A11]], {{.*}} A[<f16>, <one>, <col>], B[<f16>, <one>, <row>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: nvgpu.
// CHECK: return
// SM90-LABEL: func.func @tn
// SM90: nvgpu.mma.sync
func.func @tn() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l transpose_a : memref<32x128xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// transpose_b: B stored [N][K] = 128x32 is K-major (layout col), 64-byte
// rows: mode 2, SBO 512, LBO 16, the fields A has in @seed_tile. B's second
// k-step is 32 bytes along the row (>> 4 = 2).
// CHECK-LABEL: func.func @nt
// CHECK: %[[A_FIELDS:.*]] = arith.constant -9223371899415756800 : i64
// CHECK-NEXT: %[[DESC_A:[0-9]+]] = arith.ori %{{[0-9]+}}, %[[A_FIELDS]] : i64
// CHECK: %[[B_FIELDS:.*]] = arith.constant -9223371899415756800 : i64
// CHECK-NEXT: %[[DESC_B:[0-9]+]] = arith.ori %{{[0-9]+}}, %[[B_FIELDS]] : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: nvvm.wgmma.mma_async %[[DESC_A]], %[[DESC_B]], %{{[0-9]+}}, <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK-NEXT: arith.constant 256 : i64
// CHECK-NEXT: arith.addi %[[DESC_A]]
// CHECK-NEXT: nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : i64
// CHECK-NEXT: %[[B1:[0-9]+]] = arith.addi %[[DESC_B]], %[[C2]] : i64
// CHECK-NEXT: arith.constant 2 : i64
// CHECK-NEXT: %[[A10:[0-9]+]] = arith.addi %[[DESC_A]]
// CHECK-NEXT: nvvm.wgmma.mma_async %[[A10]], %[[B1]], {{.*}} A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK-NEXT: arith.constant 258 : i64
// CHECK-NEXT: %[[A11:[0-9]+]] = arith.addi %[[DESC_A]]
// CHECK-NEXT: nvvm.wgmma.mma_async %[[A11]], %[[B1]], {{.*}} A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: nvgpu.
// CHECK: return
// SM90-LABEL: func.func @nt
// SM90: nvgpu.mma.sync
func.func @nt() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l transpose_b : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<128x32xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// Both transposed, K = 64: four k-steps. A stored [K][M] = 64x128 is
// MN-major with 64-row panels: mode 1, SBO 1024, LBO 64 * 128 = 8192:
//   (512 << 16) | (64 << 32) | (1 << 62) = 4611686293338849280;
// its second slice is 8192 bytes on (512), each k-step 16 rows (128).
// B stored [N][K] = 128x64 is K-major with 128-byte rows: mode 1, SBO 1024,
// LBO 16: (1 << 16) | (64 << 32) | (1 << 62) = 4611686293305360384; each
// k-step is 32 bytes on (2).
// CHECK-LABEL: func.func @tt
// CHECK: %[[A:.*]] = tile.alloc_shared : memref<64x128xf16
// The warpgroup's row origin is a whole number of A's 64-column panels.
// CHECK: %[[G:[0-9]+]] = arith.divui %{{[0-9]+}}, %c4{{(_[0-9]+)?}} : index
// CHECK: %[[GM:[0-9]+]] = arith.divui %[[G]], %c1{{(_[0-9]+)?}} : index
// CHECK: %[[ROW:[0-9]+]] = arith.muli %[[GM]], %c128{{(_[0-9]+)?}} : index
// CHECK: %[[PANEL:[0-9]+]] = arith.divui %[[ROW]], %c64{{(_[0-9]+)?}} : index
// CHECK: %[[IN:[0-9]+]] = arith.remui %[[ROW]], %c64{{(_[0-9]+)?}} : index
// CHECK: %[[PANELB:[0-9]+]] = arith.muli %[[PANEL]], %c8192{{(_[0-9]+)?}} : index
// CHECK: %[[INB:[0-9]+]] = arith.muli %[[IN]], %c2{{(_[0-9]+)?}} : index
// CHECK: arith.addi %[[PANELB]], %[[INB]] : index
// CHECK: %[[A_FIELDS:.*]] = arith.constant 4611686293338849280 : i64
// CHECK-NEXT: %[[DESC_A:[0-9]+]] = arith.ori %{{[0-9]+}}, %[[A_FIELDS]] : i64
// CHECK: %[[B_FIELDS:.*]] = arith.constant 4611686293305360384 : i64
// CHECK-NEXT: %[[DESC_B:[0-9]+]] = arith.ori %{{[0-9]+}}, %[[B_FIELDS]] : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: nvvm.wgmma.mma_async %[[DESC_A]], %[[DESC_B]], {{.*}} A[<f16>, <one>, <col>], B[<f16>, <one>, <col>]
// CHECK-NEXT: arith.constant 512 : i64
// CHECK-NEXT: arith.addi %[[DESC_A]]
// CHECK-NEXT: nvvm.wgmma.mma_async
// CHECK-NEXT: arith.constant 2 : i64
// CHECK-NEXT: arith.addi %[[DESC_B]]
// CHECK-NEXT: arith.constant 128 : i64
// CHECK-NEXT: arith.addi %[[DESC_A]]
// CHECK-NEXT: nvvm.wgmma.mma_async
// CHECK-NEXT: arith.constant 640 : i64
// CHECK-NEXT: arith.addi %[[DESC_A]]
// CHECK-NEXT: nvvm.wgmma.mma_async
// CHECK-NEXT: arith.constant 4 : i64
// CHECK-NEXT: arith.addi %[[DESC_B]]
// CHECK-NEXT: arith.constant 256 : i64
// CHECK-NEXT: arith.addi %[[DESC_A]]
// CHECK-NEXT: nvvm.wgmma.mma_async
// CHECK-NEXT: arith.constant 768 : i64
// CHECK-NEXT: arith.addi %[[DESC_A]]
// CHECK-NEXT: nvvm.wgmma.mma_async
// CHECK-NEXT: arith.constant 6 : i64
// CHECK-NEXT: arith.addi %[[DESC_B]]
// CHECK-NEXT: arith.constant 384 : i64
// CHECK-NEXT: arith.addi %[[DESC_A]]
// CHECK-NEXT: nvvm.wgmma.mma_async
// CHECK-NEXT: arith.constant 896 : i64
// CHECK-NEXT: arith.addi %[[DESC_A]]
// CHECK-NEXT: nvvm.wgmma.mma_async {{.*}} A[<f16>, <one>, <col>], B[<f16>, <one>, <col>]
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: return
// SM90-LABEL: func.func @tt
// SM90: nvgpu.mma.sync
func.func @tt() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<64x128xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<128x64xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l transpose_a transpose_b : memref<64x128xf16, #gpu.address_space<workgroup>>, memref<128x64xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// K = 16: one k-step. A (128x16, K-major) has 32-byte rows: mode 3, SBO 256,
// LBO 16: (1 << 16) | (16 << 32) | (3 << 62) = -4611685949707845632.
// B (16x128, MN-major): mode 1, SBO 1024, LBO 16 * 128 = 2048:
// (128 << 16) | (64 << 32) | (1 << 62) = 4611686293313683456. A's second
// slice: 64 rows * 32 bytes >> 4 = 128.
// CHECK-LABEL: func.func @k16
// CHECK: %[[A_FIELDS:.*]] = arith.constant -4611685949707845632 : i64
// CHECK-NEXT: %[[DESC_A:[0-9]+]] = arith.ori %{{[0-9]+}}, %[[A_FIELDS]] : i64
// CHECK: %[[B_FIELDS:.*]] = arith.constant 4611686293313683456 : i64
// CHECK-NEXT: %[[DESC_B:[0-9]+]] = arith.ori %{{[0-9]+}}, %[[B_FIELDS]] : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: nvvm.wgmma.mma_async %[[DESC_A]], %[[DESC_B]], %{{[0-9]+}}, <m = 64, n = 128, k = 16>
// CHECK-NEXT: %[[C128:.*]] = arith.constant 128 : i64
// CHECK-NEXT: %[[A01:[0-9]+]] = arith.addi %[[DESC_A]], %[[C128]] : i64
// CHECK-NEXT: nvvm.wgmma.mma_async %[[A01]], %[[DESC_B]], %{{[0-9]+}}, <m = 64, n = 128, k = 16>
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK: return
// SM90-LABEL: func.func @k16
// SM90: nvgpu.mma.sync
func.func @k16() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x128xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l : memref<128x16xf16, #gpu.address_space<workgroup>>, memref<16x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// 256 threads on 128x256: two warpgroups stacked (2 x 1), each a 64x256
// group tile of one m64n256 slice, 128 registers per thread: wgmma reads 64
// rows of A and all of B per instruction, so a group tile as wide as it can
// be reads the least shared memory (FragmentLayout::getWarpgroup). Warp w is
// in group g = w / 4; its fragment origin is row g * 64 + (w % 4) * 16,
// column 0. The gemm's A descriptor starts at the group's first row (64-byte
// rows), B's at column 0 of the 32x256 B tile (4 panels of 32 * 128 = 4096
// bytes).
// CHECK-LABEL: func.func @threads256
// CHECK: %[[WARP:[0-9]+]] = arith.divui %thread_id_x, %c32 : index
// CHECK: memref.alloca() : memref<128xf32>
// CHECK: %[[FG:[0-9]+]] = arith.divui %[[WARP]], %c4{{(_[0-9]+)?}} : index
// CHECK: %[[FGM:[0-9]+]] = arith.divui %[[FG]], %c1{{(_[0-9]+)?}} : index
// CHECK: %[[FGROW:[0-9]+]] = arith.muli %[[FGM]], %c64{{(_[0-9]+)?}} : index
// CHECK: %[[FWIG:[0-9]+]] = arith.remui %[[WARP]], %c4{{(_[0-9]+)?}} : index
// CHECK: %[[FWROW:[0-9]+]] = arith.muli %[[FWIG]], %c16{{(_[0-9]+)?}} : index
// CHECK: %{{[0-9]+}} = arith.addi %[[FGROW]], %[[FWROW]] : index
// CHECK: %[[FGN:[0-9]+]] = arith.remui %[[FG]], %c1{{(_[0-9]+)?}} : index
// CHECK: %{{[0-9]+}} = arith.muli %[[FGN]], %c256{{(_[0-9]+)?}} : index
// CHECK: tile.alloc_shared : memref<32x256xf16
// CHECK: %[[G:[0-9]+]] = arith.divui %[[WARP]], %c4{{(_[0-9]+)?}} : index
// CHECK: %[[GM:[0-9]+]] = arith.divui %[[G]], %c1{{(_[0-9]+)?}} : index
// CHECK: %[[ROW:[0-9]+]] = arith.muli %[[GM]], %c64{{(_[0-9]+)?}} : index
// CHECK: %[[GN:[0-9]+]] = arith.remui %[[G]], %c1{{(_[0-9]+)?}} : index
// CHECK: %[[COL:[0-9]+]] = arith.muli %[[GN]], %c256{{(_[0-9]+)?}} : index
// CHECK: %[[AOFF:[0-9]+]] = arith.muli %[[ROW]], %c64{{(_[0-9]+)?}} : index
// CHECK: %[[APTR:.*]] = memref.extract_aligned_pointer_as_index
// CHECK: %[[ASUM:[0-9]+]] = arith.addi %{{[0-9]+}}, %[[AOFF]] : index
// CHECK: arith.addi %[[APTR]], %[[ASUM]] : index
// CHECK: arith.constant -9223371899415756800 : i64
// CHECK: %[[PANEL:[0-9]+]] = arith.divui %[[COL]], %c64{{(_[0-9]+)?}} : index
// CHECK: %[[IN:[0-9]+]] = arith.remui %[[COL]], %c64{{(_[0-9]+)?}} : index
// CHECK: %[[PANELB:[0-9]+]] = arith.muli %[[PANEL]], %c4096{{(_[0-9]+)?}} : index
// CHECK: %[[INB:[0-9]+]] = arith.muli %[[IN]], %c2{{(_[0-9]+)?}} : index
// CHECK: %[[BOFF:[0-9]+]] = arith.addi %[[PANELB]], %[[INB]] : index
// CHECK: %[[BPTR:.*]] = memref.extract_aligned_pointer_as_index
// CHECK: %[[BSUM:[0-9]+]] = arith.addi %{{[0-9]+}}, %[[BOFF]] : index
// CHECK: %[[BBYTES:[0-9]+]] = arith.addi %[[BPTR]], %[[BSUM]] : index
// CHECK-NEXT: arith.index_castui %[[BBYTES]] : index to i64
// CHECK: arith.constant 4611686293322072064 : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>, {{.*}} : !llvm.struct<({{(f32, ){127}f32}})>
// CHECK-NEXT: arith.constant 128 : i64
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.constant 2 : i64
// CHECK-NEXT: arith.addi
// CHECK-NEXT: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 256, k = 16>
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// CHECK-NOT: nvgpu.
// CHECK: return
// SM90-LABEL: func.func @threads256
// SM90: nvgpu.mma.sync
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

// -----

// 256 threads on 256x128: the groups stack (2 x 1), each 128x128; the A
// descriptor starts at the group's row: (g / 1) * 128 rows of 64 bytes.
// CHECK-LABEL: func.func @threads256_rows
// CHECK: %[[WARP:[0-9]+]] = arith.divui %thread_id_x, %c32 : index
// CHECK: tile.alloc_shared : memref<32x128xf16
// CHECK: %[[G:[0-9]+]] = arith.divui %[[WARP]], %c4{{(_[0-9]+)?}} : index
// CHECK-NEXT: %{{.*}} = arith.constant 1 : index
// CHECK-NEXT: %[[GM:[0-9]+]] = arith.divui %[[G]], %c1{{(_[0-9]+)?}} : index
// CHECK: %[[ROW:[0-9]+]] = arith.muli %[[GM]], %c128{{(_[0-9]+)?}} : index
// CHECK: %[[AOFF:[0-9]+]] = arith.muli %[[ROW]], %c64{{(_[0-9]+)?}} : index
// CHECK-NEXT: memref.extract_strided_metadata
// CHECK-NEXT: memref.extract_aligned_pointer_as_index
// CHECK-NEXT: arith.constant 2 : index
// CHECK-NEXT: arith.muli
// CHECK: arith.addi %{{[0-9]+}}, %[[AOFF]] : index
// CHECK: arith.constant -9223371899415756800 : i64
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK: return
// SM90-LABEL: func.func @threads256_rows
// SM90: nvgpu.mma.sync
func.func @threads256_rows() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(256) as (%bx) {
    %A_s = tile.alloc_shared : memref<256x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<256x128xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l : memref<256x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<256x128xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// 256 threads on 64x64: the groups split the columns, 32 each (m64n32). B
// stored [N][K] is K-major, so a group's columns are whole 64-byte rows
// wherever they start: wgmma fits, with B's origin at 32 rows * 64 bytes.
// CHECK-LABEL: func.func @n32_kmajor
// CHECK: memref.alloca() : memref<16xf32>
// CHECK: tile.alloc_shared : memref<64x32xf16
// CHECK: tile.alloc_shared : memref<64x32xf16
// CHECK: %[[G:[0-9]+]] = arith.divui %{{[0-9]+}}, %c4{{(_[0-9]+)?}} : index
// CHECK: %[[GN:[0-9]+]] = arith.remui %[[G]], %c2{{(_[0-9]+)?}} : index
// CHECK: %[[COL:[0-9]+]] = arith.muli %[[GN]], %c32{{(_[0-9]+)?}} : index
// CHECK: arith.muli %[[COL]], %c64{{(_[0-9]+)?}} : index
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-NEXT: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 32, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>] : !llvm.struct<({{(f32, ){15}f32}})>
// CHECK: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 32, k = 16>
// CHECK-NEXT: nvvm.wgmma.commit.group.sync.aligned
// CHECK: return
// SM90-LABEL: func.func @n32_kmajor
// SM90: nvgpu.mma.sync
func.func @n32_kmajor() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(256) as (%bx) {
    %A_s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l transpose_b : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<64x32xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// Fallback: f32 operands are not for wgmma (nor mma.sync): the FMA loop.
// CHECK-LABEL: func.func @fallback_f32_operands
// CHECK-NOT: nvvm.wgmma
// CHECK-NOT: nvgpu.
// CHECK: arith.mulf
// CHECK-NOT: nvvm.wgmma
// CHECK: return
// SM90-LABEL: func.func @fallback_f32_operands
func.func @fallback_f32_operands() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x16xf32, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x128xf32, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l : memref<128x16xf32, #gpu.address_space<workgroup>>, memref<16x128xf32, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// Fallback: K = 8 is not a multiple of 16: the FMA loop.
// CHECK-LABEL: func.func @fallback_k8
// CHECK-NOT: nvvm.wgmma
// CHECK-NOT: nvgpu.
// CHECK: arith.mulf
// CHECK-NOT: nvvm.wgmma
// CHECK: return
func.func @fallback_k8() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x8xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<8x128xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l : memref<128x8xf16, #gpu.address_space<workgroup>>, memref<8x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// Fallback: 64 threads are no warpgroup: mma.sync on 2 warps (1 x 2 of
// 128x64, 256 registers).
// CHECK-LABEL: func.func @fallback_threads64
// CHECK-NOT: nvvm.wgmma
// CHECK: memref.alloca() : memref<256xf32>
// CHECK: nvgpu.ldmatrix
// CHECK: nvgpu.mma.sync(%{{.*}}) {mmaShape = [16, 8, 16]}
// CHECK-NOT: nvvm.wgmma
// CHECK: return
func.func @fallback_threads64() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(64) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// Fallback: 96 rows are not a multiple of 64: mma.sync.
// CHECK-LABEL: func.func @fallback_rows96
// CHECK-NOT: nvvm.wgmma
// CHECK: nvgpu.mma.sync
// CHECK-NOT: nvvm.wgmma
// CHECK: return
func.func @fallback_rows96() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<96x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<96x64xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l : memref<96x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>, memref<96x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// Fallback: as @n32_kmajor, but B stored [K][N] (MN-major, one 128-byte
// panel): each group's 32 columns would be half a panel: mma.sync.
// CHECK-LABEL: func.func @fallback_split_panel
// CHECK-NOT: nvvm.wgmma
// CHECK: nvgpu.mma.sync
// CHECK-NOT: nvvm.wgmma
// CHECK: return
func.func @fallback_split_panel() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(256) as (%bx) {
    %A_s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// Fallback: one gemm that cannot use wgmma (f32 operands) keeps the whole
// kernel on the mma.sync layouts, so the f16 gemm that could is mma.sync.
// CHECK-LABEL: func.func @fallback_one_of_two
// CHECK-NOT: nvvm.wgmma
// CHECK: nvgpu.mma.sync
// CHECK-NOT: nvvm.wgmma
// CHECK: arith.mulf
// CHECK-NOT: nvvm.wgmma
// CHECK: return
func.func @fallback_one_of_two() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
    %D_s = tile.alloc_shared : memref<64x16xf32, #gpu.address_space<workgroup>>
    %E_s = tile.alloc_shared : memref<16x64xf32, #gpu.address_space<workgroup>>
    %F_l = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    tile.gemm %D_s, %E_s, %F_l : memref<64x16xf32, #gpu.address_space<workgroup>>, memref<16x64xf32, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}
