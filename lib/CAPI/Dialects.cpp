//===- Dialects.cpp - C API for the tile dialect --------------------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile-c/Dialects.h"

#include "mlir/CAPI/Registration.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Tile, tile, mlir::tile::TileDialect)
