// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true tma-store=true" -verify-diagnostics | FileCheck %s

// A staged store's tile must fit in shared memory next to the kernel's
// tiles, and next to the block of mbarriers that TMA copies take where the
// kernel has async copies. The stores themselves wait on bulk groups.

// 195 KiB of tiles and a 32 KiB staging tile fill sm_90's 227 KiB to the
// last byte: without async copies there are no mbarriers, and the store
// goes through the TMA.
// CHECK-LABEL: gpu.func @exact_kernel
// CHECK: nvgpu.tma.async.store
func.func @exact(%C: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c2) threads(128) as (%bx) {
    %A = tile.alloc_shared : memref<3x256x64xf16, #gpu.address_space<workgroup>>
    %B = tile.alloc_shared : memref<3x64x256xf16, #gpu.address_space<workgroup>>
    %S = tile.alloc_shared : memref<24x64xf16, #gpu.address_space<workgroup>>
    %F = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    scf.for %t = %bx to %c8 step %c2 {
      tile.clear %F : memref<128x128xf32, #gpu.address_space<private>>
      %row = arith.muli %t, %c128 : index
      tile.copy %F to %C[%row, %c0] : memref<128x128xf32, #gpu.address_space<private>> to memref<4096x4096xf16>
    }
  }
  return
}

// -----

// The same kernel with an async copy: its mbarriers would need the next
// 1 KiB, and the store stays synchronous.
// CHECK-LABEL: gpu.func @with_copies_kernel
// CHECK-NOT: nvgpu.tma.async.store
// CHECK: gpu.return
func.func @with_copies(%X: memref<4096x64xf16>, %C: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c2) threads(128) as (%bx) {
    %A = tile.alloc_shared : memref<3x256x64xf16, #gpu.address_space<workgroup>>
    %B = tile.alloc_shared : memref<3x64x256xf16, #gpu.address_space<workgroup>>
    %S = tile.alloc_shared : memref<24x64xf16, #gpu.address_space<workgroup>>
    %F = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    scf.for %t = %bx to %c8 step %c2 {
      tile.clear %F : memref<128x128xf32, #gpu.address_space<private>>
      %row = arith.muli %t, %c128 : index
      tile.barrier
      tile.copy_async %X[%row, %c0] to %S : memref<4096x64xf16> to memref<24x64xf16, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 0
      tile.barrier
      // expected-remark @below {{the store stays synchronous, not the TMA: its staging tile would need 233472 bytes of shared memory in all (1024 of them for the mbarriers of TMA copies), and sm_90 allows 232448 per block}}
      tile.copy %F to %C[%row, %c0] : memref<128x128xf32, #gpu.address_space<private>> to memref<4096x4096xf16>
    }
  }
  return
}
