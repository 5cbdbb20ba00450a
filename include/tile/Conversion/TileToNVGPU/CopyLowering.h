//===- CopyLowering.h - Global/shared copies to thread code -----*- C++ -*-===//
//
// Part of tile-mlir. The second step of the GPU lowering: the block-level
// memory ops that do not touch a fragment become per-thread code while the
// `tile.kernel` is still present.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_COPYLOWERING_H
#define TILE_CONVERSION_TILETONVGPU_COPYLOWERING_H

#include "mlir/Support/LLVM.h"
#include "tile/Conversion/TileToNVGPU/TmaCopies.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

namespace mlir {
namespace tile {

/// Rewrites inside `kernel`:
///  - `tile.copy` / `tile.copy_async` between global and shared memory (and
///    shared to shared): each thread moves vector chunks of up to 16 bytes,
///    chunk t, t+T, t+2T, ... of the row-major extent (T = threads), so
///    consecutive threads touch consecutive addresses. Async copies become
///    `nvgpu.device_async_copy` whose `srcElements` zero-fills the
///    out-of-bounds part; synchronous ones masked vector loads and stores.
///  - `tile.clear` of a shared tile: zero vector stores.
///  - `tile.commit_group`, `tile.wait_group N`, `tile.barrier`: the NVVM
///    cp.async group ops and `gpu.barrier`.
///  - a `tile.pipelined` that was not software-pipelined: a serial scf.for.
/// Shared tiles are addressed through SharedAccess.h (swizzled). No barrier
/// is inserted: synchronization is explicit in the input. With `tma`, the
/// async copies and their groups go through the TMA and mbarriers where the
/// kernel allows it (TmaCopies.h).
LogicalResult lowerTileMemoryOps(KernelOp kernel, bool tma = false,
                                 const TmaOptions &tmaOptions = {});

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_COPYLOWERING_H
