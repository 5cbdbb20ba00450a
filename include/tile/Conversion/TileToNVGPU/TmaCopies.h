//===- TmaCopies.h - Asynchronous tile copies through the TMA ---*- C++ -*-===//
//
// Part of tile-mlir. On sm_90, `tile.copy_async` can go through the Tensor
// Memory Accelerator instead of per-thread cp.async: one thread issues a
// `cp.async.bulk.tensor` per box, and the commit groups become mbarriers.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_TMACOPIES_H
#define TILE_CONVERSION_TILETONVGPU_TMACOPIES_H

#include "mlir/Support/LLVM.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

namespace mlir {
namespace tile {

/// Options of lowerAsyncCopiesToTma.
struct TmaOptions {
  /// Each `tile.barrier` right before a group's copies becomes a named
  /// barrier that only warp 0 (which issues the copies) waits at, while the
  /// other warps arrive and run on; where a barrier could order other
  /// shared-memory writes, nothing is split and a remark says why.
  bool splitBarriers = false;
  /// Blocks per thread-block cluster, along the hardware x dimension: 1, or
  /// 2, 4 or 8 to share tiles between the blocks of a cluster (TMA
  /// multicast, see lowerAsyncCopiesToTma). `blockGroup` is the outlining's
  /// (it decides which tiles a cluster's blocks compute: getClusterShape).
  int64_t clusterSize = 1;
  /// The columns of blocks a cluster spans in the grouped order
  /// (getClusterShape): a divisor of clusterSize.
  int64_t clusterCols = 1;
  int64_t blockGroup = 8;
};

/// Rewrites every `tile.copy_async`, `tile.commit_group` and
/// `tile.wait_group` of `kernel` (`tid`: the thread index, defined at the top
/// of its body):
///  - each copy becomes `nvgpu.tma.async.load`s, issued by thread 0, of boxes
///    whose swizzle is the shared tile's layout (SharedLayout.h), through a
///    tensor map that the host creates (`nvgpu.tma.create.descriptor` before
///    the kernel; the outlining passes it as a kernel parameter);
///  - group g is mbarrier g mod N of the block: thread 0's commit arrives on
///    it expecting the group's bytes, and `wait_group P` waits, in every
///    thread, for the phases of the groups up to the last committed but P;
///  - the kernel waits for every group before it ends.
/// All or nothing: when one copy cannot use the TMA (its source is not a
/// kernel argument with rows of a multiple of 16 bytes, its destination is not
/// a whole shared tile in a TMA layout, or it is not followed by its commit
/// in the same block), nothing changes, a remark says why, and the result is
/// false; the caller then lowers to cp.async.
///
/// With `options.clusterSize` N > 1, the kernel runs in clusters of N blocks
/// that compute a patch of the grid (getClusterShape): one column of N
/// blocks, one row, or rows and columns. A copy whose global coordinates
/// depend on neither index that differs across the patch loads the same
/// data in every block of the cluster; one that depends only on the column
/// (row) index, the same data in every block of a column (row) of the
/// patch. Its boxes are dealt out among the blocks that share it (box i to
/// the i mod S-th of those S), and each block's TMA writes its boxes into
/// the shared memory of all S (`.multicast::cluster`, with the mask of
/// their ranks), so that they read the tile from L2 once. Each mbarrier
/// still expects the whole group's bytes. A
/// cluster barrier (`barrier.cluster.arrive.relaxed` / `wait`) replaces the
/// barrier right before each group's copies, or is placed there: no block
/// may write into a buffer version that another block still reads. Where
/// copies sit under control flow that depends on the block index (the
/// blocks could run different numbers of cluster barriers), or no copy is
/// shared, the kernel keeps one block per cluster, with a remark that says
/// why. The kernel gets the attributes kClusterDimsAttrName and
/// kClusterShapeAttrName.
FailureOr<bool> lowerAsyncCopiesToTma(KernelOp kernel, Value tid,
                                      const TmaOptions &options = {});

/// Whether each `tile.copy_async` of `kernel`, taken alone, can go through
/// the TMA (its source, its destination and its boxes: the checks that
/// lowerAsyncCopiesToTma makes of every copy). Where one cannot, that lowering
/// keeps cp.async for all of them; tile-specialize-interior-steps asks first,
/// so that it leaves the copies' bounds to the TMA only where the TMA will
/// take them. Emits nothing.
bool asyncCopiesFitTma(KernelOp kernel);

/// The `tile.kernel` attribute that asks for thread-block clusters (a
/// DenseI32ArrayAttr of three sizes); the outlining makes it the kernel's
/// `nvvm.cluster_dim` (PTX `.reqnctapercluster`).
constexpr llvm::StringLiteral kClusterDimsAttrName = "tile.cluster_dims";

/// The `tile.kernel` attribute with the patch of the grid a cluster computes
/// (a DenseI32ArrayAttr: rows, columns; ClusterShape), for the block order
/// of the outlining.
constexpr llvm::StringLiteral kClusterShapeAttrName = "tile.cluster_shape";

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_TMACOPIES_H
