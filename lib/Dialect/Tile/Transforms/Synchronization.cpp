//===- Synchronization.cpp - Barriers for non-pipelined code --------------===//
//
// Part of tile-mlir.
//
// The GPU lowering inserts no barriers; every tile op is collective over the
// block but each thread touches its own part of a tile, so a shared tile
// written by one op and read by another needs a `tile.barrier` in between
// (read-after-write), and so does a tile read and then overwritten
// (write-after-read, e.g. by the next iteration of a serial loop). A tensor
// that one op writes and another reads is handed over the same way (a
// fragment stored to global memory and read back into a shared tile). This is a
// forward scan that remembers which ops touched which shared tiles since
// the last barrier. Upstream's gpu barrier elimination removes barriers
// rather than placing them, so it does not serve here.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Pipelining.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tile;

/// Whether `value` is the same in every run of `op` within the kernel: a
/// constant, or defined outside every loop around `op`.
static bool isFixedAround(Value value, Operation *op) {
  if (matchPattern(value, m_Constant()))
    return true;
  for (Operation *loop = op->getParentOp(); loop && !isa<KernelOp>(loop);
       loop = loop->getParentOp())
    if (isa<LoopLikeOpInterface>(loop) &&
        loop->isAncestor(value.getParentRegion()->getParentOp()))
      return false;
  return true;
}

/// Whether every run of `op` touches `buffer` at the same place, so that
/// each element is touched by the same thread each time: the views of
/// `buffer` it uses and its offsets into them are fixed around it. A copy
/// at an offset that changes from iteration to iteration hands an element
/// from one thread to another as surely as two different ops do.
static bool touchesAlike(Operation *op, Value buffer) {
  // The offsets of a copy's side into `view`; any op's other index operands.
  auto offsetsInto = [&](Value view) -> ValueRange {
    if (auto copy = dyn_cast<CopyOp>(op))
      return view == copy.getSource() ? copy.getSourceIndices()
                                      : copy.getDestIndices();
    if (auto copy = dyn_cast<CopyAsyncOp>(op))
      return view == copy.getSource() ? copy.getSourceIndices()
                                      : copy.getDestIndices();
    return op->getOperands();
  };
  Operation *kernel = op->getParentOfType<KernelOp>();
  for (Value operand : op->getOperands()) {
    if (!isa<BaseMemRefType>(operand.getType()))
      continue;
    Value root = getUnderlyingBuffer(operand);
    // A memref that the kernel makes other than by allocating a tile (an
    // scf.if result, an iter_arg) may be `buffer` in one run and not in the
    // next; a tile or a tensor from outside the kernel is one buffer.
    bool knownBuffer =
        root.getDefiningOp<AllocSharedOp>() ||
        root.getDefiningOp<AllocFragmentOp>() ||
        !kernel->isAncestor(root.getParentRegion()->getParentOp());
    if (!knownBuffer)
      return false;
    if (root != buffer)
      continue;
    for (Value offset : offsetsInto(operand))
      if (!isa<BaseMemRefType>(offset.getType()) && !isFixedAround(offset, op))
        return false;
    for (Value view = operand; view != root;) {
      auto viewOp = view.getDefiningOp<ViewLikeOpInterface>();
      for (Value viewOperand : viewOp->getOperands())
        if (viewOperand != viewOp.getViewSource() &&
            !isFixedAround(viewOperand, op))
          return false;
      view = viewOp.getViewSource();
    }
  }
  return true;
}

namespace {
/// The accesses to shared tiles since the last barrier, and the
/// asynchronous copies that may still be in flight.
struct PendingAccesses {
  llvm::DenseSet<std::pair<Operation *, Value>> reads, writes;
  /// tile.copy_async ops issued and not surely waited for: `issued` before
  /// any tile.commit_group, `committed` after one. A copy's accesses happen
  /// between its issue and the tile.wait_group that completes its group,
  /// and the wait makes them visible to the issuing thread only, so they
  /// become pending at the wait (a barrier before the wait is no barrier
  /// after them). A wait for all groups completes the committed ones; a
  /// copy not yet committed is not in any group a wait completes.
  llvm::DenseSet<Operation *> issued, committed;

  /// A barrier: the accesses before it are ordered before what follows,
  /// but copies in flight are not.
  void clear() {
    reads.clear();
    writes.clear();
  }
  bool empty() const { return reads.empty() && writes.empty(); }
  void merge(const PendingAccesses &other) {
    reads.insert(other.reads.begin(), other.reads.end());
    writes.insert(other.writes.begin(), other.writes.end());
    issued.insert(other.issued.begin(), other.issued.end());
    committed.insert(other.committed.begin(), other.committed.end());
  }
  bool operator==(const PendingAccesses &other) const {
    auto same = [](const auto &a, const auto &b) {
      return a.size() == b.size() &&
             llvm::all_of(a, [&](const auto &x) { return b.contains(x); });
    };
    return same(reads, other.reads) && same(writes, other.writes) &&
           same(issued, other.issued) && same(committed, other.committed);
  }
  /// Whether `op` touching `buffer` races with a pending access by another
  /// op. The same op again (the next iteration of a loop) is not a race
  /// where it maps the tile onto the threads the same way each time: a
  /// single op at a fixed place (touchesAlike), not one with regions (a
  /// scheduled tile.pipelined, whose statements write and read a tile in
  /// different threads).
  bool conflicts(Operation *op, Value buffer, bool isWrite) const {
    auto byOther = [&](const auto &set) {
      return llvm::any_of(set, [&](const auto &access) {
        return access.second == buffer &&
               (access.first != op || op->getNumRegions() != 0 ||
                !touchesAlike(op, buffer));
      });
    };
    return byOther(writes) || (isWrite && byOther(reads));
  }
};

struct BarrierPlacer {
  /// The shared tiles, and the tensors that one op writes and another
  /// reads (getHandedOverGlobals).
  SmallVector<Value> buffers;
  bool insert = false;
  int64_t count = 0;
  /// What a dry run of a loop (insert off) made of an entry state: the exit
  /// state and the barriers it counted. Each level of a loop nest runs its
  /// body several times to find its fixed point, so without this the work
  /// grew threefold per level (16 nested loops took over a minute).
  /// Cleared whenever a barrier is inserted, which changes what follows.
  struct DryRun {
    PendingAccesses entry, exit;
    int64_t barriers;
  };
  DenseMap<Operation *, SmallVector<DryRun, 1>> dryRuns;

  /// Whether `op` writes and whether it reads `buffer`, each asked once:
  /// the scan asks again for every run of a loop's body, and for an op with
  /// regions each answer walks them (nests of loops took minutes). Barriers
  /// inserted on the way have no effects, so the answers stay true.
  DenseMap<std::pair<Operation *, Value>, std::pair<bool, bool>> effects;
  std::pair<bool, bool> getEffects(Operation *op, Value buffer) {
    auto [it, inserted] = effects.try_emplace({op, buffer});
    if (inserted)
      it->second = {writesBuffer(op, buffer), readsBuffer(op, buffer)};
    return it->second;
  }
  bool writes(Operation *op, Value buffer) {
    return getEffects(op, buffer).first;
  }
  bool reads(Operation *op, Value buffer) {
    return getEffects(op, buffer).second;
  }

  void placeBefore(Operation *op, PendingAccesses &pending) {
    ++count;
    pending.clear();
    if (!insert)
      return;
    dryRuns.clear();
    OpBuilder builder(op);
    BarrierOp::create(builder, op->getLoc());
  }

  void visitBlock(Block &block, PendingAccesses &pending);
  /// Follows `op` where it is control flow (scf.for, scf.if, another op
  /// with regions that touches the buffers) and returns true; false for an
  /// op that is one access.
  bool visitControlFlow(Operation &op, PendingAccesses &pending);
  void visitFor(scf::ForOp loop, PendingAccesses &pending);
  void visitForOnce(scf::ForOp loop, PendingAccesses &pending);
  void visitOtherRegions(Operation *op, PendingAccesses &pending);
  void visitAccess(Operation *op, PendingAccesses &pending);
  void visitWait(WaitGroupOp wait, PendingAccesses &pending);
  /// The buffers `op` touches, each with whether it writes it.
  SmallVector<std::pair<Value, bool>> getAccesses(Operation *op);
  void addPending(Operation *op, PendingAccesses &pending);
};
} // namespace

SmallVector<std::pair<Value, bool>> BarrierPlacer::getAccesses(Operation *op) {
  SmallVector<std::pair<Value, bool>> accesses;
  for (Value tile : buffers) {
    if (writes(op, tile))
      accesses.push_back({tile, true});
    else if (reads(op, tile))
      accesses.push_back({tile, false});
  }
  return accesses;
}

void BarrierPlacer::addPending(Operation *op, PendingAccesses &pending) {
  for (auto [tile, isWrite] : getAccesses(op)) {
    if (isWrite)
      pending.writes.insert({op, tile});
    // A read-modify-write op counts as a reader too.
    if (!isWrite || reads(op, tile))
      pending.reads.insert({op, tile});
  }
}

void BarrierPlacer::visitAccess(Operation *op, PendingAccesses &pending) {
  if (llvm::any_of(getAccesses(op), [&](auto access) {
        return pending.conflicts(op, access.first, access.second);
      }))
    placeBefore(op, pending);
  if (isa<CopyAsyncOp>(op)) {
    pending.issued.insert(op);
    return;
  }
  addPending(op, pending);
}

void BarrierPlacer::visitWait(WaitGroupOp wait, PendingAccesses &pending) {
  // The copies in flight may have landed: each is an access now. Those the
  // wait surely completes are no longer in flight.
  for (Operation *copy : pending.issued)
    addPending(copy, pending);
  for (Operation *copy : pending.committed)
    addPending(copy, pending);
  if (wait.getPending() == 0)
    pending.committed.clear();
}

void BarrierPlacer::visitFor(scf::ForOp loop, PendingAccesses &pending) {
  if (insert)
    return visitForOnce(loop, pending);
  SmallVector<DryRun, 1> &runs = dryRuns[loop];
  for (const DryRun &run : runs)
    if (run.entry == pending) {
      pending = run.exit;
      count += run.barriers;
      return;
    }
  PendingAccesses entry = pending;
  int64_t before = count;
  visitForOnce(loop, pending);
  // Looked up again: the nested loops' runs may have grown the map.
  dryRuns[loop].push_back({std::move(entry), pending, count - before});
}

void BarrierPlacer::visitForOnce(scf::ForOp loop, PendingAccesses &pending) {
  Block &body = *loop.getBody();
  bool savedInsert = insert;
  insert = false;
  // What the body leaves pending flows back into its next iteration: find
  // the fixed point of the state at the top of the body.
  auto dryRun = [&](const PendingAccesses &entry, int64_t &barriers) {
    PendingAccesses state = entry;
    int64_t before = count;
    visitBlock(body, state);
    barriers = count - before;
    count = before;
    return state;
  };
  int64_t barriersFromEntry, barriersWithBackedge;
  PendingAccesses exit = dryRun(pending, barriersFromEntry);
  // The entry state only grows: each round adds what the body leaves
  // pending from the last. It is a set of (op, buffer) pairs of a finite
  // body, so this ends. Restarting each round from `pending` instead could
  // alternate between two states (a larger entry places a barrier that
  // leaves less pending at the exit), and a cap on the rounds then stopped
  // in whichever came last, missing the hazards of the other.
  PendingAccesses entry = pending;
  while (true) {
    PendingAccesses next = entry;
    next.merge(exit);
    if (next == entry)
      break;
    entry = std::move(next);
    exit = dryRun(entry, barriersWithBackedge);
  }
  dryRun(entry, barriersWithBackedge);
  insert = savedInsert;

  if (barriersWithBackedge > barriersFromEntry) {
    // A hazard crosses the back edge (a tile read late in the body is
    // overwritten early in the next iteration): close the body with a
    // barrier, where the seed expects it ("after the gemm").
    // The barrier orders accesses, not copies in flight: those come round
    // the back edge (the fixed point's) and leave the loop.
    PendingAccesses state = pending;
    state.issued = entry.issued;
    state.committed = entry.committed;
    visitBlock(body, state);
    placeBefore(body.getTerminator(), state);
    // Zero iterations leave the entry state; any other count ends on the
    // barrier.
    pending.merge(state);
    return;
  }
  PendingAccesses state = entry;
  visitBlock(body, state);
  pending = entry;
  pending.merge(state);
}

/// An op with regions other than scf.for and scf.if (scf.while, say), whose
/// control flow this does not follow: a barrier before it and at the end of
/// every block of its regions where accesses are pending, so that nothing is
/// pending where a block begins, whichever block ran before.
void BarrierPlacer::visitOtherRegions(Operation *op, PendingAccesses &pending) {
  if (!pending.empty())
    placeBefore(op, pending);
  // Copies in flight enter every block, from before the op or from another
  // block: a dry run over the blocks gathers those they leave, and every
  // block starts from them all.
  PendingAccesses inFlight = pending;
  auto visitBlocks = [&] {
    PendingAccesses after = inFlight;
    for (Region &region : op->getRegions())
      for (Block &block : region) {
        PendingAccesses state = inFlight;
        visitBlock(block, state);
        if (!state.empty() && block.mightHaveTerminator())
          placeBefore(block.getTerminator(), state);
        after.merge(state);
      }
    after.clear();
    return after;
  };
  bool savedInsert = insert;
  int64_t savedCount = count;
  insert = false;
  inFlight = visitBlocks();
  insert = savedInsert;
  count = savedCount;
  pending = visitBlocks();
}

bool BarrierPlacer::visitControlFlow(Operation &op, PendingAccesses &pending) {
  // Loops and branches with no tile op inside are per-thread code (an
  // epilogue's `scf.if %tid < 64`, a loop from the thread id by the block
  // size), whose control may differ from thread to thread, and a barrier
  // that some threads skip hangs the block. The whole op is one access
  // here, like a single load or store: a barrier goes before it, where every
  // thread runs it, and none inside. Between two accesses inside such code
  // the threads are not synchronized, as in CUDA.
  if (op.getNumRegions() != 0 && !isOrHoldsTileOp(&op))
    return false;
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    // A hazard with what came before the loop is resolved once, before
    // it, rather than by a barrier in every iteration.
    if (llvm::any_of(buffers, [&](Value tile) {
          bool isWrite = writes(loop, tile);
          return (isWrite || reads(loop, tile)) &&
                 pending.conflicts(loop, tile, isWrite);
        }))
      placeBefore(loop, pending);
    visitFor(loop, pending);
    return true;
  }
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    PendingAccesses thenState = pending;
    visitBlock(ifOp.getThenRegion().front(), thenState);
    if (!ifOp.getElseRegion().empty())
      visitBlock(ifOp.getElseRegion().front(), pending);
    pending.merge(thenState);
    return true;
  }
  if (op.getNumRegions() != 0 && !isa<PipelinedOp>(op) &&
      llvm::any_of(buffers, [&](Value tile) {
        return writes(&op, tile) || reads(&op, tile);
      })) {
    visitOtherRegions(&op, pending);
    return true;
  }
  return false;
}

void BarrierPlacer::visitBlock(Block &block, PendingAccesses &pending) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (isa<BarrierOp>(op)) {
      pending.clear();
      continue;
    }
    if (isa<CommitGroupOp>(op)) {
      pending.committed.insert(pending.issued.begin(), pending.issued.end());
      pending.issued.clear();
      continue;
    }
    if (auto wait = dyn_cast<WaitGroupOp>(op)) {
      visitWait(wait, pending);
      continue;
    }
    if (isMemoryEffectFree(&op))
      continue;
    if (visitControlFlow(op, pending))
      continue;
    // A scheduled tile.pipelined loop: the rewrite places the barriers
    // between its statements, in each step it builds. Inside a statement
    // with regions (an scf.if around a copy and the gemm that reads it, an
    // scf.for over them, whose back edge needs one too) they go here,
    // before the rewrite clones the statement into its steps; what the
    // statement leaves pending is the rewrite's again.
    if (auto loop = dyn_cast<PipelinedOp>(op))
      for (Operation *statement : loop.getStatements()) {
        PendingAccesses inside;
        visitControlFlow(*statement, inside);
      }
    // Everything else, scheduled tile.pipelined loops included, is one
    // access with the effects of everything inside it.
    visitAccess(&op, pending);
  }
}

void mlir::tile::insertSharedMemoryBarriers(Block &kernelBody) {
  BarrierPlacer placer;
  SmallVector<Operation *> leaves;
  kernelBody.getParentOp()->walk([&](Operation *op) {
    if (auto alloc = dyn_cast<AllocSharedOp>(op))
      placer.buffers.push_back(alloc.getResult());
    else if (op->getNumRegions() == 0)
      leaves.push_back(op);
  });
  llvm::append_range(placer.buffers, getHandedOverGlobals(leaves));
  if (placer.buffers.empty())
    return;
  placer.insert = true;
  PendingAccesses pending;
  placer.visitBlock(kernelBody, pending);
}
