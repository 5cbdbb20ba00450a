// 90 asynchronous copies of one op, each committed as its own group but
// none waited for until the end (test/Execution/async-copy-model.mlir).
// Copy n takes row n of G, which holds n, to row n mod 50 of the shared
// tile, so rows 0-39 are written twice: by copies 0-39, then by 50-89 (a
// race where both are in flight, as rows 0-13 are). After the loop, before
// the wait, every element of G is raised by 1000: a copy that landed before
// that carries n, and one still in flight may read G before or after the
// raise, so it lands as NaN. Prints column 5 of the tile, rows 0 to 49.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c50 = arith.constant 50 : index
  %c90 = arith.constant 90 : index
  %thousand = arith.constant 1000.0 : f16
  %G = memref.alloc() : memref<90x8xf16>
  %Out = memref.alloc() : memref<50x8xf16>
  scf.for %i = %c0 to %c90 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %si = arith.index_cast %i : index to i32
      %v = arith.sitofp %si : i32 to f16
      memref.store %v, %G[%i, %j] : memref<90x8xf16>
    }
  }
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %S = tile.alloc_shared : memref<50x8xf16, #gpu.address_space<workgroup>>
    scf.for %n = %c0 to %c90 step %c1 {
      %r = arith.remui %n, %c50 : index
      %row = memref.subview %S[%r, 0] [1, 8] [1, 1] : memref<50x8xf16, #gpu.address_space<workgroup>> to memref<1x8xf16, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.copy_async %G[%n, %c0] to %row : memref<90x8xf16> to memref<1x8xf16, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.commit_group
    }
    scf.for %i = %c0 to %c90 step %c1 {
      scf.for %j = %c0 to %c8 step %c1 {
        %old = memref.load %G[%i, %j] : memref<90x8xf16>
        %new = arith.addf %old, %thousand : f16
        memref.store %new, %G[%i, %j] : memref<90x8xf16>
      }
    }
    tile.wait_group 0
    tile.copy %S to %Out : memref<50x8xf16, #gpu.address_space<workgroup>> to memref<50x8xf16>
  }
  vector.print str "tile[:, 5] ="
  scf.for %r = %c0 to %c50 step %c1 {
    %e = memref.load %Out[%r, %c5] : memref<50x8xf16>
    %e32 = arith.extf %e : f16 to f32
    vector.print str " "
    vector.print %e32 : f32 punctuation <no_punctuation>
  }
  vector.print punctuation <newline>
  memref.dealloc %G : memref<90x8xf16>
  memref.dealloc %Out : memref<50x8xf16>
  return
}
