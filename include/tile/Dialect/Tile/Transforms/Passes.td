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
    memory become `tile.copy_async`, one `tile.commit_group` per iteration;
    every time step starts with a constant `tile.wait_group` and a
    `tile.barrier`; the loop becomes a prologue, an `scf.for` steady state
    and an epilogue, guarded by `scf.if` where the trip count is not known to
    cover the depth, so any trip count (1, smaller than the depth, dynamic),
    lower bound and positive step is correct. Loops without a schedule become
    plain `scf.for` loops. The pass also places the block barriers of code
    outside pipelined loops: between a write of a shared tile and a read of it
    by another op, and between a read and a later overwrite (in a serial loop,
    at the end of the body). Schedules the rewrite cannot honour (hand-edited
    IR) are reported as errors instead of being miscompiled.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
