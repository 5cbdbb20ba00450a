//===- PipelinePreconditions.cpp - What the pipelining rewrite relies on --===//
//
// Part of tile-mlir.
//
// Planning validates hand-given schedules, but IR can be edited after it.
// The rewrite checks again what it relies on, so that a bad schedule is an
// error at the statement instead of a silent miscompile.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Pipelining.h"

#include "tile/Dialect/Tile/Utils/LoopUtils.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::tile;

FailureOr<std::optional<PipelineSchedule>>
mlir::tile::getRewriteSchedule(PipelinedOp loop) {
  std::optional<int64_t> numStages = loop.getNumStages();
  std::optional<PipelineSchedule> schedule = getSchedule(loop);
  if (!schedule) {
    if (!numStages || *numStages == 0)
      return std::optional<PipelineSchedule>();
    if (*numStages >= 2)
      return loop.emitOpError()
             << "has num_stages = " << *numStages
             << " but no 'stage' list: run --tile-pipeline-planning first";
    // num_stages = 1: every statement in the one stage, in source order.
    PipelineSchedule single;
    single.statements = loop.getStatements();
    single.stage.assign(single.statements.size(), 0);
    for (int64_t i = 0, e = single.statements.size(); i < e; ++i)
      single.order.push_back(i);
    return std::optional<PipelineSchedule>(std::move(single));
  }
  // The op verifier has checked that num_stages agrees with the list.
  return std::optional<PipelineSchedule>(std::move(*schedule));
}

/// The buffers (underlying allocations) `op` and the ops in its regions
/// read or write, from their memory effects.
static void collectBuffers(Operation *op, SetVector<Value> &buffers) {
  op->walk([&](MemoryEffectOpInterface iface) {
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects)
      if (Value value = effect.getValue())
        if (isa<MemRefType>(value.getType()))
          buffers.insert(getUnderlyingBuffer(value));
  });
}

/// The error for a shared tile the statements use that is not a
/// `tile.alloc_shared` result (a function argument, an arith.select or scf.if
/// of tiles), at the first op that uses it.
static LogicalResult emitNotAllocated(PipelinedOp loop,
                                      ArrayRef<Operation *> statements,
                                      Value buffer) {
  Operation *user = loop;
  for (Operation *statement : statements) {
    statement->walk([&](Operation *nested) {
      if (llvm::any_of(nested->getOperands(), [&](Value operand) {
            return isa<MemRefType>(operand.getType()) &&
                   getUnderlyingBuffer(operand) == buffer;
          })) {
        user = nested;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (user != loop)
      break;
  }
  std::string origin = "a block argument";
  if (Operation *def = buffer.getDefiningOp())
    origin = "the result of '" + def->getName().getStringRef().str() + "'";
  InFlightDiagnostic diag =
      user->emitOpError()
      << "uses a shared tile that is " << origin
      << ", not of a 'tile.alloc_shared'; the pipelining rewrite cannot tell "
         "which tile it is or add its version dimension";
  if (user != loop)
    diag.attachNote(loop.getLoc()) << "the pipelined loop is here";
  return diag;
}

/// The first op in `op` (itself included) whose memory effects are unknown:
/// neither declared nor those of the ops in its regions.
static Operation *findUnknownEffects(Operation *op) {
  Operation *unknown = nullptr;
  op->walk([&](Operation *nested) {
    if (isa<MemoryEffectOpInterface>(nested) ||
        nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return WalkResult::advance();
    unknown = nested;
    return WalkResult::interrupt();
  });
  return unknown;
}

static bool isSharedBuffer(Value buffer) {
  auto type = dyn_cast<MemRefType>(buffer.getType());
  return type && getMemorySpace(type) == MemorySpace::Shared;
}

/// A statement's results may feed (directly or through pure index
/// arithmetic) only statements of its own stage ordered after it: the value
/// then never leaves the time step it is computed in. Where the step is
/// guarded, the value leaves its `scf.if` as a result, so it must be a
/// scalar the other branch can give a zero of.
static LogicalResult
checkResultUses(Operation *op, const PipelineSchedule &schedule,
                function_ref<int64_t(Operation *)> indexOf) {
  if (op->getNumResults() == 0)
    return success();
  Block *body = op->getBlock();
  int64_t index = indexOf(op);
  SmallVector<Operation *> worklist{op};
  llvm::SmallPtrSet<Operation *, 8> seen{op};
  while (!worklist.empty()) {
    Operation *current = worklist.pop_back_val();
    for (Operation *nestedUser : current->getUsers()) {
      // A use inside a statement's regions is a use by the statement.
      Operation *user = body->findAncestorOpInBlock(*nestedUser);
      if (!user || user == current || !seen.insert(user).second)
        continue;
      if (isMemoryEffectFree(user)) {
        worklist.push_back(user);
        continue;
      }
      int64_t userIndex = indexOf(user);
      if (schedule.stage[userIndex] != schedule.stage[index] ||
          schedule.order[userIndex] < schedule.order[index]) {
        InFlightDiagnostic diag =
            op->emitOpError()
            << "has a result used by a statement of another stage or "
               "ordered before it; the pipelining rewrite carries values "
               "only within one stage";
        diag.attachNote(nestedUser->getLoc()) << "the user is here";
        return diag;
      }
    }
  }
  for (Type type : op->getResultTypes())
    if (!type.isIntOrIndexOrFloat())
      return op->emitOpError()
             << "has a result of type " << type
             << "; the pipelining rewrite carries only integer, index and "
                "float results out of a statement (a guarded step yields "
                "them from its scf.if)";
  return success();
}

/// What statement `op` may not be or hold, whatever the schedule: a tile
/// allocation, a pipelined-level op (a statement with regions, an scf.if
/// around a gemm, is scheduled as a whole with the effects of what it holds,
/// and its copies stay synchronous), or an op of unknown memory effects.
static LogicalResult checkStatementKind(Operation *op) {
  WalkResult nested = op->walk([&](Operation *inner) {
    if (isa<AllocSharedOp, AllocFragmentOp>(inner)) {
      inner->emitOpError() << "allocates inside a pipelined loop; "
                              "allocate tiles before the loop";
      return WalkResult::interrupt();
    }
    if (isa<PipelinedOp, CopyAsyncOp, CommitGroupOp, WaitGroupOp, BarrierOp>(
            inner)) {
      inner->emitOpError()
          << (inner == op ? "is a statement" : "is inside a statement")
          << " of a pipelined loop; the rewrite places these itself";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (nested.wasInterrupted())
    return failure();
  if (Operation *unknown = findUnknownEffects(op))
    return unknown->emitOpError()
           << "has unknown memory effects; the pipelining rewrite cannot "
              "tell which tiles it touches";
  return success();
}

/// A shared tile the statements use: a `tile.alloc_shared` result allocated
/// before the loop, written by at most one statement.
static LogicalResult checkSharedTile(PipelinedOp loop,
                                     ArrayRef<Operation *> statements,
                                     Value buffer) {
  auto alloc = buffer.getDefiningOp<AllocSharedOp>();
  if (!alloc)
    return emitNotAllocated(loop, statements, buffer);
  if (loop->isAncestor(alloc))
    return alloc.emitOpError()
           << "allocates inside a pipelined loop; allocate tiles before "
              "the loop";
  Operation *writer = nullptr;
  for (Operation *op : statements) {
    if (!writesBuffer(op, buffer))
      continue;
    if (writer) {
      InFlightDiagnostic diag =
          op->emitOpError()
          << "writes a shared tile that another statement of the pipelined "
             "loop also writes; the rewrite supports one writer per "
             "shared tile";
      diag.attachNote(writer->getLoc()) << "the other writer is here";
      return diag;
    }
    writer = op;
  }
  return success();
}

LogicalResult mlir::tile::checkPipelinable(PipelinedOp loop) {
  SmallVector<Operation *> statements = loop.getStatements();
  SetVector<Value> buffers;
  for (Operation *op : statements) {
    if (failed(checkStatementKind(op)))
      return failure();
    collectBuffers(op, buffers);
  }
  for (Value buffer : buffers)
    if (isSharedBuffer(buffer) &&
        failed(checkSharedTile(loop, statements, buffer)))
      return failure();
  return success();
}

/// The rules for statement `op` under `schedule` (checkStatementKind holds):
/// who uses its results, and that it uses multi-buffered tiles directly.
static LogicalResult
checkStatementUses(PipelinedOp loop, const PipelineSchedule &schedule,
                   Operation *op, function_ref<int64_t(Operation *)> indexOf) {
  if (failed(checkResultUses(op, schedule, indexOf)))
    return failure();
  // The rewrite versions a tile by giving its allocation a leading version
  // dimension and each statement's use of it a subview of one version. A
  // statement that reaches the tile through a view (a subview, a cast)
  // would keep the unversioned view, and every iteration would use one
  // buffer: later stages' copies would overwrite the tile the gemm reads.
  // Planning and the budget see through views (they count the versions),
  // so the rewrite refuses rather than pipeline it wrongly.
  WalkResult viewed = op->walk([&](Operation *user) {
    for (Value operand : user->getOperands()) {
      Value tile = getUnderlyingBuffer(operand);
      if (tile == operand || !tile.getDefiningOp<AllocSharedOp>() ||
          schedule.getNumVersions(tile) < 2)
        continue;
      InFlightDiagnostic diag =
          user->emitOpError()
          << "uses a shared tile that the pipelined loop multi-buffers "
             "through a view ('"
          << operand.getDefiningOp()->getName()
          << "'); the rewrite versions tiles that statements use directly";
      diag.attachNote(loop.getLoc()) << "the pipelined loop is here";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(viewed.wasInterrupted());
}

/// The rules for one buffer the statements touch under `schedule`
/// (checkSharedTile holds for a shared tile): for every reader, where it runs
/// against the (first) writer.
static LogicalResult
checkBufferAccesses(const PipelineSchedule &schedule, Value buffer,
                    function_ref<int64_t(Operation *)> indexOf) {
  ArrayRef<Operation *> statements = schedule.statements;
  bool shared = isSharedBuffer(buffer);
  Operation *const *firstWriter = llvm::find_if(
      statements, [&](Operation *op) { return writesBuffer(op, buffer); });
  if (firstWriter == statements.end())
    return success();
  Operation *writer = *firstWriter;
  // Each version of a multi-buffered tile holds one iteration's write. A
  // writer with regions (an scf.if) may skip an iteration, and its readers
  // would then see an older iteration's version, not the last write.
  if (shared && writer->getNumRegions() != 0 &&
      schedule.getNumVersions(buffer) > 1)
    return writer->emitOpError()
           << "writes a shared tile that the pipelined loop multi-buffers "
              "from inside its regions, which may skip an iteration; write "
              "it with a statement of its own, or keep its readers in its "
              "stage";
  int64_t writerIndex = indexOf(writer);
  int64_t writerStage = schedule.stage[writerIndex];
  bool sameStageReaders = llvm::all_of(statements, [&](Operation *op) {
    return op == writer || !readsBuffer(op, buffer) ||
           schedule.stage[indexOf(op)] == writerStage;
  });
  for (Operation *op : statements) {
    if (op == writer ||
        !(readsBuffer(op, buffer) || (!shared && writesBuffer(op, buffer))))
      continue;
    int64_t index = indexOf(op);
    int64_t stage = schedule.stage[index];
    if (!shared) {
      // Only shared tiles get versions: a fragment or global buffer handed
      // from one stage to another would be overwritten by the next
      // iteration before the later stage reads it, unless the reader runs
      // one stage later and before the writer within the time step. That
      // holds for fragments, which each thread reads and writes alone;
      // global memory would also need a barrier across the step boundary.
      bool fragment = getMemorySpace(cast<BaseMemRefType>(buffer.getType())) ==
                      MemorySpace::Fragment;
      if (fragment && stage == writerStage + 1 && index > writerIndex &&
          !writesBuffer(op, buffer) &&
          schedule.order[index] < schedule.order[writerIndex])
        continue;
      if (stage != writerStage) {
        InFlightDiagnostic diag =
            op->emitOpError()
            << "runs in stage " << stage
            << " but touches a non-shared buffer written in stage "
            << writerStage
            << "; only shared tiles are multi-buffered, keep both in one "
               "stage (a fragment may also be read one stage later if the "
               "reader is ordered before the writer)";
        diag.attachNote(writer->getLoc()) << "the writer is here";
        return diag;
      }
      bool sourceBefore = index < writerIndex;
      bool orderBefore = schedule.order[index] < schedule.order[writerIndex];
      if (sourceBefore != orderBefore) {
        InFlightDiagnostic diag =
            op->emitOpError()
            << "is reordered against a statement of the same stage it "
               "depends on through a non-shared buffer";
        diag.attachNote(writer->getLoc()) << "the other statement is here";
        return diag;
      }
      continue;
    }
    bool orderedFirst = schedule.order[index] < schedule.order[writerIndex];
    if (index < writerIndex) {
      // The read sees the previous iteration's tile (TileLang issue 2668
      // when a pipeliner hoists the write). That only survives pipelining
      // as one unversioned buffer: reader and writer in one stage, the
      // reader still first, and no later stage reading the tile.
      if (stage == writerStage && orderedFirst && sameStageReaders)
        continue;
      InFlightDiagnostic diag =
          op->emitOpError()
          << "reads a shared tile before the statement that writes it in "
             "the same iteration; the rewrite carries a shared tile across "
             "iterations only when the writer and all its readers share a "
             "stage and the reader stays ordered first";
      diag.attachNote(writer->getLoc()) << "the writer is here";
      return diag;
    }
    if (stage < writerStage) {
      InFlightDiagnostic diag =
          op->emitOpError()
          << "runs in stage " << stage
          << " but reads a shared tile written in the later stage "
          << writerStage;
      diag.attachNote(writer->getLoc()) << "the writer is here";
      return diag;
    }
    if (stage == writerStage && orderedFirst) {
      InFlightDiagnostic diag =
          op->emitOpError()
          << "is ordered before the statement of the same stage that "
             "writes the shared tile it reads";
      diag.attachNote(writer->getLoc()) << "the writer is here";
      return diag;
    }
  }
  return success();
}

LogicalResult mlir::tile::checkRewritable(PipelinedOp loop,
                                          const PipelineSchedule &schedule) {
  if (std::optional<int64_t> step = evaluateConstantIndex(loop.getStep());
      step && *step <= 0)
    return loop.emitOpError() << "has step " << *step
                              << "; the pipelining rewrite needs a positive "
                                 "step";

  if (failed(checkPipelinable(loop)))
    return failure();
  ArrayRef<Operation *> statements = schedule.statements;
  auto indexOf = [&](Operation *op) {
    return llvm::find(statements, op) - statements.begin();
  };
  SetVector<Value> buffers;
  for (Operation *op : statements) {
    if (failed(checkStatementUses(loop, schedule, op, indexOf)))
      return failure();
    collectBuffers(op, buffers);
  }
  for (Value buffer : buffers)
    if (failed(checkBufferAccesses(schedule, buffer, indexOf)))
      return failure();
  return success();
}
