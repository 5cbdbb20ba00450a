// An asynchronous copy may read its source any time before the wait that
// retires it, and a barrier does not order that read: here the block
// overwrites G (the copy's source) with zeros while the copy from G is in
// flight, after a barrier, so on a GPU the tile gets 1s or 0s. The CPU model
// lands the copy as NaN where the source changed since the issue. Before, it
// landed what G held at the wait (all 0, with or without check-barriers), as
// if the kernel were correct.
//
// RUN: tile-opt %s --tile-lower-to-cpu --convert-linalg-to-loops %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=RACE
// RUN: tile-opt %s --tile-lower-to-cpu=check-barriers=true --convert-linalg-to-loops %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=RACE
// RACE:      data =
// RACE-NEXT: {{\[}}[nan, nan, nan, nan],
// RACE-NEXT: [nan, nan, nan, nan]]
//
// The same write after the wait is ordered after the copy: the tile holds G's
// 1s.
// RUN: sed -e '/the write in flight/d' -e 's|// the write after the wait|tile.copy %Z to %G : !F to !G|' %s \
// RUN:   | tile-opt --tile-lower-to-cpu=check-barriers=true --convert-linalg-to-loops %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=ORDERED
// ORDERED:      data =
// ORDERED-NEXT: {{\[}}[1, 1, 1, 1],
// ORDERED-NEXT: [1, 1, 1, 1]]

!G = memref<16x16xf32>
!S = memref<16x16xf32, #gpu.address_space<workgroup>>
!F = memref<16x16xf32, #gpu.address_space<private>>

func.func @k(%G: !G, %O: !G) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %T = tile.alloc_shared : !S
    %Z = tile.alloc_fragment : !F
    tile.copy_async %G to %T : !G to !S
    tile.commit_group
    tile.barrier
    tile.clear %Z : !F
    tile.copy %Z to %G : !F to !G // the write in flight
    tile.barrier
    tile.wait_group 0
    tile.barrier
    // the write after the wait
    tile.copy %T to %O : !S to !G
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
