//===- Passes.td - Tile dialect conversion passes ----------*- tablegen -*-===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_PASSES_TD
#define TILE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileLowerToCPU : Pass<"tile-lower-to-cpu", "ModuleOp"> {
  let summary = "gives every tile op its meaning as sequential loops over memrefs";
  let description = [{
    Lowers the tile dialect to plain sequential code (`scf` loops, `memref`
    loads and stores, `arith`) so that a kernel can be run on the CPU and its
    numbers compared with a reference. `tile.kernel` becomes a loop nest over
    the grid (block index `d` iterates grid size `d`; threads do not exist
    here, tile ops are whole-tile operations); shared and fragment tiles
    become buffers in the default memory space, allocated where the tile is
    and freed when its thread block ends; `tile.copy` and `tile.copy_async` copy element
    by element, reading zero outside the source and skipping stores outside
    the destination, converting float types; `tile.gemm` accumulates in f32
    after widening each operand element; `tile.clear` stores zeros; a
    remaining `tile.pipelined` runs as a serial `scf.for` in source order.
    The output of the software-pipelining rewrite runs too: its
    multi-versioned buffers, subviews and `scf` loops are already sequential
    code. An asynchronous copy lands only when a `tile.wait_group` retires its
    commit group (it is recorded where issued and replayed at that wait; one
    that no wait retires never lands), so a missing wait or a wait count that
    is too large gives wrong CPU results too; with
    `model-async-copies=false` copies complete at once. `tile.barrier` is
    erased: there is one thread. With `check-barriers=true` a missing
    barrier shows up anyway: an element of a shared tile (or of a tensor
    that the kernel both writes and reads) that two tile ops access with no
    barrier between them, one of them writing, becomes NaN (each element
    carries the barrier interval and op of its last read and write). Finally every `#gpu.address_space` is dropped from every memref
    type in the module, so the standard CPU-to-LLVM passes apply.
  }];
  let options = [
    Option<"modelAsync", "model-async-copies", "bool", /*default=*/"true",
           "land each tile.copy_async at the tile.wait_group that retires "
           "its group (false: at once)">,
    Option<"checkBarriers", "check-barriers", "bool", /*default=*/"false",
           "make an element of a shared tile or of a tensor handed over "
           "between threads NaN where two tile ops access "
           "it with no tile.barrier between them, one of them writing (for "
           "kernels whose barriers are placed: after tile-software-pipeline)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def TileLowerToNVGPU : Pass<"tile-lower-to-nvgpu", "ModuleOp"> {
  let summary = "lowers tile kernels to gpu.func kernels with nvgpu copies";
  let description = [{
    Turns every `tile.kernel` into a `gpu.func` kernel in the `gpu.module`
    `@tile_kernels` and a host-side `gpu.launch_func`. Fragment ops (register
    tiles, `tile.gemm`) are lowered first by the fragment lowering; then
    copies between global and shared memory are split into per-thread
    16-byte chunks (smaller when alignment or extents demand it), coalesced
    over the block's threads: `tile.copy_async` becomes
    `nvgpu.device_async_copy` with `srcElements` zero-filling what lies out
    of bounds, a synchronous `tile.copy` masked vector loads and stores.
    Every shared access goes through the XOR swizzle of
    `SharedLayout.h`. `tile.commit_group` / `tile.wait_group N` become
    `cp.async.commit_group` / `cp.async.wait_group N` and `tile.barrier`
    becomes `gpu.barrier`. With `block-group=G > 1`, a kernel with a
    two-dimensional grid runs its blocks in grouped order: consecutive
    hardware block ids walk G rows (the grid's y dimension) of one column
    before the next column, so blocks resident at the same time share their
    A and B tiles in L2 (Triton's GROUP_M). The walk starts at the grid's
    far corner, so that the last row and column of blocks (a tensor's
    ragged edge, where blocks can be slower) run in the first wave rather
    than the last. Blocks are independent, so the
    remap only changes which block runs when. All `tile.alloc_shared` of a kernel are carved
    out of one `gpu.dynamic_shared_memory` region at 1024-byte aligned
    offsets (the swizzle's period), so no `memref.alloc` (which upstream lowers to `malloc`)
    remains. The kernel takes one memref argument per memref argument of
    the enclosing function, in order; the launch description (kernel name,
    grid, block, dynamic shared bytes, arguments) is attached to the
    `gpu.launch_func` as the `tile.launch` attribute.

    With `tma=true` (sm_90 and newer), a kernel whose async copies all read
    a kernel argument with rows of a multiple of 16 bytes into whole shared
    tiles issues them through the Tensor Memory Accelerator instead: thread
    0 issues one `nvgpu.tma.async.load` per box (the shared tile's swizzle is
    the box's), commit groups become mbarriers (thread 0 arrives expecting
    the group's bytes; a wait waits, in every thread, for the phases of the
    groups it retires), and the tensor maps are created on the host by
    `nvgpu.tma.create.descriptor` and passed as kernel parameters after the
    memrefs (`tensormap` lines of the launch description; run
    `tile-tensormap-params` after `convert-gpu-to-nvvm` to pass them by
    value). A kernel that
    does not qualify keeps cp.async, with a remark that says why.

    With `tma-store=true` (sm_90 and newer), a fragment stored to a kernel
    argument from inside a loop (the tile loop of `tile-persistent-blocks`)
    goes through a shared staging tile instead: thread 0 waits until the
    TMA has read the previous one, the block writes the fragment to it and
    fences it for the async proxy, and thread 0 issues one
    `nvgpu.tma.async.store` per box and commits them as a bulk group, so
    the global writes overlap the block's next tile. The block waits for
    the reads before it exits. A store whose tensor does not suit the TMA,
    whose tensor another op of the kernel reads or writes (the TMA's writes
    are not ordered with theirs), or whose staging tile would not fit in
    shared memory, stays as it is, with a remark that says why.

    With `split-barriers=true` (and `tma=true`), each `tile.barrier` right
    before a group's TMA copies, whose one job is then to keep the copies
    from overwriting a buffer version some thread still reads, becomes
    named barrier `1 + group mod 8`: warp 0, whose thread 0 issues the
    copies, waits there (`bar.sync`), and the other warps arrive
    (`bar.arrive`) and run on. A kernel that writes shared memory or reads
    global memory other than through `tile.copy_async`, or that has too
    many copy groups in flight for the named barriers, keeps its barriers,
    with a remark.

    With `cluster=N` (N = 2, 4 or 8, and `tma=true`), the kernel runs in
    thread-block clusters of N blocks along the hardware x dimension (PTX
    `.reqnctapercluster N, 1, 1`, and a `cluster` line in the launch
    description). The block order groups blocks that differ in one block
    index (the row in the grouped order: all compute tiles of one column);
    a copy whose coordinates do not depend on that index (B's tiles, there)
    is loaded once per cluster: its boxes are dealt out among the blocks,
    each issued with `.multicast::cluster` into every block's shared
    memory. The barrier before each group's copies becomes a (relaxed)
    cluster barrier. A kernel whose grid, block order or control flow does
    not allow it keeps one block per cluster, with a remark that says why.

    With `cluster-cols=C` as well (C divides N; the grouped block order),
    the N blocks of a cluster compute an (N / C) x C patch of tiles: the
    block order walks the grid in patches, and a copy that depends only on
    the block row (A's tiles) is shared by the C blocks of a row, one that
    depends only on the block column (B's) by the N / C blocks of a column,
    each multicast to just those blocks. A 2 x 2 cluster reads half of the
    bytes that four blocks read alone.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "target chip, e.g. sm_80, sm_90 (mma.sync) or sm_90a (wgmma)">,
    Option<"blockGroup", "block-group", "int64_t", /*default=*/"8",
           "rows of blocks per group in the grouped block order (1 or less: "
           "row-major hardware order)">,
    Option<"tma", "tma", "bool", /*default=*/"false",
           "issue tile.copy_async through the TMA (sm_90 and newer), with "
           "mbarriers for the commit groups, where every async copy of the "
           "kernel allows it">,
    Option<"tmaStore", "tma-store", "bool", /*default=*/"false",
           "store fragments from inside a loop (persistent kernels) through "
           "a shared staging tile and the TMA (sm_90 and newer)">,
    Option<"splitBarriers", "split-barriers", "bool", /*default=*/"false",
           "with tma: only warp 0, which issues the TMA copies, waits at the "
           "barrier before them (a named barrier the other warps arrive at)">,
    Option<"cluster", "cluster", "int64_t", /*default=*/"1",
           "with tma: blocks per thread-block cluster, 1, 2, 4 or 8 (the "
           "blocks of a cluster load the tiles they share once, through "
           "TMA multicast)">,
    Option<"clusterCols", "cluster-cols", "int64_t", /*default=*/"1",
           "with cluster and the grouped block order: the columns of blocks "
           "a cluster spans, 1, 2, 4 or 8 dividing cluster (its blocks form "
           "cluster / cluster-cols rows of cluster-cols blocks; a row shares "
           "A's tiles, a column B's)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def TilePersistentBlocks : Pass<"tile-persistent-blocks"> {
  let summary = "a fixed number of blocks loop over the tiles of a "
                "software-pipelined kernel, each prefetching its next tile "
                "under the current tile's stores";
  let description = [{
    Rewrites each `tile.kernel` whose grid has more than `blocks` blocks,
    or a size known only at run time, into a one-dimensional grid of
    `blocks` blocks. Block `p` handles the
    tiles `p, p + blocks, p + 2 * blocks, ...` of the original grid, one
    after the other, numbered as `tile-lower-to-nvgpu` orders a grid's
    blocks: a two-dimensional grid in the grouped order of `block-group`
    (G rows of one column, then the next column, from the grid's far
    corner), any other in row-major order (grid dimension 0 fastest): the
    shared and fragment tiles are allocated once, and the kernel body runs
    in an `scf.for` over the tiles. The body is expected in the shape
    `tile-software-pipeline` gives it: a head (clears, index math, and the
    prologue's `tile.copy_async` and `tile.commit_group`), then the
    pipeline's loops and epilogue (up to the last loop, gemm, wait or
    barrier), then a tail that only stores fragments to global memory,
    since the next tile's copies are in flight while it runs. The head's
    copies move: the first tile's run before the loop, and each later
    tile's run at the end of the previous trip, after a
    `tile.barrier` (every thread is done with the shared tiles) and before
    the previous tile's stores, so the prologue's loads are in flight while
    the results are stored. The wait counts of the pipeline stay right:
    the same groups are committed before each tile's loop. A kernel without
    prologue copies (synchronous copies) only gets the loop and the
    barrier. A body that `tile-specialize-interior-blocks` gave an interior
    and an edge version (a `tile.block_versions` scf.if after the pure ops
    of its condition) keeps both: each tile evaluates the condition on its
    own indices and runs its version, and so do the first tile's prologue
    and, inside each version, the next tile's. Where the trip count is
    dynamic, each prologue step's copies sit in an `scf.if` on it; such an
    `scf.if` moves with them. A grid
    size may be dynamic (computed before the kernel from tensor sizes):
    the tile count is then the product of the grid sizes, computed before
    the kernel, and the grid the smaller of `blocks` and the tile count
    (`arith.minui`), so that every block has a first tile. A kernel with no reduction or a
    tail that does more than store fragments is an error. Inside the loop,
    block indices are computed with `arith.remui` / `arith.divui` from the
    tile number, whose bound is the loop's; with a static grid the next
    tile's number is clamped to the last tile (`arith.minui`, an identity
    where it is used), so index bounds still prove what they did. Not run
    by `tile-to-ptx` unless its `persistent-blocks` option is set.
  }];
  let options = [
    Option<"blocks", "blocks", "int64_t", /*default=*/"132",
           "the number of blocks (e.g. SMs x blocks per SM)">,
    Option<"blockGroup", "block-group", "int64_t", /*default=*/"8",
           "rows of tiles per group in the grouped tile order of a "
           "two-dimensional grid (1 or less: row-major order; at most "
           "65535)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def TileSpecializeInteriorBlocks : Pass<"tile-specialize-interior-blocks"> {
  let summary = "gives the blocks away from the grid's last row and column "
                "a copy of the kernel body without their bounds checks";
  let description = [{
    Where a tensor's size is not a multiple of its tile, the GPU lowering
    bounds-checks every copy that can leave the tensor, and it proves a copy
    inside only from the ranges of the index values (the block index below
    its grid size, the loop counter below its bound). With a grid of G
    blocks in a dimension, usually only block G - 1 can leave: the others
    pay the checks for nothing. This pass versions each `tile.kernel` whose
    copies that is true of: its body (all but its top-level
    `tile.alloc_shared` and `tile.alloc_fragment`, which both versions share)
    moves into the `else` region of an `scf.if` on whether the block index
    is below G - 1 in those grid dimensions, and a clone of it, in which
    each such index is `arith.minui(index, G - 2)` (equal to it there), goes
    into the `then` region. The condition is the same for every thread of a
    block, so the branch does not diverge. A dimension is versioned only
    when restricting its index proves more dimensions of the copies' global
    sides inside than before. That works for sizes known only at run time
    too: with a grid of `arith.ceildivui(M, 128)` blocks over a tensor of M
    rows, the interior version is the blocks below `floor(M / 128)`, whose
    tiles end inside M (all of them where 128 divides M), and uses
    `arith.minui(index, M / 128 - 1)` (a `nuw` subtraction, which holds
    there); where that proves less than the grid's own bound (a copy that
    reaches one row past its tile), `index + 1 < G` and
    `arith.minui(index, G - 2)` are used too. Other tensors' sizes are not
    related to G (in a GEMM over `memref<?x?xf16>` tensors the grid is over
    A's rows and B's columns, and C's sizes are other values): for a grid of
    `ceildiv(S, t)` blocks, every other dynamic size S' of a copied tensor
    whose bound `floor(S' / t)` (or `ceildiv(S', t)` less one) proves more
    copies inside is added, made before the kernel; the interior condition
    then holds below every bound, and the index becomes a chain of
    `arith.minui`, one per bound. A grid of `tiles * P` blocks (P a constant
    above 1) whose size is known only at run time, where
    `tile-split-accumulators` gives each of a tile's P parts a block of its
    own (part b % P of tile b / P), gets the bounds `P * floor(S / t)` (the
    blocks of complete tiles) and `tiles * P - (P - 1)` less one (the
    blocks of the tiles before the last), and the same over the other
    sizes: below the grid size less one the last tile's first parts would be
    in, and they may leave the tensor. A kernel with a `tile.alloc_shared`
    below its top level, or still holding a `tile.pipelined` loop (its
    shared tiles would serve two loops, which `tile-software-pipeline`
    cannot multi-buffer) is left as it is:
    `tile-to-ptx` runs this pass after the software pipelining, and before
    `tile-persistent-blocks`, which keeps both versions for each tile.

    ```mlir
    // 4000x4000 output in 128x128 tiles: 32x32 blocks, 31x31 of them interior.
    tile.kernel grid(%c32, %c32) threads(128) as (%bx, %by) {
      %A_s = tile.alloc_shared : ...
      %in_x = arith.cmpi ult, %bx, %c31 : index
      %in_y = arith.cmpi ult, %by, %c31 : index
      %interior = arith.andi %in_x, %in_y : i1
      scf.if %interior {
        %bx_i = arith.minui %bx, %c30 : index
        %by_i = arith.minui %by, %c30 : index
        ... the body, on %bx_i and %by_i: no bounds checks ...
      } else {
        ... the body, on %bx and %by ...
      }
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def TileSpecializeInteriorSteps : Pass<"tile-specialize-interior-steps"> {
  let summary = "splits loops whose copies leave their tensors only in the "
                "last iterations, so that the others need no bounds checks";
  let description = [{
    A loop whose copies step through a tensor (`A[%row, %k * 32]` in the
    K loop of a GEMM) bounds-checks them in every iteration where the
    tensor's size is not a multiple of the step, or is known only at run
    time, although only the last iterations can leave it. For each `scf.for`
    in a `tile.kernel` whose copies have a global index
    `scale * counter + offset` (constants, scale > 0) that is not yet
    proved inside, this pass splits the loop at the first iteration that
    can leave: with reach = offset + extent, every counter up to q - d
    keeps the copy inside, for q = floor(size / scale) and
    d = ceildiv(reach, scale) (scale * (q - d) + reach <= scale * q <= size;
    where scale divides size, no step is left to check), or, where reach - 1
    is a multiple of scale and this allows one counter more,
    q = ceildiv(size, scale) and d = 1 + (reach - 1) / scale. The first loop
    runs the iterations below
    max(lb, min(ub, q - d + 1 over every such copy dimension)), rounded up to
    the next counter lb + i * step, and the second one the rest (loops with
    an unsigned comparison, a non-index counter or a lower bound that is
    not a constant >= 0 are left alone), with the loop-carried values passed
    from the first to the second. In the first loop the counter is replaced
    by `min(counter, Q)` for each dimension's last counter Q (equal to the
    counter there), which IndexFacts bounds, so the copy lowering drops
    those checks; the second loop keeps them. Each minimum carries
    `tile.counter_bound`: once the copies are lowered, `tile-lower-to-nvgpu`
    replaces it by the counter unless a comparison still depends on it (a
    check the lowering could not drop, which LLVM then folds from it) or a
    remainder does (a rolled loop's version index), so that LLVM can
    strength-reduce the addresses. A loop is split only when
    that proves more copy dimensions inside, inner loops first; the rolled
    remainder of an unrolled steady-state loop (`tile.steady_state` beside
    one with a larger step) is left as it is, and so is a loop around a
    `tile.pipelined` loop not yet rewritten. Both parts carry
    `tile.split_steps` (`tile-prefetch-fragments` leaves them alone). With
    `tma=true` the `tile.copy_async` ops are left out (the TMA clips their boxes at the
    tensor's edges, so a split would only grow the code), unless one of the
    kernel's copies cannot be a TMA copy (`asyncCopiesFitTma`): then
    `tile-lower-to-nvgpu` keeps `cp.async` for all of them, and they count
    as without `tma`.

    Sizes known only at run time need no relation between the tensors: in
    a GEMM over `memref<?x?xf16>` tensors the K loop runs to
    ceildiv(dim(A, 1), 32), and the first loop ends before the last tile of
    A's columns or of B's rows, whichever comes first. `tile-to-ptx` runs
    this pass after `tile-specialize-interior-blocks`, so the interior and
    the edge blocks both get their loops split.

    ```mlir
    // K = 777 in 32-column tiles: iterations 0..23 stay inside, 24 does not.
    scf.for %k = %c0 to %c25 step %c1 {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%row, %ko] to %A_s : memref<128x777xf16> to ...
    }
    // becomes
    scf.for %k = %c0 to %c24 step %c1 {
      %k_i = arith.minui %k, %c23 : index
      %ko = arith.muli %k_i, %c32 : index
      tile.copy %A[%row, %ko] to %A_s : ...     // no bounds checks
    }
    scf.for %k = %c24 to %c25 step %c1 { ... the loop as it was ... }
    ```
  }];
  let options = [
    Option<"tma", "tma", "bool", /*default=*/"false",
           "leave tile.copy_async ops out where tile-lower-to-nvgpu will "
           "move them with the TMA (tma=true), which needs no bounds "
           "checks">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def TilePrefetchFragments : Pass<"tile-prefetch-fragments"> {
  let summary = "loads the next steady-state step's first mma fragments "
                "before the current step's last mma.sync";
  let description = [{
    Runs after `tile-lower-to-nvgpu` on the steady-state loops of pipelined
    loops (`scf.for` ops carrying `tile.steady_state`). In such a loop body
    every step starts with its head (`cp.async.wait_group`, the barrier,
    the next stage's `cp.async` copies) and the ldmatrix loads of its gemm's
    first k-step; the body ends with the mma.sync ops of the last gemm's
    last k-step, which only touch registers. The pass pipelines the loop by
    one iteration with upstream `scf::pipelineForLoop`: the head and those
    first loads (stage 0) of iteration i + 1 are issued before the last
    k-step's mma.sync ops of iteration i (stage 1), so the wait, barrier
    and ldmatrix latency of the next step overlap tensor-core work instead
    of stalling the warp. The fragments cross the back edge as loop-carried
    values; the prologue issues the first head. The epilogue is not peeled:
    the last trip issues the head of the step past the end with
    `srcElements` 0 on its copies, so only the last steady-state loop of a
    kernel qualifies. Where a step's wait leaves another copy group in
    flight (depth 3 or more), the step's copies and their commit also move
    after its first ldmatrix loads, which then do not wait behind them in
    the memory pipe. Loops of another shape (no mma.sync, other work after
    the last k-step's mma.sync, fewer than two iterations, dynamic bounds)
    are left as they are, and so are those of 2-stage pipelines (the value
    of `tile.steady_state`): there each step waits for the copies the step
    before it issued, and the prefetch made most such kernels slower. Nor
    are loops whose accumulators take fewer than `min-accumulator-registers`
    32-bit registers per thread (128 by default): with smaller tiles per
    warp a kernel keeps several blocks per SM, whose warps hide the latency
    themselves, and the registers the prefetch takes cost blocks.

    Of the two parts of a loop that `tile-specialize-interior-steps` split
    (`tile.split_steps`), the edge part runs the step past the interior
    part's end itself, so the interior part is pipelined with its epilogue
    peeled instead (the last trip's remaining k-steps follow the loop),
    where its trip count is known and at least two. The edge part, the
    interior part over dynamic sizes and the other steady-state loops beside
    a split stay as they are: with the prefetch there the kernels measured
    slower on an H200 than without it.
  }];
  let options = [
    Option<"minAccumulatorRegisters", "min-accumulator-registers", "int64_t",
           /*default=*/"128",
           "pipeline only loops whose accumulators (private memref.alloca "
           "buffers) take at least this many 32-bit registers per thread">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def TileTensorMapParams : Pass<"tile-tensormap-params"> {
  let summary = "passes the TMA tensor maps of kernels by value, as grid "
                "constants";
  let description = [{
    Runs on `llvm.func` kernels after `convert-gpu-to-nvvm`. The kernel
    outlining marks the parameters that hold tensor maps (`tma=true` of
    `tile-lower-to-nvgpu`) with the kernel attribute
    `tile.tensormap_params`, a list of parameter indices. Each such
    `!llvm.ptr` parameter becomes `llvm.byval = !llvm.array<128 x i8>`,
    `llvm.align = 128` (as cuda.h aligns `CUtensorMap`) and
    `nvvm.grid_constant`: the launch passes the
    128-byte `CUtensorMap` itself, it lives in the kernel's parameter space,
    and the TMA reads it there through its generic address. A map in global
    memory, written by the host, would need a
    `fence.proxy.tensormap::generic.acquire` in every block before its first
    use (the CUDA programming guide asks for system scope); on an H200 that
    fence cost the 3-stage wgmma GEMM 6%. The attribute is removed.

    This is a pass of its own because the marking cannot happen earlier:
    upstream's `gpu.func` lowering does not carry `llvm.byval` over to the
    `llvm.func`, and the NVVM dialect accepts `nvvm.grid_constant` only on
    the arguments of an `llvm.func` kernel.
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::NVVM::NVVMDialect",
  ];
}

def TileToPTX : Pass<"tile-to-ptx", "ModuleOp"> {
  let summary = "the whole pipeline: tile kernels to a module holding PTX";
  let description = [{
    Runs, in order, the pipelining passes (`tile-pipeline-planning`,
    `tile-smem-budget`, `tile-split-accumulators` unless
    `split-accumulators=false`, `tile-software-pipeline`),
    `tile-specialize-interior-blocks`,
    `tile-persistent-blocks` (only with `persistent-blocks`; after the
    interior versions, which each tile then chooses between),
    `tile-specialize-interior-steps`,
    `tile-lower-to-nvgpu`,
    `tile-prefetch-fragments` (where the chip table enables it),
    the upstream device lowering on the `gpu.module` (`expand-strided-metadata`,
    `lower-affine`, `convert-scf-to-cf`, `convert-nvgpu-to-nvvm`,
    `convert-gpu-to-nvvm` with bare-pointer kernel arguments,
    `tile-tensormap-params`, `convert-nvvm-to-llvm` for the wgmma ops of
    sm_90a), then
    `nvvm-attach-target` for the chip with the chip table's PTX features and
    `gpu-module-to-binary{format=isa}`. The result holds the PTX in a
    `gpu.binary` and the host function with its `gpu.launch_func`;
    `tile-translate --tile-emit-ptx` / `--tile-emit-launch` write the PTX
    and the launch description out.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "target chip, e.g. sm_80, sm_90 (mma.sync) or sm_90a (wgmma)">,
    Option<"optLevel", "opt-level", "unsigned", /*default=*/"3",
           "LLVM optimization level for the PTX">,
    Option<"printBudget", "print-budget", "bool", /*default=*/"true",
           "tile-smem-budget's print: its table on stderr">,
    Option<"blockGroup", "block-group", "int64_t", /*default=*/"8",
           "tile-lower-to-nvgpu's block-group">,
    Option<"unrollSteadyState", "unroll-steady-state", "bool",
           /*default=*/"true",
           "tile-software-pipeline's unroll-steady-state, where the chip "
           "table enables it (sm_90)">,
    Option<"splitAccumulators", "split-accumulators", "bool",
           /*default=*/"true",
           "run tile-split-accumulators before the software pipelining">,
    Option<"splitAccumulatorsBlocks", "split-accumulators-blocks", "bool",
           /*default=*/"true",
           "tile-split-accumulators' blocks: each part in a block of its "
           "own where the kernel allows it (false: a loop over the parts)">,
    Option<"persistentBlocks", "persistent-blocks", "int64_t",
           /*default=*/"0",
           "run tile-persistent-blocks with this many blocks after the "
           "software pipelining (0: off)">,
    Option<"specializeInteriorBlocks", "specialize-interior-blocks", "bool",
           /*default=*/"true",
           "run tile-specialize-interior-blocks after the software "
           "pipelining">,
    Option<"specializeInteriorSteps", "specialize-interior-steps", "bool",
           /*default=*/"true",
           "run tile-specialize-interior-steps after "
           "tile-specialize-interior-blocks">,
    Option<"prefetchFragments", "prefetch-fragments", "bool",
           /*default=*/"true",
           "run tile-prefetch-fragments, where the chip table enables it "
           "(sm_90)">,
    Option<"tma", "tma", "bool", /*default=*/"false",
           "tile-lower-to-nvgpu's tma: async copies through the TMA "
           "(sm_90 and newer)">,
    Option<"tmaStore", "tma-store", "bool", /*default=*/"false",
           "tile-lower-to-nvgpu's tma-store: persistent kernels store their "
           "results through shared memory and the TMA (sm_90 and newer)">,
    Option<"splitBarriers", "split-barriers", "bool", /*default=*/"false",
           "tile-lower-to-nvgpu's split-barriers: with tma, the other warps "
           "do not wait at the barrier before the TMA copies">,
    Option<"cluster", "cluster", "int64_t", /*default=*/"1",
           "tile-lower-to-nvgpu's cluster: with tma, clusters of 2, 4 or 8 "
           "blocks that share tiles through TMA multicast (not with "
           "persistent-blocks)">,
    Option<"clusterCols", "cluster-cols", "int64_t", /*default=*/"1",
           "tile-lower-to-nvgpu's cluster-cols: the columns of blocks a "
           "cluster spans">,
  ];
}

def TestTileLowerFragments : Pass<"test-tile-lower-fragments"> {
  let summary = "Test pass: lower only the fragment ops of each tile.kernel";
  let description = [{
    Runs the first step of `--tile-lower-to-nvgpu` alone: in every
    `tile.kernel`, fragment tiles become per-thread registers (a constant-
    indexed `memref.alloca` in the mma.sync accumulator layout, tiled over
    the block's warps), `tile.gemm` becomes `nvgpu.ldmatrix` +
    `nvgpu.mma.sync` m16n8k16 (or a per-thread FMA loop where mma.sync does
    not apply), and copies to or from fragments become masked per-thread
    loads and stores. Everything else (the kernel, shared tiles, copies
    between global and shared memory) is left for the rest of the lowering.
    For tests only.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_80\"",
           "The target chip (sm_80, sm_90, ...): mma.sync needs sm_80+">
  ];
}

#endif // TILE_CONVERSION_PASSES_TD
