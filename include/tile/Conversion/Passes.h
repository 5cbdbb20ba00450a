//===- Passes.h - Tile dialect conversion passes ----------------*- C++ -*-===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_PASSES_H
#define TILE_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

namespace mlir {
namespace tile {

#define GEN_PASS_DECL
#include "tile/Conversion/Passes.h.inc"

/// Reports at `loc` the first option of tile-lower-to-nvgpu that the chip or
/// the other options rule out (`passArgument` names the pass the user gave
/// them to). tile-to-ptx checks its options with it before it runs anything,
/// so that a bad option fails before any pass prints or rewrites.
LogicalResult checkLowerToNVGPUOptions(Location loc,
                                       const TileLowerToNVGPUOptions &options,
                                       StringRef passArgument);

#define GEN_PASS_REGISTRATION
#include "tile/Conversion/Passes.h.inc"

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_PASSES_H
