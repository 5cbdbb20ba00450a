//===- Passes.td - Tile dialect transformation passes ------*- tablegen -*-===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

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
    never a prefetch copy, whatever it holds. Running the pass on its own
    output changes nothing.
  }];
}

def TileSmemBudget : Pass<"tile-smem-budget"> {
  let summary = "checks every kernel's shared memory and fragment registers "
                "against a chip";
  let description = [{
    For every `tile.kernel`, adds up its shared tiles, each aligned to 128
    bytes and multiplied by the number of buffer versions its pipelined loop
    needs, once for `num_stages = 1` and once for the planned depth, and
    prints a table on stdout with the bytes, the chip's per-block limit and
    `[OK]` or `[OVER]`. A kernel over the limit is an error that names the
    largest `num_stages` that fits. Loops that planning has not seen yet are
    planned internally with the same rules. The pass also prints the fragment
    registers per thread (fragment bytes / threads / 4) against the chip's
    per-thread limit and warns when a GEMM accumulator alone exceeds it.
    Every limit comes from the chip table (`include/tile/Target/Chip.h`).
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "target chip (sm_80, sm_86, sm_89, sm_90, sm_90a)">
  ];
}

def TilePrintSchedule : Pass<"tile-print-schedule"> {
  let summary = "prints each pipelined loop's schedule as a timeline";
  let description = [{
    For every `tile.pipelined` loop, prints on stdout which statement of
    which iteration runs at each time step of the pipelined loop for a small
    trip count, grouped into prologue, steady state and epilogue, with the
    version of every shared tile each statement writes or reads. It shows
    what `stage` and `order` mean; the IR is not changed. Loops that planning
    has not seen yet are planned internally with the same rules.
  }];
  let options = [
    Option<"tripCount", "trip-count", "int64_t", /*default=*/"0",
           "iterations to show; 0 means the static trip count if it is "
           "known and at most 8, else 6">
  ];
}

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
