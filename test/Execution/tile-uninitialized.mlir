// A tile holds NaN until something writes it (integers: their lowest
// value), on the CPU: a read before the first write shows, instead of
// reading whatever the memory held, which may be another block's tile with
// the same data. The kernel copies a shared tile it never wrote, then a
// fragment it never wrote, into O: two blocks in a row, so the second
// block's tiles could reuse the first's memory.
//
// RUN: tile-opt %s --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// CHECK:      nan
// CHECK-NEXT: nan
// CHECK-NEXT: -128

func.func @k(%O: memref<2x8xf16>, %I: memref<8xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tile.kernel grid(%c2) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<1x8xf16, #gpu.address_space<workgroup>>
    %f = tile.alloc_fragment : memref<1x8xf16, #gpu.address_space<private>>
    %n = tile.alloc_shared : memref<8xi8, #gpu.address_space<workgroup>>
    tile.copy %s to %O[%c0, %c0] : memref<1x8xf16, #gpu.address_space<workgroup>> to memref<2x8xf16>
    tile.copy %f to %O[%c1, %c0] : memref<1x8xf16, #gpu.address_space<private>> to memref<2x8xf16>
    tile.copy %n to %I[%c0] : memref<8xi8, #gpu.address_space<workgroup>> to memref<8xi8>
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %O = memref.alloc() : memref<2x8xf16>
  %I = memref.alloc() : memref<8xi8>
  call @k(%O, %I) : (memref<2x8xf16>, memref<8xi8>) -> ()
  %x = memref.load %O[%c0, %c0] : memref<2x8xf16>
  %y = memref.load %O[%c1, %c0] : memref<2x8xf16>
  %i = memref.load %I[%c0] : memref<8xi8>
  %xf = arith.extf %x : f16 to f32
  %yf = arith.extf %y : f16 to f32
  vector.print %xf : f32
  vector.print %yf : f32
  vector.print %i : i8
  memref.dealloc %O : memref<2x8xf16>
  memref.dealloc %I : memref<8xi8>
  return
}
