// The seed's over-budget experiment: 256x256x64 fp16 tiles at 128 threads.
// (256*64 + 64*256) * 2 B = 65536 B per stage: 3 stages = 196608 B fits
// sm_90's 232448 B but not sm_80's 166912 B.
// RUN: tile-opt --tile-smem-budget=chip=sm_90 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM90
// RUN: not tile-opt --tile-smem-budget=chip=sm_80 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SM80
// With print=false only the diagnostics remain.
// RUN: tile-opt --tile-smem-budget="chip=sm_90 print=false" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET90
// RUN: not tile-opt --tile-smem-budget="chip=sm_80 print=false" %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET80

// SM90:      kernel @big_3 (chip sm_90, limit 232448 B per block)
// SM90-NEXT:   stages=1       65536 B  [OK]
// SM90-NEXT:   stages=3      196608 B  [OK]
// SM90-NEXT:   above the 49152 B default: the launch must raise the kernel's dynamic shared-memory limit
// The accumulator alone: 256*256*4 B / 128 threads / 4 B = 512 registers.
// SM90-NEXT:   registers 512 per thread for fragments (262144 B / 128 threads / 4 B), limit 255 at 128 threads  [OVER]
// SM90:      warning: the GEMM accumulator alone needs 512 registers per thread (256x256xf32 = 262144 B / 128 threads / 4 B) but a thread of 128 has at most 255 on sm_90
// SM90-NOT:  error

// SM80:      kernel @big_3 (chip sm_80, limit 166912 B per block)
// SM80-NEXT:   stages=1       65536 B  [OK]
// SM80-NEXT:   stages=3      196608 B  [OVER]
// SM80:      error: kernel @big_3 needs 196608 bytes of shared memory at num_stages = 3 but sm_80 allows 166912 per block; the largest num_stages that fits is 2

// QUIET90-NOT: stages=
// QUIET90:     warning: the GEMM accumulator alone needs 512 registers per thread
// QUIET90-NOT: {{stages=|registers [0-9]+ per thread for fragments|error}}

// QUIET80-NOT: stages=
// QUIET80:     error: kernel @big_3 needs 196608 bytes of shared memory at num_stages = 3 but sm_80 allows 166912 per block
// QUIET80-NOT: stages=
func.func @big_3(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>, %C: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %bk = arith.constant 64 : index
  %kt = arith.constant 64 : index
  tile.kernel grid(%c32, %c32) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : memref<256x64xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<64x256xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<256x256xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<256x256xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %kt step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %bk : index
      tile.copy %A[%c0, %ko] to %A_s : memref<4096x4096xf16> to memref<256x64xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<4096x4096xf16> to memref<64x256xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<256x64xf16, #gpu.address_space<workgroup>>, memref<64x256xf16, #gpu.address_space<workgroup>>, memref<256x256xf32, #gpu.address_space<private>>
    }
    tile.copy %C_l to %C[%c0, %c0] : memref<256x256xf32, #gpu.address_space<private>> to memref<4096x4096xf16>
  }
  return
}
