//===- TileDialect.td - Tile dialect definition ------------*- tablegen -*-===//
//
// Part of tile-mlir. The tile dialect: GPU kernels at the level of tiles.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEDIALECT_TD
#define TILE_DIALECT_TILE_IR_TILEDIALECT_TD

include "mlir/IR/OpBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let summary = "Tile-level GPU kernels: block grids, shared and fragment tiles, "
                "tile copies, tile GEMM and software-pipelined reduction loops.";
  let description = [{
    The `tile` dialect describes GPU kernels the way TileLang does: a kernel
    is a grid of thread blocks; each block allocates shared-memory tiles
    (`tile.alloc_shared`) and per-thread register tiles called fragments
    (`tile.alloc_fragment`), moves whole tiles with `tile.copy`, multiplies
    them with `tile.gemm`, and iterates a reduction loop that is either serial
    (`scf.for`) or software-pipelined (`tile.pipelined`).

    Memory spaces are memref address spaces: global tensors have no address
    space (or `#gpu.address_space<global>`), shared tiles live in
    `#gpu.address_space<workgroup>` and fragments in
    `#gpu.address_space<private>`.

    Tile ops are whole-tile operations: they say *what* a block computes, not
    which thread does it. The lowering to NVGPU distributes them over the
    block's threads; the lowering to the CPU runs them sequentially.

    Below the user level, the software-pipelining rewrite introduces the
    asynchronous-copy ops (`tile.copy_async`, `tile.commit_group`,
    `tile.wait_group`) and `tile.barrier`.
  }];
  let cppNamespace = "::mlir::tile";
  // `tile.steady_state` marks the scf.for loops that tile-software-pipeline
  // emits for the steady state of a pipelined loop (every stage runs), so
  // that later passes (tile-prefetch-fragments) can find them; its value is
  // the pipeline's number of stages (the versions of its tiles). It also says
  // that the stage-0 copies of one more iteration could run at the end of
  // the loop, filling tile versions that no code after the loop reads: a
  // loop whose copies fill a single-version tile used outside the loop is
  // not marked.
  //
  // `tile.split_steps` marks the two loops that tile-specialize-interior-steps
  // split one loop into: tile-prefetch-fragments pipelines the first (the
  // interior part) with its epilogue peeled, as the second (the edge part)
  // runs the step after it, and leaves the second and the steady-state loops
  // beside them alone (with the prefetch there the split kernels measured
  // slower).
  //
  // `tile.counter_bound` marks each min(counter, Q) that
  // tile-specialize-interior-steps writes into the first part of a split,
  // where the counter never exceeds Q: the minimum carries that fact to
  // IndexFacts. Once the copies are lowered, tile-lower-to-nvgpu replaces
  // each marked minimum on which no comparison or remainder depends by its
  // first operand (releaseCounterBounds), so that LLVM sees an affine
  // counter again and strength-reduces the addresses; the others stay (LLVM
  // folds the checks that depend on them).
  let discardableAttrs = (ins "::mlir::IntegerAttr":$steady_state,
                              "::mlir::UnitAttr":$split_steps,
                              "::mlir::UnitAttr":$counter_bound);
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::gpu::GPUDialect"
  ];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

#endif // TILE_DIALECT_TILE_IR_TILEDIALECT_TD
