// With the asynchronous copies modelled, a tile.copy_async lands at its wait
// as a tile.copy, and check-barriers counts that write as the copy_async's:
// the threads that issued the copy.
//
// The same copy issued again after its own wait (no barrier needed: each
// thread rewrites the elements it wrote) keeps the copied values. The
// landed write once counted as another op's, so the next issue met it and
// the tile read NaN.
// RUN: tile-opt %s --tile-lower-to-cpu=check-barriers=true --convert-linalg-to-loops %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=REISSUED
// REISSUED:      data =
// REISSUED-NEXT: {{\[}}[1, 1, 1, 1],
// REISSUED-NEXT: [1, 1, 1, 1]]
//
// So does the loop after a copy of the same structure but another attribute
// (another op number), waited for and followed by a barrier: each landed
// copy keeps its own op's number.
// RUN: sed -e 's|// earlier: ||' -e 's|%G to %B : !G to !S // in the loop|%G to %B {note} : !G to !S|' %s \
// RUN:   | tile-opt --tile-lower-to-cpu=check-barriers=true --convert-linalg-to-loops %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=REISSUED
//
// A synchronous copy onto the landed elements without a barrier between
// them is another op's write (tile-software-pipeline puts a barrier there):
// NaN.
// RUN: sed -e 's|// the synchronous copy|tile.copy %G to %B : !G to !S|' %s \
// RUN:   | tile-opt --tile-lower-to-cpu=check-barriers=true --convert-linalg-to-loops %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=RACE
// RACE:      data =
// RACE-NEXT: {{\[}}[nan, nan, nan, nan],
// RACE-NEXT: [nan, nan, nan, nan]]

!G = memref<16x16xf32>
!S = memref<16x16xf32, #gpu.address_space<workgroup>>

func.func @k(%G: !G, %O: !G) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %B = tile.alloc_shared : !S
    // earlier: tile.copy_async %G to %B : !G to !S
    // earlier: tile.commit_group
    // earlier: tile.wait_group 0
    // earlier: tile.barrier
    scf.for %i = %c0 to %c2 step %c1 {
      tile.copy_async %G to %B : !G to !S // in the loop
      tile.commit_group
      tile.wait_group 0
    }
    // the synchronous copy
    tile.barrier
    tile.copy %B to %O : !S to !G
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %one = arith.constant 1.0 : f32
  %G = memref.alloc() : !G
  %O = memref.alloc() : !G
  linalg.fill ins(%one : f32) outs(%G : !G)
  call @k(%G, %O) : (!G, !G) -> ()
  %s = memref.subview %O[0, 0] [2, 4] [1, 1] : !G to memref<2x4xf32, strided<[16, 1]>>
  %u = memref.cast %s : memref<2x4xf32, strided<[16, 1]>> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
