//===- InitAll.cpp - Register every tile dialect and pass -----------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/InitAll.h"

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"

// tile-to-ptx runs pipelines of upstream passes, whose conversions reach the
// dialects' ConvertToLLVM interfaces, the NVVM target and the LLVM IR
// translations through the registry: all of MLIR's are registered, as
// mlir-opt has them, so that a program's context compiles as tile-opt does.
void mlir::tile::registerAllTileDialects(DialectRegistry &registry) {
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<TileDialect>();
}

void mlir::tile::registerAllTilePasses() {
  static bool registered = [] {
    registerAllPasses();
    registerTileTransformsPasses();
    registerTileConversionPasses();
    return true;
  }();
  (void)registered;
}
