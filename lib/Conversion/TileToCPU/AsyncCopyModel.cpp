//===- AsyncCopyModel.cpp - Asynchronous copies land at their wait --------===//
//
// Part of tile-mlir. On the GPU the data of a `tile.copy_async` is only
// guaranteed in its tile once a `tile.wait_group N` has retired the commit
// group holding it (all but the N newest groups). Copying at once on the CPU
// would hide a missing wait or a count that is too large, so here a copy is
// only recorded where it is issued and performed by the first wait that
// retires its group; a copy that no wait retires never lands. Where it is
// issued, the copy stores NaN (poisonCopyDestination) into every element it
// will write: until the wait, a GPU may have written any of them or none. So
// a kernel that reads a tile between a copy and its wait reads NaN on the
// CPU, whether the read is late (the copy's own data, waited for too little)
// or early (the previous contents, which a copy into a buffer version still
// in use overwrites: too few versions, or a copy issued too soon). Where it
// lands, an element that no longer holds that NaN was written by another op
// while the copy was in flight, a race with the copy, and gets NaN again
// (landCopy). So does an element whose source changed while the copy was in
// flight: a GPU may read the source any time before the wait, barriers or
// not, so the copy may carry the old value or the new one.
//
// Copy ops keep queues of pending instances: an instance's group number and
// every index it needs (the source offsets, the destination offsets, and the
// index operands of the subviews on either side: those that select the
// destination's buffer version, or a view of the tensor made in the loop;
// casts on the way are rebuilt as they are). A wait replays the retired
// instances, queue by queue and in issue order within a queue, as
// `tile.copy` ops on subviews rebuilt from the recorded indices; a wait that
// runs before a copy in the kernel body (before its tile is even allocated,
// say) skips that copy's queue. Barriers still do nothing: there is one
// thread.
//
// Copy ops that differ only in those indices share a queue: the software
// pipeline clones each copy once per prologue, steady-state and epilogue
// step, and every wait replays every queue, so one queue per op would make
// the code grow with the square of the depth (a 64-stage GEMM: 29 MB of IR).
// With shared queues it grows linearly.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToCPU/TileToCPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Dominance.h"

#include <vector>

using namespace mlir;
using namespace mlir::tile;

/// Pending instances one copy op may have (recordCopy says what happens
/// beyond).
static constexpr int64_t kQueueCapacity = 64;

namespace {
/// A copy's source or destination: a memref reached from `root` through the
/// subviews and casts `views` (outermost first). The replay rebuilds the
/// views from recorded index operands, so a view made inside a loop, which a
/// later wait cannot see, is replayed too.
struct ViewChain {
  Value root, value;
  SmallVector<Operation *> views;

  static ViewChain trace(Value value) {
    ViewChain chain{value, value, {}};
    chain.root = getViewRoot(value, &chain.views);
    std::reverse(chain.views.begin(), chain.views.end());
    return chain;
  }

  /// The operands a replay records: a subview's operands after its source
  /// are its index operands (a cast has none).
  void appendRecorded(SmallVectorImpl<Value> &recorded) const {
    for (Operation *view : views)
      llvm::append_range(recorded, view->getOperands().drop_front());
  }

  /// Whether `other` is this chain but for the index operands.
  bool isAlike(const ViewChain &other) const {
    if (root != other.root || views.size() != other.views.size() ||
        value.getType() != other.value.getType())
      return false;
    return llvm::all_of(llvm::zip(views, other.views), [](auto pair) {
      Operation *x = std::get<0>(pair), *y = std::get<1>(pair);
      return x->getName() == y->getName() &&
             x->getAttrDictionary() == y->getAttrDictionary() &&
             x->getResultTypes() == y->getResultTypes() &&
             x->getNumOperands() == y->getNumOperands();
    });
  }

  /// The views rebuilt at `b`'s point on the index operands `take` gives.
  Value rebuild(OpBuilder &b,
                function_ref<ArrayRef<Value>(size_t)> take) const {
    Value result = root;
    for (Operation *view : views) {
      Operation *clone = b.clone(*view);
      clone->setOperand(0, result);
      for (auto [i, operand] :
           llvm::enumerate(take(clone->getNumOperands() - 1)))
        clone->setOperand(i + 1, operand);
      result = clone->getResult(0);
    }
    return result;
  }
};

/// One `tile.copy_async` and what replaying it needs.
struct ModelledCopy {
  /// The copy, until recordCopy replaces it, and its operands, which the
  /// replay uses after that.
  CopyAsyncOp op;
  /// Its discardable attributes, which the replay carries (the barrier
  /// check's op number, say).
  DictionaryAttr attributes;
  ViewChain source, dest;
  SmallVector<Value> sourceIndices, destIndices;
  SmallVector<int64_t> extent;
  /// The waits that the tile or the source tensor does not dominate. They
  /// run before the copy (analyze), so they never retire it, and the replay,
  /// which uses both, is left out there.
  llvm::SmallPtrSet<Operation *, 4> before;
  /// The index values recorded per instance, in queue-column order (after
  /// the group number in column 0).
  SmallVector<Value> recorded;
  /// The queue this copy records into.
  int64_t queueIndex = 0;
};

/// The pending instances of the copy ops that share a queue.
struct CopyQueue {
  /// The first of those copy ops: the replay rebuilds its subviews and copy
  /// from the recorded indices, which is right for all of them.
  ModelledCopy *pattern;
  /// memref<kQueueCapacity x (1 + recorded) x index>.
  Value queue;
  /// memref<extent x i1>: which elements of the instance a wait lands still
  /// held the poison of its issue and read a source that did not change
  /// since (landCopy).
  Value untouched;
  /// memref<kQueueCapacity x extent x source element>: what the source held
  /// for each pending instance where it was issued.
  Value issuedSource;
  /// memref<kQueueCapacity x extent x i1>: the elements of each pending
  /// instance that another write reached while it was in flight, as seen by
  /// a wait before its own (poisonPending).
  Value raced;
  /// Position of this queue's length in the kernel's state buffer.
  int64_t countSlot = 0;
};
} // namespace

/// Whether `wait` runs before `copy` in every execution of the kernel body
/// `body`: its op in the body comes before the copy's.
static bool runsBefore(WaitGroupOp wait, CopyAsyncOp copy, Block &body) {
  Operation *w = body.findAncestorOpInBlock(*wait);
  Operation *c = body.findAncestorOpInBlock(*copy);
  return w && c && w != c && w->isBeforeInBlock(c);
}

/// Whether `root` is one value for the whole run of the kernel body `body`:
/// defined outside the kernel or at the body's top level. One defined in a
/// loop (a memref.view or reinterpret_cast made there, an iter_arg) is
/// another value in each iteration, and a wait in a later iteration would
/// replay an earlier iteration's copy through the current one.
static bool isFixedInBody(Value root, Block &body) {
  return root.getParentBlock() == &body ||
         !body.getParent()->isAncestor(root.getParentRegion());
}

/// Fills `copy`'s chains, `copy.recorded` and `copy.before`; fails where the
/// destination is not a shared tile (or subviews and casts of one), where
/// the tile or the tensor (or view) that the source's views start from is
/// not one value for the whole kernel body, or where a wait that may run
/// after the copy does not see them.
static LogicalResult analyze(ModelledCopy &copy, ArrayRef<WaitGroupOp> waits,
                             DominanceInfo &dominance, Block &body) {
  copy.source = ViewChain::trace(copy.op.getSource());
  copy.dest = ViewChain::trace(copy.op.getDest());
  if (!copy.dest.root.getDefiningOp<AllocSharedOp>() ||
      !isFixedInBody(copy.dest.root, body) ||
      !isFixedInBody(copy.source.root, body))
    return failure();
  for (WaitGroupOp wait : waits) {
    if (dominance.properlyDominates(copy.dest.root, wait) &&
        dominance.properlyDominates(copy.source.root, wait))
      continue;
    if (!runsBefore(wait, copy.op, body))
      return failure();
    copy.before.insert(wait);
  }
  copy.extent = copy.op.getExtent();
  llvm::append_range(copy.sourceIndices, copy.op.getSourceIndices());
  llvm::append_range(copy.destIndices, copy.op.getDestIndices());
  llvm::append_range(copy.recorded, copy.sourceIndices);
  llvm::append_range(copy.recorded, copy.destIndices);
  copy.source.appendRecorded(copy.recorded);
  copy.dest.appendRecorded(copy.recorded);
  return success();
}

/// Whether replaying `a` with the indices recorded for `b` performs `b`: the
/// same tensor, the same shared tile, subviews and casts that differ at most
/// in their index operands, and the same discardable attributes (which the
/// replay carries: the barrier check's op number).
static bool replaysAlike(const ModelledCopy &a, const ModelledCopy &b) {
  return a.attributes == b.attributes &&
         a.recorded.size() == b.recorded.size() &&
         a.sourceIndices.size() == b.sourceIndices.size() &&
         a.source.isAlike(b.source) && a.dest.isAlike(b.dest);
}

static Value constant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

namespace {
/// One recorded instance of a queue's copies, rebuilt where it is replayed:
/// the pattern's source with the recorded offsets, and its destination
/// through subviews and casts rebuilt from the recorded indices.
struct ReplayedCopy {
  SmallVector<Value> sourceIndices, destIndices;
  Value source, dest;
};
} // namespace

static ReplayedCopy rebuild(OpBuilder &b, Location loc, const CopyQueue &queue,
                            Value entry) {
  ModelledCopy &copy = *queue.pattern;
  // By position, not by value: copies that share the queue may record one
  // value where the pattern records two.
  SmallVector<Value> values;
  for (int64_t column = 1, e = 1 + copy.recorded.size(); column < e; ++column)
    values.push_back(memref::LoadOp::create(
        b, loc, queue.queue, ValueRange{entry, constant(b, loc, column)}));
  ArrayRef<Value> rest = values;
  auto take = [&](size_t n) {
    ArrayRef<Value> taken = rest.take_front(n);
    rest = rest.drop_front(n);
    return taken;
  };
  ReplayedCopy replayed;
  llvm::append_range(replayed.sourceIndices, take(copy.sourceIndices.size()));
  llvm::append_range(replayed.destIndices, take(copy.destIndices.size()));
  replayed.source = copy.source.rebuild(b, take);
  replayed.dest = copy.dest.rebuild(b, take);
  return replayed;
}

/// Whether `x` and `y`, of one type, are the same bits (NaN included).
static Value sameBits(OpBuilder &b, Location loc, Value x, Value y) {
  if (auto type = dyn_cast<FloatType>(x.getType())) {
    Type bits = b.getIntegerType(type.getWidth());
    x = arith::BitcastOp::create(b, loc, bits, x);
    y = arith::BitcastOp::create(b, loc, bits, y);
  }
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
}

/// Not `flag` (an i1).
static Value negate(OpBuilder &b, Location loc, Value flag) {
  Value one = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
  return arith::XOrIOp::create(b, loc, flag, one);
}

/// `entry`, then `position`: an index into a queue's `issuedSource`.
static SmallVector<Value> issuedAt(Value entry, ValueRange position) {
  SmallVector<Value> indices{entry};
  llvm::append_range(indices, position);
  return indices;
}

/// Performs `replayed`, the instance of `queue`'s copies in its queue's row
/// `entry`, as a `tile.copy`; but an element that no longer holds the poison
/// stored where the copy was issued, which another op wrote while the copy
/// was in flight (on the GPU, a race with the copy: either may land last),
/// gets the poison again. So does an element that two copies in flight
/// write, and one whose source another op wrote while the copy was in
/// flight (the copy may have read it before or after).
static void landCopy(OpBuilder &b, Location loc, const CopyQueue &queue,
                     const ReplayedCopy &replayed, Value entry) {
  ArrayRef<int64_t> extent = queue.pattern->extent;
  auto forEach =
      [&](function_ref<void(OpBuilder &, Location, const CopiedElement &)>
              body) {
        forEachCopiedElement(b, loc, extent, replayed.source,
                             replayed.sourceIndices, replayed.dest,
                             replayed.destIndices, body);
      };
  forEach([&](OpBuilder &b, Location loc, const CopiedElement &element) {
    Value value =
        memref::LoadOp::create(b, loc, replayed.dest, element.destIndices);
    Value issued = memref::LoadOp::create(b, loc, queue.issuedSource,
                                          issuedAt(entry, element.position));
    Value now = loadCopiedElement(b, loc, replayed.source, element);
    Value poisoned = isPoison(b, loc, value);
    Value sourceKept = sameBits(b, loc, issued, now);
    Value untouched = arith::AndIOp::create(b, loc, poisoned, sourceKept);
    Value raced = memref::LoadOp::create(b, loc, queue.raced,
                                         issuedAt(entry, element.position));
    untouched = arith::AndIOp::create(b, loc, untouched, negate(b, loc, raced));
    memref::StoreOp::create(b, loc, untouched, queue.untouched,
                            element.position);
  });
  CopyOp landed =
      CopyOp::create(b, loc, replayed.source, replayed.sourceIndices,
                     replayed.dest, replayed.destIndices);
  landed->setDiscardableAttrs(queue.pattern->attributes);
  Type type = cast<MemRefType>(replayed.dest.getType()).getElementType();
  forEach([&](OpBuilder &b, Location loc, const CopiedElement &element) {
    Value untouched =
        memref::LoadOp::create(b, loc, queue.untouched, element.position);
    Value raced = negate(b, loc, untouched);
    scf::IfOp::create(b, loc, raced, [&](OpBuilder &b, Location loc) {
      Value poison = arith::ConstantOp::create(b, loc, getPoison(b, type));
      memref::StoreOp::create(b, loc, poison, replayed.dest,
                              element.destIndices);
      scf::YieldOp::create(b, loc);
    });
  });
}

/// At a wait: performs, in issue order, every recorded instance in `queue`
/// whose group is older than `threshold`, and keeps the others queued.
static void replayRetired(OpBuilder &b, Location loc, const CopyQueue &queue,
                          Value state, Value threshold) {
  ModelledCopy &copy = *queue.pattern;
  Value slot = constant(b, loc, queue.countSlot);
  Value count = memref::LoadOp::create(b, loc, state, slot);
  Value zero = constant(b, loc, 0), one = constant(b, loc, 1);
  int64_t columns = 1 + copy.recorded.size();
  auto loop = scf::ForOp::create(
      b, loc, zero, count, one, ValueRange{zero},
      [&](OpBuilder &b, Location loc, Value entry, ValueRange args) {
        Value kept = args[0];
        Value group = memref::LoadOp::create(b, loc, queue.queue,
                                             ValueRange{entry, zero});
        Value retired = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                              group, threshold);
        auto branch = scf::IfOp::create(
            b, loc, retired,
            [&](OpBuilder &b, Location loc) {
              landCopy(b, loc, queue, rebuild(b, loc, queue, entry), entry);
              scf::YieldOp::create(b, loc, kept);
            },
            [&](OpBuilder &b, Location loc) {
              for (int64_t column = 0; column < columns; ++column) {
                Value c = constant(b, loc, column);
                Value v = memref::LoadOp::create(b, loc, queue.queue,
                                                 ValueRange{entry, c});
                memref::StoreOp::create(b, loc, v, queue.queue,
                                        ValueRange{kept, c});
              }
              SmallVector<Value> lbs(copy.extent.size(), zero),
                  steps(copy.extent.size(), one), ubs;
              for (int64_t size : copy.extent)
                ubs.push_back(constant(b, loc, size));
              scf::buildLoopNest(
                  b, loc, lbs, ubs, steps,
                  [&](OpBuilder &b, Location loc, ValueRange position) {
                    for (Value buffer : {queue.issuedSource, queue.raced}) {
                      Value v = memref::LoadOp::create(
                          b, loc, buffer, issuedAt(entry, position));
                      memref::StoreOp::create(b, loc, v, buffer,
                                              issuedAt(kept, position));
                    }
                  });
              scf::YieldOp::create(
                  b, loc, ValueRange{arith::AddIOp::create(b, loc, kept, one)});
            });
        scf::YieldOp::create(b, loc, branch.getResults());
      });
  memref::StoreOp::create(b, loc, loop.getResult(0), state, slot);
}

/// Marks the elements of `queue`'s pending instance `entry` (`replayed`)
/// that no longer hold the NaN of its issue as raced.
static void markRaced(OpBuilder &b, Location loc, const CopyQueue &queue,
                      const ReplayedCopy &replayed, Value entry) {
  forEachCopiedElement(
      b, loc, queue.pattern->extent, replayed.source, replayed.sourceIndices,
      replayed.dest, replayed.destIndices,
      [&](OpBuilder &b, Location loc, const CopiedElement &element) {
        Value value =
            memref::LoadOp::create(b, loc, replayed.dest, element.destIndices);
        Value written = negate(b, loc, isPoison(b, loc, value));
        SmallVector<Value> at = issuedAt(entry, element.position);
        Value raced = memref::LoadOp::create(b, loc, queue.raced, at);
        memref::StoreOp::create(b, loc,
                                arith::OrIOp::create(b, loc, raced, written),
                                queue.raced, at);
      });
}

/// At a wait, after the retired copies of every queue landed: stores NaN
/// again where the instances still in `queue` will write. A copy still in
/// flight into elements that an older one just wrote may land before or
/// after it on a GPU, so those elements hold neither copy's data for sure
/// (a kernel with too few buffer versions does this): an element that no
/// longer holds NaN, which that copy or another op wrote, is marked raced,
/// and the instance lands NaN there (landCopy).
static void poisonPending(OpBuilder &b, Location loc, const CopyQueue &queue,
                          Value state) {
  Value count =
      memref::LoadOp::create(b, loc, state, constant(b, loc, queue.countSlot));
  Value zero = constant(b, loc, 0), one = constant(b, loc, 1);
  scf::ForOp::create(b, loc, zero, count, one, ValueRange{},
                     [&](OpBuilder &b, Location loc, Value entry, ValueRange) {
                       ReplayedCopy replayed = rebuild(b, loc, queue, entry);
                       markRaced(b, loc, queue, replayed, entry);
                       poisonCopyDestination(b, loc, queue.pattern->extent,
                                             replayed.dest,
                                             replayed.destIndices);
                       scf::YieldOp::create(b, loc);
                     });
}

/// Records an instance of `copy` in `queue` where it is issued, in place of
/// the copy. A full queue (a kernel that keeps issuing copies without
/// waiting) first lands all its pending copies: a GPU may complete a copy
/// any time before its wait, so that is one of the allowed behaviours, only
/// a less adversarial one.
static void recordCopy(OpBuilder &b, ModelledCopy &copy, const CopyQueue &queue,
                       Value state) {
  Location loc = copy.op.getLoc();
  b.setInsertionPoint(copy.op);
  Value slot = constant(b, loc, queue.countSlot);
  Value zero = constant(b, loc, 0);
  Value queued = memref::LoadOp::create(b, loc, state, slot);
  Value capacity = constant(b, loc, kQueueCapacity);
  Value full = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, queued,
                                     capacity);
  scf::IfOp::create(b, loc, full, [&](OpBuilder &b, Location loc) {
    Value groups = memref::LoadOp::create(b, loc, state, zero);
    Value all = arith::AddIOp::create(b, loc, groups, constant(b, loc, 1));
    replayRetired(b, loc, queue, state, all);
    scf::YieldOp::create(b, loc);
  });
  Value count = memref::LoadOp::create(b, loc, state, slot);
  Value group = memref::LoadOp::create(b, loc, state, zero);
  memref::StoreOp::create(b, loc, group, queue.queue, ValueRange{count, zero});
  for (auto [i, value] : llvm::enumerate(copy.recorded))
    memref::StoreOp::create(b, loc, value, queue.queue,
                            ValueRange{count, constant(b, loc, i + 1)});
  Value next = arith::AddIOp::create(b, loc, count, constant(b, loc, 1));
  memref::StoreOp::create(b, loc, next, state, slot);
  forEachCopiedElement(
      b, loc, copy.extent, copy.source.value, copy.sourceIndices,
      copy.dest.value, copy.destIndices,
      [&](OpBuilder &b, Location loc, const CopiedElement &element) {
        Value value = loadCopiedElement(b, loc, copy.source.value, element);
        memref::StoreOp::create(b, loc, value, queue.issuedSource,
                                issuedAt(count, element.position));
        memref::StoreOp::create(
            b, loc, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0),
            queue.raced, issuedAt(count, element.position));
      });
  poisonCopyDestination(b, loc, copy.extent, copy.dest.value, copy.destIndices);
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
    copy.attributes = op->getDiscardableAttrDictionary();
    // A copy the model cannot replay lands at once, as before.
    if (succeeded(analyze(copy, waits, dominance, kernel.getBody().front())))
      copies.push_back(std::move(copy));
  }
  if (copies.empty())
    return;
  SmallVector<CopyQueue> queues;
  for (ModelledCopy &copy : copies) {
    auto *shared = llvm::find_if(queues, [&](const CopyQueue &queue) {
      return replaysAlike(*queue.pattern, copy);
    });
    copy.queueIndex = shared - queues.begin();
    if (shared == queues.end())
      queues.push_back(CopyQueue{&copy});
  }

  // The state, freed with the thread block: [committed groups, one length
  // per queue].
  Block &body = kernel.getBody().front();
  Location loc = kernel.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  Type index = b.getIndexType();
  auto stateType = MemRefType::get({1 + (int64_t)queues.size()}, index);
  Value state = memref::AllocOp::create(b, loc, stateType);
  SmallVector<Value> buffers{state};
  for (int64_t i = 0, e = stateType.getDimSize(0); i < e; ++i) {
    Value initial = constant(b, loc, 0);
    memref::StoreOp::create(b, loc, initial, state, constant(b, loc, i));
  }
  for (auto [i, queue] : llvm::enumerate(queues)) {
    queue.countSlot = i + 1;
    auto queueType = MemRefType::get(
        {kQueueCapacity, 1 + (int64_t)queue.pattern->recorded.size()}, index);
    queue.queue = memref::AllocOp::create(b, loc, queueType);
    queue.untouched = memref::AllocOp::create(
        b, loc, MemRefType::get(queue.pattern->extent, b.getI1Type()));
    SmallVector<int64_t> issuedShape{kQueueCapacity};
    llvm::append_range(issuedShape, queue.pattern->extent);
    queue.issuedSource = memref::AllocOp::create(
        b, loc,
        MemRefType::get(issuedShape,
                        cast<MemRefType>(queue.pattern->source.value.getType())
                            .getElementType()));
    queue.raced = memref::AllocOp::create(
        b, loc, MemRefType::get(issuedShape, b.getI1Type()));
    buffers.push_back(queue.queue);
    buffers.push_back(queue.untouched);
    buffers.push_back(queue.issuedSource);
    buffers.push_back(queue.raced);
  }
  b.setInsertionPointToEnd(&body);
  for (Value buffer : buffers)
    memref::DeallocOp::create(b, loc, buffer);

  for (ModelledCopy &copy : copies)
    recordCopy(b, copy, queues[copy.queueIndex], state);
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
    for (const CopyQueue &queue : queues)
      if (!queue.pattern->before.contains(wait))
        replayRetired(b, loc, queue, state, threshold);
    for (const CopyQueue &queue : queues)
      if (!queue.pattern->before.contains(wait))
        poisonPending(b, loc, queue, state);
    wait.erase();
  }
}
