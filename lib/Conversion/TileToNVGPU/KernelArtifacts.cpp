//===- KernelArtifacts.cpp - The files a runtime loads --------------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/KernelArtifacts.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "tile/Conversion/TileToNVGPU/LaunchInfo.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

using namespace mlir;
using namespace mlir::tile;

// The errors below go to the op's location without the op: printed with the
// op (tile-translate's default), a gpu.binary would show all of its PTX and a
// module all of its IR.

/// The error for a module without `missing` (a gpu.binary, a launch): it
/// holds tile kernels that tile-to-ptx has not compiled, or no kernel at all.
static LogicalResult emitNothingToWrite(Operation *op, StringRef missing) {
  WalkResult kernels = op->walk([](Operation *nested) {
    return isa<KernelOp, gpu::GPUModuleOp>(nested) ? WalkResult::interrupt()
                                                   : WalkResult::advance();
  });
  // A gpu.module without a gpu.binary: tile-lower-to-nvgpu ran alone.
  if (kernels.wasInterrupted())
    return emitError(op->getLoc())
           << "no " << missing
           << "; run tile-opt --tile-to-ptx=chip=sm_XX first";
  return emitError(op->getLoc())
         << "no " << missing
         << " and no tile.kernel: the module has no kernel to write";
}

LogicalResult mlir::tile::writeKernelPTX(Operation *op, raw_ostream &os) {
  // One PTX file holds one module: two objects (two gpu.binary ops, or one
  // with two targets) written one after the other would not assemble.
  StringAttr ptx;
  WalkResult result = op->walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      if (object.getFormat() != gpu::CompilationTarget::Assembly) {
        emitError(binary.getLoc(), "object is not PTX text; compile with "
                                   "gpu-module-to-binary{format=isa}");
        return WalkResult::interrupt();
      }
      if (ptx) {
        emitError(binary.getLoc(),
                  "holds a second PTX object, and a PTX file holds one; "
                  "tile-to-ptx puts every kernel of a module into one "
                  "gpu.binary for one chip");
        return WalkResult::interrupt();
      }
      ptx = object.getObject();
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  if (!ptx)
    return emitNothingToWrite(op, "gpu.binary holding PTX");
  os << ptx.getValue();
  return success();
}

LogicalResult mlir::tile::writeKernelLaunches(Operation *op, raw_ostream &os) {
  unsigned count = 0;
  WalkResult result = op->walk([&](gpu::LaunchFuncOp launch) {
    if (count++)
      os << "\n";
    if (failed(writeLaunchDescription(launch, os)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  if (count == 0)
    return emitNothingToWrite(op, "gpu.launch_func");
  return success();
}
