// The CPU model of asynchronous copies replays a copy whose source is a
// memref.subview made inside the loop, which the waits after the loop cannot
// see: it records the view's offsets and rebuilds it. Before, such a copy
// landed where it was issued, and a missing wait went unnoticed. The kernel
// is test/Execution/gemm-pipelined-by-hand-2.mlir's with the steady state's
// copies reading through subviews of A and B (and sizes that are tile
// multiples, so the views stay inside the tensors).
//
// RUN: %python %S/Inputs/gemm.py --emit main --M 96 --N 64 --K 64 > %t.main.mlir
// RUN: cat %s %t.main.mlir | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 6144{{$}}
//
// Without the steady state's wait the GEMMs read tiles still in flight.
// RUN: sed '/the steady wait/d' %s | cat - %t.main.mlir | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=MISSING
// MISSING: max_abs_error: nan

!A = memref<96x64xf16>
!B = memref<64x64xf16>
!C = memref<96x64xf16>
!As2 = memref<2x32x16xf16, #gpu.address_space<workgroup>>
!Bs2 = memref<2x16x32xf16, #gpu.address_space<workgroup>>
!As = memref<32x16xf16, strided<[16, 1], offset: ?>, #gpu.address_space<workgroup>>
!Bs = memref<16x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
!Cl = memref<32x32xf32, #gpu.address_space<private>>

func.func @gemm(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %bm = arith.constant 32 : index
  %bn = arith.constant 32 : index
  %bk = arith.constant 16 : index
  %M = arith.constant 96 : index
  %N = arith.constant 64 : index
  %K = arith.constant 64 : index
  %gx = arith.ceildivui %N, %bn : index
  %gy = arith.ceildivui %M, %bm : index
  %kt = arith.ceildivui %K, %bk : index
  tile.kernel grid(%gx, %gy) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As2
    %B_s = tile.alloc_shared : !Bs2
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %bm : index
    %col = arith.muli %bx, %bn : index

    // Prologue: iteration 0's copies into version 0.
    %A_p = memref.subview %A_s[%c0, 0, 0] [1, 32, 16] [1, 1, 1] : !As2 to !As
    %B_p = memref.subview %B_s[%c0, 0, 0] [1, 16, 32] [1, 1, 1] : !Bs2 to !Bs
    tile.copy %A[%row, %c0] to %A_p : !A to !As
    tile.copy %B[%c0, %col] to %B_p : !B to !Bs
    tile.commit_group

    // Steady state: issue iteration k + 1, then compute iteration k.
    %last = arith.subi %kt, %c1 : index
    scf.for %k = %c0 to %last step %c1 {
      %kn = arith.addi %k, %c1 : index
      %vn = arith.remui %kn, %c2 : index
      %kon = arith.muli %kn, %bk : index
      %A_n = memref.subview %A_s[%vn, 0, 0] [1, 32, 16] [1, 1, 1] : !As2 to !As
      %B_n = memref.subview %B_s[%vn, 0, 0] [1, 16, 32] [1, 1, 1] : !Bs2 to !Bs
      %A_g = memref.subview %A[%row, %kon] [32, 16] [1, 1] : !A to memref<32x16xf16, strided<[64, 1], offset: ?>>
      tile.copy_async %A_g to %A_n : memref<32x16xf16, strided<[64, 1], offset: ?>> to !As
      %B_g = memref.subview %B[%kon, %col] [16, 32] [1, 1] : !B to memref<16x32xf16, strided<[64, 1], offset: ?>>
      tile.copy_async %B_g to %B_n : memref<16x32xf16, strided<[64, 1], offset: ?>> to !Bs
      tile.commit_group
      tile.wait_group 1 // the steady wait
      tile.barrier
      %v = arith.remui %k, %c2 : index
      %A_c = memref.subview %A_s[%v, 0, 0] [1, 32, 16] [1, 1, 1] : !As2 to !As
      %B_c = memref.subview %B_s[%v, 0, 0] [1, 16, 32] [1, 1, 1] : !Bs2 to !Bs
      tile.gemm %A_c, %B_c, %C_l : !As, !Bs, !Cl
      tile.barrier
    }

    // Epilogue: compute the last iteration.
    tile.wait_group 0
    tile.barrier
    %vl = arith.remui %last, %c2 : index
    %A_l = memref.subview %A_s[%vl, 0, 0] [1, 32, 16] [1, 1, 1] : !As2 to !As
    %B_l = memref.subview %B_s[%vl, 0, 0] [1, 16, 32] [1, 1, 1] : !Bs2 to !Bs
    tile.gemm %A_l, %B_l, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}
