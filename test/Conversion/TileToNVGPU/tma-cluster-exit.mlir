// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90a tma=true cluster=2" -verify-diagnostics
// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90a tma=true cluster=2" 2>/dev/null \
// RUN:   | FileCheck %s

// The blocks of a cluster fill one another's tiles (multicast) and each
// waits for the bytes all of them issue, so a block that exits with copies
// after it must not leave the others waiting: PTX's exit releases barriers,
// not an mbarrier's expected bytes. Clusters of 2 are two rows of one
// column here. An exit on the row keeps the blocks unclustered, with a
// remark; one on the column (both blocks of a cluster exit together) and
// one after the last tile op leave them clustered.

// CHECK-LABEL: gpu.func @exit_on_row_kernel
// CHECK-NOT:   nvvm.cluster_dim
// CHECK-NOT:   nvvm.cluster.arrive
// CHECK:       gpu.return
func.func @exit_on_row(%A: memref<512x64xf16>, %B: memref<64x512xf16>, %C: memref<512x512xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  // expected-remark @below {{blocks stay unclustered (cluster=2): an exit with copies after it runs under control flow that depends on the block index, so some blocks of a cluster could leave the others waiting for their copies}}
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<128x64xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<64x128xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.clear %acc : memref<128x128xf32, #gpu.address_space<private>>
    %row = arith.muli %by, %c128 : index
    %col = arith.muli %bx, %c128 : index
    %first = arith.cmpi eq, %by, %c0 : index
    scf.if %first {
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

// CHECK-LABEL: gpu.func @exit_on_column_kernel
// CHECK-SAME:  nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK:       nvvm.exit
// CHECK:       nvvm.cluster.arrive
func.func @exit_on_column(%A: memref<512x64xf16>, %B: memref<64x512xf16>, %C: memref<512x512xf32>) {
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
    %first = arith.cmpi eq, %bx, %c0 : index
    scf.if %first {
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

// CHECK-LABEL: gpu.func @exit_after_store_kernel
// CHECK-SAME:  nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK:       nvvm.exit
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
    %first = arith.cmpi eq, %by, %c0 : index
    scf.if %first {
      nvvm.exit
    }
  }
  return
}
