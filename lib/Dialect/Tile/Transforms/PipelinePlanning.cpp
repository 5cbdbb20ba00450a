//===- PipelinePlanning.cpp - Resolve stage and order ---------------------===//
//
// Part of tile-mlir.
//
// Writes every pipelined loop's schedule into the IR (`stage`, `order`,
// `num_stages` = depth) so that later passes only read it. Inference lives in
// ScheduleInference.cpp and legality in ScheduleVerifier.cpp, which the
// rewrite reuses; what the rewrite itself relies on (PipelinePreconditions)
// is checked here too, so that a planned schedule is one it takes.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Passes.h"
#include "tile/Dialect/Tile/Transforms/Pipelining.h"
#include "tile/Dialect/Tile/Transforms/Schedule.h"

#include "mlir/IR/Builders.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEPIPELINEPLANNING
#include "tile/Dialect/Tile/Transforms/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

/// Infers the schedule of a loop that gives only `num_stages`, reporting
/// each copy that had to stay out of stage 0 as a warning.
static PipelineSchedule planFromDepth(PipelinedOp loop, int64_t numStages) {
  InferredSchedule inferred = inferSchedule(loop, numStages);
  for (auto &[copy, violation] : inferred.demoted) {
    InFlightDiagnostic diag =
        copy->emitWarning()
        << "this copy stays in the consumer stage instead of being issued "
           "ahead in stage 0: there, "
        << violation.message;
    if (violation.other)
      diag.attachNote(violation.other->getLoc()) << violation.note;
  }
  if (inferred.collapsed)
    loop.emitWarning() << "num_stages = " << numStages
                       << " finds nothing to overlap (no copy from global "
                          "into shared memory can be issued ahead of its "
                          "consumers); the loop runs with depth 1";
  return inferred.schedule;
}

namespace {

struct TilePipelinePlanningPass
    : tile::impl::TilePipelinePlanningBase<TilePipelinePlanningPass> {
  void runOnOperation() override {
    bool failedAny = false;
    getOperation()->walk([&](PipelinedOp loop) {
      std::optional<PipelineSchedule> schedule = getSchedule(loop);
      if (!schedule && loop.getNumStages().value_or(0) == 0)
        return; // A serial loop: left alone.
      // A loop the rewrite cannot pipeline whatever its schedule gets that
      // error, not a schedule (or an error about one).
      if (failed(checkPipelinable(loop))) {
        failedAny = true;
        return;
      }
      if (!schedule) {
        schedule = planFromDepth(loop, *loop.getNumStages());
        // Planning reports a depth-1 fallback itself; the written depth is
        // the schedule's.
        loop.removeNumStagesAttr();
      }
      if (failed(verifySchedule(loop, *schedule)) ||
          failed(checkRewritable(loop, *schedule))) {
        failedAny = true;
        return;
      }
      Builder builder(loop.getContext());
      loop.setStageAttr(builder.getDenseI64ArrayAttr(schedule->stage));
      loop.setOrderAttr(builder.getDenseI64ArrayAttr(schedule->order));
      loop.setNumStagesAttr(builder.getI64IntegerAttr(schedule->getDepth()));
    });
    if (failedAny)
      signalPassFailure();
  }
};

} // namespace
