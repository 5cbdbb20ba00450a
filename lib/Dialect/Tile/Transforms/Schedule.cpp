//===- Schedule.cpp - The schedule of a pipelined loop --------------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Schedule.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::tile;

Value mlir::tile::getUnderlyingBuffer(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

/// Whether `op` has an effect of kind `Effect` on `buffer`. An op without the
/// memory-effect interface is assumed to touch every buffer.
template <typename Effect>
static bool hasEffectOn(Operation *op, Value buffer) {
  buffer = getUnderlyingBuffer(buffer);
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface) {
    if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return true;
    bool found = false;
    for (Region &region : op->getRegions())
      region.walk([&](Operation *nested) {
        found |= hasEffectOn<Effect>(nested, buffer);
      });
    return found;
  }
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  return llvm::any_of(effects, [&](const MemoryEffects::EffectInstance &e) {
    if (!isa<Effect>(e.getEffect()))
      return false;
    Value value = e.getValue();
    // An effect on no particular value may touch any buffer.
    return !value || getUnderlyingBuffer(value) == buffer;
  });
}

bool mlir::tile::writesBuffer(Operation *op, Value buffer) {
  return hasEffectOn<MemoryEffects::Write>(op, buffer);
}

bool mlir::tile::readsBuffer(Operation *op, Value buffer) {
  return hasEffectOn<MemoryEffects::Read>(op, buffer);
}

int64_t PipelineSchedule::getDepth() const {
  int64_t maxStage = 0;
  for (int64_t s : stage)
    maxStage = std::max(maxStage, s);
  return maxStage + 1;
}

int64_t PipelineSchedule::getStage(Operation *op) const {
  auto it = llvm::find(statements, op);
  assert(it != statements.end() && "not a statement of this loop");
  return stage[it - statements.begin()];
}

int64_t PipelineSchedule::getNumVersions(Value buffer) const {
  int64_t distance = 0;
  for (auto [writer, writerStage] : llvm::zip_equal(statements, stage)) {
    if (!writesBuffer(writer, buffer))
      continue;
    for (auto [reader, readerStage] : llvm::zip_equal(statements, stage))
      if (reader != writer && readsBuffer(reader, buffer))
        distance = std::max(distance, readerStage - writerStage);
  }
  return distance + 1;
}

std::optional<PipelineSchedule> mlir::tile::getSchedule(PipelinedOp loop) {
  std::optional<ArrayRef<int64_t>> stage = loop.getStage();
  if (!stage)
    return std::nullopt;
  PipelineSchedule schedule;
  schedule.statements = loop.getStatements();
  schedule.stage.assign(stage->begin(), stage->end());
  if (std::optional<ArrayRef<int64_t>> order = loop.getOrder())
    schedule.order.assign(order->begin(), order->end());
  else
    for (int64_t i = 0, e = schedule.statements.size(); i < e; ++i)
      schedule.order.push_back(i);
  return schedule;
}
