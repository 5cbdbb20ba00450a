//===- TmaCopies.cpp - Asynchronous tile copies through the TMA -----------===//
//
// Part of tile-mlir. See TmaCopies.h.
//
// tile's commit groups are positional, as cp.async's are: a wait counts the
// groups committed before it in program order, across loop iterations, and
// the software pipeline, the interior-block versioning and the persistent
// loop all keep that meaning. An mbarrier instead completes one phase at a
// time. So the number of groups committed and the number waited for travel
// through the kernel's structured control flow as SSA values (scf.for
// iter_args, scf.if results); group g is mbarrier g mod N in phase
// g / N mod 2. LLVM folds the counters to constants where the code is
// straight-line, and keeps one register each in the loops.
//
// The ops are upstream NVGPU's (`nvgpu.tma.async.load`, `nvgpu.mbarrier.*`,
// `nvgpu.tma.create.descriptor`), and so is their lowering to PTX.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/TmaCopies.h"

#include "CopyLoweringDetail.h"
#include "TmaClusters.h"
#include "TmaDetail.h"
#include "TmaGroupAnalysis.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "tile/Conversion/TileToNVGPU/FragmentLayout.h"
#include "tile/Conversion/TileToNVGPU/SharedAccess.h"
#include "tile/Dialect/Tile/Transforms/Schedule.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MathExtras.h"

#include <tuple>

using namespace mlir;
using namespace mlir::tile;
using copy::constantI32;
using copy::constantIndex;
using tma::boundOutstanding;
using tma::exactOutstanding;
using tma::hasGenericSharedWrites;
using tma::startsCopyRun;
using CopyPlan = tma::BoxPlan;

namespace {

/// Named barriers for split barriers (lowerBarrier): 1 to this; 0 is
/// __syncthreads' (gpu.barrier), and a CTA has 16.
constexpr int64_t kSplitBarrierIds = 8;

/// How long one mbarrier.try_wait may suspend the thread before it polls
/// again, in nanoseconds (a hint).
constexpr int64_t kWaitSuspendNs = 10000000;

/// The tensor maps the kernel needs, one per source and box.
using DescriptorKey =
    std::tuple<Value, int64_t, int64_t, nvgpu::TensorMapSwizzleKind>;

/// Where the paths through some ops lead (TmaLowering::scanPaths): to a
/// barrier before any copy, on every path; to a copy without a barrier
/// before it, on some path; or through the ops without meeting either.
enum class PathEnd { Guarded, Unguarded, FallsThrough };

struct GroupState {
  /// Groups committed and groups waited for, so far (i32).
  Value committed, waited;
  /// committed - waited, where it is the same on every path to this point:
  /// a wait then retires a known number of groups in straight-line code.
  std::optional<int64_t> outstanding;
};

/// What findCommitAfterWait knows at a point of the kernel: whether some
/// path has waited for a group since its last barrier, and, where known, the
/// number of groups in flight (as exactOutstanding counts them) and an upper
/// bound on the number committed.
struct GroupPath {
  bool waited;
  std::optional<int64_t> open, commits;
};

class TmaLowering {
public:
  TmaLowering(KernelOp kernel, Value tid, const TmaOptions &options)
      : kernel(kernel), tid(tid), options(options),
        splitBarriers(options.splitBarriers) {}

  /// Plans every copy; on failure `why` names the copy and the reason.
  LogicalResult plan(Operation *&culprit, std::string &why);
  void rewrite();

private:
  Value createDescriptor(const CopyPlan &plan);
  void lowerBlock(Block &block, GroupState &state);
  void lowerFor(scf::ForOp loop, GroupState &state);
  void lowerIf(scf::IfOp ifOp, GroupState &state);
  void lowerCopy(CopyAsyncOp op, Value committed);
  void commitGroup(Operation *before, Location loc, int64_t bytes,
                   GroupState &state);
  void lowerWait(OpBuilder &b, Location loc, int64_t pending,
                 GroupState &state);
  void waitForGroup(OpBuilder &b, Location loc, Value group);
  /// The first op after (before) `op` in its block that copies, commits,
  /// waits or synchronizes (a barrier, or a region holding group ops); null
  /// if none.
  Operation *nextSyncOp(Operation *op) const;
  Operation *previousSyncOp(Operation *op) const;
  bool isSyncOp(Operation *op) const;
  bool splitsBarrier(BarrierOp op) const;
  bool isGuardedBarrier(Operation *barrier) const;
  PathEnd scanPaths(Block::iterator begin, Block::iterator end) const;
  Operation *findCommitAfterWait(Block &block, GroupPath &path) const;
  void dropAsyncProxyFences();
  void fenceGenericWrites();
  void clusterBarrier(OpBuilder &b, Location loc);
  void clusterBarrierBefore(CopyAsyncOp op);
  void lowerBarrier(BarrierOp op, Value committed);
  Value slotOf(OpBuilder &b, Location loc, Value group);
  OpBuilder issueBefore(Operation *op);
  /// The predicate of an op in issue code (issueBefore): thread 0's, or
  /// none where the branch around it already is on thread 0.
  Value issuePredicate() const { return wideWgmma ? Value() : leader; }
  bool containsGroupOps(Operation *op) const;

  KernelOp kernel;
  Value tid;
  TmaOptions options;
  /// In the kernel's order, which is the order of the tensor maps among the
  /// kernel's parameters.
  llvm::MapVector<Operation *, CopyPlan> plans;
  DenseMap<Operation *, int64_t> groupBytes; // per commit
  /// Per commit, the bytes of its group's copies that sit in an `scf.if`
  /// before it (a prologue's steps past a trip count known only at run
  /// time), with the condition under which they are copied.
  DenseMap<Operation *, SmallVector<std::pair<Value, int64_t>>>
      conditionalBytes;
  int64_t numBarriers = 0;
  llvm::MapVector<DescriptorKey, Value> descriptors;
  Value barriers, leader, warpZero;
  /// Whether barriers before copies become named-barrier arrivals and
  /// warp 0's wait (splitsBarrier): asked for, then checked by plan.
  bool splitBarriers;
  /// The barriers that another barrier makes redundant (isGuardedBarrier),
  /// found by plan on the kernel as it came and erased first by rewrite.
  SmallVector<Operation *> guardedBarriers;
  /// The barriers that split (splitsBarrier), found by rewrite before it
  /// lowers anything: lowering a copy erases it, which the test looks for.
  llvm::SmallPtrSet<Operation *, 8> splitBarrierOps;
  /// The scf.if ops that hold warp 0's issue code.
  llvm::SmallPtrSet<Operation *, 8> issueBlocks;
  /// How the blocks of a cluster share the copies (tma::planCluster), when
  /// the kernel runs in clusters, and the values that issue those copies.
  std::optional<tma::ClusterPlan> cluster;
  /// Whether a copy sits in an scf.if of guarded copies (plan).
  bool guardedCopies = false;
  std::optional<tma::ClusterIssuers> clusterIssuers;
  /// Whether anything but the TMA writes shared memory
  /// (hasGenericSharedWrites) or reads global memory
  /// (hasGenericGlobalReads): barriers may then order those writes, or
  /// another thread's write before those reads.
  bool genericSharedWrites = false, genericGlobalReads = false;
  /// Whether the kernel's gemms are wgmma and it has more than one
  /// warpgroup: then thread 0's issue code, its barriers and its fences
  /// take the forms that keep warpgroup 0 from holding up the others
  /// (issueBefore, dropAsyncProxyFences).
  bool wideWgmma = false;
  /// The copies that start a run of copies (startsCopyRun), before which a
  /// clustered kernel has a cluster barrier.
  llvm::SmallPtrSet<Operation *, 8> runStarts;
};

} // namespace

static FailureOr<CopyPlan> planCopy(CopyAsyncOp op, std::string &why) {
  if (failed(tma::checkGlobal(op.getSource(), why)) ||
      failed(tma::checkInnerOffset(op.getSource(), op.getSourceIndices(), why)))
    return failure();
  if (!llvm::all_of(op.getDestIndices(),
                    [](Value v) { return isConstantIntValue(v, 0); })) {
    why = "it writes at an offset into its shared tile";
    return failure();
  }
  auto tileType = cast<MemRefType>(op.getDest().getType());
  if (tileType.getRank() != 2 || !getWholeSharedTile(op.getDest())) {
    why = "its destination is not a whole 2-D tile of a shared allocation";
    return failure();
  }
  return tma::planBoxes(op.getSource(), tileType, why);
}

bool mlir::tile::asyncCopiesFitTma(KernelOp kernel) {
  std::string why;
  return !kernel
              .walk([&](CopyAsyncOp copy) {
                return failed(planCopy(copy, why)) ? WalkResult::interrupt()
                                                   : WalkResult::advance();
              })
              .wasInterrupted();
}

/// Whether `op` is an scf.if whose group ops are copies in its `then`
/// block alone, none nested deeper: each is one of the groups it is
/// committed with, where the condition holds.
static bool isGuardedCopies(Operation *op) {
  auto guard = dyn_cast<scf::IfOp>(op);
  if (!guard || guard.getNumResults() != 0)
    return false;
  bool copies = false, other = false;
  guard->walk([&](Operation *nested) {
    if (isa<CopyAsyncOp>(nested) &&
        nested->getParentRegion() == &guard.getThenRegion())
      copies = true;
    else if (isa<CopyAsyncOp, CommitGroupOp, WaitGroupOp>(nested))
      other = true;
  });
  return copies && !other;
}

bool TmaLowering::containsGroupOps(Operation *op) const {
  return op
      ->walk([](Operation *nested) {
        return isa<CopyAsyncOp, CommitGroupOp, WaitGroupOp>(nested)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

LogicalResult TmaLowering::plan(Operation *&culprit, std::string &why) {
  WalkResult walk = kernel.getBody().walk([&](Operation *op) {
    culprit = op;
    if (op->getNumRegions() != 0 && !isa<scf::ForOp, scf::IfOp>(op) &&
        containsGroupOps(op)) {
      why = "it holds copies or groups in a '" +
            op->getName().getStringRef().str() +
            "', which the group counting does not follow";
      return WalkResult::interrupt();
    }
    auto copy = dyn_cast<CopyAsyncOp>(op);
    if (!copy)
      return WalkResult::advance();
    FailureOr<CopyPlan> copyPlan = planCopy(copy, why);
    if (failed(copyPlan))
      return WalkResult::interrupt();
    // The copy's group is the one its block commits next: the commit's
    // arrival announces the group's bytes. A copy alone in the `then` of an
    // scf.if (as tile-software-pipeline guards a prologue's steps past a
    // trip count known only at run time) belongs to the group committed
    // after the scf.if, and its bytes count where the condition holds.
    auto findCommit = [&](Operation *from) {
      Operation *next = from->getNextNode();
      while (next && (isa<CopyAsyncOp>(next) ||
                      (!isa<CommitGroupOp>(next) &&
                       (!containsGroupOps(next) || isGuardedCopies(next)))))
        next = next->getNextNode();
      return isa_and_nonnull<CommitGroupOp>(next) ? next : nullptr;
    };
    if (Operation *commit = findCommit(copy)) {
      groupBytes[commit] += copyPlan->bytes;
    } else {
      auto guard = dyn_cast<scf::IfOp>(copy->getParentOp());
      Operation *after =
          guard && isGuardedCopies(guard) ? findCommit(guard) : nullptr;
      if (!after) {
        why = "it is not followed by its tile.commit_group in the same block";
        return WalkResult::interrupt();
      }
      conditionalBytes[after].push_back(
          {guard.getCondition(), copyPlan->bytes});
      guardedCopies = true;
    }
    plans[op] = std::move(*copyPlan);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // Writing fence.proxy.async.global between such a write and the copies
  // would need the write's place in the groups; a kernel that reads back a
  // tensor it writes is rare enough to stay on cp.async, which reads through
  // the generic proxy.
  for (auto &[op, copyPlan] : plans) {
    if (Operation *writer = tma::findGenericWrite(kernel, copyPlan.global)) {
      culprit = writer;
      why = "the kernel writes the tensor that a copy reads, and the TMA "
            "would read it through the async proxy, which sees those stores "
            "only after a proxy fence";
      return failure();
    }
  }
  // Thread 0 arms mbarrier g mod N again for group g + N. That is only right
  // once group g's phase has completed, or the barrier would take two
  // arrivals in one phase: N must exceed the groups ever in flight (`peak`,
  // e.g. 3 for a prologue that commits 3 groups before its first wait). And
  // a thread that waits for group g by its parity must do so before the
  // barrier completes group g + N too, or it would wait for a phase that
  // never comes. Between a wait and the next commit there is a block
  // barrier (checked below; isGuardedBarrier drops one only where another
  // follows it on every path to a commit), so a thread is at most `peak`
  // groups behind thread 0 when it arms a barrier. Twice (the groups in
  // flight plus one) covers both. A power of two keeps the slot and phase a
  // mask and a shift.
  int64_t peak = 0;
  if (!boundOutstanding(kernel.getBody().front(), 0, peak)) {
    culprit = kernel;
    why = "a loop commits more groups than it waits for, so the groups in "
          "flight have no bound";
    return failure();
  }
  numBarriers = llvm::PowerOf2Ceil(2 * (peak + 1));
  genericSharedWrites = hasGenericSharedWrites(kernel);
  genericGlobalReads = tma::hasGenericGlobalReads(kernel);
  wideWgmma =
      kernel.getThreads() > kWarpgroupThreads &&
      kernel.getBody()
          .walk([](NVVM::WgmmaMmaAsyncOp) { return WalkResult::interrupt(); })
          .wasInterrupted();
  if (options.clusterSize > 1) {
    SmallVector<CopyAsyncOp> copies;
    for (auto &entry : plans)
      copies.push_back(cast<CopyAsyncOp>(entry.first));
    std::string unclustered;
    // The blocks of a cluster multicast each other's boxes, so they must
    // issue the same ones.
    FailureOr<tma::ClusterPlan> clusterPlan = failure();
    if (guardedCopies)
      unclustered = "some copies are guarded by a condition (a trip count "
                    "known only at run time), and the blocks of a cluster "
                    "must issue the same copies";
    else
      clusterPlan = tma::planCluster(kernel, copies, options, unclustered);
    if (succeeded(clusterPlan)) {
      cluster = std::move(*clusterPlan);
      for (CopyAsyncOp copy : copies)
        if (startsCopyRun(copy))
          runStarts.insert(copy);
    } else {
      // On the kernel's location, without the kernel's text as a note.
      emitRemark(kernel.getLoc(), "blocks stay unclustered (cluster=")
          << options.clusterSize << "): " << unclustered;
    }
  }
  GroupPath start{/*waited=*/false, /*open=*/0, /*commits=*/0};
  if (Operation *commit =
          findCommitAfterWait(kernel.getBody().front(), start)) {
    culprit = commit;
    why = isa<CommitGroupOp>(commit)
              ? "a tile.commit_group follows a tile.wait_group with no "
                "tile.barrier between them"
              : "a branch that commits fewer groups than the other ends "
                "after a tile.wait_group with no tile.barrier, and the "
                "empty groups that even out the counts would follow it";
    why += ", so thread 0 could arm an mbarrier again before another thread "
           "has waited for its previous phase";
    return failure();
  }
  if (splitBarriers) {
    const char *reason = nullptr;
    if (peak >= kSplitBarrierIds)
      reason = "more groups are in flight than there are named barriers to "
               "split them with";
    else if (genericSharedWrites)
      reason = "the kernel writes shared memory other than through "
               "tile.copy_async, and a barrier may order those writes";
    // A split barrier's arrivals do not wait: warps 1 and up may read a
    // value before another warp has written it.
    else if (genericGlobalReads)
      reason = "the kernel reads global memory other than through "
               "tile.copy_async, and a barrier may order another thread's "
               "write before those reads";
    if (reason) {
      emitRemark(kernel.getLoc(), "barriers stay CTA-wide (split-barriers): ")
          << reason;
      splitBarriers = false;
    }
  }
  if (!genericSharedWrites && !genericGlobalReads)
    kernel.getBody().walk([&](Operation *op) {
      if (isa<BarrierOp, gpu::BarrierOp>(op) && isGuardedBarrier(op))
        guardedBarriers.push_back(op);
    });
  return success();
}

Value TmaLowering::createDescriptor(const CopyPlan &plan) {
  DescriptorKey key{plan.global, plan.boxRows, plan.boxCols, plan.swizzle};
  auto it = descriptors.find(key);
  if (it != descriptors.end())
    return it->second;
  Value descriptor = tma::createTensorMap(kernel, plan);
  descriptors.insert({key, descriptor});
  return descriptor;
}

Value TmaLowering::slotOf(OpBuilder &b, Location loc, Value group) {
  Value slot = arith::AndIOp::create(b, loc, group,
                                     constantI32(b, loc, numBarriers - 1));
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), slot);
}

/// A builder for thread 0's issue code in place of `op`: inside an
/// `scf.if`, shared with the issue code right before `op`. Usually the
/// branch is on warp 0 and the copies' ops carry thread 0's predicate: the
/// branch is uniform per warp, so that the other warps skip the code ptxas
/// generates around a TMA instruction (a loop electing each predicated
/// thread in turn), which cost them 11% more instructions in the steady
/// state of the 128x256x64 mma.sync kernel when every warp ran it.
///
/// With wgmma and more than one warpgroup (wideWgmma) the branch is on
/// thread 0 and the ops carry no predicate, which gives ptxas a shorter loop
/// (no vote). There, the issue code delays warpgroup 0's next wgmma, which
/// needs all four of its warps, and the other warpgroups wait for it at the
/// next barrier. On an H200 this form made the 128x256x32 / 256-thread
/// kernels 6-7% faster and the 128x256x64 ones even; with one warpgroup it
/// made the 128x128x64 kernel 1.4% slower, and in mma.sync kernels, whose
/// warps run on by themselves, the 128x256x32 one 16% slower
/// (docs/performance.md, "Issue code off the critical path").
OpBuilder TmaLowering::issueBefore(Operation *op) {
  Operation *previous = op->getPrevNode();
  if (!previous || !issueBlocks.contains(previous)) {
    OpBuilder b(op);
    previous =
        scf::IfOp::create(b, op->getLoc(), wideWgmma ? leader : warpZero);
    issueBlocks.insert(previous);
  }
  Block *then = cast<scf::IfOp>(previous).thenBlock();
  return OpBuilder::atBlockTerminator(then);
}

void TmaLowering::lowerCopy(CopyAsyncOp op, Value committed) {
  const CopyPlan &plan = plans.find(op)->second;
  Value descriptor = createDescriptor(plan);
  OpBuilder b = issueBefore(op);
  Location loc = op.getLoc();
  Value zero = constantIndex(b, loc, 0);
  // The tile's first element in its allocation (the version's offset).
  SharedAccess tile = composeSharedAccess(b, loc, op.getDest(), {zero, zero});
  auto bufferType = cast<MemRefType>(tile.buffer.getType());
  Value first = zero;
  int64_t stride = 1;
  for (int64_t d = bufferType.getRank() - 1; d >= 0; --d) {
    first = b.createOrFold<arith::AddIOp>(
        loc, first,
        b.createOrFold<arith::MulIOp>(loc, tile.indices[d],
                                      constantIndex(b, loc, stride)));
    stride *= bufferType.getDimSize(d);
  }
  Value slot = slotOf(b, loc, committed);
  // A copy the S blocks of a cluster (of the block's column or row of the
  // patch, or all N) make: the one at position p among them issues boxes p,
  // p + S, ... into the shared memory of all S (the mask of their ranks).
  // With fewer boxes than blocks some issue none: cutting the tiles into
  // one box per block instead made the seed's 3-stage kernel 2-5% slower on
  // an H200, with clusters of 4 in one column or 2 x 2 (docs/performance.md).
  Value mask, alone = issuePredicate();
  ArrayRef<Value> issuers(alone);
  if (cluster) {
    auto shared = cluster->sharers.find(op);
    if (shared != cluster->sharers.end()) {
      mask = clusterIssuers->getMask(b, loc, shared->second);
      issuers = clusterIssuers->getIssuers(shared->second);
    }
  }
  for (auto [i, box] : llvm::enumerate(plan.boxes)) {
    Value dst = tma::getBoxView(b, loc, tile.buffer, first, plan, box);
    nvgpu::TmaAsyncLoadOp::create(
        b, loc, dst, barriers, descriptor,
        tma::getBoxCoordinates(b, loc, op.getSourceIndices(), box), slot, mask,
        issuers[i % issuers.size()]);
  }
  op.erase();
}

/// Commits group `state.committed` right before `before`: thread 0's
/// arrival, in the issue code with the group's copies, completes the phase
/// once `bytes` have landed (at once for a group without copies), and the
/// counts move past the group.
void TmaLowering::commitGroup(Operation *before, Location loc, int64_t bytes,
                              GroupState &state) {
  OpBuilder issue = issueBefore(before);
  // Copies under a condition (planned with their commit): their bytes
  // where it holds, so that a group whose copies were all skipped completes
  // its phase on the arrival alone.
  SmallVector<std::pair<Value, int64_t>> guarded =
      conditionalBytes.lookup(before);
  Value expected =
      bytes || guarded.empty() ? constantIndex(issue, loc, bytes) : Value();
  for (auto [condition, some] : guarded) {
    Value all = constantIndex(issue, loc, some);
    Value none = constantIndex(issue, loc, 0);
    Value copied = arith::SelectOp::create(issue, loc, condition, all, none);
    expected =
        expected ? arith::AddIOp::create(issue, loc, expected, copied) : copied;
  }
  nvgpu::MBarrierArriveExpectTxOp::create(issue, loc, barriers, expected,
                                          slotOf(issue, loc, state.committed),
                                          issuePredicate());
  OpBuilder b(before);
  state.committed = b.createOrFold<arith::AddIOp>(loc, state.committed,
                                                  constantI32(b, loc, 1));
  if (state.outstanding)
    ++*state.outstanding;
}

/// Waits, in every thread, for group `group`: mbarrier group mod N to
/// complete phase group / N, that is, by parity.
void TmaLowering::waitForGroup(OpBuilder &b, Location loc, Value group) {
  Value round = arith::ShRUIOp::create(
      b, loc, group, constantI32(b, loc, llvm::Log2_64(numBarriers)));
  Value phase = arith::AndIOp::create(b, loc, round, constantI32(b, loc, 1));
  Value parity = arith::TruncIOp::create(b, loc, b.getI1Type(), phase);
  Value suspend = constantIndex(b, loc, kWaitSuspendNs);
  nvgpu::MBarrierTryWaitParityOp::create(b, loc, barriers, parity, suspend,
                                         slotOf(b, loc, group));
}

/// Whether `op` is the barrier right before a group's copies (the next op
/// in its block that copies, commits, waits or synchronizes is a copy) in
/// a kernel with split barriers. Its one job is then to keep the copies from
/// overwriting a buffer version that some thread still reads: no other
/// shared-memory write exists (hasGenericSharedWrites), and each thread
/// waits for a group's phase itself before it reads the group's data.
///
/// Only the first such barrier of a group splits: the id is the group's
/// (lowerBarrier), and a second split barrier before the same group would
/// arrive at that id twice, which a named barrier counts as two warps. So a
/// barrier after a copy of the group it precedes (directly, or in the
/// scf.if of guarded copies) stays CTA-wide. A copy's commit follows it in
/// its block with nothing between that holds groups but such guards (plan),
/// so those are the only places where a group's copies come before it.
bool TmaLowering::splitsBarrier(BarrierOp op) const {
  if (!isa_and_nonnull<CopyAsyncOp>(nextSyncOp(op)))
    return false;
  if (Operation *previous = previousSyncOp(op))
    return !isa<CopyAsyncOp>(previous) && !isGuardedCopies(previous);
  return !isGuardedCopies(op->getParentOp());
}

Operation *TmaLowering::previousSyncOp(Operation *op) const {
  for (Operation *prev = op->getPrevNode(); prev; prev = prev->getPrevNode())
    if (isSyncOp(prev))
      return prev;
  return nullptr;
}

bool TmaLowering::isSyncOp(Operation *op) const {
  return isa<CopyAsyncOp, CommitGroupOp, WaitGroupOp, BarrierOp,
             gpu::BarrierOp>(op) ||
         (op->getNumRegions() != 0 && containsGroupOps(op));
}

Operation *TmaLowering::nextSyncOp(Operation *op) const {
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode())
    if (isSyncOp(next))
      return next;
  return nullptr;
}

/// Whether every path from the ops in [begin, end) to a copy or a commit
/// passes a barrier first: a block barrier, or the cluster barrier that goes
/// before the first copy of a run in a clustered kernel
/// (clusterBarrierBefore). A commit arms an mbarrier, which must wait for
/// a barrier after the waits before it (plan). Waits pass. A loop guards
/// the path only where each iteration starts guarded, and may run no
/// iteration; an scf.if where both branches do.
PathEnd TmaLowering::scanPaths(Block::iterator begin,
                               Block::iterator end) const {
  for (Operation &op : llvm::make_range(begin, end)) {
    if (isa<BarrierOp, gpu::BarrierOp>(op))
      return PathEnd::Guarded;
    if (auto copy = dyn_cast<CopyAsyncOp>(op))
      return runStarts.contains(copy) ? PathEnd::Guarded : PathEnd::Unguarded;
    if (isa<CommitGroupOp>(op))
      return PathEnd::Unguarded;
    if (op.getNumRegions() == 0 || !containsGroupOps(&op))
      continue;
    if (!isa<scf::ForOp, scf::IfOp>(op))
      return PathEnd::Unguarded;
    for (Region &region : op.getRegions())
      if (!region.empty() &&
          scanPaths(region.front().begin(), region.front().end()) ==
              PathEnd::Unguarded)
        return PathEnd::Unguarded;
  }
  return PathEnd::FallsThrough;
}

/// A commit in `block` or nested in it that arms an mbarrier for the second
/// time or later (the ring has `numBarriers`) and that some path reaches
/// from a wait without passing a barrier (as scanPaths counts them), or
/// null. lowerIf adds empty commits at the end of the branch of an if that
/// leaves fewer groups in flight; for those the returned op is the if.
Operation *TmaLowering::findCommitAfterWait(Block &block,
                                            GroupPath &path) const {
  // Whether a commit with `index` groups before it (nullopt: unknown) arms a
  // barrier that an earlier group used.
  auto rearms = [&](std::optional<int64_t> index) {
    return !index || *index >= numBarriers;
  };
  for (Operation &op : block) {
    if (isa<BarrierOp, gpu::BarrierOp>(op) || runStarts.contains(&op)) {
      path.waited = false;
    } else if (auto wait = dyn_cast<WaitGroupOp>(op)) {
      path.waited = true;
      if (wait.getPending() == 0)
        path.open = 0;
      else if (path.open)
        path.open = std::min<int64_t>(*path.open, wait.getPending());
    } else if (isa<CommitGroupOp>(op)) {
      if (path.waited && rearms(path.commits))
        return &op;
      if (path.open)
        ++*path.open;
      if (path.commits)
        ++*path.commits;
    } else if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
      GroupPath branches[2] = {path, path};
      Block *blocks[2] = {ifOp.thenBlock(), ifOp.elseBlock()};
      for (int i = 0; i < 2; ++i)
        if (blocks[i])
          if (Operation *commit = findCommitAfterWait(*blocks[i], branches[i]))
            return commit;
      path.waited = branches[0].waited || branches[1].waited;
      path.open = std::nullopt;
      path.commits = std::nullopt;
      if (branches[0].open && branches[1].open) {
        path.open = std::max(*branches[0].open, *branches[1].open);
        for (GroupPath &branch : branches) {
          int64_t empty = *path.open - *branch.open;
          if (empty == 0)
            continue;
          if (branch.waited &&
              rearms(branch.commits ? std::optional(*branch.commits + empty - 1)
                                    : std::nullopt))
            return ifOp;
          if (branch.commits)
            *branch.commits += empty;
        }
      }
      if (branches[0].commits && branches[1].commits)
        path.commits = std::max(*branches[0].commits, *branches[1].commits);
    } else if (auto loop = dyn_cast<scf::ForOp>(op)) {
      // The count in flight is known inside where an iteration keeps it
      // (lowerFor); the count committed only in the first iteration, or
      // where the body commits nothing.
      if (path.open &&
          exactOutstanding(*loop.getBody(), path.open) != path.open)
        path.open = std::nullopt;
      bool commits =
          loop.getBody()
              ->walk([](CommitGroupOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
      // The first iteration starts as the loop does, a later one also as an
      // iteration ends; `waited` is one bit, so two passes see every start.
      GroupPath iteration = path;
      for (int pass = 0; pass < 2; ++pass) {
        GroupPath body = iteration;
        if (Operation *commit = findCommitAfterWait(*loop.getBody(), body))
          return commit;
        iteration.waited = body.waited || path.waited;
        if (commits)
          iteration.commits = std::nullopt;
      }
      path.waited = iteration.waited;
      if (commits)
        path.commits = std::nullopt;
    }
  }
  return nullptr;
}

/// Whether `barrier` does nothing that another barrier does not, in a
/// kernel whose shared memory only the TMA writes and whose global memory
/// only the TMA reads (plan: otherwise a barrier may order one thread's
/// write before another's read, and every barrier stays). Every thread waits
/// for a group's data on its mbarrier itself, so a barrier's one job is to
/// keep later copies from overwriting a buffer version that some thread
/// still reads, and a barrier that comes after it on every path to a copy
/// does that job as well. The paths run on past the end of a loop body to
/// the next iteration and past the loop, up to the kernel's end.
///
/// Such barriers: the one after a step's wait where the gemm's
/// wgmma.wait_group has one after it (scheduleWgmmaGemms); deleting it made
/// the 128x256x32 kernel with 256 threads 3% faster on an H200
/// (docs/performance.md). In an unpipelined loop, the one after the wait when
/// the next iteration's copies have their own; after the loop's waits for
/// the last groups (nothing copies after them); and, in a clustered kernel,
/// those before a run's cluster barrier, which orders every thread of the
/// cluster (relaxed: the reads it protects are done when a thread arrives).
/// In the seed's kernel in 2 x 2 clusters, deleting the loop's from the PTX
/// made the 1-stage kernel 1.2% and the 3-stage kernel 0.4% faster on an
/// H200 (docs/performance.md, "Barriers and fences around the cluster
/// barrier"); this rule with the fences gone too, 2.9% and 1.5% ("Guarded
/// barriers").
bool TmaLowering::isGuardedBarrier(Operation *barrier) const {
  for (Operation *from = barrier;;) {
    Block *block = from->getBlock();
    PathEnd next = scanPaths(std::next(from->getIterator()), block->end());
    if (next != PathEnd::FallsThrough)
      return next == PathEnd::Guarded;
    Operation *parent = block->getParentOp();
    if (parent == kernel)
      return true; // The kernel ends without another copy.
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      // The next iteration, up to `from` again (a barrier, or an op whose
      // paths fall through), then on past the loop.
      if (scanPaths(block->begin(), block->end()) == PathEnd::Unguarded)
        return false;
    } else if (!isa<scf::IfOp>(parent)) {
      return false;
    }
    from = parent;
  }
}

/// wgmma reads its operands through the async proxy, and the fence before
/// it (GemmToWgmma.cpp) orders that after cp.async's writes, which go
/// through the generic proxy. The TMA writes through the async proxy as
/// well, so where it writes all of shared memory the fence orders nothing
/// (ptxas makes it a MEMBAR.ALL.CTA and a FENCE.VIEW.ASYNC.S). Dropped in
/// kernels with more than one warpgroup, where that made every kernel
/// measured on an H200 0.2-3% faster, and in clustered kernels, where
/// deleting the loop's from the PTX made the seed's kernel in 2 x 2 clusters
/// 1.9% (1 stage) and 0.8% (3 stages) faster; in other kernels of one
/// warpgroup the effect ranged from 2% slower to 2% faster
/// (docs/performance.md).
void TmaLowering::dropAsyncProxyFences() {
  SmallVector<NVVM::FenceProxyOp> fences;
  kernel.walk([&](NVVM::FenceProxyOp fence) {
    if (fence.getKind() == NVVM::ProxyKind::async_shared &&
        isa_and_nonnull<NVVM::WgmmaFenceAlignedOp>(fence->getNextNode()))
      fences.push_back(fence);
  });
  for (NVVM::FenceProxyOp fence : fences)
    fence.erase();
}

/// The TMA writes shared memory through the async proxy, and a barrier
/// orders only the generic proxy's accesses: a generic write (st.shared) to
/// bytes that a copy later writes is ordered before that copy only by a
/// proxy fence in the writing thread ahead of the barrier (PTX ISA, memory
/// consistency model, "proxies"). Without one the cleared zeros may land
/// after the copied data. So each generic write to a tile that some copy
/// fills, or to shared memory of unknown origin, gets
/// fence.proxy.async.shared after it; after the outermost op around it that
/// holds no copy and no barrier, so that a loop of stores fences once.
/// Clustered kernels fence the cluster's window: the other blocks' multicast
/// boxes write this block's tiles.
void TmaLowering::fenceGenericWrites() {
  llvm::SmallPtrSet<Value, 8> filled;
  for (auto &entry : plans)
    filled.insert(
        getUnderlyingBuffer(cast<CopyAsyncOp>(entry.first).getDest()));
  auto mayBeFilled = [&](Value memref) {
    auto type = dyn_cast<MemRefType>(memref.getType());
    if (!type || getMemorySpace(type) != MemorySpace::Shared)
      return false;
    Value buffer = getUnderlyingBuffer(memref);
    return filled.contains(buffer) || !buffer.getDefiningOp<AllocSharedOp>();
  };
  auto holdsCopyOrBarrier = [](Operation *op) {
    return op
        ->walk([](Operation *nested) {
          return isa<CopyAsyncOp, BarrierOp, gpu::BarrierOp>(nested)
                     ? WalkResult::interrupt()
                     : WalkResult::advance();
        })
        .wasInterrupted();
  };
  llvm::SetVector<Operation *> fenceAfter;
  kernel.getBody().walk([&](Operation *op) {
    auto iface = dyn_cast<MemoryEffectOpInterface>(op);
    if (!iface || isa<CopyAsyncOp>(op))
      return;
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    if (llvm::none_of(effects, [&](const MemoryEffects::EffectInstance &e) {
          return isa<MemoryEffects::Write>(e.getEffect()) && e.getValue() &&
                 mayBeFilled(e.getValue());
        }))
      return;
    Operation *anchor = op;
    while (anchor->getParentOp() != kernel.getOperation() &&
           !holdsCopyOrBarrier(anchor->getParentOp()))
      anchor = anchor->getParentOp();
    fenceAfter.insert(anchor);
  });
  MLIRContext *ctx = kernel.getContext();
  auto space = cluster ? NVVM::SharedSpace::shared_cluster
                       : NVVM::SharedSpace::shared_cta;
  for (Operation *anchor : fenceAfter) {
    auto next = dyn_cast_or_null<NVVM::FenceProxyOp>(anchor->getNextNode());
    if (next && next.getKind() == NVVM::ProxyKind::async_shared)
      continue;
    OpBuilder b(anchor->getContext());
    b.setInsertionPointAfter(anchor);
    NVVM::FenceProxyOp::create(
        b, anchor->getLoc(),
        NVVM::ProxyKindAttr::get(ctx, NVVM::ProxyKind::async_shared),
        NVVM::SharedSpaceAttr::get(ctx, space));
  }
}

/// The barrier before group `committed`'s copies, split: warp 0, whose
/// thread 0 issues the copies right after, waits at named barrier
/// 1 + committed mod kSplitBarrierIds (`bar.sync`) until every thread has
/// arrived there; the other warps arrive (`bar.arrive`) and run on. A
/// CTA-wide bar.sync there holds every warp to the slowest one at every
/// pipeline step: deleting the loop's bar.sync (unsafe) made the 256x128x64
/// mma.sync kernel 4.6% faster on an H200 (docs/performance.md).
///
/// Why several ids: a warp that has arrived runs on and may arrive at the
/// next split barrier before warp 0 has waited at this one, and a named
/// barrier counts arrivals, not rounds. A warp arrives for group g + K only
/// after it waited for data that thread 0 issued after warp 0's wait for a
/// group past g, when K exceeds the groups in flight (`peak`, checked in
/// plan). mbarriers (every thread arrives, thread 0 waits) would need no
/// ids, but compute-sanitizer's synccheck reports an mbarrier arrival whose
/// previous phase the thread never waited for ("Missing wait"), and making
/// every thread wait for it cost the whole gain.
void TmaLowering::lowerBarrier(BarrierOp op, Value committed) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  Value ring = arith::AndIOp::create(b, loc, committed,
                                     constantI32(b, loc, kSplitBarrierIds - 1));
  Value id = arith::AddIOp::create(b, loc, ring, constantI32(b, loc, 1));
  Value threads = constantI32(b, loc, kernel.getThreads());
  auto branch = scf::IfOp::create(b, loc, TypeRange(), warpZero,
                                  /*withElseRegion=*/true);
  OpBuilder then = OpBuilder::atBlockTerminator(branch.thenBlock());
  NVVM::BarrierOp::create(then, loc, TypeRange(), id, threads,
                          /*reductionOp=*/nullptr,
                          /*reductionPredicate=*/Value());
  OpBuilder otherwise = OpBuilder::atBlockTerminator(branch.elseBlock());
  NVVM::BarrierArriveOp::create(otherwise, loc, id, threads);
  op.erase();
}

/// A barrier across the blocks of the cluster, for every thread:
/// `barrier.cluster.arrive.relaxed` and `barrier.cluster.wait`.
///
/// Relaxed: the barrier only has to order execution. Before the copies, the
/// reads it protects are complete when a thread arrives (wgmma's once
/// `wgmma.wait_group` retired them, ldmatrix's once the mma.sync that use
/// their registers issued), and the CTA's own shared-memory writes, if the
/// kernel makes any, keep their `bar.sync` (isGuardedBarrier). At the
/// start, `fence.mbarrier_init.release.cluster` publishes the mbarriers. An
/// arrival with release semantics (the default) cost the seed's 3-stage
/// kernels 40% on an H200 (docs/performance.md, "Clusters").
void TmaLowering::clusterBarrier(OpBuilder &b, Location loc) {
  NVVM::ClusterArriveRelaxedOp::create(b, loc, b.getUnitAttr());
  NVVM::ClusterWaitOp::create(b, loc, b.getUnitAttr());
}

/// In a clustered kernel, the copies of a group may write into the other
/// blocks' buffer version too, so every thread of the cluster must be done
/// reading it: a cluster barrier goes right before `op`, the first copy of a
/// run of copies (runStarts). It also bounds how far the blocks drift apart.
/// A block that issues no box of a shared copy (in a column of four, or
/// in a 2 x 2 patch) is never waited for by the blocks that do, and without
/// the barrier they run ahead until their boxes land in mbarrier slots whose
/// earlier phase it has not completed: on an H200 those kernels hang, where
/// clusters of two, whose blocks each issue a box, only compute wrong
/// results (docs/performance.md, "Barriers and fences around the cluster
/// barrier"). For the wgmma kernels, whose gemm moved in
/// front of the copies, that is after the gemm's `wgmma.wait_group`, which
/// retires the reads of the version the copies overwrite. The block barrier
/// before it goes (isGuardedBarrier), unless the kernel writes shared memory
/// or reads global memory itself: the relaxed cluster barrier orders no
/// memory accesses.
void TmaLowering::clusterBarrierBefore(CopyAsyncOp op) {
  OpBuilder b(op);
  clusterBarrier(b, op.getLoc());
}

void TmaLowering::lowerWait(OpBuilder &b, Location loc, int64_t pending,
                            GroupState &state) {
  // Every group up to committed - 1 - pending: those after the last one
  // waited for, in order.
  if (state.outstanding) {
    // As many as the count says (one per pipeline step, more after a
    // prologue or before the kernel ends), without a loop around them.
    int64_t retire = std::max<int64_t>(0, *state.outstanding - pending);
    for (int64_t i = 0; i < retire; ++i)
      waitForGroup(b, loc,
                   b.createOrFold<arith::AddIOp>(loc, state.waited,
                                                 constantI32(b, loc, i)));
    state.waited = b.createOrFold<arith::AddIOp>(loc, state.waited,
                                                 constantI32(b, loc, retire));
    state.outstanding = std::min(*state.outstanding, pending);
    return;
  }
  Type count = b.getI32Type();
  Value last = arith::SubIOp::create(b, loc, state.committed,
                                     constantI32(b, loc, pending + 1));
  auto loop =
      scf::WhileOp::create(b, loc, TypeRange{count}, ValueRange{state.waited});
  {
    Block *before = b.createBlock(&loop.getBefore(), {}, {count}, {loc});
    Value waited = before->getArgument(0);
    Value more =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, waited, last);
    scf::ConditionOp::create(b, loc, more, ValueRange{waited});
  }
  {
    Block *after = b.createBlock(&loop.getAfter(), {}, {count}, {loc});
    Value group = after->getArgument(0);
    waitForGroup(b, loc, group);
    Value next = arith::AddIOp::create(b, loc, group, constantI32(b, loc, 1));
    scf::YieldOp::create(b, loc, ValueRange{next});
  }
  b.setInsertionPointAfter(loop);
  state.waited = loop.getResult(0);
  if (pending == 0)
    state.outstanding = 0;
}

void TmaLowering::lowerFor(scf::ForOp loop, GroupState &state) {
  IRRewriter rewriter(loop.getContext());
  rewriter.setInsertionPoint(loop);
  // The counters enter as two more iter_args, yielded as they are for now.
  FailureOr<LoopLikeOpInterface> grown =
      cast<LoopLikeOpInterface>(loop.getOperation())
          .replaceWithAdditionalYields(
              rewriter, ValueRange{state.committed, state.waited},
              /*replaceInitOperandUsesInLoop=*/false,
              [](OpBuilder &, Location, ArrayRef<BlockArgument> args) {
                return SmallVector<Value>(args.begin(), args.end());
              });
  // scf.for's implementation cannot fail.
  assert(succeeded(grown) && "scf.for did not take more iter_args");
  auto newLoop = cast<scf::ForOp>(grown->getOperation());
  unsigned n = newLoop.getNumRegionIterArgs();
  // The count of groups in flight is known inside when the body keeps it.
  std::optional<int64_t> outstanding = state.outstanding;
  if (!outstanding ||
      exactOutstanding(*newLoop.getBody(), outstanding) != outstanding)
    outstanding = std::nullopt;
  GroupState inner{newLoop.getRegionIterArgs()[n - 2],
                   newLoop.getRegionIterArgs()[n - 1], outstanding};
  lowerBlock(*newLoop.getBody(), inner);
  Operation *yield = newLoop.getBody()->getTerminator();
  yield->setOperand(yield->getNumOperands() - 2, inner.committed);
  yield->setOperand(yield->getNumOperands() - 1, inner.waited);
  unsigned results = newLoop.getNumResults();
  state = {newLoop.getResult(results - 2), newLoop.getResult(results - 1),
           outstanding};
}

void TmaLowering::lowerIf(scf::IfOp ifOp, GroupState &state) {
  OpBuilder b(ifOp);
  Location loc = ifOp.getLoc();
  SmallVector<Type> types(ifOp.getResultTypes());
  types.append(2, b.getI32Type());
  auto newIf = scf::IfOp::create(b, loc, types, ifOp.getCondition(),
                                 /*addThenBlock=*/false,
                                 /*addElseBlock=*/false);
  newIf.getThenRegion().takeBody(ifOp.getThenRegion());
  if (!ifOp.getElseRegion().empty()) {
    newIf.getElseRegion().takeBody(ifOp.getElseRegion());
  } else {
    OpBuilder eb(b.getContext());
    eb.createBlock(&newIf.getElseRegion());
    scf::YieldOp::create(eb, loc);
  }
  GroupState branches[2] = {state, state};
  Region *regions[2] = {&newIf.getThenRegion(), &newIf.getElseRegion()};
  for (auto [region, branch] : llvm::zip(regions, branches))
    lowerBlock(region->front(), branch);
  // Where both counts are known but differ (a persistent loop prefetches the
  // next tile's first stages only if there is one), the branch with fewer
  // groups in flight commits empty ones until they match, so that the count
  // stays known after the if and the waits stay straight-line code. An empty
  // group completes at once; a later wait_group P that leaves it among the P
  // pending ones only waits for more real groups than it had to.
  std::optional<int64_t> outstanding;
  if (branches[0].outstanding && branches[1].outstanding) {
    outstanding = std::max(*branches[0].outstanding, *branches[1].outstanding);
    for (auto [region, branch] : llvm::zip(regions, branches))
      while (*branch.outstanding < *outstanding)
        commitGroup(region->front().getTerminator(), loc, /*bytes=*/0, branch);
  }
  for (auto [region, branch] : llvm::zip(regions, branches)) {
    Operation *yield = region->front().getTerminator();
    yield->insertOperands(yield->getNumOperands(),
                          ValueRange{branch.committed, branch.waited});
  }
  unsigned results = ifOp.getNumResults();
  ifOp.replaceAllUsesWith(newIf.getResults().take_front(results));
  ifOp.erase();
  state = {newIf.getResult(results), newIf.getResult(results + 1), outstanding};
}

void TmaLowering::lowerBlock(Block &block, GroupState &state) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (auto copy = dyn_cast<CopyAsyncOp>(op)) {
      if (runStarts.contains(copy))
        clusterBarrierBefore(copy);
      lowerCopy(copy, state.committed);
    } else if (auto barrier = dyn_cast<BarrierOp>(op);
               barrier && splitBarrierOps.contains(barrier)) {
      lowerBarrier(barrier, state.committed);
    } else if (auto commit = dyn_cast<CommitGroupOp>(op)) {
      commitGroup(commit, commit.getLoc(), groupBytes.lookup(commit), state);
      commit.erase();
    } else if (auto wait = dyn_cast<WaitGroupOp>(op)) {
      OpBuilder b(wait);
      lowerWait(b, wait.getLoc(), wait.getPending(), state);
      wait.erase();
    } else if (op.getNumRegions() != 0 && containsGroupOps(&op)) {
      if (auto loop = dyn_cast<scf::ForOp>(op))
        lowerFor(loop, state);
      else
        lowerIf(cast<scf::IfOp>(op), state);
    }
  }
}

void TmaLowering::rewrite() {
  for (Operation *barrier : guardedBarriers)
    barrier->erase();
  if (genericSharedWrites)
    fenceGenericWrites();
  if (splitBarriers)
    kernel.getBody().walk([&](BarrierOp barrier) {
      if (splitsBarrier(barrier))
        splitBarrierOps.insert(barrier);
    });
  Block &body = kernel.getBody().front();
  Location loc = kernel.getLoc();
  OpBuilder b(body.getParentOp()->getContext());
  b.setInsertionPointAfter(tid.getDefiningOp());
  leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                 constantIndex(b, loc, 0));
  warpZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, tid,
                                   constantIndex(b, loc, 32));
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  barriers = nvgpu::MBarrierCreateOp::create(
      b, loc,
      nvgpu::MBarrierGroupType::get(b.getContext(), workgroup, numBarriers));
  Value one = constantIndex(b, loc, 1);
  for (int64_t i = 0; i < numBarriers; ++i)
    nvgpu::MBarrierInitOp::create(b, loc, barriers, one,
                                  constantIndex(b, loc, i), leader);
  if (cluster) {
    clusterIssuers.emplace(b, loc, leader, *cluster, options.clusterSize);
    kernel->setAttr(
        kClusterDimsAttrName,
        b.getDenseI32ArrayAttr({int32_t(options.clusterSize), 1, 1}));
    kernel->setAttr(kClusterShapeAttrName,
                    b.getDenseI32ArrayAttr({int32_t(cluster->shape.rows),
                                            int32_t(cluster->shape.cols)}));
  }
  // The initialized barriers, visible to the TMA unit and to every thread
  // (of the cluster: the other blocks' copies signal them) before the first
  // copy or wait.
  NVVM::FenceMbarrierInitOp::create(b, loc);
  if (cluster)
    clusterBarrier(b, loc);
  else
    gpu::BarrierOp::create(b, loc);
  // Thread 0 fetches the tensor maps while the block starts. They are
  // kernel parameters (grid constants, see tile-tensormap-params), so no
  // proxy fence has to order them after a write of the host.
  llvm::SetVector<Value> maps;
  for (auto &entry : plans)
    maps.insert(createDescriptor(entry.second));
  for (Value map : maps)
    nvgpu::TmaPrefetchOp::create(b, loc, map, leader);
  Value zero = constantI32(b, loc, 0);
  GroupState state{zero, zero, /*outstanding=*/0};

  lowerBlock(body, state);

  // No copy may still write the block's shared memory when it exits, nor,
  // in a cluster, the other blocks'.
  OpBuilder end = OpBuilder::atBlockEnd(&body);
  lowerWait(end, loc, 0, state);
  if (cluster)
    clusterBarrier(end, loc);
  if ((wideWgmma || cluster) && !genericSharedWrites)
    dropAsyncProxyFences();
}

FailureOr<bool> mlir::tile::lowerAsyncCopiesToTma(KernelOp kernel, Value tid,
                                                  const TmaOptions &options) {
  // Clusters share the TMA's boxes: without TMA copies there is nothing to
  // share, and the request would otherwise vanish without a word.
  auto remarkUnclustered = [&](StringRef why) {
    if (options.clusterSize > 1)
      emitRemark(kernel.getLoc(), "blocks stay unclustered (cluster=")
          << options.clusterSize << "): " << why;
  };
  bool any = false;
  kernel.walk([&](CopyAsyncOp) { any = true; });
  if (!any) {
    remarkUnclustered("the kernel has no async copies (a pipelined loop "
                      "makes them) for the TMA to share");
    return false;
  }
  TmaLowering lowering(kernel, tid, options);
  Operation *culprit = nullptr;
  std::string why;
  if (failed(lowering.plan(culprit, why))) {
    culprit->emitRemark("async copies stay cp.async, not the TMA: ") << why;
    remarkUnclustered("its async copies stay cp.async, not the TMA");
    return false;
  }
  lowering.rewrite();
  return true;
}
