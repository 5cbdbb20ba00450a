// check-barriers remembers more than the last reader of an element: R1 and
// R2 read S in one epoch (R1's threads lay S out as a store to global
// memory, R2's as a copy into another shared tile), and W, a copy of R2's
// structure (so R2's threads), then writes S with no barrier between: W
// races with R1's threads, so S reads as NaN. Only R2's stamp was kept, a
// read by W's own threads, and the race went unseen.
// RUN: tile-opt %s --tile-lower-to-cpu=check-barriers=true --convert-linalg-to-loops %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=RACE
// RACE:      data =
// RACE-NEXT: {{\[}}[nan, nan, nan, nan],
//
// With the barrier, S holds T's 2s.
// RUN: sed 's|// the barrier|tile.barrier|' %s \
// RUN:   | tile-opt --tile-lower-to-cpu=check-barriers=true --convert-linalg-to-loops %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=SYNCED
// SYNCED:      data =
// SYNCED-NEXT: {{\[}}[2, 2, 2, 2],
//
// R2 alone (R1 gone): W's threads are the readers, no race.
// RUN: sed '/R1$/d' %s \
// RUN:   | tile-opt --tile-lower-to-cpu=check-barriers=true --convert-linalg-to-loops %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=SYNCED

!G = memref<8x8xf32>
!S = memref<8x8xf32, #gpu.address_space<workgroup>>

func.func @k(%G: !G, %H: !G, %O1: !G, %O2: !G) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %S = tile.alloc_shared : !S
    %T = tile.alloc_shared : !S
    %U = tile.alloc_shared : !S
    tile.copy %G to %S : !G to !S
    tile.copy %H to %T : !G to !S
    tile.barrier
    tile.copy %S to %O1 : !S to !G // R1
    tile.copy %S to %U : !S to !S
    // the barrier
    tile.copy %T to %S : !S to !S
    tile.barrier
    tile.copy %S to %O2 : !S to !G
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %G = memref.alloc() : !G
  %H = memref.alloc() : !G
  %O1 = memref.alloc() : !G
  %O2 = memref.alloc() : !G
  linalg.fill ins(%one : f32) outs(%G : !G)
  linalg.fill ins(%two : f32) outs(%H : !G)
  call @k(%G, %H, %O1, %O2) : (!G, !G, !G, !G) -> ()
  %s = memref.subview %O2[0, 0] [2, 4] [1, 1] : !G to memref<2x4xf32, strided<[8, 1]>>
  %u = memref.cast %s : memref<2x4xf32, strided<[8, 1]>> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
