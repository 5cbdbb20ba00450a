// RUN: tile-opt %s --split-input-file --tile-to-ptx="chip=sm_90 print-budget=false" \
// RUN:   | tile-translate --split-input-file --tile-emit-ptx | FileCheck %s

// Per-thread code after the tile ops, as CUDA kernels end: a branch on the
// thread id that reads what a tile copy stored, a loop from the thread id by
// the block size over a row of C, and an early exit of idle threads after
// the last tile op. Each compiles, with the barrier that hands the tile ops'
// results to the scalar loads before the branch or loop, where every thread
// reaches it. (Barrier placement put it inside, and the GPU lowering refused
// the kernels; the exit was refused whether tile ops followed it or not.)

// CHECK-LABEL: .entry epilogue_in_branch_kernel
// CHECK:       st.global.v4.b32
// CHECK:       bar.sync 0;
// CHECK-NEXT:  @%p{{[0-9]+}} bra
// CHECK-NOT:   bar.sync
// CHECK:       ld.global.b32
// CHECK:       st.global.b32
// CHECK-NOT:   bar.sync
// CHECK:       ret;
func.func @epilogue_in_branch(%A: memref<32x32xf32>, %B: memref<32x32xf32>, %C: memref<128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<32x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
    tile.copy %s to %B : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<32x32xf32>
    %t = gpu.thread_id x
    %busy = arith.cmpi ult, %t, %c64 : index
    scf.if %busy {
      %v = memref.load %B[%c0, %t] : memref<32x32xf32>
      memref.store %v, %C[%t] : memref<128xf32>
    }
  }
  return
}

// -----

// CHECK-LABEL: .entry epilogue_loop_kernel
// CHECK:       st.global.v4.b32
// CHECK:       bar.sync 0;
// CHECK-NOT:   bar.sync
// CHECK:       max.NaN.f32
// CHECK-NOT:   bar.sync
// CHECK:       ret;
func.func @epilogue_loop(%A: memref<32x32xf32>, %B: memref<32x32xf32>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<32x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
    tile.copy %s to %B : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<32x32xf32>
    %t = gpu.thread_id x
    scf.for %j = %t to %c32 step %c128 {
      %v = memref.load %B[%c0, %j] : memref<32x32xf32>
      %r = arith.maximumf %v, %zero : f32
      memref.store %r, %B[%c0, %j] : memref<32x32xf32>
    }
  }
  return
}

// -----

// CHECK-LABEL: .entry exit_after_tile_ops_kernel
// CHECK:       st.global.v4.b32
// CHECK-NOT:   bar.sync
// CHECK:       exit;
func.func @exit_after_tile_ops(%A: memref<32x32xf32>, %B: memref<32x32xf32>, %C: memref<128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<32x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
    tile.copy %s to %B : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<32x32xf32>
    %t = gpu.thread_id x
    %idle = arith.cmpi uge, %t, %c64 : index
    scf.if %idle {
      nvvm.exit
    }
    %v = memref.load %A[%c0, %t] : memref<32x32xf32>
    memref.store %v, %C[%t] : memref<128xf32>
  }
  return
}

// -----

// The same exit before a read of what the tile copy stored: the barrier
// that hands it over follows the exit, which PTX allows (a barrier waits
// for the threads that have not exited).
// CHECK-LABEL: .entry exit_then_read_kernel
// CHECK:       st.global.v4.b32
// CHECK:       bra.uni
// CHECK:       bar.sync 0;
// CHECK-NOT:   bra
// CHECK:       ld.global.b32
// CHECK:       exit;
func.func @exit_then_read(%A: memref<32x32xf32>, %B: memref<32x32xf32>, %C: memref<128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<32x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
    tile.copy %s to %B : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<32x32xf32>
    %t = gpu.thread_id x
    %idle = arith.cmpi uge, %t, %c64 : index
    scf.if %idle {
      nvvm.exit
    }
    %v = memref.load %B[%c0, %t] : memref<32x32xf32>
    memref.store %v, %C[%t] : memref<128xf32>
  }
  return
}
