//===- KernelArtifacts.cpp - The files a runtime loads --------------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/KernelArtifacts.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "tile/Conversion/TileToNVGPU/LaunchInfo.h"

using namespace mlir;

// The errors below go to the op's location without the op: printed with the
// op (tile-translate's default), a gpu.binary would show all of its PTX and a
// module all of its IR.

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
                  "holds a second PTX object, and a PTX file holds "
                  "one; tile-to-ptx puts every kernel of a module "
                  "into one gpu.binary for one chip");
        return WalkResult::interrupt();
      }
      ptx = object.getObject();
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  if (!ptx)
    return emitError(op->getLoc(), "no gpu.binary holding PTX; run tile-opt "
                                   "--tile-to-ptx=chip=sm_XX first");
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
    return emitError(op->getLoc(), "no gpu.launch_func; run tile-opt "
                                   "--tile-to-ptx=chip=sm_XX first");
  return success();
}
