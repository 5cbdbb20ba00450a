//===- SharedAccess.h - Addressing shared tiles on the GPU ------*- C++ -*-===//
//
// Part of tile-mlir. A shared tile may be reached through rank-reducing
// memref.subviews (one version of a multi-buffered tile); the swizzle is a
// property of the underlying buffer, so an access is first composed down to
// that buffer and then swizzled there.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_SHAREDACCESS_H
#define TILE_CONVERSION_TILETONVGPU_SHAREDACCESS_H

#include "tile/Dialect/Tile/IR/TileOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
namespace tile {

/// An element of a shared buffer: the buffer (a `tile.alloc_shared` result or
/// whatever a subview chain starts from) and indices into it.
struct SharedAccess {
  Value buffer;
  SmallVector<Value> indices;
};

/// `view` without the memref.cast ops on top, which keep its address and
/// indexing (tile-software-pipeline casts a tile's first version back to the
/// tile's type for uses before the loop).
Value skipCasts(Value view);

/// Composes `indices` into `tile` (logical, possibly through subviews) down to
/// the underlying buffer. The column index is NOT swizzled yet.
SharedAccess composeSharedAccess(OpBuilder &builder, Location loc, Value tile,
                                 ValueRange indices);

/// composeSharedAccess, then maps the innermost index through the buffer's
/// SharedSwizzle: the physical element the GPU code must touch.
SharedAccess getPhysicalSharedAccess(OpBuilder &builder, Location loc,
                                     Value tile, ValueRange indices);

/// The access of element (row + rowDelta, col...) of `tile`, where `indices`
/// name (row, col...). When the swizzle's period divides the physical row
/// delta, the physical column is the one computed for `indices` and the row
/// index is that of `indices` plus a constant, so accesses that differ only
/// in rowDelta share their address arithmetic up to a constant offset.
SharedAccess getPhysicalSharedAccess(OpBuilder &builder, Location loc,
                                     Value tile, ValueRange indices,
                                     int64_t rowDelta);

/// The tile.alloc_shared under `tile` when `tile` is one whole [rows][cols]
/// tile of it (the allocation itself, or subviews that pick a version in the
/// leading dimensions and take the innermost two whole); null otherwise. A
/// part of a tile has another shape than the buffer whose swizzle its
/// elements follow.
Value getWholeSharedTile(Value tile);

/// Checks, before anything is lowered, that the GPU lowering can address
/// every shared tile of `kernel`: only tile ops may use one, directly or
/// through memref.subview, because only their lowering applies the swizzle;
/// and no copy or clear may take a memref of rank 0.
LogicalResult checkSharedTileUses(KernelOp kernel);

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_SHAREDACCESS_H
