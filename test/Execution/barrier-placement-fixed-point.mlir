// Barrier placement in a serial loop finds the state at the top of the body
// as a fixed point: what the body leaves pending flows into the next
// iteration. Here a larger entry state makes a barrier come earlier, which
// leaves less pending at the exit; restarting each round from the state
// before the loop made the rounds alternate between two states, and a cap of
// 8 rounds stopped in the one that misses the back edge: o5 reads A and the
// next iteration's o1 overwrites it with no barrier in between (NaN in rows
// 0-2 under check-barriers, a race on a GPU). The entry state now only grows.
//
// RUN: tile-opt --tile-software-pipeline %s | FileCheck %s --check-prefix=PLACED
// PLACED:      scf.for
// PLACED-NEXT:   tile.copy %arg0 to %[[C:.*]] :
// PLACED-NEXT:   tile.copy %[[E:.*]] to %[[A:.*]] :
// PLACED-NEXT:   tile.barrier
// PLACED-NEXT:   tile.copy %[[C]] to
// PLACED-NEXT:   tile.copy %[[C]] to
// PLACED-NEXT:   tile.copy %[[C]] to %[[E]] :
// PLACED-NEXT:   tile.barrier
// PLACED-NEXT:   tile.copy %[[A]][
// PLACED-NEXT:   tile.copy %[[E]] to
// PLACED-NEXT:   tile.barrier
// PLACED-NEXT: }
//
// RUN: tile-opt --tile-software-pipeline %s \
// RUN:   | tile-opt --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// The last iteration's A is E of the one before (G), and B is A one row up.
// CHECK:      data =
// CHECK-NEXT: {{\[}}[4, 5, 6, 7],
// CHECK-NEXT: [8, 9, 10, 11],
// CHECK-NEXT: [12, 13, 14, 15],
// CHECK-NEXT: [0, 0, 0, 0]]

!G = memref<4x4xf32>
!S = memref<4x4xf32, #gpu.address_space<workgroup>>

func.func @k(%G: !G, %O: !G) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %A = tile.alloc_shared : !S
    %B = tile.alloc_shared : !S
    %C = tile.alloc_shared : !S
    %E = tile.alloc_shared : !S
    %F = tile.alloc_shared : !S
    scf.for %i = %c0 to %c3 step %c1 {
      tile.copy %G to %C : !G to !S                 // o0: writes C
      tile.copy %E to %A : !S to !S                 // o1: reads E, writes A
      tile.copy %C to %F : !S to !S                 // o2: reads C, writes F
      tile.copy %C to %B : !S to !S                 // o3: reads C, writes B
      tile.copy %C to %E : !S to !S                 // o4: reads C, writes E
      tile.copy %A[%c1, %c0] to %B : !S to !S       // o5: reads A, writes B
      tile.copy %E to %F : !S to !S                 // o6: reads E, writes F
    }
    tile.barrier
    tile.copy %B to %O : !S to !G
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
