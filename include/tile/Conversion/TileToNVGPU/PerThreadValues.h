//===- PerThreadValues.h - Values that differ between threads ---*- C++ -*-===//
//
// Part of tile-mlir. The kernel body's scalar ops run in every thread; tile
// ops run in all of a block's threads together, so no value that differs
// between threads may steer one.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_PERTHREADVALUES_H
#define TILE_CONVERSION_TILETONVGPU_PERTHREADVALUES_H

#include "tile/Dialect/Tile/IR/TileOps.h"

namespace mlir {
namespace tile {

/// Refuses a tile op of `kernel` (or an op holding one) that a value of a
/// thread's own steers: an operand of the tile op, a loop bound or branch
/// condition around it, an exit before it. Such values come from
/// gpu.thread_id and its kin, a shuffle, vote or election, an atomic's
/// result or inline assembly, and reach others through every op's results,
/// iteration arguments, yields, control, and memory they are stored into (a
/// load from it after the store, or in a later iteration of a loop around
/// both; an op that states no effects may write or read any).
/// Passing one into a loop's iteration arguments steers nothing by itself.
LogicalResult checkPerThreadValuesSteerNoTileOps(KernelOp kernel);

/// Whether a tile op other than a barrier may run after `op` in `kernel`:
/// one after `op` or after an op around it, in their blocks, or any in an
/// op around it that may run its regions again (a loop). What an exit
/// (`nvvm.exit`) there would leave undone. Barriers do not count: a PTX
/// barrier waits for the threads that have not exited.
bool mayDoTileWorkAfter(Operation *op, KernelOp kernel);

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_PERTHREADVALUES_H
