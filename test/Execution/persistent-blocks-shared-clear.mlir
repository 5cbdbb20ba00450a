// CPU execution of tile-persistent-blocks on a kernel whose head clears a
// shared tile that an asynchronous prologue copy then partly fills. The
// pass issues the next tile's prologue copies before the loop comes round
// to the head again, so a shared clear cannot stay in the head: it would
// wipe the copied data (max error 46 before). Only fragment clears do.
// The kernel has no barrier between the clear and the copy, which on a GPU
// is a race of its own (check-barriers flags it): a barrier there would end
// the head, and the pass never had the bug.
//
// RUN: %python %S/Inputs/gemm.py --emit main --M 64 --N 32 --K 8 > %t.main.mlir
// RUN: cat %s %t.main.mlir | tile-opt --tile-persistent-blocks=blocks=2 --tile-lower-to-cpu=model-async-copies=false %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: cat %s %t.main.mlir | tile-opt --tile-persistent-blocks=blocks=2 --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 2048{{$}}

!A = memref<64x8xf16>
!B = memref<8x32xf16>
!C = memref<64x32xf16>
!As = memref<16x16xf16, #gpu.address_space<workgroup>>
!Bs = memref<16x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<16x32xf32, #gpu.address_space<private>>
func.func @gemm(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c4) threads(128) as (%by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %A_s : !As
    %row = arith.muli %by, %c16 : index
    %A_k = memref.subview %A_s[0, 0] [16, 8] [1, 1] : !As to memref<16x8xf16, strided<[16, 1]>, #gpu.address_space<workgroup>>
    tile.copy_async %A[%row, %c0] to %A_k : !A to memref<16x8xf16, strided<[16, 1]>, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.clear %C_l : !Cl
    tile.copy %B[%c0, %c0] to %B_s : !B to !Bs
    tile.wait_group 0
    tile.barrier
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C[%row, %c0] : !Cl to !C
  }
  return
}
