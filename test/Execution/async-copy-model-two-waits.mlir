// A copy in flight stays in flight across a wait that retires only older
// groups, and what reaches its elements meanwhile races with it on a GPU:
// such a wait lands the older copies and stores NaN again where the copies
// still in flight will write, and the model used to forget that an element
// had been written, landing the newer copy's data as if correct.
//
// Two copies onto X in groups of their own, retired by two waits: PTX orders
// no two cp.async that no wait separates, so X may end with either copy's
// data. The model lands NaN.
// RUN: tile-opt %s --tile-lower-to-cpu=check-barriers=true --convert-linalg-to-loops %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=RACE
// RACE:      data =
// RACE-NEXT: {{\[}}[nan, nan, nan, nan],
//
// A clear of X while the second copy is in flight (the first copy goes to U
// instead), then a wait for the first: NaN too, from the model alone.
// RUN: sed -e 's|%G\[%c0, %c0\] to %X|%G[%c0, %c0] to %U|' -e 's|// the write in flight|tile.clear %X : !S|' %s \
// RUN:   | tile-opt --tile-lower-to-cpu --convert-linalg-to-loops %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=RACE
//
// With the first copy waited for before the second is issued, X holds the
// second copy's data (G's columns 8 to 11 hold 2).
// RUN: sed 's|// the first wait|tile.wait_group 0|' %s \
// RUN:   | tile-opt --tile-lower-to-cpu=check-barriers=true --convert-linalg-to-loops %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=ORDERED
// ORDERED:      data =
// ORDERED-NEXT: {{\[}}[2, 2, 2, 2],

!G = memref<8x16xf32>
!S = memref<8x8xf32, #gpu.address_space<workgroup>>
!O = memref<8x8xf32>

func.func @k(%G: !G, %O: !O) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %X = tile.alloc_shared : !S
    %U = tile.alloc_shared : !S
    tile.copy_async %G[%c0, %c0] to %X : !G to !S
    tile.commit_group
    // the first wait
    tile.copy_async %G[%c0, %c8] to %X : !G to !S
    tile.commit_group
    // the write in flight
    tile.wait_group 1
    tile.wait_group 0
    tile.barrier
    tile.copy %X to %O : !S to !O
  }
  return
}

func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %G = memref.alloc() : !G
  %O = memref.alloc() : !O
  %left = memref.subview %G[0, 0] [8, 8] [1, 1] : !G to memref<8x8xf32, strided<[16, 1]>>
  %right = memref.subview %G[0, 8] [8, 8] [1, 1] : !G to memref<8x8xf32, strided<[16, 1], offset: 8>>
  linalg.fill ins(%one : f32) outs(%left : memref<8x8xf32, strided<[16, 1]>>)
  linalg.fill ins(%two : f32) outs(%right : memref<8x8xf32, strided<[16, 1], offset: 8>>)
  call @k(%G, %O) : (!G, !O) -> ()
  %s = memref.subview %O[0, 0] [2, 4] [1, 1] : !O to memref<2x4xf32, strided<[8, 1]>>
  %u = memref.cast %s : memref<2x4xf32, strided<[8, 1]>> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}
