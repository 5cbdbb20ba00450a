// A tile lives as long as its thread block, wherever in the kernel it is
// allocated: here one allocated in either branch of an scf.if and yielded
// out of it is filled with ones, and a tile allocated after it with twos.
// The first tile, copied out, must still hold ones. The CPU lowering used to
// free the scf.if's tile at the end of its branch, and the second allocation
// reused its memory (the output held twos); now a tile is allocated in the
// kernel body, before the op that holds its allocation, and freed at the
// body's end.
//
// RUN: tile-opt %s --tile-lower-to-cpu | FileCheck %s --check-prefix=IR
// RUN: tile-opt %s --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// CHECK: 1
// CHECK-NEXT: 1

// IR-LABEL: func.func @k
// IR:       scf.for
// IR:         memref.alloc() : memref<8x8xf32>
// IR:         memref.alloc() : memref<8x8xf32>
// IR-NOT:     memref.dealloc
// IR:         scf.if
// IR-NOT:     memref.dealloc
// IR:         memref.alloc() : memref<8x8xf32>
// IR-NOT:     memref.dealloc
// IR:         memref.dealloc
// IR-NEXT:    memref.dealloc
// IR-NEXT:    memref.dealloc
// IR-NEXT:  }

!S = memref<8x8xf32, #gpu.address_space<workgroup>>

func.func @k(%G: memref<8x8xf32>, %H: memref<8x8xf32>, %O: memref<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %first = arith.cmpi eq, %bx, %c0 : index
    %S = scf.if %first -> !S {
      %a = tile.alloc_shared : !S
      scf.yield %a : !S
    } else {
      %b = tile.alloc_shared : !S
      scf.yield %b : !S
    }
    %T = tile.alloc_shared : !S
    tile.copy %G to %S : memref<8x8xf32> to !S
    tile.copy %H to %T : memref<8x8xf32> to !S
    tile.copy %S to %O : !S to memref<8x8xf32>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %G = memref.alloc() : memref<8x8xf32>
  %H = memref.alloc() : memref<8x8xf32>
  %O = memref.alloc() : memref<8x8xf32>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      memref.store %one, %G[%i, %j] : memref<8x8xf32>
      memref.store %two, %H[%i, %j] : memref<8x8xf32>
    }
  }
  call @k(%G, %H, %O) : (memref<8x8xf32>, memref<8x8xf32>, memref<8x8xf32>) -> ()
  %x = memref.load %O[%c0, %c0] : memref<8x8xf32>
  vector.print %x : f32
  %y = memref.load %O[%c7, %c7] : memref<8x8xf32>
  vector.print %y : f32
  memref.dealloc %G : memref<8x8xf32>
  memref.dealloc %H : memref<8x8xf32>
  memref.dealloc %O : memref<8x8xf32>
  return
}
