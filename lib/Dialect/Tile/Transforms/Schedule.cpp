//===- Schedule.cpp - The schedule of a pipelined loop --------------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Schedule.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tile;

Value mlir::tile::getUnderlyingBuffer(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

/// Whether the memref `value` may be `buffer` (both seen through views): the
/// same buffer, or one of unknown origin (an scf.if result, a select, a loop's
/// iteration argument) in the same memory space, which may be any buffer
/// there. An allocation or a function's argument is a buffer of its own.
static bool mayAlias(Value value, Value buffer) {
  value = getUnderlyingBuffer(value);
  if (value == buffer)
    return true;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (isa<FunctionOpInterface>(arg.getOwner()->getParentOp()))
      return false;
  } else if (hasEffect<MemoryEffects::Allocate>(value.getDefiningOp(), value)) {
    return false;
  }
  auto a = dyn_cast<MemRefType>(value.getType());
  auto b = dyn_cast<MemRefType>(buffer.getType());
  return a && b && a.getMemorySpace() == b.getMemorySpace();
}

/// Whether `op` has an effect of kind `Effect` on `buffer`. An op without the
/// memory-effect interface is assumed to touch every buffer.
template <typename Effect>
static bool hasEffectOn(Operation *op, Value buffer) {
  // A barrier orders the accesses around it and makes none itself (the
  // barrier placement puts some inside statements with regions before the
  // rewrite reads their effects). It states no effects so that nothing
  // removes or moves it.
  if (isa<BarrierOp>(op))
    return false;
  // An exit ends its thread and touches no memory, though it states no
  // effects (so that nothing moves it). By name: this library does not
  // otherwise need the NVVM dialect.
  if (op->getName().getStringRef() == "nvvm.exit")
    return false;
  buffer = getUnderlyingBuffer(buffer);
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface) {
    if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return true;
    // The ops directly inside: each one with regions answers for its own
    // (a walk of every nested op here would visit an op n levels deep 2^n
    // times).
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Operation &nested : block)
          if (hasEffectOn<Effect>(&nested, buffer))
            return true;
    return false;
  }
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  return llvm::any_of(effects, [&](const MemoryEffects::EffectInstance &e) {
    if (!isa<Effect>(e.getEffect()))
      return false;
    Value value = e.getValue();
    // An effect on no particular value may touch any buffer.
    return !value || mayAlias(value, buffer);
  });
}

SmallVector<Value> mlir::tile::getHandedOverGlobals(ArrayRef<Operation *> ops) {
  SetVector<Value> globals;
  for (Operation *op : ops)
    op->walk([&](Operation *user) {
      for (Value operand : user->getOperands()) {
        auto type = dyn_cast<MemRefType>(operand.getType());
        if (type && getMemorySpace(type) == MemorySpace::Global)
          globals.insert(getUnderlyingBuffer(operand));
      }
    });
  SmallVector<Value> handedOver;
  for (Value buffer : globals) {
    bool found = llvm::any_of(ops, [&](Operation *writer) {
      return writesBuffer(writer, buffer) &&
             llvm::any_of(ops, [&](Operation *reader) {
               return reader != writer && readsBuffer(reader, buffer);
             });
    });
    if (found)
      handedOver.push_back(buffer);
  }
  return handedOver;
}

bool mlir::tile::writesBuffer(Operation *op, Value buffer) {
  return hasEffectOn<MemoryEffects::Write>(op, buffer);
}

bool mlir::tile::readsBuffer(Operation *op, Value buffer) {
  return hasEffectOn<MemoryEffects::Read>(op, buffer);
}

int64_t PipelineSchedule::getDepth() const { return getStageListDepth(stage); }

int64_t PipelineSchedule::getNumVersions(Value buffer) const {
  // One effect query per statement and side: they dominate, not the pairs.
  size_t n = statements.size();
  llvm::SmallBitVector writes(n), reads(n);
  for (size_t i = 0; i < n; ++i) {
    writes[i] = writesBuffer(statements[i], buffer);
    reads[i] = readsBuffer(statements[i], buffer);
  }
  int64_t distance = 0;
  for (int w : writes.set_bits())
    for (int r : reads.set_bits())
      if (r != w)
        distance = std::max(distance, stage[r] - stage[w]);
  return distance + 1;
}

std::string PipelineSchedule::describe(unsigned index) const {
  return "statement #" + std::to_string(index) + " ('" +
         statements[index]->getName().getStringRef().str() + "', stage " +
         std::to_string(stage[index]) + ")";
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

static void collectAccesses(Operation *op, MemoryAccesses &accesses) {
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface) {
    if (!op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
      accesses.readsUnknown = accesses.writesUnknown = true;
      return;
    }
    for (Region &region : op->getRegions())
      for (Operation &nested : region.getOps())
        collectAccesses(&nested, accesses);
    return;
  }
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  for (const MemoryEffects::EffectInstance &effect : effects) {
    bool isRead = isa<MemoryEffects::Read>(effect.getEffect());
    bool isWrite = isa<MemoryEffects::Write>(effect.getEffect());
    if (!isRead && !isWrite)
      continue;
    Value value = effect.getValue();
    if (!value) {
      accesses.readsUnknown |= isRead;
      accesses.writesUnknown |= isWrite;
      continue;
    }
    Value buffer = getUnderlyingBuffer(value);
    SmallVector<Value, 4> &list = isRead ? accesses.reads : accesses.writes;
    if (!llvm::is_contained(list, buffer))
      list.push_back(buffer);
  }
  // Ops with recursive effects and an interface (rare) still hold ops.
  if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
    for (Region &region : op->getRegions())
      for (Operation &nested : region.getOps())
        collectAccesses(&nested, accesses);
}

MemoryAccesses mlir::tile::getMemoryAccesses(Operation *op) {
  MemoryAccesses accesses;
  collectAccesses(op, accesses);
  return accesses;
}

/// Whether one of `buffers` (underlying buffers) may be `buffer`, either
/// side being of unknown origin (mayAlias).
static bool mayAliasAny(ArrayRef<Value> buffers, Value buffer) {
  buffer = getUnderlyingBuffer(buffer);
  return llvm::any_of(buffers, [&](Value other) {
    return mayAlias(other, buffer) || mayAlias(buffer, other);
  });
}

bool MemoryAccesses::mayRead(Value buffer) const {
  return readsUnknown || mayAliasAny(reads, buffer);
}

bool MemoryAccesses::mayWrite(Value buffer) const {
  return writesUnknown || mayAliasAny(writes, buffer);
}

bool mlir::tile::isMultiBuffered(const PipelineSchedule &schedule,
                                 Value buffer) {
  buffer = getUnderlyingBuffer(buffer);
  return buffer.getDefiningOp<AllocSharedOp>() &&
         schedule.getNumVersions(buffer) > 1;
}

SmallVector<unsigned> mlir::tile::getValueProducers(
    PipelinedOp loop, ArrayRef<Operation *> statements, unsigned index) {
  Block *body = &loop.getBody().front();
  Operation *statement = statements[index];
  SmallVector<unsigned> producers;
  llvm::SmallPtrSet<Operation *, 8> visited;
  SmallVector<Value> worklist;
  statement->walk([&](Operation *nested) {
    llvm::append_range(worklist, nested->getOperands());
  });
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    Operation *top = def ? body->findAncestorOpInBlock(*def) : nullptr;
    if (!top || top == statement || !visited.insert(top).second)
      continue;
    const auto *it = llvm::find(statements, top);
    if (it != statements.end()) {
      producers.push_back(it - statements.begin());
      continue;
    }
    // A side-effect-free op: look through it to what it computes from.
    top->walk([&](Operation *nested) {
      llvm::append_range(worklist, nested->getOperands());
    });
  }
  return producers;
}
