//===- TmaClusters.h - TMA copies a cluster's blocks share ------*- C++ -*-===//
//
// Part of tile-mlir. Private to lib/Conversion/TileToNVGPU: for the TMA
// lowering (TmaCopies.cpp), whether a kernel can run in thread-block
// clusters, which of its copies the blocks of a cluster share (TMA
// multicast), and the per-block values that issue a shared copy's boxes.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_TILETONVGPU_TMACLUSTERS_H
#define LIB_CONVERSION_TILETONVGPU_TMACLUSTERS_H

#include "mlir/IR/Builders.h"
#include "tile/Conversion/TileToNVGPU/BlockOrder.h"
#include "tile/Conversion/TileToNVGPU/TmaCopies.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "llvm/ADT/DenseMap.h"

#include <string>

namespace mlir {
namespace tile {
namespace tma {

/// Which blocks of a cluster make a shared copy alike: all of them (the copy
/// depends on neither block index that differs across the patch), those of
/// its column of the patch (on the column's index only), or those of its row
/// (on the row's only).
enum class Sharers { Cluster, Column, Row };

/// How the blocks of a cluster share a kernel's TMA copies.
struct ClusterPlan {
  /// The patch of the grid a cluster computes (getClusterShape).
  ClusterShape shape;
  /// The copies that load the same tile into the same place in two or more
  /// blocks of a cluster, and which blocks those are.
  DenseMap<Operation *, Sharers> sharers;

  /// Whether some copy is shared by one column or one row of the patch only.
  bool sharesPartly() const;
};

/// Decides whether `kernel`, whose async copies are `copies` (all of them
/// TMA copies), runs in clusters of `options.clusterSize` blocks: the grid
/// and block order must make each cluster a patch of the grid
/// (getClusterShape); the blocks of a cluster must run the same sequence of
/// cluster barriers and groups, so no copy, commit or wait may sit in a loop
/// or under a condition that depends on a block index that differs across
/// the patch, except the interior and edge versions of
/// tile-specialize-interior-blocks when they trace alike (traceGroupOps);
/// and some copy must load the same tile into the same place in two or more
/// of them. On failure `why` says which of these does not hold.
FailureOr<ClusterPlan> planCluster(KernelOp kernel,
                                   ArrayRef<CopyAsyncOp> copies,
                                   const TmaOptions &options, std::string &why);

/// What thread 0 of a block needs to issue the boxes of a shared copy: the
/// multicast mask of the blocks that share it, and, per position among
/// them, whether this thread is thread 0 of the block at that position.
class ClusterIssuers {
public:
  /// Builds the per-block values at `b`'s insertion point, at the top of the
  /// kernel; `leader` is "this thread is thread 0 of its block".
  ClusterIssuers(OpBuilder &b, Location loc, Value leader,
                 const ClusterPlan &plan, int64_t clusterSize);

  /// The i16 multicast mask of the blocks that share a copy (built at `b`
  /// for the whole cluster).
  Value getMask(OpBuilder &b, Location loc, Sharers sharers) const;
  /// Per position p among the blocks that share a copy: "this thread is
  /// thread 0 of the block at position p". Box i of the copy is issued by
  /// the block at position i mod the number of sharers.
  ArrayRef<Value> getIssuers(Sharers sharers) const;

private:
  int64_t clusterSize;
  /// For copies shared by a column (row) of the patch: the mask of this
  /// block's column (row).
  Value columnMask, rowMask;
  /// Per rank r in the cluster and per position in this block's column and
  /// row of the patch: "thread 0 of the block there".
  SmallVector<Value, 8> leaderOfRank, leaderInColumn, leaderInRow;
};

} // namespace tma
} // namespace tile
} // namespace mlir

#endif // LIB_CONVERSION_TILETONVGPU_TMACLUSTERS_H
