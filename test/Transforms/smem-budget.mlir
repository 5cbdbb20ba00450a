// RUN: tile-opt --tile-smem-budget=chip=sm_80 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM80
// RUN: tile-opt --tile-smem-budget=chip=sm_90 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM90
// Planning first gives the same numbers: the budget infers unplanned loops
// with the same rules.
// RUN: tile-opt --tile-pipeline-planning --tile-smem-budget=chip=sm_80 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM80

// The seed's default: 128x128x32 fp16 tiles, 128 threads.
// (128*32 + 32*128) * 2 B = 16384 B per stage; 3 stages = 49152 B.
// The accumulator: 128*128*4 B / 128 threads / 4 B = 128 registers.

// SM80-LABEL: kernel @seed_auto_3 (chip sm_80, limit 166912 B per block)
// SM80-NEXT:    stages=1       16384 B  [OK]
// SM80-NEXT:    stages=3       49152 B  [OK]
// SM80-NEXT:    registers 128 per thread for fragments (65536 B / 128 threads / 4 B), limit 255 at 128 threads  [OK]
// SM90-LABEL: kernel @seed_auto_3 (chip sm_90, limit 232448 B per block)
// SM90-NEXT:    stages=1       16384 B  [OK]
// SM90-NEXT:    stages=3       49152 B  [OK]
func.func @seed_auto_3(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>, %C: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %bk = arith.constant 32 : index
  %kt = arith.constant 128 : index
  tile.kernel grid(%c32, %c32) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<128x128xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %kt step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %bk : index
      tile.copy %A[%c0, %ko] to %A_s : memref<4096x4096xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<4096x4096xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
    }
    tile.copy %C_l to %C[%c0, %c0] : memref<128x128xf32, #gpu.address_space<private>> to memref<4096x4096xf16>
  }
  return
}

// The seed's --stages 1: one row, one version per tile.
// SM80-LABEL: kernel @seed_stages_1 (chip sm_80
// SM80-NEXT:    stages=1       16384 B  [OK]
// SM80-NEXT:    registers 128 per thread
func.func @seed_stages_1(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>, %C: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %bk = arith.constant 32 : index
  %kt = arith.constant 128 : index
  tile.kernel grid(%c32, %c32) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<128x128xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %kt step %c1 num_stages = 1 as (%k) {
      %ko = arith.muli %k, %bk : index
      tile.copy %A[%c0, %ko] to %A_s : memref<4096x4096xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<4096x4096xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
    }
    tile.copy %C_l to %C[%c0, %c0] : memref<128x128xf32, #gpu.address_space<private>> to memref<4096x4096xf16>
  }
  return
}

// matmul_manual: depth 2 from the stage list.
// SM80-LABEL: kernel @seed_manual (chip sm_80
// SM80-NEXT:    stages=1       16384 B  [OK]
// SM80-NEXT:    stages=2       32768 B  [OK]
func.func @seed_manual(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>, %C: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %bk = arith.constant 32 : index
  %kt = arith.constant 128 : index
  tile.kernel grid(%c32, %c32) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<128x128xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %kt step %c1 stage = [0, 0, 1] order = [0, 1, 2] as (%k) {
      %ko = arith.muli %k, %bk : index
      tile.copy %A[%c0, %ko] to %A_s : memref<4096x4096xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<4096x4096xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
    }
    tile.copy %C_l to %C[%c0, %c0] : memref<128x128xf32, #gpu.address_space<private>> to memref<4096x4096xf16>
  }
  return
}

// Tiles are placed as the lowering carves them, each at a 1024-byte aligned
// offset (the swizzle's period): 8x8xf16 (128 B) at 0 and 8x4xf16 (64 B) at
// 1024, 1088 B; with 2 versions each, 256 B at 0 and 128 B at 1024.
// SM80-LABEL: kernel @alignment (chip sm_80
// SM80-NEXT:    stages=1        1088 B  [OK]
// SM80-NEXT:    stages=2        1152 B  [OK]
func.func @alignment(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>, %C: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %bk = arith.constant 8 : index
  %kt = arith.constant 512 : index
  tile.kernel grid(%c32, %c32) threads(32) as (%bx, %by) {
    %A_s = tile.alloc_shared : memref<8x8xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<8x4xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<8x4xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<8x4xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %kt step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %bk : index
      tile.copy %A[%c0, %ko] to %A_s : memref<4096x4096xf16> to memref<8x8xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<4096x4096xf16> to memref<8x4xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<8x8xf16, #gpu.address_space<workgroup>>, memref<8x4xf16, #gpu.address_space<workgroup>>, memref<8x4xf32, #gpu.address_space<private>>
    }
    tile.copy %C_l to %C[%c0, %c0] : memref<8x4xf32, #gpu.address_space<private>> to memref<4096x4096xf16>
  }
  return
}

// Two kernels in one function: one row group each, the second named #1.
// SM80-LABEL: kernel @two_kernels (chip sm_80
// SM80-NEXT:    stages=1        4096 B  [OK]
// SM80-NEXT:    registers 4 per thread
// SM80-LABEL: kernel @two_kernels#1 (chip sm_80
// SM80-NEXT:    stages=1        8192 B  [OK]
// SM80-NEXT:    registers 0 per thread
func.func @two_kernels() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(64) as (%bx) {
    %X_s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %X_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
  }
  tile.kernel grid(%c1) threads(64) as (%bx) {
    %Y_s = tile.alloc_shared : memref<64x32xf32, #gpu.address_space<workgroup>>
  }
  return
}
