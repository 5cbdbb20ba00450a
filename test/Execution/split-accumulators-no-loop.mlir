// A GEMM without a reduction loop (K is one tile) that fills its tiles
// before it clears its accumulator: tile-split-accumulators computes the
// 128x64 accumulator (256 registers a thread at 32 threads) in two parts of
// 64x64, and each part copies its own rows of A. In blocks of their own
// (the grid's second dimension doubles) and in a loop, every element must
// match the plain loop nest's exactly; a part that kept the whole tile's
// copy of A, or the first part's rows, gives wrong numbers or leaves rows
// unwritten.
//
// RUN: %python %S/Inputs/gemm.py --emit main --M 100 --N 200 --K 32 > %t.main.mlir
// RUN: cat %s %t.main.mlir | tile-opt --tile-split-accumulators=chip=sm_90a \
// RUN:     --tile-lower-to-cpu %tile_cpu_to_llvm 2>%t.blocks | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=BLOCKS < %t.blocks
// RUN: cat %s %t.main.mlir | tile-opt --tile-split-accumulators="chip=sm_90a blocks=false" \
// RUN:     --tile-lower-to-cpu %tile_cpu_to_llvm 2>%t.loop | %tile_cpu_runner | FileCheck %s
// RUN: FileCheck %s --check-prefix=LOOP < %t.loop

// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// BLOCKS: remark: this 128x64 accumulator {{.*}} it is computed in 2 parts of 64x64, each in a block of its own
// LOOP:   remark: this 128x64 accumulator {{.*}} it is computed in 2 parts of 64x64, one after another

!A = memref<100x32xf16>
!B = memref<32x200xf16>
!C = memref<100x200xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x64xf32, #gpu.address_space<private>>

func.func @gemm(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c4, %c1) threads(32) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    %col = arith.muli %bx, %c64 : index
    tile.copy %A[%c0, %c0] to %A_s : !A to !As
    tile.copy %B[%c0, %col] to %B_s : !B to !Bs
    tile.clear %C_l : !Cl
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C[%c0, %col] : !Cl to !C
  }
  return
}
