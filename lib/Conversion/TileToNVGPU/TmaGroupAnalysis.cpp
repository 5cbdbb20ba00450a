//===- TmaGroupAnalysis.cpp - Group counts and block traces ---------------===//
//
// Part of tile-mlir. See TmaGroupAnalysis.h.
//
//===----------------------------------------------------------------------===//

#include "TmaGroupAnalysis.h"

#include "tile/Conversion/TileToNVGPU/InteriorBlocks.h"
#include "tile/Dialect/Tile/Utils/MemRefUtils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::tile;

std::optional<int64_t> tma::boundOutstanding(Block &block, int64_t in,
                                             int64_t &peak) {
  // A loop that waits for all but P groups and commits one per iteration
  // (a steady state) reaches its bound in P + 1 rounds; the software
  // pipeline's P is at most kMaxPipelineDepth - 2. (16 refused a
  // hand-written `wait_group 17` loop.)
  constexpr int kMaxRounds = kMaxPipelineDepth;
  int64_t open = in;
  for (Operation &op : block) {
    if (isa<CommitGroupOp>(op)) {
      peak = std::max(peak, ++open);
    } else if (auto wait = dyn_cast<WaitGroupOp>(op)) {
      open = std::min<int64_t>(open, wait.getPending());
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      // Zero or more iterations.
      int64_t start = open;
      for (int round = 0;; ++round) {
        std::optional<int64_t> end =
            boundOutstanding(*loop.getBody(), start, peak);
        if (!end || round == kMaxRounds)
          return std::nullopt;
        if (*end <= start)
          break;
        start = *end;
      }
      open = std::max(open, start);
    } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      int64_t after = open;
      for (Region *region : {&ifOp.getThenRegion(), &ifOp.getElseRegion()}) {
        if (region->empty())
          continue;
        std::optional<int64_t> end =
            boundOutstanding(region->front(), open, peak);
        if (!end)
          return std::nullopt;
        after = std::max(after, *end);
      }
      open = after;
    }
  }
  return open;
}

std::optional<int64_t> tma::exactOutstanding(Block &block,
                                             std::optional<int64_t> in) {
  std::optional<int64_t> open = in;
  for (Operation &op : block) {
    if (isa<CommitGroupOp>(op)) {
      if (open)
        ++*open;
    } else if (auto wait = dyn_cast<WaitGroupOp>(op)) {
      if (wait.getPending() == 0)
        open = 0;
      else if (open)
        open = std::min<int64_t>(*open, wait.getPending());
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (!open || exactOutstanding(*loop.getBody(), open) != open)
        open = std::nullopt;
    } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      std::optional<int64_t> then =
          exactOutstanding(ifOp.getThenRegion().front(), open);
      std::optional<int64_t> other =
          ifOp.getElseRegion().empty()
              ? open
              : exactOutstanding(ifOp.getElseRegion().front(), open);
      // lowerIf pads the branch that commits fewer groups with empty ones.
      open =
          then && other ? std::optional(std::max(*then, *other)) : std::nullopt;
    }
  }
  return open;
}

/// Whether `op` may have a memory effect of kind `Effect` on a value for
/// which `matches` holds: one it states, or, where it states an effect on no
/// particular value or states none, one of its memref operands. The callers
/// walk every op, so one that only holds others (an scf.for) counts for
/// nothing itself; tile ops that state no effects (commit, wait, barrier)
/// order the copies and touch no memory.
template <typename Effect>
static bool mayHaveEffectOn(Operation *op, function_ref<bool(Value)> matches) {
  auto onOperand = [&] {
    return llvm::any_of(op->getOperands(), [&](Value operand) {
      return isa<BaseMemRefType>(operand.getType()) && matches(operand);
    });
  };
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface)
    return !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
           !isa_and_nonnull<TileDialect>(op->getDialect()) && onOperand();
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  return llvm::any_of(effects, [&](const MemoryEffects::EffectInstance &e) {
    if (!isa<Effect>(e.getEffect()))
      return false;
    return e.getValue() ? matches(e.getValue()) : onOperand();
  });
}

bool tma::hasGenericSharedWrites(KernelOp kernel) {
  auto isShared = [](Value v) {
    auto type = dyn_cast<MemRefType>(v.getType());
    return type && getMemorySpace(type) == MemorySpace::Shared;
  };
  WalkResult result = kernel.walk([&](Operation *op) {
    if (isa<CopyAsyncOp>(op))
      return WalkResult::advance();
    if (auto copy = dyn_cast<CopyOp>(op))
      return isShared(copy.getDest()) ? WalkResult::interrupt()
                                      : WalkResult::advance();
    if (auto clear = dyn_cast<ClearOp>(op))
      return isShared(clear.getTile()) ? WalkResult::interrupt()
                                       : WalkResult::advance();
    return mayHaveEffectOn<MemoryEffects::Write>(op, isShared)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// Whether `value` may be memory from outside `kernel` or a view of it: it
/// is not a view of an allocation inside the kernel (a fragment's or a
/// shared tile's). A memref of unknown origin (an arith.select, an scf.if's
/// result, a loop's iteration argument) may be a tensor.
static bool isOutsideMemory(Value value, KernelOp kernel) {
  Value buffer = getUnderlyingMemRef(value);
  Operation *def = buffer.getDefiningOp();
  return !def || !kernel->isAncestor(def) ||
         !hasEffect<MemoryEffects::Allocate>(def, buffer);
}

bool tma::hasGenericGlobalReads(KernelOp kernel) {
  auto isOutside = [&](Value v) {
    return isa<MemRefType>(v.getType()) && isOutsideMemory(v, kernel);
  };
  WalkResult result = kernel.walk([&](Operation *op) {
    if (isa<CopyAsyncOp>(op))
      return WalkResult::advance();
    if (auto copy = dyn_cast<CopyOp>(op))
      return isOutside(copy.getSource()) ? WalkResult::interrupt()
                                         : WalkResult::advance();
    return mayHaveEffectOn<MemoryEffects::Read>(op, isOutside)
               ? WalkResult::interrupt()
               : WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// Whether `value` may be `tensor`, a global memref, or a view of it: the
/// same buffer, or a memref of unknown origin (mayShareBuffer) that is not
/// known to be a tile (a memref.memory_space_cast may take the tensor to any
/// space but those of tiles).
static bool mayBeTensor(Value value, Value tensor) {
  auto type = dyn_cast<BaseMemRefType>(value.getType());
  if (!type)
    return false;
  std::optional<MemorySpace> space = getMemorySpace(type);
  return space != MemorySpace::Shared && space != MemorySpace::Fragment &&
         mayShareBuffer(value, tensor);
}

/// Whether `a` and `b` never both run for one tile of the kernel: they lie
/// in the two branches of an scf.if that no loop of the kernel runs again,
/// or of the tile.block_versions scf.if that picks a tile's interior or edge
/// version (tile-persistent-blocks runs it once per tile, and the versions'
/// stores write that tile). An scf.if in a loop may take one branch in one
/// iteration and the other in the next.
static bool neverBothRun(Operation *a, Operation *b) {
  if (!insideMutuallyExclusiveRegions(a, b))
    return false;
  Operation *common = a->getParentOp();
  while (!common->isAncestor(b))
    common = common->getParentOp();
  if (common->hasAttr(kBlockVersionsAttrName))
    return true;
  for (Operation *op = common->getParentOp(); !isa<KernelOp>(op);
       op = op->getParentOp())
    if (isa<LoopLikeOpInterface>(op))
      return false;
  return true;
}

Operation *tma::findGenericWrite(KernelOp kernel, Value tensor,
                                 Operation *besides) {
  auto isTensor = [&](Value v) { return mayBeTensor(v, tensor); };
  Operation *writer = nullptr;
  kernel.walk([&](Operation *op) {
    if (isa<CopyAsyncOp>(op) || op == besides ||
        (besides && neverBothRun(op, besides)) ||
        !mayHaveEffectOn<MemoryEffects::Write>(op, isTensor))
      return WalkResult::advance();
    writer = op;
    return WalkResult::interrupt();
  });
  return writer;
}

Operation *tma::findRead(KernelOp kernel, Value tensor) {
  tensor = getUnderlyingMemRef(tensor);
  auto isTensor = [&](Value v) { return mayBeTensor(v, tensor); };
  Operation *reader = nullptr;
  kernel.walk([&](Operation *op) {
    bool reads = false;
    // A copy reads its source alone.
    if (auto copy = dyn_cast<CopyOp>(op))
      reads = isTensor(copy.getSource());
    else if (auto copy = dyn_cast<CopyAsyncOp>(op))
      reads = isTensor(copy.getSource());
    else
      reads = mayHaveEffectOn<MemoryEffects::Read>(op, isTensor);
    if (!reads)
      return WalkResult::advance();
    reader = op;
    return WalkResult::interrupt();
  });
  return reader;
}

bool tma::dependsOnBlockIndex(Value value, Value index, KernelOp kernel,
                              DenseMap<Value, bool> &memo) {
  if (value == index)
    return true;
  if (auto it = memo.find(value); it != memo.end())
    return it->second;
  memo[value] = true; // Until known otherwise (cycles are loop-carried).
  bool result = true;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *owner = arg.getOwner()->getParentOp();
    auto loop = dyn_cast<scf::ForOp>(owner);
    if (!kernel->isAncestor(owner) || owner == kernel)
      result = false; // An argument of the host function, or a block index.
    else if (loop && arg == loop.getInductionVar())
      result = llvm::any_of(
          ValueRange{loop.getLowerBound(), loop.getUpperBound(),
                     loop.getStep()},
          [&](Value v) { return dependsOnBlockIndex(v, index, kernel, memo); });
  } else {
    Operation *op = value.getDefiningOp();
    if (!kernel->isProperAncestor(op))
      result = false;
    else if (op->getNumRegions() == 0 && isPure(op))
      result = llvm::any_of(op->getOperands(), [&](Value v) {
        return dependsOnBlockIndex(v, index, kernel, memo);
      });
  }
  memo[value] = result;
  return result;
}

bool tma::startsCopyRun(CopyAsyncOp copy) {
  for (Operation *prev = copy->getPrevNode(); prev;
       prev = prev->getPrevNode()) {
    if (isa<CopyAsyncOp>(prev))
      return false;
    if (!isa<CommitGroupOp>(prev) &&
        (prev->getNumRegions() != 0 || !isPure(prev)))
      return true;
  }
  return true;
}

std::optional<std::string>
tma::traceGroupOps(Block &block,
                   const llvm::SmallPtrSetImpl<Operation *> &shared) {
  std::string trace;
  for (Operation &op : block) {
    if (auto copy = dyn_cast<CopyAsyncOp>(op)) {
      trace += startsCopyRun(copy) ? "R" : "";
      trace += shared.contains(&op) ? "S" : "P";
    } else if (isa<CommitGroupOp>(op)) {
      trace += "G";
    } else if (auto wait = dyn_cast<WaitGroupOp>(op)) {
      trace += "W" + std::to_string(wait.getPending());
    } else if (isa<BarrierOp>(op)) {
      trace += "B";
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      std::optional<std::string> body = traceGroupOps(*loop.getBody(), shared);
      if (body && body->empty())
        continue; // Bounds-checked stores, say: nothing to trace.
      std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound()),
                             ub = getConstantIntValue(loop.getUpperBound()),
                             step = getConstantIntValue(loop.getStep());
      if (!lb || !ub || !step || !body)
        return std::nullopt;
      trace += "F" + std::to_string(*lb) + ":" + std::to_string(*ub) + ":" +
               std::to_string(*step) + "{" + *body + "}";
    } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      std::optional<std::string> then =
          traceGroupOps(*ifOp.thenBlock(), shared);
      std::optional<std::string> other =
          ifOp.elseBlock() ? traceGroupOps(*ifOp.elseBlock(), shared) : "";
      if (!then || !other)
        return std::nullopt;
      if (!then->empty() || !other->empty())
        trace += "I{" + *then + "|" + *other + "}";
    }
  }
  return trace;
}
