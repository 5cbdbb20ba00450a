// A write into a shared tile while an asynchronous copy into it is in flight
// races with the copy on a GPU: either may land last. The CPU model lands the
// copy at its wait as NaN where another op wrote since the issue (the element
// no longer holds the issue's poison). Before, the clear below replaced the
// poison and the copy's data landed over it: max error 0, as if correct.
// The barriers around the clear order the threads, not the copy.
//
// RUN: %python %S/Inputs/gemm.py --emit main --M 100 --N 70 --K 37 > %t.main.mlir
// RUN: cat %s %t.main.mlir | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=RACE
// RACE: max_abs_error: nan
//
// Without the clear the kernel is correct.
// RUN: sed '/the write in flight/d' %s | cat - %t.main.mlir | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=CORRECT
// CORRECT: max_abs_error: 0{{$}}

!A = memref<100x37xf16>
!B = memref<37x70xf16>
!C = memref<100x70xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>
!Bs = memref<16x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<32x32xf32, #gpu.address_space<private>>

func.func @gemm(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %bm = arith.constant 32 : index
  %bn = arith.constant 32 : index
  %bk = arith.constant 16 : index
  %gx = arith.constant 3 : index
  %gy = arith.constant 4 : index
  %kt = arith.constant 3 : index
  tile.kernel grid(%gx, %gy) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %bm : index
    %col = arith.muli %bx, %bn : index
    scf.for %k = %c0 to %kt step %c1 {
      %ko = arith.muli %k, %bk : index
      tile.copy_async %A[%row, %ko] to %A_s : !A to !As
      tile.copy_async %B[%ko, %col] to %B_s : !B to !Bs
      tile.commit_group
      tile.barrier
      tile.clear %A_s : !As // the write in flight
      tile.barrier
      tile.wait_group 0
      tile.barrier
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      tile.barrier
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}
