//===- Pipelining.h - Pieces of the software-pipelining rewrite -*- C++ -*-===//
//
// Part of tile-mlir. The steps `--tile-software-pipeline` is made of, one
// file each under lib/Dialect/Tile/Transforms/: the preconditions a planned
// loop must meet, the multi-buffering of shared tiles, the barrier placement
// of non-pipelined code, and the expansion into prologue / steady state /
// epilogue.
//
//===----------------------------------------------------------------------===//

#ifndef TILE_DIALECT_TILE_TRANSFORMS_PIPELINING_H
#define TILE_DIALECT_TILE_TRANSFORMS_PIPELINING_H

#include "tile/Dialect/Tile/Transforms/Schedule.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace tile {

/// The schedule the rewrite applies to `loop`: the planned `stage`/`order`;
/// every statement at stage 0 for `num_stages = 1` without lists. Emits an
/// error when `num_stages >= 2` but planning has not run, or when
/// `num_stages` disagrees with the lists. std::nullopt with success for a
/// plain loop (no schedule at all).
FailureOr<std::optional<PipelineSchedule>> getRewriteSchedule(PipelinedOp loop);

/// The value of an index computed from constants only (`ceildiv(4096, 32)`
/// as the seed writes its trip count), by folding its side-effect-free
/// defining ops (at most 32 deep); std::nullopt if it depends on anything
/// else. Folding leaves the IR untouched, unlike running a canonicalizer.
std::optional<int64_t> evaluateConstantIndex(Value value);

/// The trip count of a loop from `lb` to `ub` by `step` when all three are
/// constants (evaluateConstantIndex) and the step is positive: 0 when
/// ub <= lb. std::nullopt otherwise, and when the count does not fit in
/// int64_t (-2^63 to 2^63 - 1 by 1); the IR's unsigned arithmetic on index
/// values gets such a loop right at run time.
std::optional<int64_t> getStaticTripCount(Value lb, Value ub, Value step);

/// Checks what the rewrite relies on and planning may not have enforced
/// (hand-edited IR): every shared tile has one writer, its readers run in the
/// same or a later stage and after it in the iteration, buffers that are not
/// multi-buffered (fragments, global memory) are not carried across stages,
/// statements have no regions and no results used by other statements, the
/// step is positive. Emits an error naming the statements involved.
LogicalResult checkRewritable(PipelinedOp loop,
                              const PipelineSchedule &schedule);

/// Replaces `alloc` by an allocation with a leading dimension of `versions`
/// and returns the new value. The old op stays until its uses are gone.
Value createVersionedAlloc(OpBuilder &builder, AllocSharedOp alloc,
                           int64_t versions);

/// The rank-reducing view of version `version` (an index) of `versioned`.
Value createVersionView(OpBuilder &builder, Location loc, Value versioned,
                        Value version);

/// `((iv - lb) / step) mod versions`, folded where the operands are constant.
Value createVersionIndex(OpBuilder &builder, Location loc, Value iv, Value lb,
                         Value step, int64_t versions);

/// Rewrites `loop` (which passed checkRewritable) into the pipelined form
/// and erases it. With `unroll`, the steady state is unrolled by the number
/// of buffer versions so that version indices are constants.
void expandPipelinedLoop(RewriterBase &rewriter, PipelinedOp loop,
                         const PipelineSchedule &schedule, bool unroll);

/// Inserts `tile.barrier` into a kernel body wherever one thread could read
/// a shared tile before another thread's write to it is complete, or
/// overwrite it before another thread's read is done. Scheduled
/// `tile.pipelined` loops count as one op (they synchronize their inside
/// themselves).
void insertSharedMemoryBarriers(Block &kernelBody);

} // namespace tile
} // namespace mlir

#endif // TILE_DIALECT_TILE_TRANSFORMS_PIPELINING_H
