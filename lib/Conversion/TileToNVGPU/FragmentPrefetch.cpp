//===- FragmentPrefetch.cpp - The tile-prefetch-fragments pass ------------===//
//
// Part of tile-mlir. Software-pipelines a steady-state loop by one more
// iteration at the register level: the next iteration's head (wait,
// barrier, cp.async issue) and its first k-step's ldmatrix loads move in
// front of this iteration's last k-step of mma.sync. See the pass
// description in Passes.td.
//
// The schedule and the predication of the last trip are ours; the loop
// rewriting (prologue, kernel with the fragments as loop-carried values, and
// for the interior part of a split the peeled epilogue) is upstream
// scf::pipelineForLoop. Before that, each step's copies move after its first
// ldmatrix loads (issueLoadsBeforeCopies).
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/LoopInvariantCodeMotionUtils.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/Utils/PassOptions.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILEPREFETCHFRAGMENTS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

static bool isMma(Operation *op) {
  return isa<nvgpu::MmaSyncOp, NVVM::MmaOp>(op);
}

static bool containsMma(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isMma(nested) ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

/// Per-thread memory: a fragment, or the memref.alloca the fragment
/// lowering turns one into (the accumulator registers).
static bool isPrivateMemRef(Value v) {
  auto type = dyn_cast<MemRefType>(v.getType());
  if (!type)
    return false;
  if (v.getDefiningOp<memref::AllocaOp>())
    return true;
  return getMemorySpace(type) == MemorySpace::Fragment;
}

/// The 32-bit registers per thread of the accumulators (the private
/// memref.alloca buffers) that `loop` uses.
static int64_t accumulatorRegisters(scf::ForOp loop) {
  llvm::SmallPtrSet<Value, 4> accumulators;
  loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (operand.getDefiningOp<memref::AllocaOp>())
        accumulators.insert(operand);
  });
  int64_t bits = 0;
  for (Value accumulator : accumulators) {
    auto type = cast<MemRefType>(accumulator.getType());
    if (!type.hasStaticShape() || !type.getElementType().isIntOrFloat())
      continue;
    bits += type.getNumElements() * type.getElementTypeBitWidth();
  }
  return bits / 32;
}

/// Whether `op` only computes on values and per-thread (private) memory:
/// such an op may move across barriers, async copies and shared loads.
static bool touchesOnlyRegisters(Operation *op) {
  if (op->getNumRegions() != 0)
    return false;
  // nvvm.mma.sync (GemmToMMA.cpp builds it for bf16) reads and writes
  // registers only, but upstream declares no memory effects for it, which
  // counts as touching any memory.
  if (isPure(op) || isa<NVVM::MmaOp>(op))
    return true;
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface)
    return false;
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  return llvm::all_of(effects, [](const MemoryEffects::EffectInstance &e) {
    return e.getValue() && isPrivateMemRef(e.getValue());
  });
}

/// Whether `op` or an op nested in it uses a private memref (the
/// accumulators): the trailing mma.sync ops must not move past such an op.
static bool usesPrivateMemory(Operation *op) {
  WalkResult result = op->walk([](Operation *nested) {
    for (Value operand : nested->getOperands())
      if (isPrivateMemRef(operand))
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return result.wasInterrupted();
}

/// The two-stage schedule of `loop`, or an empty one when the body does not
/// have the expected shape: [head + first ldmatrix group] (stage 0, the
/// prefix up to the last ldmatrix before the first mma), the rest (stage 1)
/// in order, except that the trailing register-only ops after the body's
/// last ldmatrix (the last k-step's mma.sync) come after stage 0.
static std::vector<std::pair<Operation *, unsigned>>
getSchedule(scf::ForOp loop) {
  SmallVector<Operation *> ops;
  for (Operation &op : loop.getBody()->without_terminator())
    ops.push_back(&op);
  auto firstMma = llvm::find_if(ops, isMma);
  if (firstMma == ops.end())
    return {};
  auto isLoad = [](Operation *op) { return isa<nvgpu::LdMatrixOp>(op); };
  auto isHeadEnd = [](Operation *op) {
    return isa<nvgpu::LdMatrixOp, NVVM::CpAsyncCommitGroupOp,
               nvgpu::MBarrierArriveExpectTxOp>(op);
  };
  int64_t mmaIndex = firstMma - ops.begin();
  int64_t headEnd = -1, lastLoad = -1;
  for (int64_t i = 0, e = ops.size(); i < e; ++i) {
    if (i < mmaIndex && isHeadEnd(ops[i]))
      headEnd = i;
    if (isLoad(ops[i]))
      lastLoad = i;
  }
  // No head, or a last ldmatrix inside it (a commit after it): nothing
  // register-only trails the body's loads to overlap with the next head.
  if (headEnd < 0 || lastLoad < headEnd)
    return {};
  ArrayRef<Operation *> head = ArrayRef(ops).take_front(headEnd + 1);
  ArrayRef<Operation *> middle =
      ArrayRef(ops).slice(headEnd + 1, lastLoad - headEnd);
  ArrayRef<Operation *> trailing = ArrayRef(ops).drop_front(lastLoad + 1);
  if (!llvm::any_of(trailing, isMma) ||
      !llvm::all_of(trailing, touchesOnlyRegisters) ||
      llvm::any_of(head, usesPrivateMemory))
    return {};
  std::vector<std::pair<Operation *, unsigned>> schedule;
  for (Operation *op : middle)
    schedule.emplace_back(op, 1);
  for (Operation *op : head)
    schedule.emplace_back(op, 0);
  for (Operation *op : trailing)
    schedule.emplace_back(op, 1);
  return schedule;
}

/// Whether `op` may run in the last iteration of the kernel loop, for an
/// iteration past the end (see predicateStageZero): everything in the head
/// is harmless then once its copies read nothing and, for the TMA, its
/// groups are neither armed nor waited for.
static bool canRunPastTheEnd(Operation *op) {
  WalkResult result = op->walk([](Operation *nested) {
    if (isPure(nested) || nested->getNumRegions() != 0 ||
        isa<nvgpu::DeviceAsyncCopyOp, nvgpu::LdMatrixOp, gpu::BarrierOp,
            NVVM::CpAsyncWaitGroupOp, NVVM::CpAsyncCommitGroupOp, scf::YieldOp,
            scf::ConditionOp, nvgpu::TmaAsyncLoadOp,
            nvgpu::MBarrierArriveExpectTxOp, nvgpu::MBarrierTryWaitParityOp,
            NVVM::BarrierOp, NVVM::BarrierArriveOp>(nested))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !result.wasInterrupted();
}

/// Makes `copy` read nothing unless `predicate` holds.
static void guardCopy(RewriterBase &rewriter, nvgpu::DeviceAsyncCopyOp copy,
                      Value predicate) {
  Location loc = copy.getLoc();
  rewriter.setInsertionPoint(copy);
  Value count = copy.getSrcElements();
  if (!count)
    count = arith::ConstantIndexOp::create(
        rewriter, loc, copy.getDstElements().getZExtValue());
  Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
  Value guarded =
      arith::SelectOp::create(rewriter, loc, predicate, count, zero);
  rewriter.modifyOpInPlace(
      copy, [&] { copy.getSrcElementsMutable().assign(guarded); });
}

/// Makes the TMA op `op` (a box or an arrival, thread 0's) happen only
/// where `predicate` holds, besides its own predicate.
template <typename TmaOp>
static void guardTmaOp(RewriterBase &rewriter, TmaOp op, Value predicate) {
  rewriter.setInsertionPoint(op);
  Value guarded = predicate;
  if (Value own = op.getPredicate())
    guarded = arith::AndIOp::create(rewriter, op.getLoc(), own, predicate);
  rewriter.modifyOpInPlace(op,
                           [&] { op.getPredicateMutable().assign(guarded); });
}

/// The pipeliner's predication hook for the stage-0 ops of the kernel loop,
/// which in its last iteration belong to an iteration past the end. Rather
/// than peeling an epilogue (LLVM then hoists the ops the epilogue and the
/// loop body start with into the loop header, which splits the body into
/// two blocks the PTX scheduler cannot interleave), the head runs there
/// too: its barrier and ldmatrix touch only valid shared memory, and every
/// copy, nested ones included, reads nothing (srcElements 0: cp.async
/// zero-fills a buffer version no later step reads). A nested copy's own
/// srcElements is not enough: its bounds check may cover only the rows, the
/// K offset having been proven in bounds for the real iterations alone.
///
/// With the TMA (TmaCopies.h) the head's group does not exist past the end:
/// no box, no arrival, no wait. Its counters are SSA values, and the loop's
/// results, which the code after the loop counts from, are those of the last
/// real iteration; a group armed past the end would share its number, and so
/// its mbarrier and phase, with the first group armed after the loop (the
/// next tile of a persistent loop), and the kernel could end with its boxes
/// in flight.
static Operation *predicateStageZero(RewriterBase &rewriter, Operation *op,
                                     Value predicate) {
  if (!canRunPastTheEnd(op))
    return nullptr;
  op->walk([&](nvgpu::DeviceAsyncCopyOp copy) {
    guardCopy(rewriter, copy, predicate);
  });
  op->walk([&](nvgpu::TmaAsyncLoadOp load) {
    guardTmaOp(rewriter, load, predicate);
  });
  op->walk([&](nvgpu::MBarrierArriveExpectTxOp arrive) {
    guardTmaOp(rewriter, arrive, predicate);
  });
  // Waits, and the split barrier (TmaCopies.cpp) before copies that do not
  // happen.
  SmallVector<Operation *> guarded;
  op->walk([&](Operation *nested) {
    if (isa<nvgpu::MBarrierTryWaitParityOp, NVVM::BarrierOp,
            NVVM::BarrierArriveOp>(nested))
      guarded.push_back(nested);
  });
  for (Operation *barrierOp : guarded) {
    rewriter.setInsertionPoint(barrierOp);
    auto guard = scf::IfOp::create(rewriter, barrierOp->getLoc(), predicate);
    rewriter.moveOpBefore(barrierOp, guard.thenBlock()->getTerminator());
    if (barrierOp == op)
      return guard;
  }
  return op;
}

/// In every step of `body`, moves the step's cp.async copies and their
/// commit (everything between the barrier and the commit that issues or
/// guards a copy) after the ldmatrix loads that follow them, so that the
/// loads the next mma.sync waits for are issued first: both go through the
/// same memory pipe, and ptxas keeps shared-memory writes and reads in
/// program order. The copies write a buffer version the loads do not read.
static void issueLoadsBeforeCopies(Block &body) {
  SmallVector<NVVM::CpAsyncCommitGroupOp> commits(
      body.getOps<NVVM::CpAsyncCommitGroupOp>());
  for (NVVM::CpAsyncCommitGroupOp commit : commits) {
    // Only where the step's wait leaves another group in flight (depth 3 or
    // more): at depth 2 the next step waits for these copies, and issuing
    // them later shows (docs/performance.md).
    Operation *wait = commit->getPrevNode();
    while (wait && !isa<NVVM::CpAsyncWaitGroupOp>(wait))
      wait = wait->getPrevNode();
    if (!wait || cast<NVVM::CpAsyncWaitGroupOp>(wait).getN() < 1)
      continue;
    // The loads of this step only: where the copies come last in their step
    // (a hand schedule's `order`), the next loads belong to the next step,
    // behind its wait, and the commit must not move past that wait.
    Operation *lastLoad = nullptr;
    for (Operation *op = commit->getNextNode();
         op && !isMma(op) && !isa<NVVM::CpAsyncWaitGroupOp, gpu::BarrierOp>(op);
         op = op->getNextNode())
      if (isa<nvgpu::LdMatrixOp>(op))
        lastLoad = op;
    if (!lastLoad)
      continue;
    // The copies (or the ops guarding them), the commit, and the pure index
    // math only they use, so that their operands stay short-lived.
    llvm::SmallPtrSet<Operation *, 32> moved;
    moved.insert(commit);
    SmallVector<Operation *> order;
    for (Operation *op = commit->getPrevNode(); op && !isa<gpu::BarrierOp>(op);
         op = op->getPrevNode()) {
      bool hasCopy = false;
      op->walk([&](nvgpu::DeviceAsyncCopyOp) { hasCopy = true; });
      bool onlyFeedsMoved = isPure(op) && !op->use_empty() &&
                            llvm::all_of(op->getUsers(), [&](Operation *user) {
                              Operation *inBody =
                                  body.findAncestorOpInBlock(*user);
                              return inBody && moved.contains(inBody);
                            });
      if (hasCopy || onlyFeedsMoved) {
        moved.insert(op);
        order.push_back(op);
      }
    }
    commit->moveAfter(lastLoad);
    Operation *before = commit;
    for (Operation *op : order) { // Last first: each goes before the previous.
      op->moveBefore(before);
      before = op;
    }
  }
}

namespace {
struct TilePrefetchFragmentsPass
    : tile::NamedOptionErrors<
          tile::impl::TilePrefetchFragmentsBase<TilePrefetchFragmentsPass>> {
  using NamedOptionErrors::NamedOptionErrors;

  void runOnOperation() override {
    TileDialect::SteadyStateAttrHelper steadyState(&getContext());
    SmallVector<scf::ForOp> loops;
    getOperation()->walk([&](scf::ForOp loop) {
      if (steadyState.isAttrPresent(loop))
        loops.push_back(loop);
    });
    // The kernel loop's last iteration issues the head of the iteration
    // past its end (predicateStageZero). That is only right for the last
    // steady-state loop: a rolled remainder loop after an unrolled one runs
    // that iteration itself, and its copy would race with the zero fill.
    // Asked of the IR, not only of the loops' marks: a cleanup between the
    // passes (--canonicalize) inlines an unrolled loop of one trip, whose
    // copies then follow the rolled loop unmarked. Copies after a wait for
    // every group (a persistent kernel's next tile) come after the zero
    // fill has landed. Only a loop of mma.sync gets the head (a TMA one
    // would issue nothing, its boxes predicated off); wgmma loops keep the
    // rest of what the pass does (below).
    auto followedByCopies = [&](scf::ForOp loop, bool hasMma) {
      for (Operation *op = loop->getNextNode(); op; op = op->getNextNode())
        if (isa<scf::ForOp>(op) && steadyState.isAttrPresent(op))
          return true;
      if (!hasMma)
        return false;
      for (Operation *op = loop->getNextNode(); op; op = op->getNextNode()) {
        if (auto wait = dyn_cast<NVVM::CpAsyncWaitGroupOp>(op);
            wait && wait.getN() == 0)
          return false;
        if (op->walk([](nvgpu::DeviceAsyncCopyOp) {
                return WalkResult::interrupt();
              }).wasInterrupted())
          return true;
      }
      return false;
    };
    // Of the two loops of a split (tile-specialize-interior-steps), the
    // edge part runs the step after the interior part's last one, so the
    // interior part must not issue that step's head: it peels its epilogue
    // instead (below). The edge part, and the loops beside a split, stay as
    // they are: with the prefetch there the kernels ran slower on an H200 (at
    // 1000x3000x777, sm_90: 115.0 against 122.3 TFLOP/s with the edge part
    // alone prefetched, 108.7 against 120.1 with the rolled loop before the
    // split prefetched too; see docs/benchmarks.md).
    TileDialect::SplitStepsAttrHelper splitSteps(&getContext());
    auto besideSplit = [&](scf::ForOp loop) {
      return llvm::any_of(*loop->getBlock(), [&](Operation &op) {
        return splitSteps.isAttrPresent(&op);
      });
    };
    // The interior part qualifies only where upstream can peel its epilogue
    // (two or more trips known at compile time) and it holds mma.sync ops;
    // any other stays untouched, invariant code and copies included (the
    // ?x? wgmma kernel spilled with them moved). Over dynamic sizes the
    // prefetch did not pay either: guarded against zero trips, it made the
    // ?x? mma.sync kernel 6% slower at 4096^3 on an H200 (2% at 4 stages),
    // with ptxas spilling 204 B.
    auto isInteriorPart = [&](scf::ForOp loop) {
      std::optional<APInt> trips = loop.getStaticTripCount();
      if (!splitSteps.isAttrPresent(loop) || !trips || trips->ult(2))
        return false;
      for (Operation *op = loop->getNextNode(); op; op = op->getNextNode())
        if (splitSteps.isAttrPresent(op))
          return true;
      return false;
    };
    // The mma.sync loops of two-stage pipelines stay as they are: there each
    // step waits for the copies that the step before it issued, and waiting
    // before that step's last k-step of mma.sync leaves them less time. On an
    // H200 (sm_90) 15 of 18 such kernels ran slower with the prefetch, by
    // 0.7-9.6%, and by 21-31% where its registers cost a block per SM; the
    // other three gained 0.5-2.2%. So do those whose threads hold fewer
    // accumulator registers than min-accumulator-registers (128: smaller tiles
    // per warp): such kernels keep several blocks per SM, whose warps hide the
    // latency the prefetch would, and the registers it takes cost blocks. At 3
    // and 4 stages 4 of 8 of them ran slower with the prefetch (1.2-3.1%,
    // and 18.7% with 128x128x32 tiles at 256 threads, two blocks per SM down to
    // one), the others gained 0.1-1.5%; with 128 accumulator registers every
    // kernel measured gained (4.8-12.5% at 4096^3; docs/benchmarks.md). Loops
    // without mma.sync (wgmma) are not prefetched anyway and keep what the
    // pass does to them (below).
    auto pays = [&](scf::ForOp loop) {
      return !steadyState.getAttr(loop).getValue().slt(3) &&
             accumulatorRegisters(loop) >= minAccumulatorRegisters;
    };
    // Each loop to pipeline, and whether it peels its epilogue.
    SmallVector<std::pair<scf::ForOp, bool>> candidates;
    for (scf::ForOp loop : loops) {
      bool hasMma = containsMma(loop);
      if (hasMma && !pays(loop))
        continue;
      if (hasMma && isInteriorPart(loop))
        candidates.emplace_back(loop, /*peelEpilogue=*/true);
      else if (!followedByCopies(loop, hasMma) && !besideSplit(loop))
        candidates.emplace_back(loop, /*peelEpilogue=*/false);
    }
    for (scf::ForOp loop : loops)
      steadyState.removeAttr(loop);
    getOperation()->walk([&](scf::ForOp loop) {
      if (splitSteps.isAttrPresent(loop))
        splitSteps.removeAttr(loop);
    });
    IRRewriter rewriter(&getContext());
    for (auto [loop, peelEpilogue] : candidates) {
      // Loop-invariant index math (lane offsets, version addresses) goes
      // out first, so that it is not carried from stage 0 to stage 1.
      moveLoopInvariantCode(loop);
      issueLoadsBeforeCopies(*loop.getBody());
      std::vector<std::pair<Operation *, unsigned>> schedule =
          getSchedule(loop);
      if (schedule.empty() ||
          (!peelEpilogue && !llvm::all_of(schedule, [](const auto &entry) {
            return entry.second != 0 || canRunPastTheEnd(entry.first);
          })))
        continue;
      scf::PipeliningOption options;
      options.getScheduleFn =
          [&](scf::ForOp, std::vector<std::pair<Operation *, unsigned>> &s) {
            s = schedule;
          };
      // A peeled epilogue runs the last step's rest after the loop, so no
      // head runs past the end and nothing needs a predicate.
      options.peelEpilogue = peelEpilogue;
      if (!peelEpilogue)
        options.predicateFn = predicateStageZero;
      options.supportDynamicLoops = false;
      bool modified = false;
      rewriter.setInsertionPoint(loop);
      // pipelineForLoop fails after changing the loop only when predicateFn
      // refuses an op of stage 0, and the schedule was skipped above unless
      // every such op can run past the end. So no input reaches this error;
      // it stays so that a change of that contract stops the pass instead
      // of leaving a half-pipelined loop behind.
      if (failed(scf::pipelineForLoop(rewriter, loop, options, &modified)) &&
          modified) {
        // untested: no input reaches it (above).
        loop.emitError("tile-prefetch-fragments: pipelining the steady-state "
                       "loop failed after changing it");
        return signalPassFailure();
      }
    }
  }
};
} // namespace
