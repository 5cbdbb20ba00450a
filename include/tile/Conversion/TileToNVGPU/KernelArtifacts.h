//===- KernelArtifacts.h - The files a runtime loads ------------*- C++ -*-===//
//
// Part of tile-mlir. A module that went through tile-to-ptx holds everything
// a runtime needs, in MLIR: the PTX in its gpu.binary and the launch
// description on each gpu.launch_func. These functions write them out as the
// `.ptx` and `.launch` files tile-run loads; tile-translate and the C API
// (tileEmitPTX, tileEmitLaunch) call them.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_CONVERSION_TILETONVGPU_KERNELARTIFACTS_H
#define TILE_CONVERSION_TILETONVGPU_KERNELARTIFACTS_H

#include "mlir/IR/Operation.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir {
namespace tile {

/// Writes the PTX of every gpu.binary under `op`, in order (tile-to-ptx
/// makes exactly one). Emits an error and fails when an object is not PTX
/// text (a cubin, an LLVM module) or when there is no gpu.binary.
LogicalResult writeKernelPTX(Operation *op, llvm::raw_ostream &os);

/// Writes the launch description of every gpu.launch_func under `op`
/// (writeLaunchDescription), separated by blank lines. Emits an error and
/// fails when there is none or one has no valid description.
LogicalResult writeKernelLaunches(Operation *op, llvm::raw_ostream &os);

} // namespace tile
} // namespace mlir

#endif // TILE_CONVERSION_TILETONVGPU_KERNELARTIFACTS_H
