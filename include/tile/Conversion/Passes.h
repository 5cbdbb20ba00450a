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

#define GEN_PASS_REGISTRATION
#include "tile/Conversion/Passes.h.inc"

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_PASSES_H
