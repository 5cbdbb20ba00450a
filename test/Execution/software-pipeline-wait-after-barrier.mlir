// CPU execution of a step where a barrier falls between an asynchronous copy
// and the statement that reads its tile: the barrier does not complete the
// copy, so the reader still needs a wait (and a barrier after it). Each
// iteration first multiplies a zero tile X_s by the B tile of the previous
// iteration (adding nothing), then copies A (asynchronously) and B
// (synchronously, since the first gemm reads B_s: a barrier before it) and
// multiplies them. Before the fix the barrier before the copy of B dropped
// A_s's pending copy, and the second gemm read A_s before it landed.
//
// RUN: %python %S/Inputs/gemm.py --emit main --M 20 --N 12 --K 37 > %t.main.mlir
// RUN: cat %s %t.main.mlir | tile-opt --tile-pipeline-planning --tile-software-pipeline \
// RUN:   | FileCheck %s --check-prefix=IR
// RUN: cat %s %t.main.mlir | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// The same in two stages, a copy of C_l into C (overwritten after the loop)
// making the second.
// RUN: sed -e 's/num_stages = 1/stage = [0, 0, 0, 0, 1] order = [1, 2, 3, 4, 0]/' \
// RUN:     -e 's|^      // STAGE2: ||' %s | cat - %t.main.mlir \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 240{{$}}

// IR:      scf.for
// IR:        tile.gemm %[[XS:.*]], %[[BS:.*]], %{{.*}} :
// IR-NEXT:   arith.muli
// IR-NEXT:   tile.copy_async %{{.*}} to %[[AS:.*]] :
// IR-NEXT:   tile.commit_group
// IR-NEXT:   tile.barrier
// IR-NEXT:   tile.copy %{{.*}} to %[[BS]] :
// IR-NEXT:   tile.wait_group 0
// IR-NEXT:   tile.barrier
// IR-NEXT:   tile.gemm %[[AS]], %[[BS]]

!A = memref<20x37xf16>
!B = memref<37x12xf16>
!C = memref<20x12xf16>
!As = memref<16x8xf16, #gpu.address_space<workgroup>>
!Bs = memref<8x8xf16, #gpu.address_space<workgroup>>
!Cl = memref<16x8xf32, #gpu.address_space<private>>

func.func @gemm(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c2, %c2) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %X_s = tile.alloc_shared : !As
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.clear %B_s : !Bs
    tile.clear %X_s : !As
    %row = arith.muli %by, %c16 : index
    %col = arith.muli %bx, %c8 : index
    tile.pipelined %c0 to %c5 step %c1 num_stages = 1 as (%k) {
      %ko = arith.muli %k, %c8 : index
      tile.gemm %X_s, %B_s, %C_l : !As, !Bs, !Cl
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      // STAGE2: tile.copy %C_l to %C[%row, %col] : !Cl to !C
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}
