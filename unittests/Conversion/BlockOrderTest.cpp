//===- BlockOrderTest.cpp - The grouped block order, evaluated ------------===//
//
// Part of tile-mlir. Builds the block order of BlockOrder.h for constant
// block numbers and evaluates it by folding, op by op: every grid block must
// run exactly once, and in clusters the blocks of one cluster must form the
// patch of ClusterShape, rank r at column r / rows and row r % rows, since
// the TMA lowering multicasts a tile to the ranks it computes from that.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/BlockOrder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

#include "gtest/gtest.h"

#include <map>
#include <set>
#include <tuple>

using namespace mlir;
using mlir::tile::ClusterShape;

namespace {

class BlockOrder : public ::testing::Test {
protected:
  BlockOrder() {
    context.loadDialect<arith::ArithDialect, func::FuncDialect>();
  }

  /// The (x, y) that block number `id` of a gx x gy grid runs as.
  std::pair<int64_t, int64_t> blockOf(int64_t id, int64_t gx, int64_t gy,
                                      int64_t group, ClusterShape cluster) {
    OpBuilder b(&context);
    Location loc = b.getUnknownLoc();
    OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
    b.setInsertionPointToEnd(module->getBody());
    auto func =
        func::FuncOp::create(b, loc, "order", b.getFunctionType({}, {}));
    b.setInsertionPointToStart(func.addEntryBlock());
    auto constant = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(b, loc, v);
    };
    Value idValue = constant(id), gxValue = constant(gx),
          gyValue = constant(gy);
    auto [x, y] = tile::buildGroupedBlockOrder(b, loc, idValue, gxValue,
                                               gyValue, group, cluster);
    // Every op has constant operands by the time it is reached.
    DenseMap<Value, Attribute> values;
    for (Operation &op : func.getBody().front()) {
      SmallVector<Attribute> operands;
      for (Value operand : op.getOperands())
        operands.push_back(values.lookup(operand));
      SmallVector<OpFoldResult> results;
      if (failed(op.fold(operands, results)) || results.size() != 1) {
        ADD_FAILURE() << "does not fold: " << op.getName().getStringRef().str();
        return {-1, -1};
      }
      if (auto attr = dyn_cast<Attribute>(results[0]))
        values[op.getResult(0)] = attr;
      else
        values[op.getResult(0)] = values.lookup(cast<Value>(results[0]));
    }
    auto valueOf = [&](Value v) {
      return cast<IntegerAttr>(values.lookup(v)).getInt();
    };
    return {valueOf(x), valueOf(y)};
  }

  /// Checks that the order is a bijection on the grid and that each run of
  /// cluster.size() numbers is a patch of the cluster's shape, rank r at
  /// column r / rows and row r % rows of it.
  void checkOrder(int64_t gx, int64_t gy, int64_t group, ClusterShape cluster) {
    SCOPED_TRACE("grid " + std::to_string(gx) + "x" + std::to_string(gy) +
                 " group " + std::to_string(group) + " cluster " +
                 std::to_string(cluster.rows) + "x" +
                 std::to_string(cluster.cols));
    std::set<std::pair<int64_t, int64_t>> seen;
    int64_t n = cluster.size();
    for (int64_t first = 0; first < gx * gy; first += n) {
      std::map<int64_t, int64_t> xOfColumn, yOfRow;
      for (int64_t rank = 0; rank < n; ++rank) {
        auto [x, y] = blockOf(first + rank, gx, gy, group, cluster);
        ASSERT_TRUE(x >= 0 && x < gx && y >= 0 && y < gy)
            << "number " << first + rank << " -> (" << x << ", " << y << ")";
        EXPECT_TRUE(seen.insert({x, y}).second)
            << "(" << x << ", " << y << ") runs twice";
        // The ranks of one column share x, those of one row share y.
        auto column = xOfColumn.emplace(rank / cluster.rows, x).first;
        auto row = yOfRow.emplace(rank % cluster.rows, y).first;
        EXPECT_EQ(column->second, x) << "rank " << rank;
        EXPECT_EQ(row->second, y) << "rank " << rank;
      }
      // Neighbours: a patch of adjacent columns and rows.
      std::set<int64_t> xs, ys;
      for (auto [column, x] : xOfColumn)
        xs.insert(x);
      for (auto [row, y] : yOfRow)
        ys.insert(y);
      EXPECT_EQ(int64_t(xs.size()), cluster.cols);
      EXPECT_EQ(int64_t(ys.size()), cluster.rows);
      EXPECT_EQ(*xs.rbegin() - *xs.begin(), cluster.cols - 1);
      EXPECT_EQ(*ys.rbegin() - *ys.begin(), cluster.rows - 1);
    }
    EXPECT_EQ(int64_t(seen.size()), gx * gy);
  }

  MLIRContext context;
};

TEST_F(BlockOrder, WithoutClustersEveryBlockRunsOnce) {
  for (auto [gx, gy, group] : {std::tuple<int64_t, int64_t, int64_t>{4, 4, 8},
                               {5, 7, 3},
                               {1, 9, 2},
                               {6, 2, 8},
                               {3, 10, 4}})
    checkOrder(gx, gy, group, {});
}

// The first walk of the grouped order starts at the far corner and goes up
// its column.
TEST_F(BlockOrder, StartsAtTheFarCorner) {
  EXPECT_EQ(blockOf(0, 5, 7, 3, {}), std::make_pair(int64_t(4), int64_t(6)));
  EXPECT_EQ(blockOf(1, 5, 7, 3, {}), std::make_pair(int64_t(4), int64_t(5)));
}

// One column of N rows: the shape getClusterShape gives cluster=N in the
// grouped order, where the group and the rows are multiples of N.
TEST_F(BlockOrder, ClustersOfOneColumn) {
  checkOrder(4, 8, 8, {4, 1});
  checkOrder(6, 4, 2, {2, 1});
  checkOrder(2, 16, 8, {8, 1});
}

TEST_F(BlockOrder, ClustersOfPatches) {
  checkOrder(4, 4, 8, {2, 2});
  // A short last group of patches: 6 rows of patches in groups of 4.
  checkOrder(8, 12, 8, {2, 2});
  checkOrder(8, 6, 2, {2, 4});
  checkOrder(6, 8, 4, {4, 2});
  checkOrder(2, 8, 8, {4, 2});
  checkOrder(8, 2, 8, {1, 8});
}

} // namespace
