//===- ScheduleInference.cpp - Stage and order from num_stages ------------===//
//
// Part of tile-mlir.
//
// TileLang's rule: copies from global into shared memory, and whatever
// computes their indices, run in stage 0; everything else, the consumers of
// those tiles first of all, runs in the last stage, in source order. Unlike
// TileLang, a copy whose hoisting would break a dependence (a tile read
// earlier in the iteration, TileLang issue 2668; a value or buffer another
// consumer produces, issue 2720) stays with the consumers instead of being
// miscompiled: the candidate schedule goes through findScheduleViolation and
// each violation demotes the copies it involves until none is left.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Schedule.h"

#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;
using namespace mlir::tile;

/// A copy that stage 0 exists for: global memory into a shared tile.
static bool isPrefetchCopy(Operation *op) {
  auto copy = dyn_cast<CopyOp>(op);
  if (!copy)
    return false;
  return getMemorySpace(copy.getSource().getType()) == MemorySpace::Global &&
         getMemorySpace(copy.getDest().getType()) == MemorySpace::Shared;
}

/// Statements that statement `index` needs before it in the same iteration
/// and that must therefore share its stage: those whose results it uses
/// (through side-effect-free ops of the body) and those that write memory it
/// reads. Only statements earlier in the body count; later ones feed the
/// next iteration, which the checker handles.
static SmallVector<unsigned> getProducers(PipelinedOp loop,
                                          ArrayRef<Operation *> statements,
                                          ArrayRef<MemoryAccesses> accesses,
                                          unsigned index) {
  SmallVector<unsigned> producers = getValueProducers(loop, statements, index);
  auto add = [&](unsigned i) {
    if (!llvm::is_contained(producers, i))
      producers.push_back(i);
  };

  const MemoryAccesses &reader = accesses[index];
  for (unsigned i = 0; i < index; ++i) {
    const MemoryAccesses &writer = accesses[i];
    bool feeds = (writer.writesUnknown &&
                  (reader.readsUnknown || !reader.reads.empty())) ||
                 llvm::any_of(reader.reads,
                              [&](Value b) { return writer.mayWrite(b); }) ||
                 (reader.readsUnknown && !writer.writes.empty());
    if (feeds)
      add(i);
  }
  return producers;
}

/// A statement that uses a value another stage computes. The verifier allows
/// a later stage to use it, but the rewrite carries values only within one
/// stage (PipelinePreconditions), so an inferred schedule must not make one.
static std::optional<ScheduleViolation>
findCrossStageValue(PipelinedOp loop, const PipelineSchedule &schedule) {
  for (unsigned b = 0, n = schedule.statements.size(); b < n; ++b)
    for (unsigned a : getValueProducers(loop, schedule.statements, b)) {
      if (schedule.stage[a] == schedule.stage[b])
        continue;
      ScheduleViolation violation;
      violation.op = schedule.statements[b];
      violation.other = schedule.statements[a];
      violation.message = schedule.describe(b) + " uses a value that " +
                          schedule.describe(a) +
                          " computes, and the pipelining rewrite carries "
                          "values only within one stage";
      violation.note = schedule.describe(a) + " computes it here";
      return violation;
    }
  return std::nullopt;
}

InferredSchedule mlir::tile::inferSchedule(PipelinedOp loop,
                                           int64_t numStages) {
  InferredSchedule result;
  PipelineSchedule &schedule = result.schedule;
  schedule.statements = loop.getStatements();
  unsigned n = schedule.statements.size();
  for (unsigned i = 0; i < n; ++i)
    schedule.order.push_back(i);
  schedule.stage.assign(n, 0);
  if (numStages <= 1)
    return result;
  // A body without statements has nothing to overlap either.
  if (n == 0) {
    result.collapsed = true;
    return result;
  }

  SmallVector<MemoryAccesses> accesses;
  for (Operation *statement : schedule.statements)
    accesses.push_back(getMemoryAccesses(statement));

  // Each prefetch copy drags into stage 0 the statements it needs first.
  SmallVector<unsigned> seeds;
  llvm::DenseMap<unsigned, llvm::SmallBitVector> closure;
  for (unsigned i = 0; i < n; ++i) {
    if (!isPrefetchCopy(schedule.statements[i]))
      continue;
    seeds.push_back(i);
    llvm::SmallBitVector members(n);
    SmallVector<unsigned> worklist{i};
    while (!worklist.empty()) {
      unsigned s = worklist.pop_back_val();
      if (members.test(s))
        continue;
      members.set(s);
      llvm::append_range(worklist,
                         getProducers(loop, schedule.statements, accesses, s));
    }
    closure[i] = std::move(members);
  }

  while (true) {
    llvm::SmallBitVector early(n);
    for (unsigned seed : seeds)
      early |= closure[seed];
    if (early.none() || early.all()) {
      // Nothing left to overlap: one stage is the only honest depth.
      result.collapsed = true;
      schedule.stage.assign(n, 0);
      return result;
    }
    for (unsigned i = 0; i < n; ++i)
      schedule.stage[i] = early.test(i) ? 0 : numStages - 1;

    std::optional<ScheduleViolation> violation =
        findScheduleViolation(loop, schedule);
    if (!violation)
      violation = findCrossStageValue(loop, schedule);
    if (!violation)
      return result;

    // Demote every copy whose stage-0 group holds a statement the violation
    // involves; each round removes at least one seed, so this terminates.
    SmallVector<unsigned> kept;
    bool demotedAny = false;
    for (unsigned seed : seeds) {
      bool involved = false;
      for (Operation *op : {violation->op, violation->other}) {
        auto it = llvm::find(schedule.statements, op);
        if (op && it != schedule.statements.end() &&
            closure[seed].test(it - schedule.statements.begin()))
          involved = true;
      }
      if (involved) {
        result.demoted.push_back({schedule.statements[seed], *violation});
        demotedAny = true;
      } else {
        kept.push_back(seed);
      }
    }
    if (!demotedAny) {
      // A violation among the consumers alone cannot come from stages 0 and
      // N-1; be safe all the same and run the loop unpipelined.
      result.collapsed = true;
      schedule.stage.assign(n, 0);
      return result;
    }
    seeds = std::move(kept);
  }
}

std::optional<PipelineSchedule>
mlir::tile::getOrInferSchedule(PipelinedOp loop) {
  if (std::optional<PipelineSchedule> schedule = getSchedule(loop))
    return schedule;
  int64_t numStages = loop.getNumStages().value_or(0);
  if (numStages < 1)
    return std::nullopt;
  return inferSchedule(loop, numStages).schedule;
}
