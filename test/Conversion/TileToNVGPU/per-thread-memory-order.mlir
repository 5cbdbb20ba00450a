// RUN: tile-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect --tile-lower-to-nvgpu=chip=sm_90
//
// Memory that per-thread code writes makes per-thread only what is read
// from it afterwards: later in the kernel, or in a later iteration of a
// loop around both.

// A per-thread value stored after the last read of its buffer steers
// nothing: the read at the start of the kernel sees what the host wrote.
func.func @per_thread_store_after_read(%A: memref<128x32xf32>, %P: memref<2xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    %row = memref.load %P[%c0] : memref<2xindex>
    tile.copy %A[%row, %c0] to %s : memref<128x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
    %id = gpu.thread_id x
    %first = arith.cmpi eq, %id, %c0 : index
    scf.if %first {
      memref.store %id, %P[%c1] : memref<2xindex>
    }
  }
  return
}

// -----

// In a loop, the next iteration reads what this one stored.
func.func @per_thread_store_read_next_iteration(%A: memref<128x32xf32>, %P: memref<2xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %c4 step %c1 {
      %row = memref.load %P[%c0] : memref<2xindex>
      // expected-error @+1 {{tile ops here depend on the result of 'gpu.thread_id'}}
      tile.copy %A[%row, %c0] to %s : memref<128x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
      // expected-note @+1 {{'gpu.thread_id' is here}}
      %id = gpu.thread_id x
      memref.store %id, %P[%c0] : memref<2xindex>
    }
  }
  return
}

// -----

// An op that states no effects may write anything, and a load after it may
// read what it wrote.
func.func @unknown_effects_before_read(%A: memref<128x32xf32>, %P: memref<2xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    // expected-note @+1 {{'gpu.thread_id' is here}}
    %id = gpu.thread_id x
    "test.unknown"(%id) : (index) -> ()
    %row = memref.load %P[%c0] : memref<2xindex>
    // expected-error @+1 {{tile ops here depend on the result of 'gpu.thread_id'}}
    tile.copy %A[%row, %c0] to %s : memref<128x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// After the last tile op, an op of unknown effects taints nothing earlier.
func.func @unknown_effects_after_read(%A: memref<128x32xf32>, %P: memref<2xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    %row = memref.load %P[%c0] : memref<2xindex>
    tile.copy %A[%row, %c0] to %s : memref<128x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
    %id = gpu.thread_id x
    "test.unknown"(%id) : (index) -> ()
  }
  return
}

// -----

// An scf.while runs its regions again too.
func.func @per_thread_store_in_while(%A: memref<128x32xf32>, %P: memref<2xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    %n = scf.while (%i = %c0) : (index) -> index {
      %more = arith.cmpi slt, %i, %c4 : index
      scf.condition(%more) %i : index
    } do {
    ^bb0(%j: index):
      %row = memref.load %P[%c0] : memref<2xindex>
      // expected-error @+1 {{tile ops here depend on the result of 'gpu.thread_id'}}
      tile.copy %A[%row, %c0] to %s : memref<128x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
      // expected-note @+1 {{'gpu.thread_id' is here}}
      %id = gpu.thread_id x
      %first = arith.cmpi eq, %id, %c0 : index
      scf.if %first {
        memref.store %c1, %P[%c0] : memref<2xindex>
      }
      %next = arith.addi %j, %c1 : index
      scf.yield %next : index
    }
  }
  return
}

// -----

// A block that branches back to itself is a loop too: from its second trip
// on, the load reads each thread's own id.
func.func @cf_self_loop(%A: memref<256x32xf32>, %C: memref<32x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    %p = memref.alloca() : memref<1xindex>
    memref.store %c0, %p[%c0] : memref<1xindex>
    scf.execute_region {
      cf.br ^bb1(%c0 : index)
    ^bb1(%i: index):
      %row = memref.load %p[%c0] : memref<1xindex>
      // expected-error @+1 {{tile ops here depend on the result of 'gpu.thread_id'}}
      tile.copy %A[%row, %c0] to %s : memref<256x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
      tile.copy %s to %C : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<32x32xf32>
      // expected-note @+1 {{'gpu.thread_id' is here}}
      %id = gpu.thread_id x
      memref.store %id, %p[%c0] : memref<1xindex>
      %next = arith.addi %i, %c1 : index
      %more = arith.cmpi ult, %next, %c4 : index
      cf.cond_br %more, ^bb1(%next : index), ^bb2
    ^bb2:
      scf.yield
    }
  }
  return
}

// -----

// An scf.forall's iterations are parallel, without a back edge between
// them, but a thread runs them one after another.
func.func @forall(%A: memref<128x32xf32>, %P: memref<2xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    scf.forall (%i) in (4) {
      %row = memref.load %P[%c0] : memref<2xindex>
      // expected-error @+1 {{tile ops here depend on the result of 'gpu.thread_id'}}
      tile.copy %A[%row, %c0] to %s : memref<128x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
      // expected-note @+1 {{'gpu.thread_id' is here}}
      %id = gpu.thread_id x
      memref.store %id, %P[%c0] : memref<2xindex>
    }
  }
  return
}
