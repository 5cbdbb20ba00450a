//===- InitAll.cpp - Register every tile dialect and pass -----------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/InitAll.h"

#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Transforms/Passes.h"

void mlir::tile::registerAllTileDialects(DialectRegistry &registry) {
  registry.insert<TileDialect>();
}

void mlir::tile::registerAllTilePasses() {
  registerTileTransformsPasses();
  registerTileConversionPasses();
}
