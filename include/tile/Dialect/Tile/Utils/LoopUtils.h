//===- LoopUtils.h - Constant indices and serial loops ----------*- C++ -*-===//
//
// Part of tile-mlir. Helpers that the transforms and both lowerings share:
// the value of an index computed from constants, a loop's static trip count,
// and a `tile.pipelined` loop as the serial `scf.for` it means.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_UTILS_LOOPUTILS_H
#define TILE_DIALECT_TILE_UTILS_LOOPUTILS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include <optional>

namespace mlir {
namespace tile {

/// The value of an index computed from constants only (`ceildiv(4096, 32)`
/// as the seed writes its trip count), by folding its side-effect-free
/// defining ops (at most 32 deep, 1024 in all); std::nullopt if it depends
/// on anything else. Folding leaves the IR untouched, unlike running a
/// canonicalizer.
std::optional<int64_t> evaluateConstantIndex(Value value);

/// The trip count of a loop from `lb` to `ub` by `step` when all three are
/// constants (evaluateConstantIndex) and the step is positive: 0 when
/// ub <= lb. std::nullopt otherwise, and when the count does not fit in
/// int64_t (-2^63 to 2^63 - 1 by 1); the IR's unsigned arithmetic on index
/// values gets such a loop right at run time.
std::optional<int64_t> getStaticTripCount(Value lb, Value ub, Value step);

/// The same for an scf.for, which may compare its bounds unsigned
/// (`scf.for unsigned`): then the count where both bounds are non-negative,
/// else std::nullopt (`unsigned %i = -1 to 2` runs no iteration).
std::optional<int64_t> getStaticTripCount(scf::ForOp loop);

/// Replaces `loop` by the serial `scf.for` it means, whatever its schedule
/// says: every statement of iteration k runs before any of iteration k + 1
/// (`num_stages`, `stage` and `order` only describe how a GPU may overlap
/// iterations without changing the result). Returns the new loop.
scf::ForOp convertToSerialLoop(RewriterBase &rewriter, PipelinedOp loop);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_UTILS_LOOPUTILS_H
