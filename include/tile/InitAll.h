//===- InitAll.h - Register every tile dialect and pass ---------*- C++ -*-===//
//
// Part of tile-mlir. One place that tools, the C API and the Python bindings
// call to make the tile dialect and all tile passes available.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_INITALL_H
#define TILE_INITALL_H

#include "mlir/IR/DialectRegistry.h"

namespace mlir {
namespace tile {

/// Adds the tile dialect to `registry`, and every upstream dialect,
/// extension and LLVM IR translation that the pipeline down to PTX needs
/// (all of MLIR's, as mlir-opt registers them).
void registerAllTileDialects(DialectRegistry &registry);

/// Registers every tile pass and pass pipeline with the global registry, so
/// that `--tile-...` flags and `PassManager::parsePassPipeline` find them,
/// and every upstream pass (tile-to-ptx's pipelines name upstream passes:
/// it calls mlir::registerAllPasses, which a program must not call as well,
/// since an MLIR built with assertions stops on a pipeline registered
/// twice). Calling it again does nothing.
void registerAllTilePasses();

} // namespace tile
} // namespace mlir

#endif // TILE_INITALL_H
