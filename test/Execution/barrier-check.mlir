// tile-lower-to-cpu's check-barriers: an element of a shared tile that two
// tile ops access with no tile.barrier between them, one of them writing,
// reads as NaN (lib/Conversion/TileToCPU/BarrierCheck.cpp). The kernel is
// gemm-pipelined-by-hand-2.mlir's (two versions of A and B, asynchronous
// copies, prologue, steady state, epilogue), each barrier named by a
// comment so that sed can drop it. One CPU thread computes the right numbers
// without any barrier; the check makes each missing one show.
//
// RUN: %python %S/Inputs/gemm.py --emit main --M 100 --N 70 --K 37 > %t.main.mlir
// RUN: cat %s %t.main.mlir | tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=SYNCED
// RUN: cat %s %t.main.mlir \
// RUN:   | tile-opt --tile-lower-to-cpu="model-async-copies=false check-barriers=true" %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=SYNCED
// SYNCED:      max_abs_error: 0{{$}}
// SYNCED-NEXT: unwritten: 0{{$}}
// SYNCED-NEXT: checked: 7000{{$}}
//
// Read after write: the gemm reads the tiles that the wait's copies wrote,
// with no barrier after the wait (other threads' copies), in the steady
// state and in the epilogue. Without the check the numbers are right.
// RUN: sed '/barrier-after-wait/d' %s | cat - %t.main.mlir \
// RUN:   | tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=RACE
// RUN: sed '/barrier-epilogue/d' %s | cat - %t.main.mlir \
// RUN:   | tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=RACE
// RUN: sed '/barrier-after-wait/d' %s | cat - %t.main.mlir \
// RUN:   | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=SYNCED
// RACE: max_abs_error: nan
//
// Write after read: without the barrier after the gemm, the next step's
// copies are issued into the versions the gemm has just read (two steps
// apart with two versions): the copies land as NaN at their wait. With
// model-async-copies=false the copies are writes right there.
// RUN: sed '/barrier-after-gemm/d' %s | cat - %t.main.mlir \
// RUN:   | tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=RACE
// RUN: sed '/barrier-after-gemm/d' %s | cat - %t.main.mlir \
// RUN:   | tile-opt --tile-lower-to-cpu="model-async-copies=false check-barriers=true" %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=RACE
//
// Synchronous copies, with the barriers of tile-software-pipeline's
// placement (copies, barrier, gemm, barrier in each step of the plain K
// loop): without the first, the gemm reads what the copies wrote (read
// after write); without the second, the next step's copies overwrite what
// the gemm read (write after read).
// RUN: %python %S/Inputs/gemm.py --variant plain --M 100 --N 70 --K 37 --bm 32 --bn 32 --bk 16 \
// RUN:   | tile-opt --tile-software-pipeline > %t.plain.mlir
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %t.plain.mlir %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=SYNCED
// RUN: awk '/tile.barrier/ { if (++n == 1) next } 1' %t.plain.mlir \
// RUN:   | tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=RACE
// RUN: awk '/tile.barrier/ { if (++n == 2) next } 1' %t.plain.mlir \
// RUN:   | tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=RACE

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
      tile.barrier // barrier-after-wait
      %v = arith.remui %k, %c2 : index
      %A_c = memref.subview %A_s[%v, 0, 0] [1, 32, 16] [1, 1, 1] : !As2 to !As
      %B_c = memref.subview %B_s[%v, 0, 0] [1, 16, 32] [1, 1, 1] : !Bs2 to !Bs
      tile.gemm %A_c, %B_c, %C_l : !As, !Bs, !Cl
      tile.barrier // barrier-after-gemm
    }

    // Epilogue: compute the last iteration.
    tile.wait_group 0
    tile.barrier // barrier-epilogue
    %vl = arith.remui %last, %c2 : index
    %A_l = memref.subview %A_s[%vl, 0, 0] [1, 32, 16] [1, 1, 1] : !As2 to !As
    %B_l = memref.subview %B_s[%vl, 0, 0] [1, 16, 32] [1, 1, 1] : !Bs2 to !Bs
    tile.gemm %A_l, %B_l, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}
