//===- TileOps.h - Tile dialect operations ----------------------*- C++ -*-===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_IR_TILEOPS_H
#define TILE_DIALECT_TILE_IR_TILEOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"

#include <optional>

namespace mlir {
namespace tile {

/// Where a memref lives, as far as the tile dialect is concerned.
enum class MemorySpace { Global, Shared, Fragment };

/// Classifies a memref by its address space: none or
/// `#gpu.address_space<global>` is global, `workgroup` is shared, `private`
/// is fragment. Returns std::nullopt for any other space.
std::optional<MemorySpace> getMemorySpace(MemRefType type);

/// "global", "shared" or "fragment", for diagnostics.
llvm::StringRef stringifyMemorySpace(MemorySpace space);

/// The `#gpu.address_space<...>` attribute for a tile memory space.
Attribute getMemorySpaceAttr(MLIRContext *context, MemorySpace space);

} // namespace tile
} // namespace mlir

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.h.inc"

#endif // TILE_DIALECT_TILE_IR_TILEOPS_H
