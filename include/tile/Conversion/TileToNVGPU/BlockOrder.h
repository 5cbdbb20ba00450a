//===- BlockOrder.h - The order in which a grid's blocks run ----*- C++ -*-===//
//
// Part of tile-mlir. Blocks of a kernel are independent, so the lowering may
// choose which block of the grid runs when; this is that choice, shared by
// the outlining (hardware block ids) and tile-persistent-blocks (the tiles a
// persistent block loops over).
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_BLOCKORDER_H
#define TILE_CONVERSION_TILETONVGPU_BLOCKORDER_H

#include "mlir/IR/Builders.h"

#include <utility>

namespace mlir {
namespace tile {

/// The block (x, y) of a `gx` x `gy` grid that runs as number `id` (0 <= id
/// < gx * gy) in the grouped order: consecutive numbers walk `group` rows of
/// one column, then the next column (Triton's GROUP_M), starting at the far
/// corner (gx - 1, gy - 1). See BlockOrder.cpp for why. A bijection on the
/// grid; `group` must be at least 1. Where `gy` is a constant, the group is
/// at most gy rows and, when it divides gy, a constant, so that index bounds
/// (IndexFacts.h) see x < gx and y < gy.
std::pair<Value, Value> buildGroupedBlockOrder(OpBuilder &b, Location loc,
                                               Value id, Value gx, Value gy,
                                               int64_t group);

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_BLOCKORDER_H
