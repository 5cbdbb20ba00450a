//===- TileOps.td - Tile dialect operations ----------------*- tablegen -*-===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEOPS_TD
#define TILE_DIALECT_TILE_IR_TILEOPS_TD

include "tile/Dialect/Tile/IR/TileDialect.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Structure: kernel and pipelined loop
//===----------------------------------------------------------------------===//

def Tile_KernelOp : Tile_Op<"kernel", [
    SingleBlock, NoTerminator, RecursiveMemoryEffects,
    AutomaticAllocationScope,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a grid of thread blocks running one tile program";
  let description = [{
    `tile.kernel` launches its body once per thread block of a 1-, 2- or
    3-dimensional grid, like TileLang's `T.Kernel(gx, gy, threads=128) as
    (bx, by)`. The operands are the grid sizes; the region's arguments (named
    after `as`) are the block indices, one per grid dimension; `threads` is
    the number of threads per block and must be a multiple of the warp size
    (32).

    The body is a whole-block program: tile ops inside it are collective over
    the block's threads. The region is not isolated from above: it may use
    the enclosing function's tensors and sizes, as `gpu.launch` does. A
    kernel sits inside a host function (not nested in another kernel, nor
    in a `gpu.module`): both lowerings rewrite that function around it.

    Example (the seed GEMM's launch, 128x128 output tiles):

    ```mlir
    %gx = arith.ceildivui %n, %c128 : index
    %gy = arith.ceildivui %m, %c128 : index
    tile.kernel grid(%gx, %gy) threads(128) as (%bx, %by) {
      %A_s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
      ...
    }
    ```
  }];
  let arguments = (ins Variadic<Index>:$gridSizes, I64Attr:$threads);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `grid` `(` $gridSizes `)` `threads` `(` $threads `)`
    `as` custom<IndexRegion>($body) attr-dict-with-keyword
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The block indices, one per grid dimension.
    ::mlir::Block::BlockArgListType getBlockIndices() {
      return getBody().front().getArguments();
    }
  }];
}

def Tile_PipelinedOp : Tile_Op<"pipelined", [
    SingleBlock, NoTerminator, RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a reduction loop to be software-pipelined";
  let description = [{
    `tile.pipelined` is TileLang's `T.Pipelined`: a loop from `lowerBound` to
    `upperBound` (exclusive) by `step` whose iterations the compiler overlaps.
    The induction variable is the region argument named after `as`. The step
    must be positive: a constant one that is not is an error, and as with
    `scf.for`, a step known only at run time that is not positive is
    undefined behaviour (the pipelined code divides by it to count trips).

    The schedule is given in one of two ways:

    * `num_stages = N` alone: the depth. `--tile-pipeline-planning` infers
      each statement's stage and order (copies into shared memory at stage 0,
      their consumers at stage N-1). `num_stages = 0`, or no attribute at
      all, is a plain serial loop.
    * `stage = [...]` and optionally `order = [...]`: one entry per body
      *statement*, by hand. The depth is `max(stage) + 1`; `order` defaults
      to source order.

    Either way the depth is at most 64.

    A *statement* is a top-level op of the body that has memory effects (the
    tile ops, stores, calls). Side-effect-free ops such as index arithmetic
    are not statements: they are scheduled with the statements that use
    them.

    Example (the seed's `matmul_auto`; `matmul_manual` writes
    `stage = [0, 0, 1] order = [0, 1, 2]` instead of `num_stages = 3`):

    ```mlir
    tile.pipelined %c0 to %kt step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%row, %ko] to %A_s : memref<4096x4096xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %col] to %B_s : memref<4096x4096xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
    }
    ```
  }];
  let arguments = (ins Index:$lowerBound, Index:$upperBound, Index:$step,
                       OptionalAttr<I64Attr>:$num_stages,
                       OptionalAttr<DenseI64ArrayAttr>:$stage,
                       OptionalAttr<DenseI64ArrayAttr>:$order);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $lowerBound `to` $upperBound `step` $step
    (`num_stages` `=` $num_stages^)?
    (`stage` `=` $stage^)?
    (`order` `=` $order^)?
    `as` custom<IndexRegion>($body) attr-dict-with-keyword
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Value getInductionVar() { return getBody().front().getArgument(0); }

    /// The body's statements, in source order: the top-level ops that have
    /// memory effects. `stage` and `order` have one entry per statement.
    ::llvm::SmallVector<::mlir::Operation *> getStatements();
  }];
}

//===----------------------------------------------------------------------===//
// Tile allocation
//===----------------------------------------------------------------------===//

class Tile_AllocOp<string mnemonic> : Tile_Op<mnemonic, [
    MemoryEffects<[MemAlloc<AutomaticAllocationScopeResource>]>]> {
  let results = (outs Res<AnyStaticShapeMemRef, "",
                          [MemAlloc<AutomaticAllocationScopeResource>]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tile_AllocSharedOp : Tile_AllocOp<"alloc_shared"> {
  let summary = "allocates a tile in the block's shared memory";
  let description = [{
    `tile.alloc_shared` is TileLang's `T.alloc_shared`: a tile visible to
    every thread of the block, in `#gpu.address_space<workgroup>`. The shape
    must be static and every extent positive. It lives until the end of the
    enclosing `tile.kernel`.

    ```mlir
    %A_s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    ```
  }];
}

def Tile_AllocFragmentOp : Tile_AllocOp<"alloc_fragment"> {
  let summary = "allocates a register tile (fragment)";
  let description = [{
    `tile.alloc_fragment` is TileLang's `T.alloc_fragment`: a tile held in the
    registers of the block's threads, in `#gpu.address_space<private>`. The
    tile is a block-level value; the GPU lowering decides which thread holds
    which element (for a GEMM accumulator, the mma.sync fragment layout).

    ```mlir
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    ```
  }];
}

//===----------------------------------------------------------------------===//
// Tile computation
//===----------------------------------------------------------------------===//

def Tile_ClearOp : Tile_Op<"clear"> {
  let summary = "sets every element of a tile to zero";
  let description = [{
    `tile.clear` is TileLang's `T.clear`: zeroes a shared or fragment tile.

    ```mlir
    tile.clear %C_l : memref<128x128xf32, #gpu.address_space<private>>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "the tile", [MemWrite]>:$tile);
  let assemblyFormat = "$tile attr-dict `:` type($tile)";
  let hasVerifier = 1;
}

class Tile_CopyLikeOp<string mnemonic, list<Trait> traits = []>
    : Tile_Op<mnemonic, !listconcat(traits, [AttrSizedOperandSegments])> {
  let arguments = (ins Arg<AnyMemRef, "the source", [MemRead]>:$source,
                       Variadic<Index>:$sourceIndices,
                       Arg<AnyMemRef, "the destination", [MemWrite]>:$dest,
                       Variadic<Index>:$destIndices);
  let assemblyFormat = [{
    $source (`[` $sourceIndices^ `]`)? `to` $dest (`[` $destIndices^ `]`)?
    attr-dict `:` type($source) `to` type($dest)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The copied extent: the tile's shape between a tile and a global
    /// tensor; between two tiles, per dimension the smaller static size.
    ::llvm::SmallVector<int64_t> getExtent();
  }];
}

def Tile_CopyOp : Tile_CopyLikeOp<"copy"> {
  let summary = "copies a tile between global, shared and fragment memory";
  let description = [{
    `tile.copy` is TileLang's `T.copy`. Either side may carry offsets
    (`A[%i, %j]`), which place the tile inside a larger tensor; an operand
    without offsets starts at zero. The extent comes from the smaller side,
    the tile: between a tile and a global tensor it is the tile's shape
    (whatever the tensor's size); between two tiles, in each dimension the
    smaller static size of the two.

    Elements of the extent that fall outside the source's bounds read as
    zero; elements that fall outside the destination's bounds are not
    written. So a kernel whose sizes are not multiples of the tile is still
    correct.

    Ranks must match and at least one side must be a tile (shared or
    fragment memory). Element types must match, except that f16, bf16, f32
    and f64 convert into each other as TileLang's `T.copy` does (an f32
    accumulator stored to an f16 tensor rounds to nearest even).

    ```mlir
    // T.copy(A[by * 128, k * 32], A_s)
    tile.copy %A[%row, %ko] to %A_s : memref<4096x4096xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    // T.copy(C_l, C[by * 128, bx * 128]), rounding f32 to f16
    tile.copy %C_l to %C[%row, %col] : memref<128x128xf32, #gpu.address_space<private>> to memref<4096x4096xf16>
    ```
  }];
}

def Tile_GemmOp : Tile_Op<"gemm"> {
  let summary = "tile matrix multiply-accumulate: C += op(A) * op(B)";
  let description = [{
    `tile.gemm` is TileLang's `T.gemm`: `C += A * B` on whole tiles, with
    `op(X) = X^T` when `transpose_a` / `transpose_b` is set. A and B are
    shared or fragment tiles of f16, bf16 or f32; C is an f32 fragment.
    Shapes must agree: op(A) is MxK, op(B) is KxN and C is MxN.

    ```mlir
    tile.gemm %A_s, %B_s, %C_l : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
    ```
  }];
  let arguments = (ins Arg<AnyMemRef, "A", [MemRead]>:$a,
                       Arg<AnyMemRef, "B", [MemRead]>:$b,
                       Arg<AnyMemRef, "C", [MemRead, MemWrite]>:$c,
                       UnitAttr:$transpose_a, UnitAttr:$transpose_b);
  let assemblyFormat = [{
    $a `,` $b `,` $c (`transpose_a` $transpose_a^)? (`transpose_b` $transpose_b^)?
    attr-dict `:` type($a) `,` type($b) `,` type($c)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pipelined level: asynchronous copies and synchronization
//===----------------------------------------------------------------------===//

def Tile_CopyAsyncOp : Tile_CopyLikeOp<"copy_async"> {
  let summary = "starts an asynchronous global-to-shared tile copy";
  let description = [{
    `tile.copy_async` has the operands and out-of-bounds rules of
    `tile.copy`, but only copies global memory into a shared tile of the same
    element type, and only
    starts the copy: the data is guaranteed to be in the tile once the
    commit group holding the copy has completed (`tile.wait_group`) and the
    block has passed a `tile.barrier`. The software-pipelining rewrite
    creates it from stage-0 copies; it lowers to `nvgpu.device_async_copy`
    (`cp.async`).

    ```mlir
    tile.copy_async %A[%row, %ko] to %A_v : memref<4096x4096xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.commit_group
    ```
  }];
}

def Tile_CommitGroupOp : Tile_Op<"commit_group"> {
  let summary = "closes the current group of asynchronous copies";
  let description = [{
    Every `tile.copy_async` issued since the previous `tile.commit_group`
    forms one group; `tile.wait_group` waits for groups in the order they
    were committed. Lowers to `cp.async.commit_group`.

    ```mlir
    tile.commit_group
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

def Tile_WaitGroupOp : Tile_Op<"wait_group"> {
  let summary = "waits until at most `pending` copy groups are in flight";
  let description = [{
    Blocks the calling thread until at most `pending` of its committed
    copy groups are still in flight: with `pending = 0`, every copy issued so
    far has landed. `pending` is a constant, as `cp.async.wait_group`
    requires. Other threads' copies are visible only after a following
    `tile.barrier`.

    ```mlir
    tile.wait_group 1
    tile.barrier
    ```
  }];
  let arguments = (ins I64Attr:$pending);
  let assemblyFormat = "$pending attr-dict";
  let hasVerifier = 1;
}

def Tile_BarrierOp : Tile_Op<"barrier"> {
  let summary = "block-wide barrier (bar.sync)";
  let description = [{
    Every thread of the block waits here until all have arrived; shared
    memory written before the barrier is visible to every thread after it.

    ```mlir
    tile.barrier
    ```
  }];
  let assemblyFormat = "attr-dict";
  let hasVerifier = 1;
}

#endif // TILE_DIALECT_TILE_IR_TILEOPS_TD
