//===- AsyncCopyModel.cpp - Asynchronous copies land at their wait --------===//
//
// Part of tile-mlir. On the GPU the data of a `tile.copy_async` is only
// guaranteed in its tile once a `tile.wait_group N` has retired the commit
// group holding it (all but the N newest groups). Copying at once on the CPU
// would hide a missing wait or a count that is too large, so here a copy is
// only recorded where it is issued and performed by the first wait that
// retires its group; a copy that no wait retires never lands. Then a kernel
// that reads a tile before its copy's wait reads stale data on the CPU too.
//
// Each copy op gets a queue of pending instances: its group number and every
// index it needs (the source offsets, the destination offsets, and the index
// operands of the subviews that select the destination's buffer version).
// A wait replays the retired instances, in issue order, as `tile.copy` ops on
// subviews rebuilt from the recorded indices. Barriers still do nothing:
// there is one thread.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToCPU/TileToCPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/IRMapping.h"

#include <vector>

using namespace mlir;
using namespace mlir::tile;

/// Pending instances one copy op may have (recordCopy says what happens
/// beyond).
static constexpr int64_t kQueueCapacity = 64;

namespace {
/// One `tile.copy_async` and what replaying it needs.
struct ModelledCopy {
  /// The copy, until recordCopy replaces it, and its operands, which the
  /// replay uses after that.
  CopyAsyncOp op;
  Value source, dest;
  SmallVector<Value> sourceIndices, destIndices;
  /// The subviews from the shared tile to the destination, outermost first.
  SmallVector<memref::SubViewOp> chain;
  /// The index values recorded per instance, in queue-column order (after
  /// the group number in column 0).
  SmallVector<Value> recorded;
  /// memref<kQueueCapacity x (1 + recorded) x index>.
  Value queue;
  /// Position of this queue's length in the kernel's state buffer.
  int64_t countSlot = 0;
};
} // namespace

/// Fills `copy.chain` and `copy.recorded`; fails where the destination is not
/// a (subview of a) shared tile allocated where every wait sees it, or the
/// source is not visible at every wait.
static LogicalResult analyze(ModelledCopy &copy, ArrayRef<WaitGroupOp> waits,
                             DominanceInfo &dominance) {
  Value value = copy.op.getDest();
  while (auto view = value.getDefiningOp<memref::SubViewOp>()) {
    copy.chain.push_back(view);
    value = view.getSource();
  }
  if (!value.getDefiningOp<AllocSharedOp>())
    return failure();
  for (WaitGroupOp wait : waits)
    if (!dominance.properlyDominates(value, wait) ||
        !dominance.properlyDominates(copy.op.getSource(), wait))
      return failure();
  std::reverse(copy.chain.begin(), copy.chain.end());
  copy.source = copy.op.getSource();
  copy.dest = copy.op.getDest();
  llvm::append_range(copy.sourceIndices, copy.op.getSourceIndices());
  llvm::append_range(copy.destIndices, copy.op.getDestIndices());
  llvm::append_range(copy.recorded, copy.sourceIndices);
  llvm::append_range(copy.recorded, copy.destIndices);
  for (memref::SubViewOp view : copy.chain)
    for (Value operand : view->getOperands())
      if (operand != view.getSource())
        copy.recorded.push_back(operand);
  return success();
}

static Value constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// At `wait`: performs, in issue order, every recorded instance of `copy`
/// whose group is older than `threshold`, and keeps the others queued.
static void replayRetired(OpBuilder &b, Location loc, ModelledCopy &copy,
                          Value state, Value threshold) {
  Value slot = constant(b, loc, copy.countSlot);
  Value count = memref::LoadOp::create(b, loc, state, slot);
  Value zero = constant(b, loc, 0), one = constant(b, loc, 1);
  int64_t columns = 1 + copy.recorded.size();
  auto loop = scf::ForOp::create(
      b, loc, zero, count, one, ValueRange{zero},
      [&](OpBuilder &b, Location loc, Value entry, ValueRange args) {
        Value kept = args[0];
        Value group =
            memref::LoadOp::create(b, loc, copy.queue, ValueRange{entry, zero});
        Value retired = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                              group, threshold);
        auto branch = scf::IfOp::create(
            b, loc, retired,
            [&](OpBuilder &b, Location loc) {
              IRMapping mapping;
              for (auto [i, value] : llvm::enumerate(copy.recorded))
                mapping.map(value,
                            memref::LoadOp::create(
                                b, loc, copy.queue,
                                ValueRange{entry, constant(b, loc, i + 1)}));
              for (memref::SubViewOp view : copy.chain)
                b.clone(*view, mapping);
              auto lookup = [&](ValueRange values) {
                return llvm::map_to_vector(
                    values, [&](Value v) { return mapping.lookup(v); });
              };
              CopyOp::create(b, loc, copy.source, lookup(copy.sourceIndices),
                             mapping.lookupOrDefault(copy.dest),
                             lookup(copy.destIndices));
              scf::YieldOp::create(b, loc, kept);
            },
            [&](OpBuilder &b, Location loc) {
              for (int64_t column = 0; column < columns; ++column) {
                Value c = constant(b, loc, column);
                Value v = memref::LoadOp::create(b, loc, copy.queue,
                                                 ValueRange{entry, c});
                memref::StoreOp::create(b, loc, v, copy.queue,
                                        ValueRange{kept, c});
              }
              scf::YieldOp::create(
                  b, loc, ValueRange{arith::AddIOp::create(b, loc, kept, one)});
            });
        scf::YieldOp::create(b, loc, branch.getResults());
      });
  memref::StoreOp::create(b, loc, loop.getResult(0), state, slot);
}

/// Records an instance of `copy` where it is issued, in place of the copy.
/// A full queue (a kernel that keeps issuing copies of one op without
/// waiting) first lands all its pending copies: a GPU may complete a copy
/// any time before its wait, so that is one of the allowed behaviours, only
/// a less adversarial one.
static void recordCopy(OpBuilder &b, ModelledCopy &copy, Value state) {
  Location loc = copy.op.getLoc();
  b.setInsertionPoint(copy.op);
  Value slot = constant(b, loc, copy.countSlot);
  Value zero = constant(b, loc, 0);
  Value full =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                            memref::LoadOp::create(b, loc, state, slot),
                            constant(b, loc, kQueueCapacity));
  scf::IfOp::create(b, loc, full, [&](OpBuilder &b, Location loc) {
    Value groups = memref::LoadOp::create(b, loc, state, zero);
    Value all = arith::AddIOp::create(b, loc, groups, constant(b, loc, 1));
    replayRetired(b, loc, copy, state, all);
    scf::YieldOp::create(b, loc);
  });
  Value count = memref::LoadOp::create(b, loc, state, slot);
  Value group = memref::LoadOp::create(b, loc, state, zero);
  memref::StoreOp::create(b, loc, group, copy.queue, ValueRange{count, zero});
  for (auto [i, value] : llvm::enumerate(copy.recorded))
    memref::StoreOp::create(b, loc, value, copy.queue,
                            ValueRange{count, constant(b, loc, i + 1)});
  Value next = arith::AddIOp::create(b, loc, count, constant(b, loc, 1));
  memref::StoreOp::create(b, loc, next, state, slot);
  copy.op.erase();
}

void mlir::tile::modelAsyncCopies(KernelOp kernel) {
  SmallVector<CopyAsyncOp> asyncCopies;
  SmallVector<WaitGroupOp> waits;
  SmallVector<CommitGroupOp> commits;
  kernel.walk([&](Operation *op) {
    if (auto copy = dyn_cast<CopyAsyncOp>(op))
      asyncCopies.push_back(copy);
    else if (auto wait = dyn_cast<WaitGroupOp>(op))
      waits.push_back(wait);
    else if (auto commit = dyn_cast<CommitGroupOp>(op))
      commits.push_back(commit);
  });
  DominanceInfo dominance(kernel);
  std::vector<ModelledCopy> copies;
  for (CopyAsyncOp op : asyncCopies) {
    ModelledCopy copy;
    copy.op = op;
    // A copy the model cannot replay lands at once, as before.
    if (succeeded(analyze(copy, waits, dominance)))
      copies.push_back(std::move(copy));
  }
  if (copies.empty())
    return;

  // The state, freed with the thread block: [committed groups, one queue
  // length per copy op].
  Block &body = kernel.getBody().front();
  Location loc = kernel.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  Type index = b.getIndexType();
  auto stateType = MemRefType::get({1 + (int64_t)copies.size()}, index);
  Value state = memref::AllocOp::create(b, loc, stateType);
  SmallVector<Value> buffers{state};
  for (int64_t i = 0, e = stateType.getDimSize(0); i < e; ++i)
    memref::StoreOp::create(b, loc, constant(b, loc, 0), state,
                            constant(b, loc, i));
  for (auto [i, copy] : llvm::enumerate(copies)) {
    copy.countSlot = i + 1;
    auto queueType = MemRefType::get(
        {kQueueCapacity, 1 + (int64_t)copy.recorded.size()}, index);
    copy.queue = memref::AllocOp::create(b, loc, queueType);
    buffers.push_back(copy.queue);
  }
  b.setInsertionPointToEnd(&body);
  for (Value buffer : buffers)
    memref::DeallocOp::create(b, loc, buffer);

  for (ModelledCopy &copy : copies)
    recordCopy(b, copy, state);
  for (CommitGroupOp commit : commits) {
    b.setInsertionPoint(commit);
    Location loc = commit.getLoc();
    Value zero = constant(b, loc, 0);
    Value groups = memref::LoadOp::create(b, loc, state, zero);
    memref::StoreOp::create(
        b, loc, arith::AddIOp::create(b, loc, groups, constant(b, loc, 1)),
        state, zero);
    commit.erase();
  }
  for (WaitGroupOp wait : waits) {
    b.setInsertionPoint(wait);
    Location loc = wait.getLoc();
    Value groups = memref::LoadOp::create(b, loc, state, constant(b, loc, 0));
    Value threshold = arith::SubIOp::create(
        b, loc, groups, constant(b, loc, wait.getPending()));
    for (ModelledCopy &copy : copies)
      replayRetired(b, loc, copy, state, threshold);
    wait.erase();
  }
}
