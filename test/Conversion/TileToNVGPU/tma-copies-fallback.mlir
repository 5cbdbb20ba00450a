// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true" -verify-diagnostics
// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true" 2>/dev/null \
// RUN:   | FileCheck %s --implicit-check-not=nvgpu.tma --implicit-check-not=nvgpu.mbarrier

// Kernels whose async copies cannot all use the TMA keep cp.async, and a
// remark on the first copy (or op) that does not qualify says why.
// CHECK: gpu.func @view_source_kernel
// CHECK: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group
// CHECK: gpu.func @execute_region_kernel
// CHECK: nvgpu.device_async_copy
// CHECK: gpu.func @reads_back_kernel
// CHECK: nvgpu.device_async_copy
// CHECK: gpu.func @commit_after_wait_kernel
// CHECK: nvgpu.device_async_copy
// CHECK: gpu.func @padding_after_wait_kernel
// CHECK: nvgpu.device_async_copy
// CHECK: gpu.func @fifth_group_kernel
// CHECK: nvgpu.device_async_copy
// -----

// The source is a view, not a function argument.
func.func @view_source(%A: memref<1024x64xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %v = memref.subview %A[0, 0] [512, 64] [1, 1] : memref<1024x64xf16> to memref<512x64xf16, strided<[64, 1]>>
    %a = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    // expected-remark @below {{async copies stay cp.async, not the TMA: its global tensor is not an argument of the kernel's function}}
    tile.copy_async %v[%c0, %c0] to %a : memref<512x64xf16, strided<[64, 1]>> to memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
// -----

// A 1-D copy.
func.func @one_dim(%A: memref<4096xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %a = tile.alloc_shared : memref<128xf16, #gpu.address_space<workgroup>>
    // expected-remark @below {{async copies stay cp.async, not the TMA: its global tensor is not a row-major 2-D tensor}}
    tile.copy_async %A[%c0] to %a : memref<4096xf16> to memref<128xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
// -----

// Rows of 4095 f16 are 8190 bytes.
func.func @odd_pitch(%A: memref<1024x4095xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %a = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    // expected-remark @below {{async copies stay cp.async, not the TMA: the rows of its global tensor are 8190 bytes, not a multiple of 16}}
    tile.copy_async %A[%c0, %c0] to %a : memref<1024x4095xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
// -----

// 2^31 rows: the TMA's coordinates are signed 32-bit, so the last row is
// out of its reach.
func.func @too_many_rows(%A: memref<2147483648x8xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %a = tile.alloc_shared : memref<64x8xf16, #gpu.address_space<workgroup>>
    // expected-remark @below {{async copies stay cp.async, not the TMA: its global tensor has 2147483648 rows, more than the TMA's signed 32-bit coordinates reach}}
    tile.copy_async %A[%c0, %c0] to %a : memref<2147483648x8xf16> to memref<64x8xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
// -----

// Rows of a length known only at run time, promised a multiple of 4
// elements (8 bytes) only: the tensor map's row pitch may not be a multiple
// of 16 bytes.
func.func @dynamic_pitch(%A: memref<?x?xf16> {tile.divisibility = 4 : i64}) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %a = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    // expected-remark @below {{async copies stay cp.async, not the TMA: the rows of its global tensor have a length known only at run time, promised a multiple of 4 elements (8 bytes), not of 16 bytes (tile.divisibility)}}
    tile.copy_async %A[%c0, %c0] to %a : memref<?x?xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
// -----

// The copy writes at an offset into its tile.
func.func @tile_offset(%A: memref<1024x64xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %a = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    // expected-remark @below {{async copies stay cp.async, not the TMA: it writes at an offset into its shared tile}}
    tile.copy_async %A[%c0, %c0] to %a[%c0, %c8] : memref<1024x64xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
// -----

// The destination is half of a tile.
func.func @half_tile(%A: memref<1024x64xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %a = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    %h = memref.subview %a[0, 0] [32, 64] [1, 1] : memref<64x64xf16, #gpu.address_space<workgroup>> to memref<32x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
    // expected-remark @below {{async copies stay cp.async, not the TMA: its destination is not a whole 2-D tile of a shared allocation}}
    tile.copy_async %A[%c0, %c0] to %h : memref<1024x64xf16> to memref<32x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
// -----

// 6 rows of 512 bytes do not split into 128-byte panels: the long rows are XOR-ed as a whole.
func.func @no_panels(%A: memref<1024x256xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %a = tile.alloc_shared : memref<6x256xf16, #gpu.address_space<workgroup>>
    // expected-remark @below {{async copies stay cp.async, not the TMA: its shared tile's layout is not one the TMA writes}}
    tile.copy_async %A[%c0, %c0] to %a : memref<1024x256xf16> to memref<6x256xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
// -----

// Rows of 8 bytes.
func.func @narrow_rows(%A: memref<1024x64xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %a = tile.alloc_shared : memref<64x4xf16, #gpu.address_space<workgroup>>
    // expected-remark @below {{async copies stay cp.async, not the TMA: its shared tile's rows are 8 bytes}}
    tile.copy_async %A[%c0, %c0] to %a : memref<1024x64xf16> to memref<64x4xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
// -----

// 384 rows: more than one box of 256 and not a multiple of it.
func.func @tall_tile(%A: memref<1024x64xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %a = tile.alloc_shared : memref<384x8xf16, #gpu.address_space<workgroup>>
    // expected-remark @below {{async copies stay cp.async, not the TMA: its shared tile has 384 rows, more than one box and not a multiple of one}}
    tile.copy_async %A[%c0, %c0] to %a : memref<1024x64xf16> to memref<384x8xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
// -----

// 4 rows of 128 bytes: the 128B swizzle repeats every 1024 bytes.
func.func @short_swizzled(%A: memref<1024x64xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %a = tile.alloc_shared : memref<4x64xf16, #gpu.address_space<workgroup>>
    // expected-remark @below {{async copies stay cp.async, not the TMA: its shared tile is not aligned for the TMA (1024 bytes)}}
    tile.copy_async %A[%c0, %c0] to %a : memref<1024x64xf16> to memref<4x64xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
// -----

// A copy in an scf.if that also commits its group: the guarded copies
// that join the group committed after their scf.if (a prologue's steps)
// sit alone in the `then` block.
func.func @guard_commits(%A: memref<1024x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %a = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    %c = arith.cmpi ult, %bx, %c1 : index
    scf.if %c {
      // expected-remark @below {{async copies stay cp.async, not the TMA: it is not followed by its tile.commit_group in the same block}}
      tile.copy_async %A[%c0, %c0] to %a : memref<1024x64xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
      tile.wait_group 0
    }
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
// -----

// No commit follows the copy in its block.
func.func @no_commit(%A: memref<1024x64xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %a = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    // expected-remark @below {{async copies stay cp.async, not the TMA: it is not followed by its tile.commit_group in the same block}}
    tile.copy_async %A[%c0, %c0] to %a : memref<1024x64xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>

    tile.wait_group 0
    tile.barrier
  }
  return
}
// -----

// A group inside a region the counting does not follow.
func.func @execute_region(%A: memref<1024x64xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %a = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    // expected-remark @below {{async copies stay cp.async, not the TMA: it holds copies or groups in a 'scf.execute_region', which the group counting does not follow}}
    scf.execute_region {
    tile.copy_async %A[%c0, %c0] to %a : memref<1024x64xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
      tile.commit_group
      scf.yield
    }
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// f64 elements: the launch description's tensor maps know f16, bf16 and f32.
func.func @f64_elements(%A: memref<1024x64xf64>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %a = tile.alloc_shared : memref<64x16xf64, #gpu.address_space<workgroup>>
    // expected-remark @below {{async copies stay cp.async, not the TMA: its elements are not f16, bf16 or f32}}
    tile.copy_async %A[%c0, %c0] to %a : memref<1024x64xf64> to memref<64x16xf64, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// Each iteration commits a group and none waits inside the loop: the groups
// in flight have no bound, so no ring of mbarriers is large enough.
func.func @unbounded_groups(%A: memref<1024x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  // expected-remark @below {{async copies stay cp.async, not the TMA: a loop commits more groups than it waits for, so the groups in flight have no bound}}
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %a = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c8 step %c1 {
      tile.copy_async %A[%c0, %c0] to %a : memref<1024x64xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
      tile.commit_group
    }
    tile.wait_group 0
    tile.barrier
  }
  return
}
// -----

// Tiles that start two columns early (a K loop with a lead): the TMA faults
// with an illegal instruction where a box's innermost coordinate is not a
// multiple of 16 bytes, even a box that lies before the tensor.
func.func @lead_column(%A: memref<1024x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %a = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c2 step %c1 {
      %kb = arith.muli %k, %c32 : index
      %ko = arith.subi %kb, %c2 : index
      // expected-remark @below {{async copies stay cp.async, not the TMA: the TMA needs its first column at a multiple of 16 bytes, and it is known to be a multiple of 2 elements (4 bytes) only}}
      tile.copy_async %A[%c0, %ko] to %a : memref<1024x64xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 0
      tile.barrier
    }
  }
  return
}
// -----

// The kernel stores to X (st.global, the generic proxy) and reads the tile
// back with a copy: the TMA's reads (the async proxy) would need a proxy
// fence to see those stores, and a barrier is not one.
func.func @reads_back(%X: memref<4096x64xf32>, %Y: memref<4096x64xf32>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<128x32xf32, #gpu.address_space<workgroup>>
    %f = tile.alloc_fragment : memref<128x32xf32, #gpu.address_space<private>>
    %row = arith.muli %bx, %c128 : index
    tile.clear %f : memref<128x32xf32, #gpu.address_space<private>>
    // expected-remark @below {{async copies stay cp.async, not the TMA: the kernel writes the tensor that a copy reads, and the TMA would read it through the async proxy, which sees those stores only after a proxy fence}}
    tile.copy %f to %X[%row, %c0] : memref<128x32xf32, #gpu.address_space<private>> to memref<4096x64xf32>
    tile.barrier
    tile.copy_async %X[%row, %c0] to %a : memref<4096x64xf32> to memref<128x32xf32, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
    tile.copy %a to %Y[%row, %c0] : memref<128x32xf32, #gpu.address_space<workgroup>> to memref<4096x64xf32>
  }
  return
}
// -----

// The same through an arith.select of X and another tensor: the store may
// write X, so the copy from X stays cp.async.
func.func @reads_back_selected(%X: memref<4096x64xf32>, %Y: memref<4096x64xf32>, %Z: memref<4096x64xf32>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %one = arith.constant 1.0 : f32
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<128x32xf32, #gpu.address_space<workgroup>>
    %row = arith.muli %bx, %c128 : index
    %first = arith.cmpi eq, %bx, %c0 : index
    %W = arith.select %first, %X, %Z : memref<4096x64xf32>
    // expected-remark @below {{async copies stay cp.async, not the TMA: the kernel writes the tensor that a copy reads}}
    memref.store %one, %W[%row, %c0] : memref<4096x64xf32>
    tile.barrier
    tile.copy_async %X[%row, %c0] to %a : memref<4096x64xf32> to memref<128x32xf32, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
    tile.copy %a to %Y[%row, %c0] : memref<128x32xf32, #gpu.address_space<workgroup>> to memref<4096x64xf32>
  }
  return
}
// -----

// The same through a memref.memory_space_cast of X to a space of no tile.
func.func @reads_back_cast(%X: memref<4096x64xf32>, %Y: memref<4096x64xf32>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %one = arith.constant 1.0 : f32
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<128x32xf32, #gpu.address_space<workgroup>>
    %row = arith.muli %bx, %c128 : index
    %W = memref.memory_space_cast %X : memref<4096x64xf32> to memref<4096x64xf32, 1>
    // expected-remark @below {{async copies stay cp.async, not the TMA: the kernel writes the tensor that a copy reads}}
    memref.store %one, %W[%row, %c0] : memref<4096x64xf32, 1>
    tile.barrier
    tile.copy_async %X[%row, %c0] to %a : memref<4096x64xf32> to memref<128x32xf32, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
    tile.copy %a to %Y[%row, %c0] : memref<128x32xf32, #gpu.address_space<workgroup>> to memref<4096x64xf32>
  }
  return
}
// -----

// Rows of 12 f16 (24 bytes) are no TMA box row.
func.func @narrow_rows(%A: memref<64x512xf16>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c4) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<16x12xf16, #gpu.address_space<workgroup>>
    // expected-remark @below {{async copies stay cp.async, not the TMA: its shared tile's rows are 24 bytes (the TMA needs a multiple of 16)}}
    tile.copy_async %A[%c0, %c0] to %a : memref<64x512xf16> to memref<16x12xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
// -----

// Rows of 264 elements (528 bytes, a multiple of 16) are too long for a box.
func.func @wide_rows(%A: memref<64x528xf16>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c4) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<16x264xf16, #gpu.address_space<workgroup>>
    // expected-remark @below {{async copies stay cp.async, not the TMA: its shared tile's rows are 264 elements (a TMA box row holds at most 256)}}
    tile.copy_async %A[%c0, %c0] to %a : memref<64x528xf16> to memref<16x264xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// Copies into different tiles need no barrier between a wait and the next
// copies, but the TMA does: thread 0 would arm mbarrier g mod N for group
// g + N while another thread may still have to wait for group g, and that
// thread would then wait for a phase that never comes. cp.async groups are
// each thread's own.
func.func @commit_after_wait(%A: memref<4096x32xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c2) threads(128) as (%bx) {
    %t = tile.alloc_shared : memref<8x128x32xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c8 step %c1 {
      %row = arith.muli %k, %c128 : index
      %tk = memref.subview %t[%k, 0, 0] [1, 128, 32] [1, 1, 1] : memref<8x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.copy_async %A[%row, %c0] to %tk : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      // expected-remark @below {{async copies stay cp.async, not the TMA: a tile.commit_group follows a tile.wait_group with no tile.barrier between them, so thread 0 could arm an mbarrier again before another thread has waited for its previous phase}}
      tile.commit_group
      tile.wait_group 0
    }
    tile.barrier
  }
  return
}

// -----

// The branch without copies is evened out with an empty group (an arrival
// on the next mbarrier) at its end, after the wait and with no barrier
// between them: the same hazard, once the loop has used every mbarrier of
// the ring.
func.func @padding_after_wait(%A: memref<4096x32xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c2) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c8 step %c1 {
      %row = arith.muli %k, %c128 : index
      tile.barrier
      tile.copy_async %A[%row, %c0] to %a : memref<4096x32xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 0
    }
    %first = arith.cmpi ult, %bx, %c1 : index
    // expected-remark @below {{async copies stay cp.async, not the TMA: a branch that commits fewer groups than the other ends after a tile.wait_group with no tile.barrier, and the empty groups that even out the counts would follow it, so thread 0 could arm an mbarrier again before another thread has waited for its previous phase}}
    scf.if %first {
      tile.barrier
      tile.copy_async %A[%c128, %c0] to %b : memref<4096x32xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.commit_group
    }
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// The same in straight-line code: peak 1 gives a ring of 4 mbarriers, and
// the first four groups arm each for the first time. The fifth arms
// mbarrier 0 again with no barrier since the waits before it.
func.func @fifth_group(%A: memref<4096x32xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c2) threads(128) as (%bx) {
    %t = tile.alloc_shared : memref<5x128x32xf16, #gpu.address_space<workgroup>>
    %t0 = memref.subview %t[%c0, 0, 0] [1, 128, 32] [1, 1, 1] : memref<5x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    %t1 = memref.subview %t[%c1, 0, 0] [1, 128, 32] [1, 1, 1] : memref<5x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    %t2 = memref.subview %t[%c2, 0, 0] [1, 128, 32] [1, 1, 1] : memref<5x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    %t3 = memref.subview %t[%c3, 0, 0] [1, 128, 32] [1, 1, 1] : memref<5x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    %t4 = memref.subview %t[%c4, 0, 0] [1, 128, 32] [1, 1, 1] : memref<5x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy_async %A[%c0, %c0] to %t0 : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.copy_async %A[%c0, %c0] to %t1 : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.copy_async %A[%c0, %c0] to %t2 : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.copy_async %A[%c0, %c0] to %t3 : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.copy_async %A[%c0, %c0] to %t4 : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    // expected-remark @below {{async copies stay cp.async, not the TMA: a tile.commit_group follows a tile.wait_group with no tile.barrier between them}}
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
