//===- PerThreadValues.cpp - Values that differ between threads -----------===//
//
// Part of tile-mlir.
//
// Each thread runs the kernel's scalar ops (docs/dialect.md), so an atomic
// read-modify-write gives each thread a result of its own, as does
// gpu.thread_id. A tile op or a barrier must run in every thread of the
// block: one that such a value steers (an scf.if on it, an offset computed
// from it) would run in some threads only, or in each at another place, and
// a barrier that not every thread reaches hangs the block. (The CPU runs the
// kernel's scalar ops once per block.) Upstream MLIR has no uniformity
// analysis (LLVM's runs on LLVM IR, after the tile ops are gone), and its
// getForwardSlice follows results only, not yields to their loop or
// branch, control, nor memory; the propagation here is ours.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/PerThreadValues.h"
#include "tile/Dialect/Tile/Utils/MemRefUtils.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/Sequence.h"

using namespace mlir;
using namespace mlir::tile;

/// Whether each thread of a block may get a result of its own from `op`:
/// an atomic read-modify-write (every thread runs it), or a read of the
/// thread's place in its block or warp, a shuffle, vote, match or election
/// between lanes, a warp's reduction, a clock, or code the compiler cannot
/// see into.
static bool givesEachThreadItsOwn(Operation *op) {
  // Inline assembly and intrinsic calls may read %tid.x and its kin.
  if (isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp, gpu::ThreadIdOp,
          gpu::LaneIdOp, gpu::SubgroupIdOp, gpu::ShuffleOp,
          gpu::SubgroupReduceOp, LLVM::InlineAsmOp, LLVM::CallIntrinsicOp>(op))
    return true;
  StringRef name = op->getName().getStringRef();
  if (name.consume_front("nvvm.read.ptx.sreg."))
    return llvm::any_of(ArrayRef<StringRef>{"tid", "laneid", "warpid",
                                            "lanemask", "clock", "globaltimer"},
                        [&](StringRef kind) { return name.starts_with(kind); });
  return name.starts_with("nvvm.shfl") || name.starts_with("nvvm.vote") ||
         name.starts_with("nvvm.match") || name == "nvvm.elect.sync" ||
         name == "llvm.atomicrmw" || name == "llvm.cmpxchg";
}

/// Whether `op` ends its block: a terminator, or an unregistered op last in
/// its block (which might be one).
static bool isTerminator(Operation *op) {
  if (op->isRegistered())
    return op->hasTrait<OpTrait::IsTerminator>();
  return op->getBlock() && &op->getBlock()->back() == op;
}

namespace {
/// Finds the values of a kernel that may differ between its threads, each
/// with the op it comes from, and the ops with regions whose control (a
/// bound, a condition) is such a value. Coarse where that is simple and
/// sound: an op with a per-thread operand gives per-thread results; a
/// region's yield of one makes its parent's results and region arguments
/// per-thread; everything an op under per-thread control computes or
/// writes is per-thread; memory that per-thread code writes (a value, an
/// index, or under such control) makes what is read from it per-thread
/// where the read may come after the write (later in their block, in a
/// loop around both, or where the order is not the blocks'). Another
/// block's writes are left out: a read that sees one without
/// synchronization between the blocks is a data race, as in CUDA.
/// Only a loop's initial iteration values are not control. Repeats walks
/// over the kernel, in order, until nothing changes.
class PerThreadValues {
public:
  explicit PerThreadValues(KernelOp kernel) : kernel(kernel) {}

  /// The first tile op (or op holding one) that a per-thread value steers,
  /// with the op that value comes from, or {null, null}.
  std::pair<Operation *, Operation *> findSteeredTileOp() {
    do {
      changed = false;
      WalkResult walk =
          kernel.getBody().walk<WalkOrder::PreOrder>([&](Operation *op) {
            if (visit(op))
              return WalkResult::interrupt();
            return WalkResult::advance();
          });
      if (walk.wasInterrupted())
        return {steered, steeredBy};
    } while (changed);
    return {nullptr, nullptr};
  }

private:
  void mark(Value value, Operation *source) {
    changed |= sources.try_emplace(value, source).second;
  }
  void markAll(ValueRange values, Operation *source) {
    for (Value value : values)
      mark(value, source);
  }
  void markRegionArguments(Operation *op, Operation *source) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        markAll(block.getArguments(), source);
  }

  bool isCollective(Operation *op) {
    auto [it, inserted] = collective.try_emplace(op, false);
    if (inserted)
      it->second = isOrHoldsTileOp(op);
    return it->second;
  }

  /// The source of the per-thread control `op` runs under, if any.
  Operation *getControlSource(Operation *op) {
    for (Operation *parent = op->getParentOp(); parent != kernel;
         parent = parent->getParentOp())
      if (Operation *source = controlled.lookup(parent))
        return source;
    return nullptr;
  }

  /// Makes `op`'s control per-thread; whether it holds a tile op, which
  /// that steers.
  bool control(Operation *op, Operation *source) {
    if (controlled.try_emplace(op, source).second)
      changed = true;
    markAll(op->getResults(), source);
    markRegionArguments(op, source);
    return isCollective(op);
  }

  /// Notes that the memory `op` writes may hold per-thread values.
  void taintWrites(Operation *op, Operation *source) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects && !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>()) {
      // An op that states no effects may write anything.
      changed |= anyBufferWriters.try_emplace(op, source).second;
      return;
    }
    SmallVector<MemoryEffects::EffectInstance> written;
    if (effects)
      effects.getEffects<MemoryEffects::Write>(written);
    for (const MemoryEffects::EffectInstance &effect : written) {
      Value buffer = effect.getValue();
      if (!buffer || !isKnownBuffer(getUnderlyingMemRef(buffer)))
        changed |= anyBufferWriters.try_emplace(op, source).second;
      else
        changed |= bufferWriters[getUnderlyingMemRef(buffer)]
                       .try_emplace(op, source)
                       .second;
    }
  }

  /// Whether `writer` may write before `reader` reads, in one block's run
  /// of the kernel: it comes first, or an op around both (a loop) may run
  /// its regions again. Conservative where the order is not the blocks'
  /// (two blocks of a region, two regions of an op).
  bool mayRunBefore(Operation *writer, Operation *reader) {
    for (Operation *around = writer->getParentOp(); around != kernel;
         around = around->getParentOp())
      if (around->isProperAncestor(reader) && mayRunRegionsAgain(around))
        return true;
    // A region of several blocks around both may branch back (a loop of cf
    // branches).
    for (Region *region = writer->getParentRegion();
         region && kernel->isAncestor(region->getParentOp());
         region = region->getParentRegion())
      if (!region->hasOneBlock() &&
          region->isAncestor(reader->getParentRegion()))
        return true;
    if (writer == reader)
      return false;
    for (Operation *at = writer; at != kernel; at = at->getParentOp()) {
      if (Operation *other = at->getBlock()->findAncestorOpInBlock(*reader))
        return other == at || at->isBeforeInBlock(other);
      if (at->getParentRegion()->findAncestorOpInRegion(*reader))
        return true;
    }
    return true;
  }

  /// Whether `op` may run one of its regions more than once each time it
  /// runs: a loop, or an op that does not say.
  static bool mayRunRegionsAgain(Operation *op) {
    // A loop by its interface, whatever its region branches say: an
    // scf.forall's iterations are parallel (no back edge), and a thread
    // runs them one after another.
    if (isa<LoopLikeOpInterface>(op))
      return true;
    auto branches = dyn_cast<RegionBranchOpInterface>(op);
    if (!branches)
      return op->getNumRegions() != 0;
    return llvm::any_of(llvm::seq(op->getNumRegions()), [&](unsigned index) {
      return branches.isRepetitiveRegion(index);
    });
  }

  /// The source of the first of `writers` that may write before `reader`
  /// reads, if any.
  Operation *
  findEarlierWriter(const llvm::MapVector<Operation *, Operation *> &writers,
                    Operation *reader) {
    for (auto [writer, source] : writers)
      if (mayRunBefore(writer, reader))
        return source;
    return nullptr;
  }

  /// The source of per-thread data that `op` may read, if any: a write of
  /// one that may come before it, to memory it may read.
  Operation *getReadSource(Operation *op) {
    if (bufferWriters.empty() && anyBufferWriters.empty())
      return nullptr;
    auto readAnything = [&]() -> Operation * {
      if (Operation *source = findEarlierWriter(anyBufferWriters, op))
        return source;
      for (auto &[buffer, writers] : bufferWriters)
        if (Operation *source = findEarlierWriter(writers, op))
          return source;
      return nullptr;
    };
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects && !op->hasTrait<OpTrait::HasRecursiveMemoryEffects>())
      return readAnything();
    SmallVector<MemoryEffects::EffectInstance> read;
    if (effects)
      effects.getEffects<MemoryEffects::Read>(read);
    for (const MemoryEffects::EffectInstance &effect : read) {
      Value buffer = effect.getValue();
      if (!buffer || !isKnownBuffer(getUnderlyingMemRef(buffer)))
        return readAnything();
      if (Operation *source = findEarlierWriter(anyBufferWriters, op))
        return source;
      auto it = bufferWriters.find(getUnderlyingMemRef(buffer));
      if (it == bufferWriters.end())
        continue;
      if (Operation *source = findEarlierWriter(it->second, op))
        return source;
    }
    return nullptr;
  }

  /// Propagates through `op`; true when it finds a steered tile op.
  bool visit(Operation *op) {
    if (givesEachThreadItsOwn(op)) {
      markAll(op->getResults(), op);
      taintWrites(op, op);
    }
    Operation *operandSource = nullptr;
    SmallVector<unsigned> perThreadOperands;
    for (OpOperand &operand : op->getOpOperands()) {
      if (Operation *source = sources.lookup(operand.get())) {
        operandSource = operandSource ? operandSource : source;
        perThreadOperands.push_back(operand.getOperandNumber());
      }
    }
    Operation *controlSource = getControlSource(op);
    bool isTile = isa_and_nonnull<TileDialect>(op->getDialect());

    if (isTile) {
      // A tile op's operand (an offset, a tile chosen by a select), or the
      // control it runs under. (What it reads is data, not control.)
      Operation *source = operandSource ? operandSource : controlSource;
      if (!source)
        return false;
      return report(op, source);
    }

    if (isTerminator(op)) {
      Operation *parent = op->getParentOp();
      Operation *source = operandSource ? operandSource : controlSource;
      if (!source || parent == kernel)
        return false;
      // A while loop's condition, a branch between a region's blocks, or a
      // terminator under per-thread control steers the parent.
      bool steers = isa<scf::ConditionOp>(op)
                        ? llvm::is_contained(perThreadOperands, 0u)
                        : op->getNumSuccessors() != 0;
      if (steers || !operandSource)
        return control(parent, source) ? report(parent, source) : false;
      forwardYielded(op, perThreadOperands, source);
      return false;
    }

    // An exit under per-thread control leaves the other threads to run the
    // tile ops after it alone (after the last tile op, it is a thread's
    // own early return).
    if (controlSource && isa<NVVM::Exit>(op) && mayDoTileWorkAfter(op, kernel))
      return report(op, controlSource);

    Operation *readSource = getReadSource(op);
    Operation *source = operandSource
                            ? operandSource
                            : (readSource ? readSource : controlSource);
    if (!source)
      return false;
    if (op->getNumRegions() != 0 && operandSource) {
      // A loop's initial iteration values steer nothing by themselves: they
      // go to their iteration arguments and results.
      auto loop = dyn_cast<LoopLikeOpInterface>(op);
      bool onlyInits =
          loop && llvm::all_of(perThreadOperands, [&](unsigned index) {
            return llvm::any_of(loop.getInitsMutable(), [&](OpOperand &init) {
              return init.getOperandNumber() == index;
            });
          });
      if (!onlyInits)
        return control(op, operandSource) ? report(op, operandSource) : false;
      for (auto [k, init] : llvm::enumerate(loop.getInitsMutable())) {
        if (!llvm::is_contained(perThreadOperands, init.getOperandNumber()))
          continue;
        if (k < loop.getRegionIterArgs().size())
          mark(loop.getRegionIterArgs()[k], operandSource);
        if (std::optional<ResultRange> results = loop.getLoopResults();
            results && k < results->size())
          mark((*results)[k], operandSource);
      }
      if (readSource || controlSource)
        markAll(op->getResults(), source);
      return false;
    }
    markAll(op->getResults(), source);
    taintWrites(op, source);
    return false;
  }

  /// Hands the per-thread operands of `yield` (at `indices`) on to where
  /// they go: a loop's iteration arguments and results, an scf.while's
  /// before-region arguments, a branch's results; for a terminator of
  /// unknown meaning, every result and region argument of its parent (and
  /// of the parent's parent where the parent is a terminator itself, as an
  /// scf.reduce is).
  void forwardYielded(Operation *yield, ArrayRef<unsigned> indices,
                      Operation *source) {
    Operation *parent = yield->getParentOp();
    if (auto condition = dyn_cast<scf::ConditionOp>(yield)) {
      auto loop = cast<scf::WhileOp>(parent);
      for (unsigned index : indices) {
        mark(loop.getAfterArguments()[index - 1], source);
        mark(loop.getResult(index - 1), source);
      }
      return;
    }
    if (isa<scf::YieldOp, affine::AffineYieldOp>(yield)) {
      for (unsigned k : indices) {
        if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
          mark(loop.getBeforeArguments()[k], source);
        } else if (auto loop = dyn_cast<LoopLikeOpInterface>(parent)) {
          if (k < loop.getRegionIterArgs().size())
            mark(loop.getRegionIterArgs()[k], source);
          if (std::optional<ResultRange> results = loop.getLoopResults();
              results && k < results->size())
            mark((*results)[k], source);
        } else if (k < parent->getNumResults()) {
          mark(parent->getResult(k), source);
        }
      }
      return;
    }
    markAll(parent->getResults(), source);
    markRegionArguments(parent, source);
    Operation *grandparent = parent->getParentOp();
    if (isTerminator(parent) && grandparent && grandparent != kernel)
      markAll(grandparent->getResults(), source);
  }

  bool report(Operation *op, Operation *source) {
    steered = op;
    steeredBy = source;
    return true;
  }

  KernelOp kernel;
  bool changed = false;
  DenseMap<Value, Operation *> sources;
  DenseMap<Operation *, Operation *> controlled;
  DenseMap<Operation *, bool> collective;
  /// The ops that may write per-thread values, each with the value's
  /// source: by buffer (underlying memref), and into memory of unknown
  /// origin (any buffer).
  llvm::MapVector<Value, llvm::MapVector<Operation *, Operation *>>
      bufferWriters;
  llvm::MapVector<Operation *, Operation *> anyBufferWriters;
  Operation *steered = nullptr, *steeredBy = nullptr;
};
} // namespace

bool mlir::tile::mayDoTileWorkAfter(Operation *op, KernelOp kernel) {
  auto doesTileWork = [](Operation *op) {
    return op
        ->walk([](Operation *nested) {
          return isa_and_nonnull<TileDialect>(nested->getDialect()) &&
                         !isa<BarrierOp>(nested)
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        })
        .wasInterrupted();
  };
  for (Operation *at = op; at != kernel; at = at->getParentOp()) {
    for (Operation *next = at->getNextNode(); next; next = next->getNextNode())
      if (doesTileWork(next))
        return true;
    Operation *parent = at->getParentOp();
    if (parent != kernel && !isa<scf::IfOp, scf::IndexSwitchOp>(parent) &&
        doesTileWork(parent))
      return true;
  }
  return false;
}

LogicalResult mlir::tile::checkPerThreadValuesSteerNoTileOps(KernelOp kernel) {
  auto [steered, source] = PerThreadValues(kernel).findSteeredTileOp();
  if (!steered)
    return success();
  // The steered op may be one the pipelining rewrite made (the scf.if that
  // guards a step), so the message does not name it; its location is the
  // user's op.
  bool exits = isa<NVVM::Exit>(steered);
  InFlightDiagnostic diag =
      steered->emitError(exits ? "threads leave here depending on the result "
                                 "of '"
                               : "tile ops here depend on the result of '")
      << source->getName()
      << "', which each thread runs on the GPU with a result of its own; "
      << (exits ? "the others would run the tile ops after it alone"
                : "every thread of the block must run tile ops together");
  diag.attachNote(source->getLoc()) << "'" << source->getName() << "' is here";
  return diag;
}
