// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90a tma=true cluster=2" -verify-diagnostics

// The blocks of a cluster fill one another's tiles (multicast) and each
// waits for the bytes all of them issue: a block that leaves while tile ops
// remain, on whatever condition, would leave the others waiting for ever
// (PTX's exit releases barriers, not an mbarrier's expected bytes).

func.func @exit_before_copies(%A: memref<512x64xf16>, %B: memref<64x512xf16>, %C: memref<512x512xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<128x64xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<64x128xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.clear %acc : memref<128x128xf32, #gpu.address_space<private>>
    %row = arith.muli %by, %c128 : index
    %col = arith.muli %bx, %c128 : index
    %first = arith.cmpi eq, %bx, %c0 : index
    scf.if %first {
      // expected-error @+1 {{'nvvm.exit' op with tile ops after it is not supported in a kernel of thread-block clusters (cluster=2): the other blocks of its cluster would wait for the copies it no longer issues}}
      nvvm.exit
    }
    tile.copy_async %A[%row, %c0] to %a : memref<512x64xf16> to memref<128x64xf16, #gpu.address_space<workgroup>>
    tile.copy_async %B[%c0, %col] to %b : memref<64x512xf16> to memref<64x128xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
    tile.gemm %a, %b, %acc : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
    tile.copy %acc to %C[%row, %col] : memref<128x128xf32, #gpu.address_space<private>> to memref<512x512xf32>
  }
  return
}

// -----

// After the last tile op, an exit leaves nothing undone: accepted.
func.func @exit_after_store(%A: memref<512x64xf16>, %B: memref<64x512xf16>, %C: memref<512x512xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<128x64xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<64x128xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.clear %acc : memref<128x128xf32, #gpu.address_space<private>>
    %row = arith.muli %by, %c128 : index
    %col = arith.muli %bx, %c128 : index
    tile.copy_async %A[%row, %c0] to %a : memref<512x64xf16> to memref<128x64xf16, #gpu.address_space<workgroup>>
    tile.copy_async %B[%c0, %col] to %b : memref<64x512xf16> to memref<64x128xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
    tile.gemm %a, %b, %acc : memref<128x64xf16, #gpu.address_space<workgroup>>, memref<64x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
    tile.copy %acc to %C[%row, %col] : memref<128x128xf32, #gpu.address_space<private>> to memref<512x512xf32>
    %first = arith.cmpi eq, %bx, %c0 : index
    scf.if %first {
      nvvm.exit
    }
  }
  return
}
