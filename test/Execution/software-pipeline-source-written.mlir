// CPU execution of a pipelined loop whose statements write a tensor that a
// stage-0 copy reads: each step first zeroes the K tile of A that the step
// before loaded (k - 1 < 0 is outside A: not written), then loads its own.
// An asynchronous copy reads its source any time until its wait, after the
// zeroing of a later step (num_stages = 3) or of its own step (num_stages =
// 1), so a copy from A stays synchronous; B's is still asynchronous. Before
// the fix the pipelined kernel read zeros.
//
// RUN: %python %S/Inputs/gemm.py --emit main --M 32 --N 32 --K 64 > %t.main.mlir
// RUN: cat %s %t.main.mlir | tile-opt --tile-pipeline-planning --tile-software-pipeline \
// RUN:   | FileCheck %s --check-prefix=IR
// RUN: cat %s %t.main.mlir | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: sed 's/num_stages = 3/num_stages = 1/' %s | cat - %t.main.mlir \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 1024{{$}}

// IR:     func.func @gemm(%[[A:.*]]: memref<32x64xf16>, %[[B:.*]]: memref<64x32xf16>,
// IR-NOT: tile.copy_async %[[A]]
// IR:     tile.copy_async %[[B]]
// IR-NOT: tile.copy_async %[[A]]

!A = memref<32x64xf16>
!B = memref<64x32xf16>
!C = memref<32x32xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>
!Zf = memref<32x16xf16, #gpu.address_space<private>>
!Bs = memref<16x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<32x32xf32, #gpu.address_space<private>>

func.func @gemm(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %bk = arith.constant 16 : index
  tile.kernel grid(%c1, %c1) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %Z_f = tile.alloc_fragment : !Zf
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.clear %Z_f : !Zf
    tile.pipelined %c0 to %c4 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %bk : index
      %kp = arith.subi %ko, %bk : index
      tile.copy %Z_f to %A[%c0, %kp] : !Zf to !A
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C : !Cl to !C
  }
  return
}
