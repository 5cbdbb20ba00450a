//===- InteriorBlocks.h - Blocks that need no bounds checks -----*- C++ -*-===//
//
// Part of tile-mlir. The pass itself is declared in Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_INTERIORBLOCKS_H
#define TILE_CONVERSION_TILETONVGPU_INTERIORBLOCKS_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
namespace tile {

/// The unit attribute on the `scf.if` that tile-specialize-interior-blocks
/// versions a kernel body with: its branches are two versions of one body,
/// which compute the same values (the interior one with fewer bounds
/// checks). Its condition depends on the block indices, but a block runs
/// the same copies, groups and barriers in either branch, which is what a
/// thread-block cluster needs of its blocks (TmaCopies.h).
constexpr llvm::StringLiteral kBlockVersionsAttrName = "tile.block_versions";

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_INTERIORBLOCKS_H
