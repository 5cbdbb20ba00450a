// tile-lower-to-cpu's check-barriers on a tensor in global memory that a
// block hands from thread to thread: the accumulator is stored to C, read
// back into another fragment and stored again (each tile op spreads C's
// elements over the threads its own way). tile-software-pipeline puts a
// barrier after the store (read after write) and one after the read
// (write after read); without either the check turns C's elements NaN
// (lib/Conversion/TileToCPU/BarrierCheck.cpp). One CPU thread computes the
// right numbers without them.
//
// RUN: %python %S/Inputs/gemm.py --emit main --M 64 --N 48 --K 64 > %t.main.mlir
// RUN: cat %s %t.main.mlir | tile-opt --tile-pipeline-planning --tile-software-pipeline > %t.synced.mlir
// RUN: FileCheck %s --check-prefix=PLACED < %t.synced.mlir
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %t.synced.mlir %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=SYNCED
// SYNCED:      max_abs_error: 0{{$}}
// SYNCED-NEXT: unwritten: 0{{$}}
// SYNCED-NEXT: checked: 3072{{$}}
//
// PLACED:      tile.copy %[[ACC:.*]] to %[[C:.*]][%[[ROW:.*]], %[[COL:.*]]] : memref<32x16xf32, #gpu.address_space<private>> to memref<64x48xf16>
// PLACED-NEXT: tile.barrier
// PLACED-NEXT: tile.copy %[[C]][%[[ROW]], %[[COL]]] to %[[BACK:.*]] : memref<64x48xf16> to memref<32x16xf32, #gpu.address_space<private>>
// PLACED-NEXT: tile.barrier
// PLACED-NEXT: tile.copy %[[BACK]] to %[[C]][%[[ROW]], %[[COL]]]
//
// Read after write: the barrier after the store dropped.
// RUN: awk '/tile.barrier/ && prev ~ /private>> to memref<64x48xf16>$/ { prev = $0; next } { print; prev = $0 }' \
// RUN:   %t.synced.mlir > %t.raw.mlir
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %t.raw.mlir %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=RACE
// RUN: tile-opt --tile-lower-to-cpu %t.raw.mlir %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=SYNCED
// RACE: max_abs_error: nan
//
// Write after read: the barrier after the read dropped.
// RUN: awk '/tile.barrier/ && prev ~ /memref<64x48xf16> to memref<32x16xf32/ { prev = $0; next } { print; prev = $0 }' \
// RUN:   %t.synced.mlir > %t.war.mlir
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %t.war.mlir %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=RACE
// RUN: tile-opt --tile-lower-to-cpu %t.war.mlir %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=SYNCED
//
// Each mutation removes exactly one barrier.
// RUN: test $(grep -c tile.barrier %t.synced.mlir) -eq $(( $(grep -c tile.barrier %t.raw.mlir) + 1 ))
// RUN: test $(grep -c tile.barrier %t.synced.mlir) -eq $(( $(grep -c tile.barrier %t.war.mlir) + 1 ))

!A = memref<64x64xf16>
!B = memref<64x48xf16>
!C = memref<64x48xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>
!Bs = memref<16x16xf16, #gpu.address_space<workgroup>>
!Cl = memref<32x16xf32, #gpu.address_space<private>>

func.func @gemm(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c3, %c2) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    %C_r = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %c32 : index
    %col = arith.muli %bx, %c16 : index
    tile.pipelined %c0 to %c4 step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
    tile.copy %C[%row, %col] to %C_r : !C to !Cl
    tile.copy %C_r to %C[%row, %col] : !Cl to !C
  }
  return
}
