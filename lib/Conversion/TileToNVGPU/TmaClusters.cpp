//===- TmaClusters.cpp - TMA copies a cluster's blocks share --------------===//
//
// Part of tile-mlir. See TmaClusters.h.
//
//===----------------------------------------------------------------------===//

#include "TmaClusters.h"

#include "CopyLoweringDetail.h"
#include "TmaGroupAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tile/Conversion/TileToNVGPU/InteriorBlocks.h"
#include "tile/Conversion/TileToNVGPU/KernelOutlining.h"
#include "tile/Conversion/TileToNVGPU/PerThreadValues.h"
#include "tile/Conversion/TileToNVGPU/SharedAccess.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::tma;
using copy::constantI32;

bool ClusterPlan::sharesPartly() const {
  return llvm::any_of(sharers, [](const auto &entry) {
    return entry.second != Sharers::Cluster;
  });
}

FailureOr<ClusterPlan> tma::planCluster(KernelOp kernel,
                                        ArrayRef<CopyAsyncOp> copies,
                                        const TmaOptions &options,
                                        std::string &why) {
  FailureOr<ClusterShape> patch =
      getClusterShape(kernel, options.blockGroup, options.clusterSize,
                      options.clusterCols, why);
  if (failed(patch))
    return failure();
  ClusterPlan plan;
  plan.shape = *patch;
  const ClusterShape &shape = plan.shape;
  // The block indices that differ across the patch: x (index 0) between its
  // columns, y (index 1) between its rows.
  Value column = shape.cols > 1 ? kernel.getBlockIndices()[0] : Value();
  Value row = shape.rows > 1 ? kernel.getBlockIndices()[1] : Value();
  DenseMap<Value, bool> columnMemo, rowMemo;
  auto variesWith = [&](Value index, DenseMap<Value, bool> &memo,
                        ValueRange values) {
    return index && llvm::any_of(values, [&](Value v) {
             return dependsOnBlockIndex(v, index, kernel, memo);
           });
  };
  auto variesByColumn = [&](ValueRange values) {
    return variesWith(column, columnMemo, values);
  };
  auto variesByRow = [&](ValueRange values) {
    return variesWith(row, rowMemo, values);
  };
  auto varies = [&](ValueRange values) {
    return variesByColumn(values) || variesByRow(values);
  };
  // A shared copy's boxes land at the same address of every block's tile, so
  // the version it fills (the subviews from the tile to the destination) must
  // not vary either.
  auto destinationVaries = [&](Value dest) {
    dest = skipCasts(dest);
    while (auto view = dest.getDefiningOp<memref::SubViewOp>()) {
      if (varies(view->getOperands().drop_front()))
        return true;
      dest = skipCasts(view.getSource());
    }
    return !dest.getDefiningOp<AllocSharedOp>();
  };
  llvm::SmallPtrSet<Operation *, 8> shared;
  for (CopyAsyncOp copy : copies) {
    if (varies(copy.getDestIndices()) || destinationVaries(copy.getDest()))
      continue;
    bool byColumn = variesByColumn(copy.getSourceIndices());
    bool byRow = variesByRow(copy.getSourceIndices());
    // Shared by the blocks that agree on the indices the copy reads: a column
    // of the patch, a row, or all of it; with a one-row or one-column patch,
    // a column or a row is the whole cluster.
    if (byColumn && byRow)
      continue;
    if (byColumn && shape.rows == 1)
      continue;
    if (byRow && shape.cols == 1)
      continue;
    Sharers sharers = Sharers::Cluster;
    if (byColumn && shape.cols > 1)
      sharers = Sharers::Column;
    if (byRow && shape.rows > 1)
      sharers = Sharers::Row;
    plan.sharers[copy] = sharers;
    shared.insert(copy);
  }
  // Copies, commits and waits decide the group numbers, and so the mbarrier
  // each shared copy completes in every block of the cluster.
  SmallVector<Operation *> groupOps;
  kernel.getBody().walk([&](Operation *op) {
    if (isa<CopyAsyncOp, CommitGroupOp, WaitGroupOp>(op))
      groupOps.push_back(op);
  });
  for (Operation *groupOp : groupOps) {
    for (Operation *parent = groupOp->getParentOp(); parent != kernel;
         parent = parent->getParentOp()) {
      auto loop = dyn_cast<scf::ForOp>(parent);
      auto ifOp = dyn_cast<scf::IfOp>(parent);
      bool versions = ifOp && ifOp->hasAttr(kBlockVersionsAttrName) &&
                      ifOp.elseBlock() &&
                      traceGroupOps(*ifOp.thenBlock(), shared) ==
                          traceGroupOps(*ifOp.elseBlock(), shared);
      if ((loop && varies({loop.getLowerBound(), loop.getUpperBound(),
                           loop.getStep()})) ||
          (ifOp && !versions && varies(ifOp.getCondition()))) {
        why = "a copy, commit or wait runs under control flow that depends "
              "on the block index, so the blocks of a cluster could disagree "
              "on the barriers they wait at";
        return failure();
      }
    }
  }
  // A block that exits while copies remain leaves the other blocks of its
  // cluster waiting for its bytes (PTX's exit releases barriers, not an
  // mbarrier's expected bytes), unless they all exit with it: the control
  // around the exit must not vary across the cluster. (Other control flow
  // than scf.if and scf.for is taken to vary.)
  WalkResult exits = kernel.getBody().walk([&](NVVM::Exit exit) {
    if (!mayDoTileWorkAfter(exit, kernel))
      return WalkResult::advance();
    for (Operation *parent = exit->getParentOp(); parent != kernel;
         parent = parent->getParentOp()) {
      auto loop = dyn_cast<scf::ForOp>(parent);
      auto ifOp = dyn_cast<scf::IfOp>(parent);
      if ((!loop && !ifOp) ||
          (loop && varies({loop.getLowerBound(), loop.getUpperBound(),
                           loop.getStep()})) ||
          (ifOp && varies(ifOp.getCondition())))
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (exits.wasInterrupted()) {
    why = "an exit with copies after it runs under control flow that depends "
          "on the block index, so some blocks of a cluster could leave the "
          "others waiting for their copies";
    return failure();
  }
  if (plan.sharers.empty()) {
    why = "no copy loads the same tile into the same place in two blocks of a "
          "cluster";
    return failure();
  }
  return plan;
}

ClusterIssuers::ClusterIssuers(OpBuilder &b, Location loc, Value leader,
                               const ClusterPlan &plan, int64_t clusterSize)
    : clusterSize(clusterSize) {
  const ClusterShape &shape = plan.shape;
  Value rank = NVVM::ClusterId::create(b, loc, b.getI32Type());
  auto leaderWhere = [&](Value position, int64_t count,
                         SmallVectorImpl<Value> &leaders) {
    for (int64_t p = 0; p < count; ++p)
      leaders.push_back(arith::AndIOp::create(
          b, loc, leader,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, position,
                                constantI32(b, loc, p))));
  };
  leaderWhere(rank, clusterSize, leaderOfRank);
  if (!plan.sharesPartly())
    return;
  // Rank r is row r mod R of column r / R of the patch (ClusterShape): its
  // column's ranks are R * (r / R) + i, its row's r mod R + R * j.
  Value rows = constantI32(b, loc, shape.rows);
  Value row = arith::RemUIOp::create(b, loc, rank, rows);
  Value column = arith::DivUIOp::create(b, loc, rank, rows);
  int64_t rowRanks = 0;
  for (int64_t j = 0; j < shape.cols; ++j)
    rowRanks |= int64_t(1) << (shape.rows * j);
  auto maskOf = [&](int64_t ranks, Value shift) -> Value {
    Value bits =
        arith::ShLIOp::create(b, loc, constantI32(b, loc, ranks), shift);
    return arith::TruncIOp::create(b, loc, b.getI16Type(), bits);
  };
  columnMask = maskOf((int64_t(1) << shape.rows) - 1,
                      arith::SubIOp::create(b, loc, rank, row));
  rowMask = maskOf(rowRanks, row);
  leaderWhere(row, shape.rows, leaderInColumn);
  leaderWhere(column, shape.cols, leaderInRow);
}

Value ClusterIssuers::getMask(OpBuilder &b, Location loc,
                              Sharers sharers) const {
  switch (sharers) {
  case Sharers::Cluster:
    return arith::ConstantIntOp::create(b, loc, b.getI16Type(),
                                        (1 << clusterSize) - 1);
  case Sharers::Column:
    return columnMask;
  case Sharers::Row:
    return rowMask;
  }
  llvm_unreachable("unknown sharers");
}

ArrayRef<Value> ClusterIssuers::getIssuers(Sharers sharers) const {
  switch (sharers) {
  case Sharers::Cluster:
    return leaderOfRank;
  case Sharers::Column:
    return leaderInColumn;
  case Sharers::Row:
    return leaderInRow;
  }
  llvm_unreachable("unknown sharers");
}
