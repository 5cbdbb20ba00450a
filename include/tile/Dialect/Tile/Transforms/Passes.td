//===- Passes.td - Tile dialect transformation passes ------*- tablegen -*-===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
#define TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

#endif // TILE_DIALECT_TILE_TRANSFORMS_PASSES_TD
