//===- TmaStores.h - Fragment stores through shared memory and the TMA -*-===//
//
// Part of tile-mlir. With `tma-store=true`, a block that loops over tiles (a
// persistent kernel) stores each tile's result asynchronously: the fragment
// goes to a shared staging tile, and one thread hands it to the TMA, which
// writes it to global memory while the block starts on its next tile.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_TMASTORES_H
#define TILE_CONVERSION_TILETONVGPU_TMASTORES_H

#include "mlir/Support/LLVM.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Target/Chip.h"

namespace mlir {
namespace tile {

/// The attribute that marks a staged `tile.copy` (shared to global) for
/// lowerStagedStoresToTma.
constexpr llvm::StringLiteral kTmaStoreAttrName = "tile.tma_store";

/// Before the fragment lowering: rewrites each `tile.copy` of a fragment to
/// a kernel argument that sits in a loop of `kernel` (the tile loop of
/// tile-persistent-blocks) into
///   thread 0: cp.async.bulk.wait_group.read 0   (the staging tile is free)
///   tile.barrier
///   tile.copy fragment -> staging tile           (shared, SharedLayout.h)
///   fence.proxy.async.shared::cta               (visible to the TMA)
///   tile.barrier
///   tile.copy staging tile -> argument {tile.tma_store}
/// and makes thread 0 wait for the stores' reads before the block exits.
/// A store stays as it is (with a remark) when its global side does not
/// suit the TMA (TmaDetail.h) or the staging tile would not fit in `chip`'s
/// shared memory next to the kernel's tiles, and, with `tmaCopies` (async
/// copies may go through the TMA too), the block their mbarriers take.
void stageFragmentStoresForTma(KernelOp kernel, const ChipInfo &chip,
                               bool tmaCopies);

/// Lowers each `tile.copy` marked by stageFragmentStoresForTma to thread 0's
/// `nvgpu.tma.async.store`s of its boxes and a `cp.async.bulk.commit_group`
/// (`tid`: the thread index, defined at the top of the kernel's body).
void lowerStagedStoresToTma(KernelOp kernel, Value tid);

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_TMASTORES_H
