// RUN: tile-opt --tile-smem-budget=chip=sm_90 --split-input-file -verify-diagnostics %s -o /dev/null

// The seed's --block-m 256 --block-n 256 --block-k 64 --stages 4 on sm_90:
// 4 * 65536 = 262144 B > 232448 B; 3 stages (196608 B) fit.
func.func @big_4(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>, %C: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %bk = arith.constant 64 : index
  %kt = arith.constant 64 : index
  // expected-warning @+2 {{the GEMM accumulator alone needs 512 registers per thread (256x256xf32 = 262144 B / 128 threads / 4 B) but a thread of 128 has at most 255 on sm_90: the tile cannot live in registers whole; tile-split-accumulators (in tile-to-ptx) computes it in parts where it can, or use more threads or a smaller tile}}
  // expected-error @+1 {{kernel @big_4 needs 262144 bytes of shared memory at num_stages = 4 but sm_90 allows 232448 per block; the largest num_stages that fits is 3}}
  tile.kernel grid(%c32, %c32) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : memref<256x64xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<64x256xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<256x256xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<256x256xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %kt step %c1 num_stages = 4 as (%k) {
      %ko = arith.muli %k, %bk : index
      tile.copy %A[%c0, %ko] to %A_s : memref<4096x4096xf16> to memref<256x64xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<4096x4096xf16> to memref<64x256xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<256x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>, memref<256x256xf32, #gpu.address_space<private>>
    }
    tile.copy %C_l to %C[%c0, %c0] : memref<256x256xf32, #gpu.address_space<private>> to memref<4096x4096xf16>
  }
  return
}

// -----

// A hand-written depth-4 schedule gets the same answer.
func.func @big_manual_4(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>, %C: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %bk = arith.constant 64 : index
  %kt = arith.constant 64 : index
  // expected-error @+1 {{kernel @big_manual_4 needs 262144 bytes of shared memory at num_stages = 4 but sm_90 allows 232448 per block; the largest num_stages that fits is 3}}
  tile.kernel grid(%c32, %c32) threads(512) as (%bx, %by) {
    %A_s = tile.alloc_shared : memref<256x64xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<64x256xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<256x256xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<256x256xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %kt step %c1 stage = [0, 0, 3] as (%k) {
      %ko = arith.muli %k, %bk : index
      tile.copy %A[%c0, %ko] to %A_s : memref<4096x4096xf16> to memref<256x64xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<4096x4096xf16> to memref<64x256xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<256x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>, memref<256x256xf32, #gpu.address_space<private>>
    }
    tile.copy %C_l to %C[%c0, %c0] : memref<256x256xf32, #gpu.address_space<private>> to memref<4096x4096xf16>
  }
  return
}

// -----

// Even one stage is too big: 512x512x128 tiles need 262144 B per stage.
func.func @huge(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>, %C: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %bk = arith.constant 128 : index
  %kt = arith.constant 32 : index
  // expected-warning @+2 {{the GEMM accumulator alone needs 256 registers per thread (512x512xf32 = 1048576 B / 1024 threads / 4 B)}}
  // expected-error @+1 {{kernel @huge needs 524288 bytes of shared memory at num_stages = 2 but sm_90 allows 232448 per block; no num_stages fits (one stage needs 262144 bytes): use smaller tiles}}
  tile.kernel grid(%c32, %c32) threads(1024) as (%bx, %by) {
    %A_s = tile.alloc_shared : memref<512x128xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<128x512xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<512x512xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<512x512xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %kt step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %bk : index
      tile.copy %A[%c0, %ko] to %A_s : memref<4096x4096xf16> to memref<512x128xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<4096x4096xf16> to memref<128x512xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<512x128xf16, #gpu.address_space<workgroup>>, memref<128x512xf16, #gpu.address_space<workgroup>>, memref<512x512xf32, #gpu.address_space<private>>
    }
    tile.copy %C_l to %C[%c0, %c0] : memref<512x512xf32, #gpu.address_space<private>> to memref<4096x4096xf16>
  }
  return
}

// -----

// The accumulator fits (128 registers) but another fragment pushes the
// kernel past the limit.
func.func @many_fragments(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>, %C: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %bk = arith.constant 32 : index
  %kt = arith.constant 128 : index
  // expected-warning @+1 {{fragment tiles need 384 registers per thread (196608 B / 128 threads / 4 B) but a thread of 128 has at most 255 on sm_90: expect spills to local memory}}
  tile.kernel grid(%c32, %c32) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    %X_l = tile.alloc_fragment : memref<256x128xf32, #gpu.address_space<private>>
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


// -----

// 192 registers per thread would fit one thread, but 512 threads of it would
// not fit the 64K-register file: a thread of a 512-thread block has 128.
func.func @big_block(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>, %C: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %bk = arith.constant 32 : index
  %kt = arith.constant 128 : index
  // expected-warning @+1 {{the GEMM accumulator alone needs 192 registers per thread (256x384xf32 = 393216 B / 512 threads / 4 B) but a thread of 512 has at most 128 on sm_90}}
  tile.kernel grid(%c16, %c16) threads(512) as (%bx, %by) {
    %A_s = tile.alloc_shared : memref<256x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x384xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<256x384xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<256x384xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %kt step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %bk : index
      tile.copy %A[%c0, %ko] to %A_s : memref<4096x4096xf16> to memref<256x32xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<4096x4096xf16> to memref<32x384xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<256x32xf16, #gpu.address_space<workgroup>>, memref<32x384xf16, #gpu.address_space<workgroup>>, memref<256x384xf32, #gpu.address_space<private>>
    }
    tile.copy %C_l to %C[%c0, %c0] : memref<256x384xf32, #gpu.address_space<private>> to memref<4096x4096xf16>
  }
  return
}

// -----

// Two accumulators of one type are two tiles: 128 + 128 registers, not 128.
func.func @two_accumulators(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>, %C: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-warning @+1 {{the GEMM accumulator alone needs 256 registers per thread (128x128xf32 + 128x128xf32 = 131072 B / 128 threads / 4 B) but a thread of 128 has at most 255 on sm_90}}
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %C_1 = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    %C_2 = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.copy %A to %A_s : memref<4096x4096xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.copy %B to %B_s : memref<4096x4096xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
    tile.clear %C_1 : memref<128x128xf32, #gpu.address_space<private>>
    tile.clear %C_2 : memref<128x128xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_1 : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_2 : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
    tile.copy %C_1 to %C : memref<128x128xf32, #gpu.address_space<private>> to memref<4096x4096xf16>
    tile.copy %C_2 to %C[%c0, %c1] : memref<128x128xf32, #gpu.address_space<private>> to memref<4096x4096xf16>
  }
  return
}
