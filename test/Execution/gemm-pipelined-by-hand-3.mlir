// A hand-written three-version pipeline (the form --tile-software-pipeline
// produces for num_stages = 3), with the induction variable counting
// elements (step 16, so versions are ((k - lb) / step) mod 3) and the
// prologue and epilogue guarded by scf.if as for a trip count not known to
// exceed the depth. M=96, N=80, K=200 with 32x32x16 tiles: 13 K steps
// (prologue 2, steady 11, epilogue 2), the last one partial.
//
// RUN: %python %S/Inputs/gemm.py --emit main --M 96 --N 80 --K 200 > %t.main.mlir
// RUN: cat %s %t.main.mlir | tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 7680{{$}}

!A = memref<96x200xf16>
!B = memref<200x80xf16>
!C = memref<96x80xf16>
!As3 = memref<3x32x16xf16, #gpu.address_space<workgroup>>
!Bs3 = memref<3x16x32xf16, #gpu.address_space<workgroup>>
!As = memref<32x16xf16, strided<[16, 1], offset: ?>, #gpu.address_space<workgroup>>
!Bs = memref<16x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
!Cl = memref<32x32xf32, #gpu.address_space<private>>

func.func @gemm(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %bm = arith.constant 32 : index
  %bn = arith.constant 32 : index
  %bk = arith.constant 16 : index
  %M = arith.constant 96 : index
  %N = arith.constant 80 : index
  %K = arith.constant 200 : index
  %gx = arith.ceildivui %N, %bn : index
  %gy = arith.ceildivui %M, %bm : index
  tile.kernel grid(%gx, %gy) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As3
    %B_s = tile.alloc_shared : !Bs3
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %bm : index
    %col = arith.muli %bx, %bn : index
    // The loop is `for k = 0 to K step bk`; kt iterations.
    %kt = arith.ceildivui %K, %bk : index

    // Prologue: iterations 0 and 1 into versions 0 and 1, if they exist.
    // A group is committed either way, so that wait counts stay constant.
    scf.for %s = %c0 to %c2 step %c1 {
      %exists = arith.cmpi ult, %s, %kt : index
      scf.if %exists {
        %ks = arith.muli %s, %bk : index
        %A_p = memref.subview %A_s[%s, 0, 0] [1, 32, 16] [1, 1, 1] : !As3 to !As
        %B_p = memref.subview %B_s[%s, 0, 0] [1, 16, 32] [1, 1, 1] : !Bs3 to !Bs
        tile.copy_async %A[%row, %ks] to %A_p : !A to !As
        tile.copy_async %B[%ks, %col] to %B_p : !B to !Bs
      }
      tile.commit_group
    }

    // Steady state: issue k + 2 steps ahead, compute k.
    %steady = arith.subi %kt, %c2 : index
    %steady_k = arith.muli %steady, %bk : index
    %two_steps = arith.muli %c2, %bk : index
    scf.for %k = %c0 to %steady_k step %bk {
      %kn = arith.addi %k, %two_steps : index
      %in = arith.divui %kn, %bk : index
      %vn = arith.remui %in, %c3 : index
      %A_n = memref.subview %A_s[%vn, 0, 0] [1, 32, 16] [1, 1, 1] : !As3 to !As
      %B_n = memref.subview %B_s[%vn, 0, 0] [1, 16, 32] [1, 1, 1] : !Bs3 to !Bs
      tile.copy_async %A[%row, %kn] to %A_n : !A to !As
      tile.copy_async %B[%kn, %col] to %B_n : !B to !Bs
      tile.commit_group
      tile.wait_group 2
      tile.barrier
      %i = arith.divui %k, %bk : index
      %v = arith.remui %i, %c3 : index
      %A_c = memref.subview %A_s[%v, 0, 0] [1, 32, 16] [1, 1, 1] : !As3 to !As
      %B_c = memref.subview %B_s[%v, 0, 0] [1, 16, 32] [1, 1, 1] : !Bs3 to !Bs
      tile.gemm %A_c, %B_c, %C_l : !As, !Bs, !Cl
      tile.barrier
    }

    // Epilogue: the last two iterations, those that exist.
    %e0 = arith.subi %kt, %c2 : index
    %e0_ok = arith.cmpi sge, %e0, %c0 : index
    tile.wait_group 1
    tile.barrier
    scf.if %e0_ok {
      %v0 = arith.remui %e0, %c3 : index
      %A_0 = memref.subview %A_s[%v0, 0, 0] [1, 32, 16] [1, 1, 1] : !As3 to !As
      %B_0 = memref.subview %B_s[%v0, 0, 0] [1, 16, 32] [1, 1, 1] : !Bs3 to !Bs
      tile.gemm %A_0, %B_0, %C_l : !As, !Bs, !Cl
    }
    %e1 = arith.subi %kt, %c1 : index
    tile.wait_group 0
    tile.barrier
    %v1 = arith.remui %e1, %c3 : index
    %A_1 = memref.subview %A_s[%v1, 0, 0] [1, 32, 16] [1, 1, 1] : !As3 to !As
    %B_1 = memref.subview %B_s[%v1, 0, 0] [1, 16, 32] [1, 1, 1] : !Bs3 to !Bs
    tile.gemm %A_1, %B_1, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}
