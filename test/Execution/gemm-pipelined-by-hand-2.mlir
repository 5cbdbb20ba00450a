// A hand-written kernel in the form that --tile-software-pipeline produces
// for the seed's manual schedule (stage = [0, 0, 1]): A and B tiles with two
// versions reached through rank-reducing subviews at ((k - lb) / step) mod 2,
// asynchronous copies with commit groups, waits and barriers, and a
// prologue, steady-state loop and epilogue. Run on the CPU it must give the
// plain loop's numbers. M=100, N=70, K=37 with 32x32x16 tiles: partial tiles
// everywhere and 3 K steps (prologue 1, steady 2, epilogue 1).
//
// RUN: %python %S/Inputs/gemm.py --emit main --M 100 --N 70 --K 37 > %t.main.mlir
// RUN: cat %s %t.main.mlir | tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 7000{{$}}
//
// With one version where it needs two, each step's copy overwrites the tile
// that the step's GEMM still reads. On the GPU the copy lands while the GEMM
// reads; the CPU model fills the copy's destination with NaN until its wait,
// so the race shows (the copy itself is still waited for before its own
// GEMM reads it).
// RUN: sed 's/remui \(.*\), %c2/remui \1, %c1/' %s | cat - %t.main.mlir \
// RUN:   | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s --check-prefix=ONE-VERSION
// ONE-VERSION: max_abs_error: nan

!A = memref<100x37xf16>
!B = memref<37x70xf16>
!C = memref<100x70xf16>
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
  %M = arith.constant 100 : index
  %N = arith.constant 70 : index
  %K = arith.constant 37 : index
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
    tile.copy_async %A[%row, %c0] to %A_p : !A to !As
    tile.copy_async %B[%c0, %col] to %B_p : !B to !Bs
    tile.commit_group

    // Steady state: issue iteration k + 1, then compute iteration k.
    %last = arith.subi %kt, %c1 : index
    scf.for %k = %c0 to %last step %c1 {
      %kn = arith.addi %k, %c1 : index
      %vn = arith.remui %kn, %c2 : index
      %kon = arith.muli %kn, %bk : index
      %A_n = memref.subview %A_s[%vn, 0, 0] [1, 32, 16] [1, 1, 1] : !As2 to !As
      %B_n = memref.subview %B_s[%vn, 0, 0] [1, 16, 32] [1, 1, 1] : !Bs2 to !Bs
      tile.copy_async %A[%row, %kon] to %A_n : !A to !As
      tile.copy_async %B[%kon, %col] to %B_n : !B to !Bs
      tile.commit_group
      tile.wait_group 1
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
