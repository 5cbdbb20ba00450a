// check-barriers tells threads apart by the op and the element's position
// in the op's access: two copies of one structure (the same op, types and
// attributes) but other offsets hand elements from thread to thread too.
// Here the second copy reads S2 one row below where the first wrote it, and
// the barrier between them is missing. Before, the two copies counted as
// one thread (one op structure) and the race went unreported.
//
// RUN: tile-opt --tile-lower-to-cpu=check-barriers=true %s %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=RACE
// RACE:      data =
// RACE-NEXT: {{\[}}[nan, nan, nan, nan],
// RACE-NEXT: [nan, nan, nan, nan],
// RACE-NEXT: [nan, nan, nan, nan],
// RACE-NEXT: [0, 0, 0, 0]]
//
// With the barrier: rows 1-3 of G, and zeros below its last row.
// RUN: sed 's|// the missing barrier|tile.barrier //|' %s \
// RUN:   | tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=SYNCED
// SYNCED:      data =
// SYNCED-NEXT: {{\[}}[4, 5, 6, 7],
// SYNCED-NEXT: [8, 9, 10, 11],
// SYNCED-NEXT: [12, 13, 14, 15],
// SYNCED-NEXT: [0, 0, 0, 0]]

!G = memref<4x4xf32>
!S = memref<4x4xf32, #gpu.address_space<workgroup>>

func.func @k(%G: !G, %O: !G) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %S1 = tile.alloc_shared : !S
    %S2 = tile.alloc_shared : !S
    tile.copy %G to %S1 : !G to !S
    tile.barrier
    // The thread at position (i, j) of the extent writes S2[i, j] ...
    tile.copy %S1[%c0, %c0] to %S2[%c0, %c0] : !S to !S
    // the missing barrier: the thread at (i, j) reads S2[i + 1, j], which
    // the thread at (i + 1, j) wrote.
    tile.copy %S2[%c1, %c0] to %S1[%c0, %c0] : !S to !S
    tile.barrier
    tile.copy %S1 to %O : !S to !G
  }
  return
}
func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %G = memref.alloc() : !G
  %O = memref.alloc() : !G
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %a = arith.muli %i, %c4 : index
      %b = arith.addi %a, %j : index
      %x = arith.index_cast %b : index to i32
      %f = arith.sitofp %x : i32 to f32
      memref.store %f, %G[%i, %j] : !G
    }
  }
  call @k(%G, %O) : (!G, !G) -> ()
  %u = memref.cast %O : !G to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
