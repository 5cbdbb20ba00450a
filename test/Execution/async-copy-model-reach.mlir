// The CPU model of asynchronous copies (AsyncCopyModel.cpp) lands a copy
// only at the wait that retires its group, so a missing wait gives wrong
// numbers. It used to give up (land the copy at once, hiding the missing
// wait) in two cases that this kernel combines: a wait before the tile's
// allocation, which the tile does not dominate (it runs before the copy and
// retires nothing of it), and a destination reached through memref.cast.
// The kernel copies ones into a tile of zeros and copies the tile out.
// Until a copy's wait, the model fills what it will write with NaN.
//
// With the wait after the copy: the ones arrive.
// RUN: tile-opt %s --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s --check-prefix=WAITED
// WAITED: 1
//
// Without it the copy never lands, through the cast or through a subview:
// the tile holds the NaN stored where the copy was issued.
// RUN: sed '/the wait/d' %s | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s --check-prefix=MISSING
// RUN: sed -e '/the wait/d' -e '/the cast/d' -e 's|// the subview: ||' %s \
// RUN:   | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s --check-prefix=MISSING
// MISSING: nan

!S = memref<8x8xf16, #gpu.address_space<workgroup>>
!Sv = memref<8x8xf16, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>

func.func @k(%G: memref<8x8xf16>, %O: memref<8x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    tile.wait_group 0
    %tile = tile.alloc_shared : !S
    tile.clear %tile : !S
    %view = memref.cast %tile : !S to !Sv // the cast
    // the subview: %view = memref.subview %tile[%c0, 0] [8, 8] [1, 1] : !S to !Sv
    tile.copy_async %G to %view : memref<8x8xf16> to !Sv
    tile.commit_group
    tile.wait_group 0 // the wait
    tile.barrier
    tile.copy %tile to %O : !S to memref<8x8xf16>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f16
  %G = memref.alloc() : memref<8x8xf16>
  %O = memref.alloc() : memref<8x8xf16>
  scf.for %i = %c0 to %c8 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      memref.store %one, %G[%i, %j] : memref<8x8xf16>
    }
  }
  call @k(%G, %O) : (memref<8x8xf16>, memref<8x8xf16>) -> ()
  %x = memref.load %O[%c0, %c0] : memref<8x8xf16>
  %y = arith.extf %x : f16 to f32
  vector.print %y : f32
  memref.dealloc %G : memref<8x8xf16>
  memref.dealloc %O : memref<8x8xf16>
  return
}
