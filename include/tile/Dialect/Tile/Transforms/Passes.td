//===- Passes.td - Tile dialect transformation passes ------*- tablegen -*-===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileSoftwarePipeline : Pass<"tile-software-pipeline", "ModuleOp"> {
  let summary = "multi-buffers shared tiles, makes copies asynchronous and "
                "builds the prologue, steady state and epilogue of pipelined "
                "loops";
  let description = [{
    Rewrites every planned `tile.pipelined` loop (the `stage` and `order`
    attributes that `--tile-pipeline-planning` writes) into the pipelined
    form: each shared tile written in one stage and read in a later one gets
    a leading version dimension of size V (the number of iterations its data
    must stay alive) and is accessed through a rank-reducing `memref.subview`
    at `((iv - lb) / step) mod V`; stage-0 copies from global into shared
    memory become `tile.copy_async`, one `tile.commit_group` per iteration
    (a copy stays synchronous when it converts the element type, when no
    statement of the loop reads its tile, when a statement of its stage
    ordered before it reads that tile, the previous iteration's, or when
    another statement of the loop writes the tensor it reads, which
    `cp.async` may read any time until its wait); a step that reads what an
    asynchronous copy wrote starts with a constant `tile.wait_group` and a
    `tile.barrier`; the loop becomes a prologue, an `scf.for` steady state
    and an epilogue, guarded by `scf.if` where the trip count is not known to
    cover the depth, so any trip count (1, smaller than the depth, dynamic),
    lower bound and positive step is correct. Loops without a schedule become
    plain `scf.for` loops. The pass also places the block barriers of code
    outside pipelined loops: between a write of a shared tile and a read of it
    by another op, and between a read and a later overwrite (in a serial loop,
    at the end of the body). Schedules the rewrite cannot honour (hand-edited
    IR) are reported as errors instead of being miscompiled. With
    `unroll-steady-state` (the default) the steady-state loop is unrolled by
    the least common multiple U of the version counts (up to 8), so that
    every version index is a constant; the remaining (N - S) mod U steps run
    in a rolled loop: before the unrolled one where N is a constant (so that
    the unrolled loop is the last steady-state loop, which
    `tile-prefetch-fragments` takes), after it where N is known only at run
    time.
  }];
  let options = [
    Option<"unrollSteadyState", "unroll-steady-state", "bool",
           /*default=*/"true",
           "unroll the steady state by the number of buffer versions">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def TilePipelinePlanning : Pass<"tile-pipeline-planning"> {
  let summary = "resolves the stage and order of every pipelined loop";
  let description = [{
    Gives every `tile.pipelined` loop a complete schedule, written into the IR
    as its `stage` and `order` arrays (one entry per body statement) and its
    depth as `num_stages`, so that the software-pipelining rewrite only reads
    it. With `num_stages = N` alone, copies from global into shared memory
    (and the statements that compute their indices) go to stage 0 and every
    other statement to stage N-1, in source order; `num_stages = 1` gives one
    stage and no overlap; `num_stages = 0` or no schedule at all leaves the
    loop serial and untouched. A hand-written `stage` (and `order`) is
    validated instead: `num_stages` must equal `max(stage) + 1`, no statement
    may run before a statement whose data it reads, and no copy may overwrite
    a shared tile that an earlier statement still has to read (TileLang issue
    2668). Each violation is an error naming both statements; an inferred
    schedule that would break one keeps the copies involved in the last
    stage instead, with a warning. An op with regions is one statement and
    never a prefetch copy, whatever it holds. A loop that
    `--tile-software-pipeline` cannot take whatever its schedule (a
    statement that is a tile allocation, a pipelined-level op or an op of
    unknown memory effects; a shared tile that is not a `tile.alloc_shared`
    from before the loop, or that two statements write) gets the rewrite's
    error first, and a planned schedule also passes the rewrite's own
    checks. Running the pass on its own output changes nothing.
  }];
}

def TileSmemBudget : Pass<"tile-smem-budget"> {
  let summary = "checks every kernel's shared memory and fragment registers "
                "against a chip";
  let description = [{
    For every `tile.kernel`, adds up its shared tiles, each aligned to 1024
    bytes (the period of the shared-tile swizzle, `kSharedTileAlignment`)
    and multiplied by the number of buffer versions its pipelined loop
    needs, once for `num_stages = 1` and once for the planned depth, and
    prints a table on stderr (stdout carries the IR) with the bytes, the
    chip's per-block limit and `[OK]` or `[OVER]`. A kernel over the limit
    is an error that names the largest `num_stages` that fits. Loops that
    planning has not seen yet are planned internally with the same rules.
    The pass also prints the fragment
    registers per thread (fragment bytes / threads / 4) against the chip's
    per-thread limit and warns when a GEMM accumulator alone exceeds it.
    Every limit comes from the chip table (`include/tile/Target/Chip.h`).
    With `print=false` the pass only checks: the errors and warnings stay,
    the table is not printed (for hosts that embed the compiler and own
    stderr).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "target chip (sm_80, sm_86, sm_89, sm_90, sm_90a)">,
    Option<"print", "print", "bool", /*default=*/"true",
           "print the table on stderr">
  ];
}

def TileSplitAccumulators : Pass<"tile-split-accumulators"> {
  let summary = "computes GEMM accumulators too large for the registers in "
                "parts that fit";
  let description = [{
    A GEMM accumulator (`tile.alloc_fragment`) whose registers per thread
    (bytes / threads / 4) and the GEMM's own (`kGemmExtraRegisters`, 32) do
    not fit the chip's per-thread limit would be spilled to local memory.
    This pass halves its longer dimension (rows on a tie) until a part fits,
    keeping parts at least 16 x 16, and computes the accumulator in those
    parts: the ops from its `tile.clear` to its last store are computed for
    one part, with a part-sized accumulator, the shared tiles of A cut along
    the rows and those of B along the columns where those are cut, their
    copies reading the part's rows of A and columns of B, and the stores
    writing the part's block of C; index arithmetic that does not depend on
    them stays where it was. Each element is the same sum in the same order
    as before. Parts that no store reaches into are not computed: where a
    store's index is at least `low` for every block (IndexFacts) and the
    tensor's size `S` in that dimension is a constant, only the parts
    `p` with `low + p * extent < S` are (a 64-row C with 128-row tiles cut
    in halves computes the first half only).

    Where the kernel does nothing but compute this accumulator (its other
    ops, loops over tiles included, only allocate tiles or compute values),
    each part gets a block of
    its own (`blocks=true`, the default): the grid's first dimension grows
    by the number of parts along the columns, its second by the number
    along the rows where that size is a constant that stays within CUDA's
    limit of 65535 blocks (else the rows' parts join the columns' in the
    first dimension, the column part the minor one), and a block index `b`
    becomes the tile `b / P` and the part `b % P` of its dimension, so the P
    parts of a tile are neighbouring blocks. Otherwise (or where the first
    dimension would pass its limit) the parts run one after another in a
    loop over them (two nested loops where both dimensions are cut), each
    with its own reduction loop. Blocks overlap one part's loads with
    another's work and stores where a block's parts, one after another,
    would not.

    A remark on the accumulator says how it was cut and where the parts run,
    or why it stays whole: it must be cleared once, in the kernel body or in
    the body of loops over tiles (`scf.for`, `scf.while`), each iteration of
    which then computes it again, or of branches (`scf.if`,
    `scf.index_switch`) there (the parts are cut in that block, and a
    block's loop computes its part of each tile), accumulated only by
    `tile.gemm` from
    shared tiles that whole-tile copies from global memory fill (before the
    clear too, where a kernel has no reduction loop), and stored whole into
    global memory after the GEMMs, beside the clear; everything else in
    between must only compute values.
    Run it after `tile-smem-budget`, which checks the kernel as written (the
    smaller tiles must not turn an over-budget configuration into one that
    compiles), and before `tile-software-pipeline`, which multi-buffers the
    parts' tiles for the one pipelined loop that now uses them.

    ```mlir
    // 256x256 at 128 threads (512 registers a thread): 2 x 2 parts.
    tile.kernel grid(%c16, %c16) threads(128) as (%bx, %by) { ... }
    // becomes
    tile.kernel grid(%c32, %c32) threads(128) as (%bx, %by) {
      %tile_x = arith.divui %bx, %c2 : index
      %part_x = arith.remui %bx, %c2 : index
      %col_offset = arith.muli %part_x, %c128 : index
      ... (the same for %by) the kernel on %tile_x and %tile_y, with
      128x128 tiles shifted by the parts' offsets ...
    }
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "target chip (sm_80, sm_86, sm_89, sm_90, sm_90a)">,
    Option<"blocks", "blocks", "bool", /*default=*/"true",
           "give each part a block of its own where the kernel allows it; "
           "false: always a loop over the parts">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TilePrintSchedule : Pass<"tile-print-schedule"> {
  let summary = "prints each pipelined loop's schedule as a timeline";
  let description = [{
    For every `tile.pipelined` loop, prints on stderr which statement of
    which iteration runs at each time step of the pipelined loop for a small
    trip count, grouped into prologue, steady state and epilogue, with the
    version of every shared tile each statement writes or reads. It shows
    what `stage` and `order` mean; the IR is not changed. Loops that planning
    has not seen yet are planned internally with the same rules.
  }];
  let options = [
    Option<"tripCount", "trip-count", "int64_t", /*default=*/"0",
           "iterations to show, at most 4096; 0 means the static trip "
           "count if it is known and at most 8, else 6">
  ];
}

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
