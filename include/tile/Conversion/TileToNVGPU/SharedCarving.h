//===- SharedCarving.h - Shared tiles in one dynamic region -----*- C++ -*-===//
//
// Part of tile-mlir. Upstream lowers a workgroup-space memref.alloc to a call
// to malloc, and static shared arrays are capped at 48 KiB; carving every
// shared tile out of the kernel's dynamic shared memory avoids both.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_SHAREDCARVING_H
#define TILE_CONVERSION_TILETONVGPU_SHAREDCARVING_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "tile/Target/Chip.h"

#include <cstdint>

namespace mlir {
namespace tile {

/// Replaces every `tile.alloc_shared` in `func`, in program order, by a
/// `memref.view` of one `gpu.dynamic_shared_memory` region at the next
/// offset aligned to kSharedTileAlignment (Chip.h), which tile-smem-budget
/// counts the same way. Returns the region's size in bytes (0 when the
/// kernel has no shared tile).
int64_t carveSharedMemory(gpu::GPUFuncOp func);

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_SHAREDCARVING_H
