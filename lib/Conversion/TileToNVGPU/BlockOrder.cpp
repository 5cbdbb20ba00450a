//===- BlockOrder.cpp - The order in which a grid's blocks run ------------===//
//
// Part of tile-mlir.
//
// Grouped order (Triton's GROUP_M): hardware blocks are issued in blockIdx
// order, x fastest, so in row-major order the blocks resident at one time
// span a few full rows of C and read all of B from DRAM for each. Here the
// number instead walks `group` rows of one column, then the next column: the
// resident blocks cover a near-square patch of C and share their A rows and
// B columns in L2. The map is a bijection on the grid (the last group may be
// shorter), so every block still runs exactly once.
//
// The walk starts at the grid's far corner (x = gx - 1, y = gy - 1): the
// last row and column of blocks, which hold a tensor's ragged edge when its
// size is not a tile multiple, run in the first wave instead of the last.
// Edge blocks can be slower than the others (bounds checks; a TMA box that
// lies mostly outside the tensor is filled with zeros slowly), and in the
// last wave the other SMs wait for them; in the first, later blocks fill in
// behind them. On an H200 this made the seed's 128x128x32 TMA kernel 4%
// faster at M = 4000 and 3970, and the cp.async one 1-2.5% faster at a
// ragged M or N; the same kernel in clusters of two lost 1.3% at M = 4000
// (docs/performance.md, "Edges of the larger tiles"). At tile multiples the
// order is the same walk mirrored, and as fast.
//
// Clusters of blocks that share tiles (TmaCopies.h) are consecutive
// numbers. Up one column they share B's tiles; in a patch of rows and
// columns (ClusterShape) a row shares A's and a column B's, so the walk
// goes over whole patches: in a 2 x 2 patch four blocks read half the bytes
// they would alone.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/BlockOrder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <tuple>

using namespace mlir;

/// The grouped walk without the mirror: number `id` to (x, y), from (0, 0).
static std::pair<Value, Value> walkGroups(OpBuilder &b, Location loc, Value id,
                                          Value gx, Value gy, int64_t group) {
  std::optional<int64_t> rows = getConstantIntValue(gy);
  if (rows && *rows > 0)
    group = std::min(group, *rows);
  Value g = arith::ConstantIndexOp::create(b, loc, group);
  // Folded where the grid is constant (tile-persistent-blocks).
  Value perGroup = b.createOrFold<arith::MulIOp>(loc, g, gx);
  Value first = arith::MulIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, id, perGroup), g);
  // Rows in this group: fewer than `group` in a short last group.
  Value size = g;
  if (!rows || *rows % group != 0)
    size = arith::MinUIOp::create(b, loc,
                                  arith::SubIOp::create(b, loc, gy, first), g);
  Value inGroup = arith::RemUIOp::create(b, loc, id, perGroup);
  Value y = arith::AddIOp::create(
      b, loc, first, arith::RemUIOp::create(b, loc, inGroup, size));
  Value x = arith::DivUIOp::create(b, loc, inGroup, size);
  return {x, y};
}

std::pair<Value, Value>
mlir::tile::buildGroupedBlockOrder(OpBuilder &b, Location loc, Value id,
                                   Value gx, Value gy, int64_t group,
                                   ClusterShape cluster) {
  auto constant = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value x, y;
  if (cluster.cols == 1) {
    std::tie(x, y) = walkGroups(b, loc, id, gx, gy, group);
  } else {
    // Patch `id / size` in the grouped order of the grid of patches, and
    // within it rank `id % size`, column-major as the hardware numbers
    // the ranks (ClusterShape).
    Value size = constant(cluster.size());
    Value rows = constant(cluster.rows);
    Value cols = constant(cluster.cols);
    Value rank = arith::RemUIOp::create(b, loc, id, size);
    Value patch = arith::DivUIOp::create(b, loc, id, size);
    Value patchesX = b.createOrFold<arith::DivUIOp>(loc, gx, cols);
    Value patchesY = b.createOrFold<arith::DivUIOp>(loc, gy, rows);
    auto [px, py] =
        walkGroups(b, loc, patch, patchesX, patchesY, group / cluster.rows);
    Value patchX = arith::MulIOp::create(b, loc, px, cols);
    x = arith::AddIOp::create(b, loc, patchX,
                              arith::DivUIOp::create(b, loc, rank, rows));
    Value patchY = arith::MulIOp::create(b, loc, py, rows);
    y = arith::AddIOp::create(b, loc, patchY,
                              arith::RemUIOp::create(b, loc, rank, rows));
  }
  Value one = constant(1);
  auto mirror = [&](Value index, Value extent) -> Value {
    // Neither subtraction wraps (0 <= index < extent): saying so keeps the
    // range of the block index visible to LLVM and to IndexFacts. Without
    // the flags, the code of the edge blocks' C stores needed more
    // registers: 184 against 157 for the clustered 128x128x32 TMA kernel at
    // M = 4000, 2 blocks per SM instead of 3, and 15% slower.
    auto flags =
        arith::IntegerOverflowFlags::nuw | arith::IntegerOverflowFlags::nsw;
    Value last = b.createOrFold<arith::SubIOp>(loc, extent, one, flags);
    return arith::SubIOp::create(b, loc, last, index, flags);
  };
  return {mirror(x, gx), mirror(y, gy)};
}
