// RUN: tile-opt %s --split-input-file --verify-diagnostics --tile-lower-to-nvgpu=chip=sm_90

func.func @strided_arg(%A: memref<64x64xf16, strided<[128, 1]>>) {
  %c1 = arith.constant 1 : index
  // expected-error @-2 {{kernel argument #0 ('memref<64x64xf16, strided<[128, 1]>>') must have the identity layout (the kernel ABI passes one pointer per memref, and its sizes where they are dynamic)}}
  // expected-note @+1 {{the kernel}}
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<64x64xf16, strided<[128, 1]>> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @empty_arg(%A: memref<64x0xf16>) {
  %c1 = arith.constant 1 : index
  // expected-error @-2 {{kernel argument #0 ('memref<64x0xf16>') has a dimension of size 0, which the GPU lowering does not support}}
  // expected-note @+1 {{the kernel}}
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.clear %s : memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Every memref argument is a kernel parameter, used or not.
func.func @no_llvm_element_type(%A: memref<64x32xtf32>, %B: memref<16x64xf16>) {
  %c1 = arith.constant 1 : index
  // expected-error @-2 {{kernel argument #0 ('memref<64x32xtf32>') has element type 'tf32', which has no LLVM type to pass it as}}
  // expected-note @+1 {{the kernel}}
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %B to %s : memref<16x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @string_memory_space(%A: memref<64x32xf16, "x">, %B: memref<16x64xf16>) {
  %c1 = arith.constant 1 : index
  // expected-error @-2 {{kernel argument #0 ('memref<64x32xf16, "x">') must be in global memory (no memory space or #gpu.address_space<global>): the host passes a global pointer for each}}
  // expected-note @+1 {{the kernel}}
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %B to %s : memref<16x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Lowered as it is, the kernel would read the host's pointer as an address
// in shared memory.
func.func @shared_memory_argument(%A: memref<16x64xf16, #gpu.address_space<workgroup>>, %C: memref<16x64xf16>) {
  %c1 = arith.constant 1 : index
  // expected-error @-2 {{kernel argument #0 ('memref<16x64xf16, #gpu.address_space<workgroup>>') must be in global memory}}
  // expected-note @+1 {{the kernel}}
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<16x64xf16, #gpu.address_space<workgroup>> to memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %s to %C : memref<16x64xf16, #gpu.address_space<workgroup>> to memref<16x64xf16>
  }
  return
}

// -----

// The error is at the op that uses the value, the note at where it comes
// from: an argument, or an op that is not pure.
// expected-note @+1 {{from argument #1}}
func.func @host_scalar(%A: memref<64x64xf16>, %row: index) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{kernel uses a host value that is neither a memref argument nor computable from constants and the memref arguments' sizes (the kernel ABI passes only memrefs and their dynamic sizes)}}
    tile.copy %A[%row, %c1] to %s : memref<64x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @host_load(%A: memref<64x64xf16>, %rows: memref<4xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{from this 'memref.load': the kernel recomputes only pure ops without regions (and arith's divisions)}}
  %row = memref.load %rows[%c0] : memref<4xindex>
  %next = arith.addi %row, %c1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{kernel uses a host value}}
    tile.copy %A[%next, %c0] to %s : memref<64x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A pure op, but the global it names stays in the host module: cloned into
// the GPU module, it would name nothing.
memref.global "private" constant @table : memref<4xindex> = dense<[0, 16, 32, 48]>

func.func @host_get_global(%A: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note @+1 {{from this 'memref.get_global', which refers to the symbol @table of the host module; the GPU module holds the kernel alone}}
  %table = memref.get_global @table : memref<4xindex>
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{kernel uses a host value}}
    %row = memref.load %table[%bx] : memref<4xindex>
    tile.copy %A[%row, %c0] to %s : memref<64x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @too_much_shared() {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{kernel needs 262144 bytes of shared memory but sm_90 allows 232448 per block}}
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<4x256x64xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<4x64x256xf16, #gpu.address_space<workgroup>>
    tile.clear %a : memref<4x256x64xf16, #gpu.address_space<workgroup>>
    tile.clear %b : memref<4x64x256xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// expected-note @+1 {{a scalar argument, which the launch description does not pass}}
func.func @host_grid(%A: memref<64x64xf16>, %n: index) {
  // expected-error @+1 {{grid size in x must be a positive constant, or computed from constants and the sizes of the memref arguments (memref.dim) with arith's ceildiv, div, min, muli, addi and subi: the launch description can say no more}}
  tile.kernel grid(%n) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<64x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// An op that a formula has no spelling for.
func.func @grid_max(%A: memref<?x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %m = memref.dim %A, %c0 : memref<?x64xf16>
  %t = arith.ceildivui %m, %c32 : index
  // expected-note @+1 {{'arith.maxui', which a formula cannot hold}}
  %g = arith.maxui %t, %c1 : index
  // expected-error @+1 {{grid size in y must be a positive constant}}
  tile.kernel grid(%c1, %g) threads(32) as (%bx, %by) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<?x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Each step doubles the formula (an SSA value used twice is spelled twice):
// 2^20 operations are not written out.
func.func @grid_formula_too_long(%A: memref<?x64xf16>) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %A, %c0 : memref<?x64xf16>
  %d1 = arith.addi %m, %m : index
  %d2 = arith.addi %d1, %d1 : index
  %d3 = arith.addi %d2, %d2 : index
  %d4 = arith.addi %d3, %d3 : index
  %d5 = arith.addi %d4, %d4 : index
  %d6 = arith.addi %d5, %d5 : index
  %d7 = arith.addi %d6, %d6 : index
  %d8 = arith.addi %d7, %d7 : index
  %d9 = arith.addi %d8, %d8 : index
  %d10 = arith.addi %d9, %d9 : index
  %d11 = arith.addi %d10, %d10 : index
  %d12 = arith.addi %d11, %d11 : index
  %d13 = arith.addi %d12, %d12 : index
  %d14 = arith.addi %d13, %d13 : index
  %d15 = arith.addi %d14, %d14 : index
  %d16 = arith.addi %d15, %d15 : index
  %d17 = arith.addi %d16, %d16 : index
  %d18 = arith.addi %d17, %d17 : index
  %d19 = arith.addi %d18, %d18 : index
  %d20 = arith.addi %d19, %d19 : index
  // expected-error @+1 {{grid size in x is a formula of more than 200 operations: the launch description can say no more}}
  tile.kernel grid(%d20) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<?x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @grid_above_limit_x(%A: memref<64x64xf16>) {
  %n = arith.constant 2147483648 : index
  // expected-error @+1 {{grid size 2147483648 in x is above CUDA's limit of 2147483647 blocks}}
  tile.kernel grid(%n) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<64x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @grid_above_limit_y(%A: memref<64x64xf16>) {
  %c1 = arith.constant 1 : index
  %n = arith.constant 70000 : index
  // expected-error @+1 {{grid size 70000 in y is above CUDA's limit of 65535 blocks}}
  tile.kernel grid(%c1, %n) threads(32) as (%bx, %by) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<64x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// The lowering sizes chunks, swizzles and registers by the element's byte
// size, which index does not have on the GPU (the CPU lowering takes it).
func.func @index_tile(%A: memref<64x64xindex>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.alloc_shared' op uses a memref of 'index' elements; the GPU lowering handles integer and float elements of 1, 2, 4 or 8 bytes only}}
    %S = tile.alloc_shared : memref<64x64xindex, #gpu.address_space<workgroup>>
    tile.copy %A to %S : memref<64x64xindex> to memref<64x64xindex, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A 3-byte element: a vector of them is packed (6 bytes for two), but a
// memref spaces them 4 bytes apart, so a chunk would read the wrong bytes.
func.func @i24_tensor(%A: memref<256x512xi24>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.alloc_shared' op uses a memref of 'i24' elements; the GPU lowering handles integer and float elements of 1, 2, 4 or 8 bytes only}}
    %T = tile.alloc_shared : memref<32x128xi24, #gpu.address_space<workgroup>>
    tile.copy %A[%c0, %c0] to %T : memref<256x512xi24> to memref<32x128xi24, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// An i1 element has no byte size: the chunk arithmetic would divide by 0.
func.func @i1_tensor(%A: memref<256x512xi1>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.alloc_shared' op uses a memref of 'i1' elements; the GPU lowering handles integer and float elements of 1, 2, 4 or 8 bytes only}}
    %T = tile.alloc_shared : memref<32x128xi1, #gpu.address_space<workgroup>>
    tile.copy_async %A[%c0, %c0] to %T : memref<256x512xi1> to memref<32x128xi1, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Only the kernel's body moves into the GPU module: a function it calls
// would not be there.
func.func private @opaque()
func.func @calls_function() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    // expected-error @+1 {{'func.call' op refers to the symbol @opaque, which the GPU lowering does not bring into the GPU module with the kernel; inline calls and use tensors passed as arguments}}
    func.call @opaque() : () -> ()
  }
  return
}

// -----

func.func @bad_divisibility(%A: memref<?x64xf16> {tile.divisibility = 0 : i64}) {
  %c1 = arith.constant 1 : index
  // expected-error @-2 {{kernel argument #0 has tile.divisibility = 0 : i64, not an integer in 1..2^30}}
  // expected-note @+1 {{the kernel}}
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<?x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @divisibility_not_integer(%A: memref<?x64xf16> {tile.divisibility = "8"}) {
  %c1 = arith.constant 1 : index
  // expected-error @-2 {{kernel argument #0 has tile.divisibility = "8", not an integer in 1..2^30}}
  // expected-note @+1 {{the kernel}}
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<?x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// The kernels' gpu.module goes into the top-level module, where a launch in
// a nested module could not refer to it.
module {
  module @inner {
    func.func @nested(%A: memref<16x64xf16>) {
      %c1 = arith.constant 1 : index
      // expected-error @+1 {{'tile.kernel' op is inside a nested module; the GPU lowering compiles the kernels of the top-level module only (their gpu.module goes there)}}
      tile.kernel grid(%c1) threads(32) as (%bx) {
        %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
        tile.copy %A to %s : memref<16x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
      }
      return
    }
  }
}

// -----

// The kernel becomes the PTX entry "a.b_kernel", which ptxas would refuse
// (and a name such as "kä" stops LLVM's NVPTX printer).
// expected-error @+1 {{'func.func' op name "a.b" cannot name a GPU kernel: its kernel is a PTX entry named after it, and PTX names are ASCII letters, digits, '_' and '$', not starting with a digit}}
func.func @"a.b"(%A: memref<16x64xf16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<16x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// expected-error @+1 {{'func.func' op name "kä" cannot name a GPU kernel}}
func.func @"kä"(%A: memref<16x64xf16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<16x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// expected-error @+1 {{'func.func' op name "2d" cannot name a GPU kernel}}
func.func @"2d"(%A: memref<16x64xf16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<16x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// The launch description is words separated by spaces.
func.func @name_with_space(%A: memref<16x64xf16> {tile.name = "A b"}) {
  %c1 = arith.constant 1 : index
  // expected-error @-2 {{kernel argument #0 has tile.name = "A b", which cannot name it in the launch description: a name is a string of ASCII letters, digits and '_', not starting with a digit}}
  // expected-note @+1 {{the kernel}}
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<16x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @name_not_string(%A: memref<16x64xf16>, %B: memref<16x64xf16> {tile.name = 7}) {
  %c1 = arith.constant 1 : index
  // expected-error @-2 {{kernel argument #1 has tile.name = 7 : i64, which cannot name it in the launch description}}
  // expected-note @+1 {{the kernel}}
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<16x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// The second memref is B by default: two parameters of one name, which
// tile-run would refuse.
func.func @same_name(%A: memref<16x64xf16> {tile.name = "B"}, %x: index, %B: memref<16x64xf16>) {
  %c1 = arith.constant 1 : index
  // expected-error @-2 {{kernel arguments #0 and #2 are both named 'B' in the launch description (the name is the argument's tile.name, else A, B, C, ... by its place among the memrefs)}}
  // expected-note @-3 {{argument #0}}
  // expected-note @+1 {{the kernel}}
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<16x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// The kernels go into a gpu.module of this name, which a function has taken.
// expected-error @+1 {{'func.func' op is named @tile_kernels, the name of the gpu.module that tile-lower-to-nvgpu puts the kernels in; rename it}}
func.func @tile_kernels(%A: memref<16x64xf16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<16x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// The launch description's `divisible` takes 1..2^30.
func.func @divisibility_too_large(%A: memref<?x64xf16> {tile.divisibility = 4294967296 : i64}) {
  %c1 = arith.constant 1 : index
  // expected-error @-2 {{kernel argument #0 has tile.divisibility = 4294967296 : i64, not an integer in 1..2^30}}
  // expected-note @+1 {{the kernel}}
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<?x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Every thread runs the atomic and gets a result of its own, so the tile ops
// under the branch would run in some threads only (and a barrier there
// would hang the block).
func.func @atomic_steers_tile_ops(%A: memref<64x64xf16>, %Q: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %four = arith.constant 4 : i32
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    // expected-note @+1 {{'memref.atomic_rmw' is here}}
    %t = memref.atomic_rmw addi %one, %Q[%c0] : (i32, memref<1xi32>) -> i32
    %p = arith.cmpi slt, %t, %four : i32
    // expected-error @+1 {{tile ops here depend on the result of 'memref.atomic_rmw', which each thread runs on the GPU with a result of its own; every thread of the block must run tile ops together}}
    scf.if %p {
      tile.copy %A to %s : memref<64x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

// Thread 0 alone would run the copies, and the barrier between them.
func.func @thread_id_steers_tile_ops(%A: memref<32x32xf32>, %B: memref<32x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    // expected-note @+1 {{'gpu.thread_id' is here}}
    %t = gpu.thread_id x
    %first = arith.cmpi eq, %t, %c0 : index
    // expected-error @+1 {{tile ops here depend on the result of 'gpu.thread_id', which each thread runs on the GPU with a result of its own; every thread of the block must run tile ops together}}
    scf.if %first {
      tile.copy %A to %s : memref<32x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
      tile.copy %s to %B : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<32x32xf32>
    }
  }
  return
}

// -----

// A copy offset computed from a lane's shuffled value: each thread would
// copy another tile's share.
func.func @shuffle_steers_offset(%A: memref<64x64xf16>, %x: i32) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : i32
  %one = arith.constant 1 : i32
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    // expected-note @+1 {{'gpu.shuffle' is here}}
    %v, %ok = gpu.shuffle xor %x, %one, %c32 : i32
    %row = arith.index_cast %v : i32 to index
    // expected-error @+1 {{tile ops here depend on the result of 'gpu.shuffle'}}
    tile.copy %A[%row, %bx] to %s : memref<64x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Through an scf.if's yield, a loop's iteration argument and memory: the
// value is still each thread's own.
func.func @thread_id_through_yield(%A: memref<32x32xf32>, %B: memref<32x32xf32>, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    %t = scf.if %p -> index {
      // expected-note @+1 {{'gpu.thread_id' is here}}
      %id = gpu.thread_id x
      scf.yield %id : index
    } else {
      scf.yield %c0 : index
    }
    %first = arith.cmpi eq, %t, %c0 : index
    // expected-error @+1 {{tile ops here depend on the result of 'gpu.thread_id'}}
    scf.if %first {
      tile.copy %A to %s : memref<32x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @thread_id_through_iter_arg(%A: memref<32x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    // expected-note @+1 {{'gpu.thread_id' is here}}
    %id = gpu.thread_id x
    %n = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %id) -> index {
      %next = arith.addi %acc, %c1 : index
      scf.yield %next : index
    }
    // expected-error @+1 {{tile ops here depend on the result of 'gpu.thread_id'}}
    scf.for %j = %c0 to %n step %c1 {
      tile.copy %A to %s : memref<32x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @thread_id_through_memory(%A: memref<32x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    %scratch = memref.alloca() : memref<1xindex>
    // expected-note @+1 {{'gpu.thread_id' is here}}
    %id = gpu.thread_id x
    memref.store %id, %scratch[%c0] : memref<1xindex>
    %back = memref.load %scratch[%c0] : memref<1xindex>
    // expected-error @+1 {{tile ops here depend on the result of 'gpu.thread_id'}}
    tile.copy %A[%back, %c0] to %s : memref<32x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// An scf.while whose condition is each thread's own: its result (the trip
// count) is too, though the values it carries are not.
func.func @thread_id_in_while_condition(%A: memref<128x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    // expected-note @+1 {{'gpu.thread_id' is here}}
    %id = gpu.thread_id x
    %r = scf.while (%i = %c0) : (index) -> index {
      %more = arith.cmpi slt, %i, %id : index
      scf.condition(%more) %i : index
    } do {
    ^bb0(%j: index):
      %next = arith.addi %j, %c1 : index
      scf.yield %next : index
    }
    // expected-error @+1 {{tile ops here depend on the result of 'gpu.thread_id'}}
    tile.copy %A[%r, %c0] to %s : memref<128x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// The same value stored at each thread's own index of its own scratch
// buffer: slot 0 holds it in thread 0 only.
func.func @store_at_thread_index(%A: memref<32x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    %scratch = memref.alloca() : memref<128xindex>
    memref.store %c0, %scratch[%c0] : memref<128xindex>
    // expected-note @+1 {{'gpu.thread_id' is here}}
    %id = gpu.thread_id x
    memref.store %c1, %scratch[%id] : memref<128xindex>
    %v = memref.load %scratch[%c0] : memref<128xindex>
    %p = arith.cmpi eq, %v, %c1 : index
    // expected-error @+1 {{tile ops here depend on the result of 'gpu.thread_id'}}
    scf.if %p {
      tile.copy %A to %s : memref<32x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

// Through a memref.copy from one scratch buffer into another.
func.func @thread_id_through_memref_copy(%A: memref<128x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    %a = memref.alloca() : memref<1xindex>
    %b = memref.alloca() : memref<1xindex>
    // expected-note @+1 {{'gpu.thread_id' is here}}
    %id = gpu.thread_id x
    memref.store %id, %a[%c0] : memref<1xindex>
    memref.copy %a, %b : memref<1xindex> to memref<1xindex>
    %v = memref.load %b[%c0] : memref<1xindex>
    // expected-error @+1 {{tile ops here depend on the result of 'gpu.thread_id'}}
    tile.copy %A[%v, %c0] to %s : memref<128x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// One elected lane per warp would run the copy.
func.func @elect_sync(%A: memref<32x32xf32>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    // expected-note @+1 {{'nvvm.elect.sync' is here}}
    %e = nvvm.elect.sync -> i1
    // expected-error @+1 {{tile ops here depend on the result of 'nvvm.elect.sync'}}
    scf.if %e {
      tile.copy %A to %s : memref<32x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

// Through an scf.parallel's reduction.
func.func @thread_id_in_reduction(%A: memref<128x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    %r = scf.parallel (%i) = (%c0) to (%c4) step (%c1) init (%c0) -> index {
      scf.reduce(%i : index) {
      ^bb0(%a: index, %b: index):
        // expected-note @+1 {{'gpu.thread_id' is here}}
        %id = gpu.thread_id x
        %sum = arith.addi %a, %id : index
        scf.reduce.return %sum : index
      }
    }
    // expected-error @+1 {{tile ops here depend on the result of 'gpu.thread_id'}}
    tile.copy %A[%r, %c0] to %s : memref<128x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Half the threads leave: the others would run the copies alone.
func.func @exit_under_thread_id(%A: memref<32x32xf32>, %B: memref<32x32xf32>) {
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    // expected-note @+1 {{'gpu.thread_id' is here}}
    %id = gpu.thread_id x
    %late = arith.cmpi uge, %id, %c64 : index
    scf.if %late {
      // expected-error @+1 {{threads leave here depending on the result of 'gpu.thread_id', which each thread runs on the GPU with a result of its own; the others would run the tile ops after it alone}}
      nvvm.exit
    }
    tile.copy %A to %s : memref<32x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
    tile.copy %s to %B : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<32x32xf32>
  }
  return
}

// -----

// An exit at the end of a loop's body: the next iteration's copies would run
// without the threads that left.
func.func @exit_in_loop(%A: memref<32x32xf32>, %B: memref<32x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    // expected-note @+1 {{'gpu.thread_id' is here}}
    %id = gpu.thread_id x
    %late = arith.cmpi uge, %id, %c64 : index
    scf.for %i = %c0 to %c4 step %c1 {
      tile.copy %A to %s : memref<32x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
      tile.copy %s to %B : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<32x32xf32>
      scf.if %late {
        // expected-error @+1 {{threads leave here depending on the result of 'gpu.thread_id'}}
        nvvm.exit
      }
    }
  }
  return
}

// -----

// Inline assembly may read anything, %tid.x included.
func.func @inline_asm(%A: memref<128x32xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    // expected-note @+1 {{'llvm.inline_asm' is here}}
    %r = llvm.inline_asm "mov.u32 $0, %tid.x;", "=r" : () -> i32
    %v = arith.index_cast %r : i32 to index
    // expected-error @+1 {{tile ops here depend on the result of 'llvm.inline_asm'}}
    tile.copy %A[%v, %c0] to %s : memref<128x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A per-thread counter carried through an affine.for of copies, as through
// an scf.for below, steers none of them.
func.func @thread_id_in_affine_counter(%A: memref<32x32xf32>, %Q: memref<128xindex>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    %id = gpu.thread_id x
    %n = affine.for %i = 0 to 4 iter_args(%acc = %id) -> index {
      tile.copy %A to %s : memref<32x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
      %next = arith.addi %acc, %c1 : index
      affine.yield %next : index
    }
    memref.store %n, %Q[%id] : memref<128xindex>
  }
  return
}

// -----

// A per-thread counter carried through a loop of copies steers none of
// them: every thread runs every copy, at offsets from the induction
// variable and a uniform iteration argument beside the counter.
func.func @thread_id_in_loop_carried_counter(%A: memref<128x32xf32>, %Q: memref<128xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf32, #gpu.address_space<workgroup>>
    %id = gpu.thread_id x
    %n, %end = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %id, %col = %c0) -> (index, index) {
      %row = arith.muli %i, %c32 : index
      tile.copy %A[%row, %col] to %s : memref<128x32xf32> to memref<32x32xf32, #gpu.address_space<workgroup>>
      %next = arith.addi %acc, %c1 : index
      scf.yield %next, %col : index, index
    }
    memref.store %n, %Q[%id] : memref<128xindex>
  }
  return
}

// -----

// A thread's own use of its index, steering no tile op, is fine: every
// thread stores the same block-level value after the copy.
func.func @thread_id_alone(%A: memref<64x64xf16>, %Q: memref<128xindex>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    %t = gpu.thread_id x
    tile.copy %A to %s : memref<64x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
    memref.store %bx, %Q[%t] : memref<128xindex>
  }
  return
}

// -----

// An atomic whose result steers no tile op is each thread's own business.
func.func @atomic_alone(%A: memref<64x64xf16>, %Q: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    %t = memref.atomic_rmw addi %one, %Q[%c0] : (i32, memref<1xi32>) -> i32
    tile.copy %A to %s : memref<64x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// The block's place is the kernel's block indices: tile-persistent-blocks,
// tile-split-accumulators, block-group and clusters remap them, and the
// hardware's block index is then another block's (offsets from it computed
// one tile twice and others never, with no diagnostic).
func.func @hardware_block_id(%A: memref<64x64xf16>) {
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c2) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'gpu.block_id' op reads the hardware's block position, which is not the tile.kernel's: the block indices of the kernel's region are (tile-split-accumulators, tile-persistent-blocks, block-group and clusters remap them); use those}}
    %b = gpu.block_id x
    %row = arith.muli %b, %c32 : index
    tile.copy %A[%row, %bx] to %s : memref<64x64xf16> to memref<32x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @hardware_cluster_id(%A: memref<64x64xf16>) {
  %c2 = arith.constant 2 : index
  tile.kernel grid(%c2) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'gpu.cluster_block_id' op reads the hardware's block position}}
    %b = gpu.cluster_block_id x
    tile.copy %A[%b, %bx] to %s : memref<64x64xf16> to memref<32x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// The PTX special register behind gpu.block_id, read through NVVM.
func.func @hardware_ctaid(%A: memref<64x64xf16>) {
  %c2 = arith.constant 2 : index
  tile.kernel grid(%c2) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'nvvm.read.ptx.sreg.ctaid.y' op reads the hardware's block position}}
    %b = nvvm.read.ptx.sreg.ctaid.y : i32
    %i = arith.index_cast %b : i32 to index
    tile.copy %A[%i, %bx] to %s : memref<64x64xf16> to memref<32x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A thread's own index is each thread's business, as any scalar op's.
func.func @thread_id_alone(%A: memref<64x64xf16>, %O: memref<64xindex>) {
  %c2 = arith.constant 2 : index
  tile.kernel grid(%c2) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    %t = gpu.thread_id x
    memref.store %t, %O[%t] : memref<64xindex>
    tile.copy %A[%bx, %bx] to %s : memref<64x64xf16> to memref<32x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A host loop's induction variable is no kernel parameter either; the note
// does not call it an argument of the function.
func.func @grid_from_host_loop(%A: memref<64x64xf16>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-note @+1 {{a block argument of this 'scf.for', which a formula cannot hold}}
  scf.for %i = %c1 to %c4 step %c1 {
    // expected-error @+1 {{grid size in x must be a positive constant}}
    tile.kernel grid(%i) threads(32) as (%bx) {
      %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
      tile.copy %A to %s : memref<64x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

func.func @offset_from_host_loop(%A: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-note @+1 {{from a block argument of this 'scf.for'}}
  scf.for %i = %c0 to %c4 step %c1 {
    tile.kernel grid(%c1) threads(32) as (%bx) {
      %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
      // expected-error @+1 {{kernel uses a host value}}
      tile.copy %A[%i, %c0] to %s : memref<64x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

// Only tile-software-pipeline places the barriers between a pipelined
// loop's statements; lowered as it stands, the copy would race with the
// store that reads the tile.
func.func @unexpanded_pipelined_loop(%A: memref<256x32xf16>, %C: memref<256x32xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.pipelined' op reaches the GPU lowering unexpanded; run --tile-software-pipeline first (after --tile-pipeline-planning where the loop gives only num_stages): it expands the loop with the barriers its statements need, which this lowering does not place}}
    tile.pipelined %c0 to %c8 step %c1 as (%k) {
      %row = arith.muli %k, %c32 : index
      tile.copy %A[%row, %c0] to %s : memref<256x32xf16> to memref<32x32xf16, #gpu.address_space<workgroup>>
      tile.copy %s to %C[%row, %c0] : memref<32x32xf16, #gpu.address_space<workgroup>> to memref<256x32xf16>
    }
  }
  return
}
