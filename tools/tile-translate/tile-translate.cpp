//===- tile-translate.cpp - Write PTX and launch descriptions -------------===//
//
// Part of tile-mlir. Reads the output of `tile-opt --tile-to-ptx` and writes
// what a runtime loads:
//   tile-translate --tile-emit-ptx    out.mlir -o kernel.ptx
//   tile-translate --tile-emit-launch out.mlir -o kernel.launch
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "tile/Conversion/TileToNVGPU/LaunchInfo.h"

using namespace mlir;

/// The PTX of every gpu.binary, in order (one per gpu.module; tile-to-ptx
/// makes exactly one). Only text objects are accepted: a cubin or an LLVM
/// module is not PTX.
static LogicalResult emitPTX(Operation *op, raw_ostream &os) {
  unsigned count = 0;
  WalkResult result = op->walk([&](gpu::BinaryOp binary) {
    for (Attribute attr : binary.getObjects()) {
      auto object = cast<gpu::ObjectAttr>(attr);
      if (object.getFormat() != gpu::CompilationTarget::Assembly) {
        binary.emitError("object is not PTX text; compile with "
                         "gpu-module-to-binary{format=isa}");
        return WalkResult::interrupt();
      }
      os << object.getObject().getValue();
      ++count;
    }
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  if (count == 0)
    return op->emitError("no gpu.binary holding PTX; run tile-opt "
                         "--tile-to-ptx=chip=sm_XX first");
  return success();
}

/// The launch description of every gpu.launch_func, separated by blank lines;
/// a launch without one is an error (the runtime could not launch it).
static LogicalResult emitLaunch(Operation *op, raw_ostream &os) {
  unsigned count = 0;
  WalkResult result = op->walk([&](gpu::LaunchFuncOp launch) {
    if (count++)
      os << "\n";
    if (failed(tile::writeLaunchDescription(launch, os)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  if (count == 0)
    return op->emitError("no gpu.launch_func; run tile-opt "
                         "--tile-to-ptx=chip=sm_XX first");
  return success();
}

int main(int argc, char **argv) {
  auto registerDialects = [](DialectRegistry &registry) {
    registerAllDialects(registry);
    registerAllExtensions(registry);
  };
  TranslateFromMLIRRegistration ptx(
      "tile-emit-ptx", "write the PTX held by the module's gpu.binary", emitPTX,
      registerDialects);
  TranslateFromMLIRRegistration launch("tile-emit-launch",
                                       "write the kernel launch description",
                                       emitLaunch, registerDialects);
  return failed(mlirTranslateMain(argc, argv, "tile-mlir translation tool"));
}
