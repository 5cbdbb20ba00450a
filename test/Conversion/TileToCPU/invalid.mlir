// RUN: tile-opt --tile-lower-to-cpu --split-input-file --verify-diagnostics %s
// RUN: not tile-opt --tile-lower-to-cpu --split-input-file --mlir-print-ir-after-failure %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNCHANGED
// RUN: not tile-opt --tile-lower-to-cpu --split-input-file %s 2>&1 \
// RUN:   | FileCheck %s --check-prefix=GPU

// A memory space that is neither the default nor a #gpu.address_space has
// no CPU meaning: refuse rather than let the LLVM lowering give it a
// numbered address space the host cannot use. (The verifier refuses an
// allocation in such a space in a kernel; a cast makes one too.)
func.func @unknown_memory_space(%out: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    // expected-error @+1 {{cannot run on the CPU: memory space 3 : i64 has no CPU meaning (expected none or #gpu.address_space<...>)}}
    %buf = memref.memory_space_cast %out : memref<4xf32> to memref<4xf32, 3>
  }
  return
}

// -----

// The same for memory the kernel only uses: a function argument.
func.func @unknown_memory_space_argument(%buf: memref<4xf32, 3>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    // expected-error @+1 {{cannot run on the CPU: memory space 3 : i64 has no CPU meaning (expected none or #gpu.address_space<...>)}}
    %v = memref.load %buf[%c0] : memref<4xf32, 3>
    memref.store %v, %out[%c0] : memref<4xf32>
  }
  return
}

// -----

// The check looks at every kernel before anything is rewritten: after the
// failure the first kernel is still tile ops.
// UNCHANGED-LABEL: func.func @second_kernel
// UNCHANGED:       tile.kernel
// UNCHANGED-NEXT:    tile.alloc_fragment
// UNCHANGED-NEXT:    tile.clear
func.func @second_kernel(%A: memref<8xf32>, %out: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %t = tile.alloc_fragment : memref<8xf32, #gpu.address_space<private>>
    tile.clear %t : memref<8xf32, #gpu.address_space<private>>
  }
  tile.kernel grid(%c1) threads(32) as (%bx) {
    // expected-error @+1 {{memory space "host" has no CPU meaning}}
    %buf = memref.memory_space_cast %out : memref<4xf32> to memref<4xf32, "host">
  }
  return
}

// -----

// GPU ops inside a tile kernel are GPU code too: the CPU runs a block as one
// thread, and only the tile ops have a meaning there.
func.func @gpu_op_in_kernel(%o: memref<32xf32>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    // expected-error @+1 {{'gpu.thread_id' op is GPU code, which tile-lower-to-cpu cannot run: it runs tile kernels, so give it the module before the GPU lowering}}
    %tid = gpu.thread_id x
    %one = arith.constant 1.0 : f32
    memref.store %one, %o[%tid] : memref<32xf32>
  }
  return
}

// -----

// GPU code (here what tile-lower-to-nvgpu made of a kernel) cannot run on the
// CPU, and dropping its address spaces would make it invalid.
// The error comes without the gpu.module, all of its code, printed after it
// (this is the file's last case).
// GPU: error: 'gpu.module' op is GPU code, which tile-lower-to-cpu cannot run
// GPU-NOT: see current operation
// expected-error @+1 {{'gpu.module' op is GPU code, which tile-lower-to-cpu cannot run: it runs tile kernels, so give it the module before the GPU lowering}}
gpu.module @tile_kernels {
  gpu.func @k() kernel {
    %shared = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    gpu.return
  }
}
