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

/// The blocks of a thread-block cluster, as a patch of the grid: `rows`
/// blocks along y times `cols` along x. The block of cluster rank r (the
/// hardware's, consecutive numbers of the order below) sits at column
/// r / rows and row r % rows of the patch.
struct ClusterShape {
  int64_t rows = 1, cols = 1;
  int64_t size() const { return rows * cols; }
};

/// The block (x, y) of a `gx` x `gy` grid that runs as number `id` (0 <= id
/// < gx * gy) in the grouped order: consecutive numbers walk `group` rows of
/// one column, then the next column (Triton's GROUP_M), starting at the far
/// corner (gx - 1, gy - 1). See BlockOrder.cpp for why. A bijection on the
/// grid; `group` must be at least 1. Where `gy` is a constant, the group is
/// at most gy rows and, when it divides gy, a constant, so that index bounds
/// (IndexFacts.h) see x < gx and y < gy.
///
/// With `cluster.cols > 1`, each `cluster.size()` consecutive numbers form
/// one patch of ClusterShape, and the patches take the grouped order over
/// the grid of patches (group / cluster.rows rows of patches): the caller
/// ensures that the patches tile the grid and that cluster.rows divides
/// `group`. With one column the walk above already keeps cluster.rows
/// consecutive numbers in one column, under the same condition.
std::pair<Value, Value> buildGroupedBlockOrder(OpBuilder &b, Location loc,
                                               Value id, Value gx, Value gy,
                                               int64_t group,
                                               ClusterShape cluster = {});

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_BLOCKORDER_H
