// REQUIRES: ptxas
// RUN: tile-opt %s --tile-to-ptx=chip=sm_80 -o %t.sm80.mlir
// RUN: tile-translate --tile-emit-ptx %t.sm80.mlir -o %t.sm80.ptx
// RUN: FileCheck %s --check-prefixes=PTX,PTX80 --implicit-check-not=malloc < %t.sm80.ptx
// RUN: %ptxas -arch=sm_80 -v %t.sm80.ptx -o %t.sm80.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: tile-opt %s --tile-to-ptx=chip=sm_90 -o %t.sm90.mlir
// RUN: tile-translate --tile-emit-ptx %t.sm90.mlir -o %t.sm90.ptx
// RUN: FileCheck %s --check-prefixes=PTX,PTX90 --implicit-check-not=malloc < %t.sm90.ptx
// RUN: %ptxas -arch=sm_90 -v %t.sm90.ptx -o %t.sm90.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// A copy-only kernel at an odd size (1000x1000 f16, 128x32 tiles): async
// 16-byte copies with zero-fill into one dynamic shared region, a wait, a
// barrier, and masked stores back, with no call to malloc anywhere
// (--implicit-check-not). It must assemble without spills.

// PTX80: .target sm_80
// PTX90: .target sm_90
// PTX: .extern .shared .align 1024 .b8 __dynamic_shmem__0[];
// PTX: .visible .entry copy_kernel(
// PTX-NEXT: .param .u64 .ptr .align 1 copy_kernel_param_0,
// PTX-NEXT: .param .u64 .ptr .align 1 copy_kernel_param_1
// PTX-NEXT: )
// PTX: .maxntid 128, 1, 1
// PTX: cp.async.cg.shared.global [{{.*}}], [{{.*}}], 16, %r{{[0-9]+}};
// PTX: cp.async.commit_group;
// PTX: cp.async.wait_group 0;
// PTX: bar.sync 0;
// PTX: st.global.v4.b32

// PTXAS: Compiling entry function 'copy_kernel'
// PTXAS: {{^ *[0-9]+ bytes stack frame, }}0 bytes spill stores, 0 bytes spill loads

!G = memref<1000x1000xf16>
!S = memref<128x32xf16, #gpu.address_space<workgroup>>
func.func @copy(%A: !G, %C: !G) {
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %c1000 = arith.constant 1000 : index
  %gx = arith.ceildivui %c1000, %c32 : index
  %gy = arith.ceildivui %c1000, %c128 : index
  tile.kernel grid(%gx, %gy) threads(128) as (%bx, %by) {
    %s = tile.alloc_shared : !S
    %row = arith.muli %by, %c128 : index
    %col = arith.muli %bx, %c32 : index
    tile.copy_async %A[%row, %col] to %s : !G to !S
    tile.commit_group
    tile.wait_group 0
    tile.barrier
    tile.copy %s to %C[%row, %col] : !S to !G
  }
  return
}
