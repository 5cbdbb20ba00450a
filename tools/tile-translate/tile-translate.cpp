//===- tile-translate.cpp - Write PTX and launch descriptions -------------===//
//
// Part of tile-mlir. Reads the output of `tile-opt --tile-to-ptx` and writes
// what a runtime loads:
//   tile-translate --tile-emit-ptx    out.mlir -o kernel.ptx
//   tile-translate --tile-emit-launch out.mlir -o kernel.launch
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "tile/Conversion/TileToNVGPU/KernelArtifacts.h"
#include "tile/InitAll.h"

using namespace mlir;

int main(int argc, char **argv) {
  // The tile dialect too: a module that still holds tile ops then gets our
  // "run tile-opt --tile-to-ptx first", not a parse error.
  auto registerDialects = [](DialectRegistry &registry) {
    tile::registerAllTileDialects(registry);
    registerAllDialects(registry);
    registerAllExtensions(registry);
  };
  TranslateFromMLIRRegistration ptx(
      "tile-emit-ptx", "write the PTX held by the module's gpu.binary",
      tile::writeKernelPTX, registerDialects);
  TranslateFromMLIRRegistration launch(
      "tile-emit-launch", "write the kernel launch description",
      tile::writeKernelLaunches, registerDialects);
  return failed(mlirTranslateMain(argc, argv, "tile-mlir translation tool"));
}
