// 100 asynchronous copies of one op, committed but not waited for until the
// end (test/Execution/async-copy-model.mlir). G[i][j] = i + j.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c100 = arith.constant 100 : index
  %G = memref.alloc() : memref<16x8xf16>
  %Out = memref.alloc() : memref<16x8xf16>
  scf.for %i = %c0 to %c16 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %s = arith.addi %i, %j : index
      %si = arith.index_cast %s : index to i32
      %v = arith.sitofp %si : i32 to f16
      memref.store %v, %G[%i, %j] : memref<16x8xf16>
    }
  }
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %S = tile.alloc_shared : memref<16x8xf16, #gpu.address_space<workgroup>>
    scf.for %n = %c0 to %c100 step %c1 {
      tile.copy_async %G to %S : memref<16x8xf16> to memref<16x8xf16, #gpu.address_space<workgroup>>
      tile.commit_group
    }
    tile.wait_group 0
    tile.copy %S to %Out : memref<16x8xf16, #gpu.address_space<workgroup>> to memref<16x8xf16>
  }
  %e = memref.load %Out[%c3, %c5] : memref<16x8xf16>
  %e32 = arith.extf %e : f16 to f32
  vector.print str "tile[3, 5] = "
  vector.print %e32 : f32
  memref.dealloc %G : memref<16x8xf16>
  memref.dealloc %Out : memref<16x8xf16>
  return
}
