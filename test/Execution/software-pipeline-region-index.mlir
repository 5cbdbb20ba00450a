// CPU execution of a pipelined loop whose copies take their K offset from a
// side-effect-free op with a region (an scf.if that yields %ko, another value
// of the loop body). The rewrite re-creates such values in every step; it
// must re-create what the region uses too. Before the fix the cloned scf.if
// still yielded the original %ko, which the rewrite erased (a crash).
//
// RUN: %python %S/Inputs/gemm.py --emit main --M 20 --N 12 --K 37 > %t.main.mlir
// RUN: cat %s %t.main.mlir | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: sed 's/num_stages = 1/num_stages = 3/' %s | cat - %t.main.mlir \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 240{{$}}

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
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %c16 : index
    %col = arith.muli %bx, %c8 : index
    tile.pipelined %c0 to %c5 step %c1 num_stages = 1 as (%k) {
      %ko = arith.muli %k, %c8 : index
      %inside = arith.cmpi ult, %k, %c5 : index
      %kc = scf.if %inside -> index {
        scf.yield %ko : index
      } else {
        scf.yield %c0 : index
      }
      tile.copy %A[%row, %kc] to %A_s : !A to !As
      tile.copy %B[%kc, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}
