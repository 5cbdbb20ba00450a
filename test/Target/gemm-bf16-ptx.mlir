// REQUIRES: ptxas
// RUN: tile-opt %s --tile-to-ptx=chip=sm_80 -o %t.sm80.mlir
// RUN: tile-translate --tile-emit-ptx %t.sm80.mlir -o %t.sm80.ptx
// RUN: FileCheck %s --check-prefix=PTX --implicit-check-not=ld.local --implicit-check-not=st.local < %t.sm80.ptx
// RUN: %ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-opt %s --tile-to-ptx=chip=sm_90 -o %t.sm90.mlir
// RUN: tile-translate --tile-emit-ptx %t.sm90.mlir -o %t.sm90.ptx
// RUN: FileCheck %s --check-prefix=PTX --implicit-check-not=ld.local --implicit-check-not=st.local < %t.sm90.ptx
// RUN: %ptxas -arch=sm_90 -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// A bf16 GEMM at an odd size (1000^3, 128x128x32 tiles, 3 stages): the
// same ldmatrix loads as f16, bf16 tensor-core mma.sync, the accumulator in
// registers (no local memory: 0 bytes stack frame) and no spills.

// PTX: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// PTX: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// PTX: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
// No ld.local or st.local anywhere in the kernel (--implicit-check-not above).

// PTXAS: {{^ *}}0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

!A = memref<1000x1000xbf16>
!B = memref<1000x1000xbf16>
!C = memref<1000x1000xbf16>
!As = memref<128x32xbf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xbf16, #gpu.address_space<workgroup>>
!Cl = memref<128x128xf32, #gpu.address_space<private>>
func.func @gemm_bf16(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %c1000 = arith.constant 1000 : index
  %g = arith.ceildivui %c1000, %c128 : index
  %kt = arith.ceildivui %c1000, %c32 : index
  tile.kernel grid(%g, %g) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %c128 : index
    %col = arith.muli %bx, %c128 : index
    tile.pipelined %c0 to %kt step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}
