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

/// The rules of checkRewritable that hold whatever the schedule, with the
/// same errors: a statement is not (and its regions hold no) tile
/// allocation or pipelined-level op and has known memory effects, and every
/// shared tile the statements use is a `tile.alloc_shared` result allocated
/// before the loop with at most one writer among them. Planning checks them
/// before it infers or verifies a schedule, so that such a loop is not
/// given one that the rewrite then refuses, nor an error about its schedule.
LogicalResult checkPipelinable(PipelinedOp loop);

/// Checks what the rewrite relies on and planning may not have enforced
/// (hand-edited IR), and emits an error naming the statements involved:
///  - checkPipelinable's rules;
///  - the step is positive;
///  - a statement's regions (an scf.if around a gemm or copy) hold no
///    allocation and no pipelined-level op, and nothing with unknown memory
///    effects; its results are used only by later statements of its stage;
///  - every shared tile is a `tile.alloc_shared` result allocated before the
///    loop, has one writer among the statements, and is not written from
///    inside a region when it is multi-buffered; statements use
///    multi-buffered tiles directly, not through views;
///  - readers of a shared tile run after its writer in the iteration, in the
///    same or a later stage (a reader of the previous iteration's tile may
///    come first when it, the writer and all other readers share a stage);
///  - a buffer that is not versioned (a fragment, global memory) is not
///    carried across stages, except a fragment read one stage after its
///    writer by a statement placed before the writer in the step, and keeps
///    its accesses of one stage in source order.
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
