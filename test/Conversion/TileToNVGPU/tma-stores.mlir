// RUN: tile-opt %s --tile-lower-to-nvgpu="chip=sm_90 tma-store=true" -split-input-file | FileCheck %s
// RUN: tile-opt %s --tile-lower-to-nvgpu="chip=sm_90" -split-input-file | FileCheck %s --check-prefix=OFF

// A fragment stored from inside a loop (a persistent kernel's tile loop)
// goes through a shared staging tile and the TMA: thread 0 waits until the
// TMA has read the previous tile, the block writes the fragment (register
// pairs, from a pinned copy of the thread's position), fences it for the
// async proxy, and thread 0 stores the tile's two 128-byte-swizzled
// [128][64] panels and commits them. The block waits for the reads before
// it exits. The tensor map for C goes into the launch description.
// CHECK-LABEL: func.func @looped
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%{{.*}}, %{{.*}}] : memref<*xf16> -> <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK: gpu.launch_func
// CHECK-SAME: shared_bytes = 32768
// CHECK-SAME: tensormaps = ["A 128x64 swizzle 128"]
// CHECK: gpu.func @looped_kernel
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %{{.*}}, %c0{{.*}} : index
// CHECK: %[[STAGING:.*]] = memref.view {{.*}} to memref<128x128xf16, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: %[[ROW:.*]] = arith.muli
// CHECK: scf.if %[[LEADER]] {
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.barrier
// CHECK: llvm.inline_asm has_side_effects "mov.b32 $0, $1;"
// CHECK: llvm.inline_asm has_side_effects "mov.b32 $0, $1;"
// CHECK-COUNT-64: vector.store %{{.*}}, %[[STAGING]][%{{.*}}, %{{.*}}] {alignment = 4 : i64} : memref<128x128xf16, #gpu.address_space<workgroup>>, vector<2xf16>
// CHECK-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK: %[[P0:.*]] = memref.reinterpret_cast %[[STAGING]] to offset: [%c0{{.*}}], sizes: [128, 64]
// CHECK: nvgpu.tma.async.store %[[P0]] to %{{.*}}[%c0{{.*}}, %[[ROW]]]
// CHECK: %[[P1:.*]] = memref.reinterpret_cast %[[STAGING]] to offset: [%c8192{{.*}}], sizes: [128, 64]
// CHECK: nvgpu.tma.async.store %[[P1]] to %{{.*}}[%c64{{.*}}, %[[ROW]]]
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: scf.if %[[LEADER]] {
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return

// Without tma-store the same kernel stores straight from its registers.
// OFF-LABEL: func.func @looped
// OFF-NOT: nvgpu.tma.async.store
// OFF-NOT: cp.async.bulk
// OFF: vector.store %{{.*}}, %arg0[%{{.*}}, %{{.*}}] {alignment = 8 : i64} : memref<1000x256xf16>, vector<4xf16>
func.func @looped(%C: memref<1000x256xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c2) threads(128) as (%bx) {
    %F = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    scf.for %t = %bx to %c8 step %c2 {
      tile.clear %F : memref<128x128xf32, #gpu.address_space<private>>
      %row = arith.muli %t, %c128 : index
      tile.copy %F to %C[%row, %c0] : memref<128x128xf32, #gpu.address_space<private>> to memref<1000x256xf16>
    }
  }
  return
}

// -----

// A block that stores one tile has nothing to overlap the store with: the
// fragment goes straight to global memory.
// CHECK-LABEL: func.func @one_tile
// CHECK-NOT: nvgpu.tma.async.store
// CHECK-NOT: cp.async.bulk
// CHECK: gpu.return
func.func @one_tile(%C: memref<1024x256xf16>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c8) threads(128) as (%bx) {
    %F = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.clear %F : memref<128x128xf32, #gpu.address_space<private>>
    %row = arith.muli %bx, %c128 : index
    tile.copy %F to %C[%row, %c0] : memref<128x128xf32, #gpu.address_space<private>> to memref<1024x256xf16>
  }
  return
}

// -----

// Two stores of one fragment type (here in the branches of an if, as
// tile-specialize-interior-blocks writes them, tile.block_versions marking
// it) share one staging tile and, into the same tensor, one tensor map.
// Without the mark, the branches of an if in a loop may both run, one per
// iteration, and the stores stay synchronous
// (tma-stores-fallback.mlir, @branches_in_a_loop).
// CHECK-LABEL: func.func @shared_staging
// CHECK: nvgpu.tma.create.descriptor
// CHECK-NOT: nvgpu.tma.create.descriptor
// CHECK: gpu.launch_func
// CHECK-SAME: shared_bytes = 32768
// CHECK-SAME: tensormaps = ["A 128x64 swizzle 128"]
// CHECK: %[[STAGING:.*]] = memref.view {{.*}} to memref<128x128xf16, #gpu.address_space<workgroup>>
// CHECK-NOT: memref.view
// CHECK: scf.if
// CHECK: nvgpu.tma.async.store
// CHECK: } else {
// CHECK: nvgpu.tma.async.store
func.func @shared_staging(%C: memref<1024x256xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c2) threads(128) as (%bx) {
    %F = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    scf.for %t = %bx to %c8 step %c2 {
      tile.clear %F : memref<128x128xf32, #gpu.address_space<private>>
      %row = arith.muli %t, %c128 : index
      %odd = arith.remui %t, %c2 : index
      %isOdd = arith.cmpi eq, %odd, %c0 : index
      scf.if %isOdd {
        tile.copy %F to %C[%row, %c0] : memref<128x128xf32, #gpu.address_space<private>> to memref<1024x256xf16>
      } else {
        tile.copy %F to %C[%row, %c128] : memref<128x128xf32, #gpu.address_space<private>> to memref<1024x256xf16>
      } {tile.block_versions}
    }
  }
  return
}

// -----

// Threads that leave after the last store (an early exit of idle threads,
// here thread 0 among them) skip the wait at the end of the block: thread 0
// waits for the TMA's reads of the staging tile before the exit as well,
// or the block's shared memory could go to another block while the last
// store still reads it.
// CHECK-LABEL: gpu.func @exit_after_stores_kernel
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %{{.*}}, %c0{{.*}} : index
// CHECK: scf.for
// CHECK: nvgpu.tma.async.store
// CHECK: scf.if %{{.*}} {
// CHECK-NEXT: scf.if %[[LEADER]] {
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: }
// CHECK-NEXT: nvvm.exit
// CHECK-NEXT: }
// CHECK-NEXT: scf.if %[[LEADER]] {
// CHECK-NEXT: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK-NEXT: }
// CHECK-NEXT: gpu.return
func.func @exit_after_stores(%C: memref<1000x256xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c2) threads(128) as (%bx) {
    %F = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    scf.for %t = %bx to %c8 step %c2 {
      tile.clear %F : memref<128x128xf32, #gpu.address_space<private>>
      %row = arith.muli %t, %c128 : index
      tile.copy %F to %C[%row, %c0] : memref<128x128xf32, #gpu.address_space<private>> to memref<1000x256xf16>
    }
    %tid = gpu.thread_id x
    %idle = arith.cmpi ult, %tid, %c64 : index
    scf.if %idle {
      nvvm.exit
    }
  }
  return
}
