//===- InteriorBlocks.h - Interior blocks and steps -------------*- C++ -*-===//
//
// Part of tile-mlir. The passes themselves (tile-specialize-interior-blocks,
// tile-specialize-interior-steps) are declared in Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_INTERIORBLOCKS_H
#define TILE_CONVERSION_TILETONVGPU_INTERIORBLOCKS_H

#include "mlir/IR/Value.h"
#include "mlir/IR/ValueRange.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace mlir {
namespace tile {

/// The unit attribute on the `scf.if` that tile-specialize-interior-blocks
/// versions a kernel body with: its branches are two versions of one body,
/// which compute the same values (the interior one with fewer bounds
/// checks). Its condition depends on the block indices, but a block runs
/// the same copies, groups and barriers in either branch, which is what a
/// thread-block cluster needs of its blocks (TmaCopies.h).
constexpr llvm::StringLiteral kBlockVersionsAttrName = "tile.block_versions";

/// Calls `fn(memref, indices, extent)` for the global side of every
/// tile.copy in `root`, and of every tile.copy_async unless
/// `skipAsyncCopies`: the tensor, the copy's offsets in it and the copy's
/// extent.
void forEachGlobalCopySide(
    Operation *root, bool skipAsyncCopies,
    function_ref<void(Value, ValueRange, ArrayRef<int64_t>)> fn);

/// The number of dimensions of the global sides of the copies in `root`
/// whose extent provably lies inside the tensor (IndexFacts): the
/// dimensions the copy lowering will not bounds-check. Both passes version
/// code only where the new version raises it.
int64_t countCopyDimsProvablyInside(Operation *root);

/// Replaces each arith.minui in `root` that carries `tile.counter_bound`
/// (tile-specialize-interior-steps) by its first operand, which it equals
/// wherever it is, unless a comparison or a remainder depends on it; drops
/// the attribute from the minima it keeps. Such a minimum tells IndexFacts
/// that the copies of the split's first part stay inside their tensors;
/// kept past the copy lowering, it hides the loop counter from LLVM's
/// strength reduction (a 64-bit multiplication per copy and step where a
/// stride is dynamic). Where a check that the lowering left depends on it,
/// LLVM folds that check from the minimum's range; where a version index
/// (counter mod V) does, the counter itself makes worse addresses.
void releaseCounterBounds(Operation *root);

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_INTERIORBLOCKS_H
