// Every verifier message of the tile dialect, each at the op it concerns.
// RUN: tile-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect

func.func @alloc_outside_kernel() {
  // expected-error @+1 {{'tile.alloc_shared' op must be nested inside a 'tile.kernel'}}
  %s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @copy_outside_kernel(%A: memref<64x32xf16>, %s: memref<64x32xf16, #gpu.address_space<workgroup>>) {
  // expected-error @+1 {{'tile.copy' op must be nested inside a 'tile.kernel'}}
  tile.copy %A to %s : memref<64x32xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
  return
}

// -----

func.func @sync_outside_kernel() {
  // expected-error @+1 {{'tile.barrier' op must be nested inside a 'tile.kernel'}}
  tile.barrier
  return
}

// -----

func.func @commit_outside_kernel() {
  // expected-error @+1 {{'tile.commit_group' op must be nested inside a 'tile.kernel'}}
  tile.commit_group
  return
}

// -----

func.func @pipelined_outside_kernel(%n: index) {
  // expected-error @+1 {{'tile.pipelined' op must be nested inside a 'tile.kernel'}}
  tile.pipelined %n to %n step %n as (%k) {
  }
  return
}

// -----

func.func @threads_not_warp_multiple(%n: index) {
  // expected-error @+1 {{threads must be a positive multiple of 32 (the warp size), got 100}}
  tile.kernel grid(%n) threads(100) as (%bx) {
  }
  return
}

// -----

func.func @threads_zero(%n: index) {
  // expected-error @+1 {{threads must be a positive multiple of 32 (the warp size), got 0}}
  tile.kernel grid(%n) threads(0) as (%bx) {
  }
  return
}

// -----

func.func @threads_over_block_limit(%n: index) {
  // expected-error @+1 {{threads must be at most 1024 (the most a block can have), got 1056}}
  tile.kernel grid(%n) threads(1056) as (%bx) {
  }
  return
}

// -----

func.func @threads_not_integer(%n: index) {
  // expected-error @+1 {{floating point value not valid for specified type}}
  tile.kernel grid(%n) threads(1.5) as (%bx) {
  }
  return
}

// -----

func.func @grid_size_not_positive() {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{grid size #0 must be positive, got 0}}
  tile.kernel grid(%c0) threads(128) as (%bx) {
  }
  return
}

// -----

func.func @grid_too_many_dims(%n: index) {
  // expected-error @+1 {{expects 1 to 3 grid sizes, got 4}}
  tile.kernel grid(%n, %n, %n, %n) threads(128) as (%a, %b, %c, %d) {
  }
  return
}

// -----

func.func @grid_args_mismatch(%n: index) {
  // expected-error @+1 {{expects 2 block indices (one per grid dimension) as region arguments, got 1}}
  "tile.kernel"(%n, %n) <{threads = 128 : i64}> ({
  ^bb0(%bx: index):
  }) : (index, index) -> ()
  return
}

// -----

func.func @grid_arg_not_index(%n: index) {
  // expected-error @+1 {{region argument #0 must be of index type, got 'i32'}}
  "tile.kernel"(%n) <{threads = 128 : i64}> ({
  ^bb0(%bx: i32):
  }) : (index) -> ()
  return
}

// -----

// Both lowerings rewrite the function around a kernel: the GPU's into a
// launch, the CPU's into loops (which, as blocks, a module cannot hold).
%c1 = arith.constant 1 : index
// expected-error @+1 {{'tile.kernel' op must be inside a function: its memref arguments are the kernel's}}
tile.kernel grid(%c1) threads(32) as (%bx) {
}

// -----

func.func @nested_kernel(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.kernel' op cannot be nested inside another 'tile.kernel'}}
    tile.kernel grid(%n) threads(128) as (%by) {
    }
  }
  return
}

// -----

module attributes {gpu.container_module} {
  gpu.module @device {
    gpu.func @f(%n: index) kernel {
      // expected-error @+1 {{'tile.kernel' op cannot be inside a 'gpu.module': a kernel is launched from host code}}
      tile.kernel grid(%n) threads(128) as (%bx) {
      }
      gpu.return
    }
  }
}

// -----

// Ops of a kernel body that are not tile ops run in every thread on the GPU:
// the buffer would be each thread's own, not the block's.
func.func @memref_alloc_shared(%n: index, %c: i1) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    scf.if %c {
      // expected-error @+1 {{'memref.alloca' op allocates shared memory inside a 'tile.kernel', where it runs in every thread (one buffer per thread on the GPU); allocate shared tiles with 'tile.alloc_shared'}}
      %s = memref.alloca() : memref<64x32xf16, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

// The GPU lowering carves the dynamic shared memory into the tiles: a view
// of it at offset 0 is the first tile.
func.func @dynamic_shared_memory(%n: index) {
  %c0 = arith.constant 0 : index
  tile.kernel grid(%n) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<8x8xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'gpu.dynamic_shared_memory' op gives shared memory inside a 'tile.kernel' that is not a 'tile.alloc_shared' tile: the lowering lays out the block's shared memory for those tiles alone}}
    %raw = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
    %v = memref.view %raw[%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<8x8xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

memref.global "private" @buffer : memref<8x8xf32, #gpu.address_space<workgroup>>

func.func @shared_global(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'memref.get_global' op gives shared memory inside a 'tile.kernel' that is not a 'tile.alloc_shared' tile}}
    %g = memref.get_global @buffer : memref<8x8xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @memref_alloc_tile_operand(%A: memref<64x32xf16>, %n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'memref.alloc' op allocates a buffer that 'tile.copy' uses, inside a 'tile.kernel', where it runs in every thread (one buffer per thread on the GPU); tile ops work on tiles of 'tile.alloc_shared' or 'tile.alloc_fragment' and on the kernel's tensors}}
    %g = memref.alloc() : memref<64x32xf16>
    %v = memref.subview %g[0, 0] [32, 32] [1, 1] : memref<64x32xf16> to memref<32x32xf16, strided<[32, 1]>>
    %s = tile.alloc_shared : memref<32x32xf16, #gpu.address_space<workgroup>>
    // expected-note @+1 {{used here}}
    tile.copy %v to %s : memref<32x32xf16, strided<[32, 1]>> to memref<32x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Through an arith.select, as through a view.
func.func @memref_alloca_selected(%A: memref<16x16xf16>, %n: index, %p: i1) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'memref.alloca' op allocates a buffer that 'tile.copy' uses}}
    %x = memref.alloca() : memref<16x16xf16>
    %y = memref.alloca() : memref<16x16xf16>
    %z = arith.select %p, %x, %y : memref<16x16xf16>
    // expected-note @+1 {{used here}}
    tile.copy %s to %z : memref<16x16xf16, #gpu.address_space<workgroup>> to memref<16x16xf16>
  }
  return
}

// -----

// Through a loop's iteration argument: from the second iteration on, the
// copy writes the per-thread buffer.
func.func @memref_alloca_iter_arg(%A: memref<16x16xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tile.kernel grid(%n) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'memref.alloca' op allocates a buffer that 'tile.copy' uses}}
    %x = memref.alloca() : memref<16x16xf16>
    %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%b = %A) -> memref<16x16xf16> {
      // expected-note @+1 {{used here}}
      tile.copy %s to %b : memref<16x16xf16, #gpu.address_space<workgroup>> to memref<16x16xf16>
      scf.yield %x : memref<16x16xf16>
    }
  }
  return
}

// -----

// Memory space 3 is shared memory to NVPTX, unknown to the tile dialect.
func.func @memref_alloca_integer_space(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'memref.alloca' op allocates memory in memory space 3 : i64 inside a 'tile.kernel', which the lowerings do not know: a kernel's memrefs are in no space or a '#gpu.address_space'}}
    %x = memref.alloca() : memref<128xf32, 3>
  }
  return
}

// -----

func.func @memref_alloca_fragment(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'memref.alloca' op allocates a buffer that 'tile.clear' uses}}
    %f = memref.alloca() : memref<16x16xf32, #gpu.address_space<private>>
    // expected-note @+1 {{used here}}
    tile.clear %f : memref<16x16xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @alloc_shared_in_global(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.alloc_shared' op must allocate in #gpu.address_space<workgroup>, got global memory}}
    %s = tile.alloc_shared : memref<64x32xf16>
  }
  return
}

// -----

func.func @alloc_fragment_in_shared(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.alloc_fragment' op must allocate in #gpu.address_space<private>, got shared memory}}
    %f = tile.alloc_fragment : memref<64x32xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @alloc_unsupported_space(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.alloc_shared' op must allocate in #gpu.address_space<workgroup>, got unsupported memory space 3 : i64}}
    %s = tile.alloc_shared : memref<64x32xf16, 3>
  }
  return
}

// -----

func.func @alloc_zero_size(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{tile dimension #1 must be positive, got 0}}
    %s = tile.alloc_shared : memref<64x0xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Zero-bit elements have no bytes to size a tile by.
func.func @alloc_zero_bit_elements(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.alloc_shared' op has 'i0' elements; a tile element has at least one bit}}
    %s = tile.alloc_shared : memref<4xi0, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Sizes that would wrap the byte counts of later passes: 2^32 x 2^32
// elements, and 2^31 f32 elements (2^33 bytes).
func.func @alloc_too_large(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{tile of type 'memref<4294967296x4294967296xf16, #gpu.address_space<workgroup>>' is too large: a tile holds at most 2^32 bytes}}
    %s = tile.alloc_shared : memref<4294967296x4294967296xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @alloc_too_many_bytes(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{tile of type 'memref<65536x32768xf32, #gpu.address_space<private>>' is too large: a tile holds at most 2^32 bytes}}
    %f = tile.alloc_fragment : memref<65536x32768xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @alloc_dynamic_size(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{must be statically shaped memref of any type values}}
    %s = tile.alloc_shared : memref<?x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @alloc_strided(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{tiles must have the identity layout}}
    %s = tile.alloc_shared : memref<64x32xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @clear_global(%n: index, %A: memref<64x64xf32>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.clear' op expects a shared or fragment tile, got global memory}}
    tile.clear %A : memref<64x64xf32>
  }
  return
}

// -----

func.func @copy_element_mismatch(%n: index, %A: memref<64x32xi32>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{element type mismatch: source has 'i32', destination has 'f16' (only f16, bf16, f32 and f64 convert into each other)}}
    tile.copy %A to %s : memref<64x32xi32> to memref<64x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Tiles hold scalars: neither lowering has a zero or a chunk of a complex.
func.func @complex_tile(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.alloc_shared' op has 'complex<f32>' elements; tiles and the tensors that tile copies read and write hold integer, index or float elements}}
    %s = tile.alloc_shared : memref<32x128xcomplex<f32>, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// arith's integers are signless: neither lowering can make a zero of ui8.
func.func @unsigned_tile(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.alloc_shared' op has 'ui8' elements; tile integers are signless (i8, i16, ...), as arith's are}}
    %s = tile.alloc_shared : memref<16x16xui8, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @signed_tensor(%n: index, %A: memref<64x32xsi16>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<64x32xi16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op has 'si16' elements; tile integers are signless (i8, i16, ...), as arith's are}}
    tile.copy %A to %s : memref<64x32xsi16> to memref<64x32xi16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A shared tile of complex elements can only come in as an argument
// (tile.alloc_shared refuses it); clearing one is refused the same way.
func.func @clear_complex(%n: index, %t: memref<4xcomplex<f32>, #gpu.address_space<workgroup>>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.clear' op has 'complex<f32>' elements; tiles and the tensors that tile copies read and write hold integer, index or float elements}}
    tile.clear %t : memref<4xcomplex<f32>, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @clear_without_zero(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<16x16xf8E8M0FNU, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.clear' op clears a tile of 'f8E8M0FNU' elements, which have no zero}}
    tile.clear %s : memref<16x16xf8E8M0FNU, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @vector_tensor(%n: index, %A: memref<64x32xvector<4xf32>>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<64x32xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op has 'vector<4xf32>' elements; tiles and the tensors that tile copies read and write hold integer, index or float elements}}
    tile.copy %A to %s : memref<64x32xvector<4xf32>> to memref<64x32xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// LLVM has no f8 type to truncate an f32 accumulator to.
func.func @copy_to_f8(%n: index, %C: memref<64x32xf8E4M3FN>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %f = tile.alloc_fragment : memref<64x32xf32, #gpu.address_space<private>>
    // expected-error @+1 {{element type mismatch: source has 'f32', destination has 'f8E4M3FN' (only f16, bf16, f32 and f64 convert into each other)}}
    tile.copy %f to %C : memref<64x32xf32, #gpu.address_space<private>> to memref<64x32xf8E4M3FN>
  }
  return
}

// -----

func.func @copy_rank_mismatch(%n: index, %A: memref<64xf16>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{rank mismatch: source has rank 1, destination has rank 2}}
    tile.copy %A[%n] to %s : memref<64xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @copy_source_offsets(%n: index, %A: memref<256x256xf16>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{expects 2 source offsets (one per dimension), got 1}}
    tile.copy %A[%n] to %s : memref<256x256xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @copy_dest_offsets(%n: index, %C: memref<256x256xf32>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %f = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    // expected-error @+1 {{expects 2 destination offsets (one per dimension), got 3}}
    tile.copy %f to %C[%n, %n, %n] : memref<64x64xf32, #gpu.address_space<private>> to memref<256x256xf32>
  }
  return
}

// -----

func.func @copy_global_to_global(%n: index, %A: memref<64x32xf16>, %B: memref<64x32xf16>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{copies between two global tensors are not tile copies: one side must be a shared or fragment tile}}
    tile.copy %A to %B : memref<64x32xf16> to memref<64x32xf16>
  }
  return
}

// -----

func.func @copy_dynamic_extent(%n: index, %A: memref<?x?xf16>, %s: memref<?x32xf16, #gpu.address_space<workgroup>>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{copy extent of dimension #0 is unknown: the tile must have a static size there}}
    tile.copy %A[%n, %n] to %s : memref<?x?xf16> to memref<?x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// As a tile's own dimensions are, a copy's extent is positive.
func.func @copy_empty_extent(%n: index, %A: memref<64x64xf16>, %s: memref<32x64xf16, #gpu.address_space<workgroup>>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %v = memref.subview %s[0, 0] [32, 0] [1, 1] : memref<32x64xf16, #gpu.address_space<workgroup>> to memref<32x0xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op copy extent of dimension #1 is 0: a tile copy copies a non-empty part of a tile}}
    tile.copy %A to %v : memref<64x64xf16> to memref<32x0xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @copy_async_empty_extent(%n: index, %A: memref<64x64xf16>, %s: memref<32x64xf16, #gpu.address_space<workgroup>>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %v = memref.subview %s[0, 0] [0, 64] [1, 1] : memref<32x64xf16, #gpu.address_space<workgroup>> to memref<0x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy_async' op copy extent of dimension #0 is 0}}
    tile.copy_async %A to %v : memref<64x64xf16> to memref<0x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Every row of the source would land on row 0 of the tile.
func.func @copy_destination_stride_zero(%n: index, %A: memref<64x64xf16>, %s: memref<32x64xf16, #gpu.address_space<workgroup>>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %v = memref.subview %s[0, 0] [32, 64] [0, 1] : memref<32x64xf16, #gpu.address_space<workgroup>> to memref<32x64xf16, strided<[0, 1]>, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op destination has stride 0 in dimension #0, along which the copy writes 32 elements: several elements would be written to one place}}
    tile.copy %A to %v : memref<64x64xf16> to memref<32x64xf16, strided<[0, 1]>, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Strides [1, 1] put element (i, j) at i + j: 32x64 elements on 95 places.
func.func @copy_destination_overlaps(%G: memref<32x64xf32>, %C: memref<4096xf32>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %F = tile.alloc_fragment : memref<32x64xf32, #gpu.address_space<private>>
    tile.copy %G to %F : memref<32x64xf32> to memref<32x64xf32, #gpu.address_space<private>>
    %v = memref.reinterpret_cast %C to offset: [0], sizes: [32, 64], strides: [1, 1] : memref<4096xf32> to memref<32x64xf32, strided<[1, 1]>>
    // expected-error @+1 {{'tile.copy' op destination has stride 1 in dimension #1, no more than the 31 places that the dimensions of smaller strides reach: two elements may be written to one place}}
    tile.copy %F to %v : memref<32x64xf32, #gpu.address_space<private>> to memref<32x64xf32, strided<[1, 1]>>
  }
  return
}

// -----

// Rows 64 elements apart, but 65 columns of the tile land in each.
func.func @copy_destination_rows_overlap(%C: memref<8192xf32>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %F = tile.alloc_fragment : memref<32x128xf32, #gpu.address_space<private>>
    tile.clear %F : memref<32x128xf32, #gpu.address_space<private>>
    %v = memref.reinterpret_cast %C to offset: [0], sizes: [32, 65], strides: [64, 1] : memref<8192xf32> to memref<32x65xf32, strided<[64, 1]>>
    // expected-error @+1 {{'tile.copy' op destination has stride 64 in dimension #0, no more than the 64 places that the dimensions of smaller strides reach}}
    tile.copy %F to %v : memref<32x128xf32, #gpu.address_space<private>> to memref<32x65xf32, strided<[64, 1]>>
  }
  return
}

// -----

// A view of dynamic size with stride 0 along it: refused wherever the size
// may be 2 or more.
func.func @copy_destination_dynamic_stride_zero(%C: memref<64x64xf32>, %m: index) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %F = tile.alloc_fragment : memref<32x64xf32, #gpu.address_space<private>>
    tile.clear %F : memref<32x64xf32, #gpu.address_space<private>>
    %v = memref.subview %C[%bx, 0] [%m, 64] [0, 1] : memref<64x64xf32> to memref<?x64xf32, strided<[0, 1], offset: ?>>
    // expected-error @+1 {{'tile.copy' op destination has stride 0 in dimension #0, along which the copy writes 2 or more elements: several elements would be written to one place}}
    tile.copy %F to %v : memref<32x64xf32, #gpu.address_space<private>> to memref<?x64xf32, strided<[0, 1], offset: ?>>
  }
  return
}

// -----

func.func @clear_empty_part(%n: index, %s: memref<32x64xf16, #gpu.address_space<workgroup>>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %v = memref.subview %s[0, 0] [32, 0] [1, 1] : memref<32x64xf16, #gpu.address_space<workgroup>> to memref<32x0xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.clear' op clears an empty part of a tile (dimension #1 is 0)}}
    tile.clear %v : memref<32x0xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @copy_unsupported_space(%n: index, %A: memref<64x32xf16, 7>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op source is in unsupported memory space 7 : i64; expected none or #gpu.address_space<global|workgroup|private>}}
    tile.copy %A to %s : memref<64x32xf16, 7> to memref<64x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @copy_dest_unsupported_space(%n: index, %D: memref<64x32xf16, 7>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op destination is in unsupported memory space 7 : i64}}
    tile.copy %s to %D : memref<64x32xf16, #gpu.address_space<workgroup>> to memref<64x32xf16, 7>
  }
  return
}

// -----

func.func @clear_unsupported_space(%n: index, %D: memref<16x16xf16, 7>) {
  tile.kernel grid(%n) threads(32) as (%bx) {
    // expected-error @+1 {{'tile.clear' op tile is in unsupported memory space 7 : i64}}
    tile.clear %D : memref<16x16xf16, 7>
  }
  return
}

// -----

func.func @gemm_unsupported_space(%n: index, %C: memref<16x16xf32, 7>) {
  tile.kernel grid(%n) threads(32) as (%bx) {
    %a = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.gemm' op C is in unsupported memory space 7 : i64}}
    tile.gemm %a, %a, %C : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, 7>
  }
  return
}

// -----

func.func @copy_async_to_fragment(%n: index, %A: memref<64x32xf16>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %f = tile.alloc_fragment : memref<64x32xf16, #gpu.address_space<private>>
    // expected-error @+1 {{'tile.copy_async' op copies global memory into a shared tile, got global -> fragment}}
    tile.copy_async %A to %f : memref<64x32xf16> to memref<64x32xf16, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @copy_async_converts(%n: index, %A: memref<64x32xf32>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy_async' op element type mismatch: source has 'f32', destination has 'f16'}}
    tile.copy_async %A to %s : memref<64x32xf32> to memref<64x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @gemm_rank(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<64xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    // expected-error @+1 {{A must be a 2-D tile, got rank 1}}
    tile.gemm %a, %b, %c : memref<64xf16, #gpu.address_space<workgroup>>, memref<64x32xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @gemm_dynamic(%n: index, %a: memref<?x32xf16, #gpu.address_space<workgroup>>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %b = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    // expected-error @+1 {{A must have a static shape, got 'memref<?x32xf16, #gpu.address_space<workgroup>>'}}
    tile.gemm %a, %b, %c : memref<?x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @gemm_a_global(%n: index, %a: memref<64x32xf16>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %b = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    // expected-error @+1 {{A must be a shared or fragment tile, got global memory}}
    tile.gemm %a, %b, %c : memref<64x32xf16>, memref<32x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @gemm_b_global(%n: index, %b: memref<32x64xf16>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    // expected-error @+1 {{B must be a shared or fragment tile, got global memory}}
    tile.gemm %a, %b, %c : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @gemm_c_shared(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{C (the accumulator) must be a fragment tile, got shared memory}}
    tile.gemm %a, %b, %c : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @gemm_element_types_differ(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<32x64xbf16, #gpu.address_space<workgroup>>
    %c = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    // expected-error @+1 {{A and B element types differ: 'f16' vs 'bf16'}}
    tile.gemm %a, %b, %c : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x64xbf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @gemm_integer_inputs(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<64x32xi8, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<32x64xi8, #gpu.address_space<workgroup>>
    %c = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    // expected-error @+1 {{A and B must be f16, bf16 or f32, got 'i8'}}
    tile.gemm %a, %b, %c : memref<64x32xi8, #gpu.address_space<workgroup>>, memref<32x64xi8, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @gemm_f16_accumulator(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc_fragment : memref<64x64xf16, #gpu.address_space<private>>
    // expected-error @+1 {{C (the accumulator) must be f32, got 'f16'}}
    tile.gemm %a, %b, %c : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf16, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @gemm_k_mismatch(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    // expected-error @+1 {{shape mismatch: op(A) is 64x32 and op(B) is 16x64, their K extents differ (32 vs 16)}}
    tile.gemm %a, %b, %c : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<16x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @gemm_k_mismatch_after_transpose(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    // expected-error @+1 {{shape mismatch: op(A) is 32x64 and op(B) is 32x64, their K extents differ (64 vs 32)}}
    tile.gemm %a, %b, %c transpose_a : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @gemm_c_shape(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %c = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    // expected-error @+1 {{shape mismatch: C is 64x64 but op(A) * op(B) is 64x128}}
    tile.gemm %a, %b, %c : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @wait_negative(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{pending group count must be non-negative, got -1}}
    tile.wait_group -1
  }
  return
}

// -----

func.func @wait_too_many(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{pending group count must be at most 2147483647, got 2147483648}}
    tile.wait_group 2147483648
  }
  return
}

// -----

func.func @num_stages_negative(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{num_stages must be non-negative, got -1}}
    tile.pipelined %n to %n step %n num_stages = -1 as (%k) {
    }
  }
  return
}

// -----

func.func @num_stages_too_deep(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{num_stages must be at most 64 (the rewrite emits a prologue and an epilogue step per stage), got 65}}
    tile.pipelined %n to %n step %n num_stages = 65 as (%k) {
    }
  }
  return
}

// -----

// A constant step that is not positive would loop for ever, serial or not.
func.func @pipelined_zero_step(%n: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.pipelined' op step must be positive, got 0}}
    tile.pipelined %c0 to %c4 step %c0 as (%k) {
    }
  }
  return
}

// -----

func.func @pipelined_negative_step(%n: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %m1 = arith.constant -1 : index
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.pipelined' op step must be positive, got -1}}
    tile.pipelined %c4 to %c0 step %m1 num_stages = 2 as (%k) {
    }
  }
  return
}

// -----

func.func @nested_pipelined(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-note @+1 {{enclosing 'tile.pipelined' is here}}
    tile.pipelined %n to %n step %n num_stages = 2 as (%k) {
      // expected-error @+1 {{'tile.pipelined' op cannot be nested inside another 'tile.pipelined'}}
      tile.pipelined %n to %n step %n num_stages = 2 as (%j) {
      }
    }
  }
  return
}

// -----

func.func @order_without_stage(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'order' requires 'stage': give the stage of every statement, or only 'num_stages'}}
    tile.pipelined %n to %n step %n order = [0] as (%k) {
      tile.barrier
    }
  }
  return
}

// -----

// Every pass reads the depth from one of them: they must agree.
func.func @num_stages_disagrees_with_stage(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.pipelined' op num_stages = 4 but 'stage' gives depth 2 (max(stage) + 1); give one of them, or make them agree}}
    tile.pipelined %n to %n step %n num_stages = 4 stage = [0, 1] as (%k) {
      tile.barrier
      tile.barrier
    }
  }
  return
}

// -----

func.func @stage_wrong_length(%n: index, %A: memref<256x256xf16>) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %f = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    // expected-error @+1 {{'stage' has 2 entries but the body has 3 statements (one entry per statement)}}
    tile.pipelined %n to %n step %n stage = [0, 1] as (%k) {
      %ko = arith.muli %k, %n : index
      tile.copy %A[%ko, %ko] to %s : memref<256x256xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
      tile.clear %f : memref<64x64xf32, #gpu.address_space<private>>
      tile.barrier
    }
  }
  return
}

// -----

func.func @stage_negative(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{stage of statement #1 is negative (-2)}}
    tile.pipelined %n to %n step %n stage = [0, -2] as (%k) {
      tile.barrier
      tile.barrier
    }
  }
  return
}

// -----

func.func @stage_too_deep(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{stage of statement #1 is 1099511627776; the depth (max(stage) + 1) must be at most 64}}
    tile.pipelined %n to %n step %n stage = [0, 1099511627776] as (%k) {
      tile.barrier
      tile.barrier
    }
  }
  return
}

// -----

func.func @order_wrong_length(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'order' has 3 entries but the body has 2 statements (one entry per statement)}}
    tile.pipelined %n to %n step %n stage = [0, 1] order = [0, 1, 2] as (%k) {
      tile.barrier
      tile.barrier
    }
  }
  return
}

// -----

func.func @order_out_of_range(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'order' is not a permutation of 0..1: entry #1 is 2}}
    tile.pipelined %n to %n step %n stage = [0, 1] order = [0, 2] as (%k) {
      tile.barrier
      tile.barrier
    }
  }
  return
}

// -----

func.func @order_repeated(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{'order' is not a permutation of 0..1: 1 appears twice}}
    tile.pipelined %n to %n step %n stage = [0, 1] order = [1, 1] as (%k) {
      tile.barrier
      tile.barrier
    }
  }
  return
}

// -----

func.func @pipelined_no_induction_variable(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    // expected-error @+1 {{expects 1 induction variable as region arguments, got 0}}
    "tile.pipelined"(%n, %n, %n) ({
    ^bb0:
    }) : (index, index, index) -> ()
  }
  return
}

// -----

// An op of an unregistered dialect in the body is of no tile dialect.
func.func @unregistered_op(%n: index) {
  tile.kernel grid(%n) threads(128) as (%bx) {
    "other.op"() : () -> ()
    // expected-error @+1 {{'memref.alloca' op allocates shared memory inside a 'tile.kernel'}}
    %x = memref.alloca() : memref<128xf32, #gpu.address_space<workgroup>>
  }
  return
}
