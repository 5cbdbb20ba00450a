//===- Passes.td - Tile dialect conversion passes ----------*- tablegen -*-===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_PASSES_TD
#define TILE_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

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
