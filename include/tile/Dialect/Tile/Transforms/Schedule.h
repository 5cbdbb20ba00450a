//===- Schedule.h - The schedule of a pipelined loop ------------*- C++ -*-===//
//
// Part of tile-mlir. The one data structure that planning writes and the
// budget check, the schedule printer and the software-pipelining rewrite read.
// It lives in the IR as the `stage` and `order` attributes of
// `tile.pipelined`; this is only a typed view of them.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_SCHEDULE_H
#define TILE_DIALECT_TILE_TRANSFORMS_SCHEDULE_H

#include "tile/Dialect/Tile/IR/TileOps.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir {
namespace tile {

/// A resolved schedule: for every statement of the loop body (see
/// PipelinedOp::getStatements), the stage it runs in and its position in the
/// emitted steady-state body.
struct PipelineSchedule {
  llvm::SmallVector<Operation *> statements;
  llvm::SmallVector<int64_t> stage;
  llvm::SmallVector<int64_t> order;

  /// The number of stages: max(stage) + 1 (1 for an empty body).
  int64_t getDepth() const;

  /// The stage of `op`, a statement of the loop.
  int64_t getStage(Operation *op) const;

  /// Buffer versions that shared tile `buffer` needs: one more than the
  /// largest stage distance from a statement that writes it to a statement
  /// that reads it, so a version is not overwritten while a later stage
  /// still reads it. 1 for a buffer no statement writes.
  int64_t getNumVersions(Value buffer) const;
};

/// The schedule written in `loop`'s `stage` / `order` attributes, `order`
/// defaulting to source order; std::nullopt when `loop` has no `stage`.
/// Assumes the op verifier passed (lengths match, order is a permutation).
std::optional<PipelineSchedule> getSchedule(PipelinedOp loop);

/// Whether `op` writes / reads memory reachable from `buffer` (the buffer
/// itself or a view of it).
bool writesBuffer(Operation *op, Value buffer);
bool readsBuffer(Operation *op, Value buffer);

/// The allocation a memref value views: walks through view-like ops
/// (subview, cast, ...) to their source.
Value getUnderlyingBuffer(Value memref);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_TRANSFORMS_SCHEDULE_H
