// CPU execution of pipelined loops whose single-version shared tiles are
// reached through views: the copies into them become asynchronous, so the
// gemm must wait for them and every thread must pass a barrier first, just as
// with the tiles themselves. One kernel sums K in three loops:
//  - k in [0, 2) with num_stages = 3 over A_s and B_s, which it
//    multi-buffers;
//  - k in [2, 3) with num_stages = 1 over the same tiles: rewriting the
//    first loop leaves this one using views of the multi-buffered tiles;
//  - k in [3, 5) with num_stages = 1 over subviews (in the last RUN line,
//    casts) of two other tiles, made before the loop.
// Before the fix the last two loops ran their gemms with no wait and no
// barrier.
//
// RUN: %python %S/Inputs/gemm.py --emit main --M 20 --N 12 --K 40 > %t.main.mlir
// RUN: cat %s %t.main.mlir | tile-opt --tile-pipeline-planning --tile-software-pipeline \
// RUN:   | FileCheck %s --check-prefix=IR
// RUN: cat %s %t.main.mlir | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: sed -e 's/= memref.subview %\([AB]2_s\).*: \(![AB]s\) to .*/= memref.cast %\1 : \2 to \2/' %s | cat - %t.main.mlir \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline | FileCheck %s --check-prefix=IR
// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 240{{$}}

// The first loop is all prologue and epilogue (2 trips, depth 3); in each
// of the other two, the gemm waits for its step's copies and a barrier.
// IR:      tile.kernel
// IR:      scf.for
// IR:        tile.copy_async
// IR-NEXT:   tile.copy_async
// IR-NEXT:   tile.commit_group
// IR-NEXT:   tile.wait_group 0
// IR-NEXT:   tile.barrier
// IR-NEXT:   tile.gemm
// IR:      scf.for
// IR:        tile.copy_async
// IR-NEXT:   tile.copy_async
// IR-NEXT:   tile.commit_group
// IR-NEXT:   tile.wait_group 0
// IR-NEXT:   tile.barrier
// IR-NEXT:   tile.gemm

!A = memref<20x40xf16>
!B = memref<40x12xf16>
!C = memref<20x12xf16>
!As = memref<16x8xf16, #gpu.address_space<workgroup>>
!Bs = memref<8x8xf16, #gpu.address_space<workgroup>>
!Cl = memref<16x8xf32, #gpu.address_space<private>>

func.func @gemm(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c2, %c2) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %A2_s = tile.alloc_shared : !As
    %B2_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %c16 : index
    %col = arith.muli %bx, %c8 : index
    tile.pipelined %c0 to %c2 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c8 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.pipelined %c2 to %c3 step %c1 num_stages = 1 as (%k) {
      %ko = arith.muli %k, %c8 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    %A_v = memref.subview %A2_s[0, 0] [16, 8] [1, 1] : !As to !As
    %B_v = memref.subview %B2_s[0, 0] [8, 8] [1, 1] : !Bs to !Bs
    tile.pipelined %c3 to %c5 step %c1 num_stages = 1 as (%k) {
      %ko = arith.muli %k, %c8 : index
      tile.copy %A[%row, %ko] to %A_v : !A to !As
      tile.copy %B[%ko, %col] to %B_v : !B to !Bs
      tile.gemm %A_v, %B_v, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}
