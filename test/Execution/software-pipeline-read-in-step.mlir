// CPU execution of pipelined loops where a stage-0 statement reads a shared
// tile that an asynchronous copy of the same step filled, and another
// asynchronous copy follows the read: the step must commit the first copy's
// group before it waits for it (cp.async.wait_group only waits for
// committed groups). The kernel copies A and B into shared tiles and each
// on into a fragment before the gemm, with num_stages = 1 and with every
// statement in stage 0 in another order. Before the fix the wait came
// before any commit and the fragment copies read stale tiles.
//
// RUN: %python %S/Inputs/gemm.py --emit main --M 20 --N 12 --K 40 > %t.main.mlir
// RUN: cat %s %t.main.mlir | tile-opt --tile-pipeline-planning --tile-software-pipeline \
// RUN:   | FileCheck %s --check-prefix=IR
// RUN: cat %s %t.main.mlir | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: sed 's/num_stages = 1/stage = [0, 0, 0, 0, 0] order = [0, 1, 2, 3, 4]/' %s | cat - %t.main.mlir \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: sed 's/num_stages = 1/stage = [0, 0, 0, 0, 0] order = [0, 2, 1, 3, 4]/' %s | cat - %t.main.mlir \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 240{{$}}

// IR:      scf.for
// IR:        tile.copy_async %{{.*}} to %[[AS:.*]] :
// IR-NEXT:   tile.commit_group
// IR-NEXT:   tile.wait_group 0
// IR-NEXT:   tile.barrier
// IR-NEXT:   tile.copy %[[AS]] to
// IR-NEXT:   tile.copy_async %{{.*}} to %[[BS:.*]] :
// IR-NEXT:   tile.commit_group
// IR-NEXT:   tile.wait_group 0
// IR-NEXT:   tile.barrier
// IR-NEXT:   tile.copy %[[BS]] to

!A = memref<20x40xf16>
!B = memref<40x12xf16>
!C = memref<20x12xf16>
!As = memref<16x8xf16, #gpu.address_space<workgroup>>
!Bs = memref<8x8xf16, #gpu.address_space<workgroup>>
!Af = memref<16x8xf16, #gpu.address_space<private>>
!Bf = memref<8x8xf16, #gpu.address_space<private>>
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
    %A_f = tile.alloc_fragment : !Af
    %B_f = tile.alloc_fragment : !Bf
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %c16 : index
    %col = arith.muli %bx, %c8 : index
    tile.pipelined %c0 to %c5 step %c1 num_stages = 1 as (%k) {
      %ko = arith.muli %k, %c8 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %A_s to %A_f : !As to !Af
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.copy %B_s to %B_f : !Bs to !Bf
      tile.gemm %A_f, %B_f, %C_l : !Af, !Bf, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}
