// RUN: tile-opt %s --tile-lower-to-nvgpu="chip=sm_90 tma-store=true" -split-input-file -verify-diagnostics | FileCheck %s

// Stores that cannot go through the TMA stay synchronous, with a remark that
// says why.

// Rows of 500 bytes: a tensor map needs a multiple of 16.
// CHECK-LABEL: func.func @pitch
// CHECK-NOT: nvgpu.tma.async.store
// CHECK: gpu.return
func.func @pitch(%C: memref<1000x250xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c2) threads(128) as (%bx) {
    %F = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    scf.for %t = %bx to %c8 step %c2 {
      tile.clear %F : memref<128x128xf32, #gpu.address_space<private>>
      %row = arith.muli %t, %c128 : index
      // expected-remark @below {{the store stays synchronous, not the TMA: the rows of its global tensor are 500 bytes, not a multiple of 16}}
      tile.copy %F to %C[%row, %c0] : memref<128x128xf32, #gpu.address_space<private>> to memref<1000x250xf16>
    }
  }
  return
}

// -----

// 192 KiB of shared tiles leave no room for a 128 KiB staging tile.
// CHECK-LABEL: func.func @too_big
// CHECK-NOT: nvgpu.tma.async.store
// CHECK: gpu.return
func.func @too_big(%C: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c256 = arith.constant 256 : index
  tile.kernel grid(%c2) threads(256) as (%bx) {
    %A = tile.alloc_shared : memref<3x256x64xf16, #gpu.address_space<workgroup>>
    %B = tile.alloc_shared : memref<3x64x256xf16, #gpu.address_space<workgroup>>
    %F = tile.alloc_fragment : memref<256x256xf32, #gpu.address_space<private>>
    scf.for %t = %bx to %c8 step %c2 {
      tile.clear %F : memref<256x256xf32, #gpu.address_space<private>>
      %row = arith.muli %t, %c256 : index
      // expected-remark @below {{the store stays synchronous, not the TMA: its staging tile would need 327680 bytes of shared memory in all, and sm_90 allows 232448 per block}}
      tile.copy %F to %C[%row, %c0] : memref<256x256xf32, #gpu.address_space<private>> to memref<4096x4096xf16>
    }
  }
  return
}

// -----

// Columns from 3 + 128 * t: the TMA's innermost coordinate must be a multiple
// of 16 bytes, or the box faults with an illegal instruction.
// CHECK-LABEL: func.func @column_offset
// CHECK-NOT: nvgpu.tma.async.store
// CHECK: gpu.return
func.func @column_offset(%C: memref<1024x1024xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c2) threads(128) as (%bx) {
    %F = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    scf.for %t = %bx to %c7 step %c2 {
      tile.clear %F : memref<128x128xf32, #gpu.address_space<private>>
      %col = arith.muli %t, %c128 : index
      %shifted = arith.addi %col, %c3 : index
      // expected-remark @below {{the store stays synchronous, not the TMA: the TMA needs its first column at a multiple of 16 bytes, and it is known to be a multiple of 1 element (2 bytes) only}}
      tile.copy %F to %C[%c0, %shifted] : memref<128x128xf32, #gpu.address_space<private>> to memref<1024x1024xf16>
    }
  }
  return
}

// -----

// The kernel reads back what it stores: the staged store waits only until
// the TMA has read the staging tile, so the read after the barrier could
// see C's old values. Both stores stay synchronous.
// CHECK-LABEL: func.func @read_back
// CHECK-NOT: nvgpu.tma.async.store
// CHECK: gpu.return
func.func @read_back(%C: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c2) threads(128) as (%bx) {
    %F = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    %G = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    scf.for %t = %bx to %c8 step %c2 {
      tile.clear %F : memref<128x128xf32, #gpu.address_space<private>>
      %row = arith.muli %t, %c128 : index
      // expected-remark @below {{the store stays synchronous, not the TMA: the kernel reads the tensor it stores, and a TMA store's writes become visible to those reads only once it completes}}
      tile.copy %F to %C[%row, %c0] : memref<128x128xf32, #gpu.address_space<private>> to memref<4096x4096xf16>
      tile.barrier
      // expected-note @below {{the read}}
      tile.copy %C[%row, %c0] to %G : memref<4096x4096xf16> to memref<128x128xf32, #gpu.address_space<private>>
      tile.barrier
      // expected-remark @below {{the store stays synchronous, not the TMA: the kernel reads the tensor it stores}}
      tile.copy %G to %C[%row, %c0] : memref<128x128xf32, #gpu.address_space<private>> to memref<4096x4096xf16>
    }
  }
  return
}

// -----

// Another op writes the tensor the store writes: a staged store is not
// waited for until its writes land (a later st.global could land first),
// and an st.global before it reaches the TMA only through a
// fence.proxy.async on global memory. Either way C could keep the first
// write. The stores in the two branches of an scf.if (interior and edge
// versions) do not count (tma-stores.mlir, @shared_staging).
// CHECK-LABEL: func.func @written_after
// CHECK-NOT: nvgpu.tma.async.store
// CHECK: gpu.return
func.func @written_after(%X: memref<256x128xf16>, %C: memref<128x128xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %F = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    %G = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    scf.for %t = %c0 to %c1 step %c1 {
      tile.clear %F : memref<128x128xf32, #gpu.address_space<private>>
      // expected-remark @below {{the store stays synchronous, not the TMA: another op of the kernel writes the tensor it stores, and the two writes would go through different proxies, unordered}}
      tile.copy %F to %C[%c0, %c0] : memref<128x128xf32, #gpu.address_space<private>> to memref<128x128xf16>
    }
    tile.copy %X[%c128, %c0] to %G : memref<256x128xf16> to memref<128x128xf32, #gpu.address_space<private>>
    // expected-note @below {{the other write}}
    tile.copy %G to %C[%c0, %c0] : memref<128x128xf32, #gpu.address_space<private>> to memref<128x128xf16>
  }
  return
}

// -----

// CHECK-LABEL: func.func @written_before
// CHECK-NOT: nvgpu.tma.async.store
// CHECK: gpu.return
func.func @written_before(%X: memref<256x128xf16>, %C: memref<128x128xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %F = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    %G = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.copy %X[%c128, %c0] to %G : memref<256x128xf16> to memref<128x128xf32, #gpu.address_space<private>>
    // expected-note @below {{the other write}}
    tile.copy %G to %C[%c0, %c0] : memref<128x128xf32, #gpu.address_space<private>> to memref<128x128xf16>
    scf.for %t = %c0 to %c1 step %c1 {
      tile.clear %F : memref<128x128xf32, #gpu.address_space<private>>
      // expected-remark @below {{another op of the kernel writes the tensor it stores}}
      tile.copy %F to %C[%c0, %c0] : memref<128x128xf32, #gpu.address_space<private>> to memref<128x128xf16>
    }
  }
  return
}

// -----

// The branches of an scf.if in a loop may both run, one per iteration: the
// store in one and the write in the other are not exclusive (only the
// tile.block_versions if of interior and edge versions is, for one tile;
// tma-stores.mlir, @shared_staging).
// CHECK-LABEL: func.func @branches_in_a_loop
// CHECK-NOT: nvgpu.tma.async.store
// CHECK: gpu.return
func.func @branches_in_a_loop(%C: memref<128x128xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %v = arith.constant 7.0 : f16
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %F = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    scf.for %t = %c0 to %c2 step %c1 {
      %first = arith.cmpi eq, %t, %c0 : index
      scf.if %first {
        tile.clear %F : memref<128x128xf32, #gpu.address_space<private>>
        // expected-remark @below {{another op of the kernel writes the tensor it stores}}
        tile.copy %F to %C[%c0, %c0] : memref<128x128xf32, #gpu.address_space<private>> to memref<128x128xf16>
      } else {
        // expected-note @below {{the other write}}
        memref.store %v, %C[%c0, %c0] : memref<128x128xf16>
      }
    }
  }
  return
}
