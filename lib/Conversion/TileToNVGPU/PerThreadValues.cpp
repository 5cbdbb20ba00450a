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
// kernel's scalar ops once per block.) Upstream's getForwardSlice follows
// results only, not yields to their loop or branch, nor memory; the
// propagation here is ours.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/PerThreadValues.h"
#include "tile/Dialect/Tile/Utils/MemRefUtils.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tile;

/// Whether each thread of a block may get a result of its own from `op`:
/// an atomic read-modify-write (every thread runs it), or a read of the
/// thread's place in its block or warp, a shuffle, vote or match between
/// lanes, a warp's reduction or a clock.
static bool givesEachThreadItsOwn(Operation *op) {
  if (isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp, gpu::ThreadIdOp,
          gpu::LaneIdOp, gpu::SubgroupIdOp, gpu::ShuffleOp,
          gpu::SubgroupReduceOp>(op))
    return true;
  StringRef name = op->getName().getStringRef();
  if (name.consume_front("nvvm.read.ptx.sreg."))
    return llvm::any_of(ArrayRef<StringRef>{"tid", "laneid", "warpid",
                                            "lanemask", "clock", "globaltimer"},
                        [&](StringRef kind) { return name.starts_with(kind); });
  return name.starts_with("nvvm.shfl") || name.starts_with("nvvm.vote") ||
         name.starts_with("nvvm.match") || name == "llvm.atomicrmw" ||
         name == "llvm.cmpxchg";
}

/// Whether `op` is a tile op (a barrier included) or holds one: an op that
/// the whole block runs together.
static bool isCollective(Operation *op) {
  return op
      ->walk([](Operation *inner) {
        return isa_and_nonnull<TileDialect>(inner->getDialect())
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

namespace {
/// The values of a kernel that may differ between threads, each with the op
/// it comes from, found by following uses from the sources.
class PerThreadValues {
public:
  explicit PerThreadValues(KernelOp kernel) : kernel(kernel) {}

  /// Follows every source; the first collective op that a per-thread value
  /// steers, with that value's source, or {null, null}.
  std::pair<Operation *, Operation *> findSteeredTileOp() {
    kernel.getBody().walk([&](Operation *op) {
      if (!givesEachThreadItsOwn(op))
        return;
      addAll(op->getResults(), op);
      // An atomic leaves memory that each thread may read at another time.
      recordWrites(op, op);
    });
    while (!worklist.empty() || takeLoadsOfStoredValues()) {
      Value value = worklist.pop_back_val();
      for (OpOperand &use : value.getUses())
        if (Operation *steered = visit(use, sources.lookup(value)))
          return {steered, sources.lookup(value)};
    }
    return {nullptr, nullptr};
  }

private:
  void add(Value value, Operation *source) {
    if (sources.try_emplace(value, source).second)
      worklist.push_back(value);
  }
  void addAll(ValueRange values, Operation *source) {
    for (Value value : values)
      add(value, source);
  }

  /// Propagates a per-thread value through `use`; returns the collective op
  /// it steers, if it does.
  Operation *visit(OpOperand &use, Operation *source) {
    Operation *user = use.getOwner();
    unsigned index = use.getOperandNumber();
    if (auto loop = dyn_cast<scf::ForOp>(user)) {
      // An iteration argument's initial value steers nothing by itself.
      if (index >= loop.getNumControlOperands()) {
        unsigned arg = index - loop.getNumControlOperands();
        add(loop.getRegionIterArgs()[arg], source);
        add(loop.getResult(arg), source);
        return nullptr;
      }
    } else if (auto loop = dyn_cast<scf::WhileOp>(user)) {
      add(loop.getBeforeArguments()[index], source);
      return nullptr;
    } else if (auto condition = dyn_cast<scf::ConditionOp>(user)) {
      auto loop = cast<scf::WhileOp>(condition->getParentOp());
      if (index == 0)
        return isCollective(loop) ? loop.getOperation() : nullptr;
      add(loop.getAfterArguments()[index - 1], source);
      add(loop.getResult(index - 1), source);
      return nullptr;
    } else if (auto yield = dyn_cast<scf::YieldOp>(user)) {
      Operation *parent = yield->getParentOp();
      if (auto loop = dyn_cast<scf::WhileOp>(parent))
        add(loop.getBeforeArguments()[index], source);
      else if (auto loop = dyn_cast<scf::ForOp>(parent))
        add(loop.getRegionIterArgs()[index], source);
      if (index < parent->getNumResults())
        add(parent->getResult(index), source);
      return nullptr;
    } else if (user->hasTrait<OpTrait::IsTerminator>()) {
      if (Operation *parent = user->getParentOp(); parent && parent != kernel) {
        addAll(parent->getResults(), source);
        // A terminator of unknown meaning steers its parent's control.
        if (isCollective(parent))
          return parent;
      }
      return nullptr;
    }
    // Anything else that holds or is a tile op is steered: a tile op's
    // operand, a bound or condition of the op around one.
    if (isCollective(user))
      return user;
    addAll(user->getResults(), source);
    // A per-thread value stored into memory: what is loaded from that
    // memory may be per-thread too. (A store of another value at a
    // per-thread index writes the same value wherever it lands.)
    if (auto store = dyn_cast<memref::StoreOp>(user);
        store && use.get() != store.getValueToStore())
      return nullptr;
    recordWrites(user, source);
    return nullptr;
  }

  /// Notes that the memory `op` writes may hold per-thread values (from
  /// `source`).
  void recordWrites(Operation *op, Operation *source) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    SmallVector<MemoryEffects::EffectInstance> written;
    if (effects)
      effects.getEffects<MemoryEffects::Write>(written);
    for (const MemoryEffects::EffectInstance &effect : written)
      if (Value buffer = effect.getValue())
        storedInto.push_back({buffer, source});
  }

  /// Adds the results of the kernel's ops that may read memory a per-thread
  /// value was stored into; whether any was new.
  bool takeLoadsOfStoredValues() {
    if (storedInto.size() == loadsTakenFor)
      return false;
    loadsTakenFor = storedInto.size();
    size_t before = worklist.size();
    kernel.getBody().walk([&](Operation *op) {
      auto effects = dyn_cast<MemoryEffectOpInterface>(op);
      SmallVector<MemoryEffects::EffectInstance> read;
      if (effects)
        effects.getEffects<MemoryEffects::Read>(read);
      for (const MemoryEffects::EffectInstance &effect : read)
        for (auto [buffer, source] : storedInto)
          if (!effect.getValue() || mayShareBuffer(effect.getValue(), buffer))
            addAll(op->getResults(), source);
    });
    return worklist.size() != before;
  }

  KernelOp kernel;
  SmallVector<Value> worklist;
  DenseMap<Value, Operation *> sources;
  SmallVector<std::pair<Value, Operation *>> storedInto;
  size_t loadsTakenFor = 0;
};
} // namespace

LogicalResult mlir::tile::checkPerThreadValuesSteerNoTileOps(KernelOp kernel) {
  auto [steered, source] = PerThreadValues(kernel).findSteeredTileOp();
  if (!steered)
    return success();
  // The steered op may be one the pipelining rewrite made (the scf.if that
  // guards a step), so the message does not name it; its location is the
  // user's op.
  InFlightDiagnostic diag =
      steered->emitError("tile ops here depend on the result of '")
      << source->getName()
      << "', which each thread runs on the GPU with a result of its own; "
         "every thread of the block must run tile ops together";
  diag.attachNote(source->getLoc()) << "'" << source->getName() << "' is here";
  return diag;
}
