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
#include <string>

namespace mlir {
namespace tile {

/// Where a memref lives, as far as the tile dialect is concerned.
enum class MemorySpace { Global, Shared, Fragment };

/// Classifies a memref by its address space: none or
/// `#gpu.address_space<global>` is global, `workgroup` is shared, `private`
/// is fragment. Returns std::nullopt for any other space.
std::optional<MemorySpace> getMemorySpace(BaseMemRefType type);

/// "global", "shared" or "fragment", for diagnostics.
llvm::StringRef stringifyMemorySpace(MemorySpace space);

/// The `#gpu.address_space<...>` attribute for a tile memory space.
Attribute getMemorySpaceAttr(MLIRContext *context, MemorySpace space);

/// Whether `op` is an op of the tile dialect or holds one in its regions: a
/// collective op, which every thread of a block runs together on the GPU.
/// Code with no tile op in it runs in each thread on its own (as in CUDA).
bool isOrHoldsTileOp(Operation *op);

/// The largest tile the verifier accepts, in bytes: far beyond any chip, so
/// that passes can size tiles (and their versions) in int64_t bytes without
/// a product wrapping.
inline constexpr int64_t kMaxTileBytes = int64_t(1) << 32;

/// The deepest pipeline the verifier accepts. The rewrite emits a prologue
/// and an epilogue step per stage, so an absurd depth (2^40) would run for
/// ever; GEMMs pipeline 2 to 5 deep.
inline constexpr int64_t kMaxPipelineDepth = 64;

/// Why `stage` cannot be the stage list of a pipelined loop with
/// `numStatements` statements (one entry per statement, each in
/// [0, kMaxPipelineDepth)), or std::nullopt when it can. tile.pipelined's
/// verifier and the schedule checker, which also sees schedules built inside
/// a pass, give the same message.
std::optional<std::string> checkStageList(ArrayRef<int64_t> stage,
                                          size_t numStatements);

/// The number of stages a stage list gives: max(stage) + 1, at least 1.
int64_t getStageListDepth(ArrayRef<int64_t> stage);

/// Why `order` is not a permutation of 0..numStatements-1 (one entry per
/// statement), or std::nullopt when it is.
std::optional<std::string> checkOrderList(ArrayRef<int64_t> order,
                                          size_t numStatements);

} // namespace tile
} // namespace mlir

#define GET_OP_CLASSES
#include "tile/Dialect/Tile/IR/TileOps.h.inc"

#endif // TILE_DIALECT_TILE_IR_TILEOPS_H
