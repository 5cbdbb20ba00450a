// CPU execution of pipelined loops whose statements hold regions: the gemm
// in both branches of an scf.if on the parity of k, and the copy of B under
// an scf.if that always holds. Planning keeps such statements in the last
// stage (a copy inside one is no prefetch copy; it stays synchronous); the
// rewrite moves each as a whole, re-creating what its regions use (k, the
// versioned tiles) in every step. The product must match the plain loop's,
// for num_stages 1 to 3 and a hand-given schedule.
//
// RUN: %python %S/Inputs/gemm.py --emit main --M 20 --N 12 --K 37 > %t.main.mlir
// RUN: cat %s %t.main.mlir | tile-opt --tile-pipeline-planning --tile-software-pipeline \
// RUN:   | FileCheck %s --check-prefix=IR
// RUN: cat %s %t.main.mlir | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: cat %s %t.main.mlir | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: sed 's/num_stages = 3/num_stages = 1/' %s | cat - %t.main.mlir \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: sed 's/num_stages = 3/num_stages = 2/' %s | cat - %t.main.mlir \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: sed 's/num_stages = 3/stage = [0, 1, 1] order = [0, 1, 2]/' %s | cat - %t.main.mlir \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 240{{$}}

// At depth 3 the copy of A is issued two steps ahead; the two scf.if
// statements run in the last stage, on the version of A_s its step reads.
// IR:      scf.for
// IR:        tile.copy_async
// IR:        tile.commit_group
// IR:        scf.if
// IR-NEXT:     tile.copy
// IR:        scf.if
// IR-NEXT:     tile.gemm %subview
// IR-NEXT:   } else {
// IR-NEXT:     tile.gemm %subview
// IR:      tile.steady_state

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
    tile.pipelined %c0 to %c5 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c8 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      %inside = arith.cmpi ult, %k, %c5 : index
      scf.if %inside {
        tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      }
      %parity = arith.remui %k, %c2 : index
      %even = arith.cmpi eq, %parity, %c0 : index
      scf.if %even {
        tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      } else {
        tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      }
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}
