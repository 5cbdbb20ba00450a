//===- BarrierCheck.cpp - Shared tiles accessed with no barrier between ---===//
//
// Part of tile-mlir. On the GPU a tile op spreads a shared tile's elements
// over the block's threads, and two tile ops spread them differently: an
// element that one op writes and another reads (or writes) is handed from
// thread to thread and needs a `tile.barrier` in between. One CPU thread
// runs the ops in order, so a missing barrier cannot change its numbers by
// itself. With check-barriers, every element of a shared tile carries two
// stamps, the barrier interval ("epoch") and the op of its last write and of
// its last read, and an access that meets a stamp of the same epoch left by
// another op makes the element NaN (a race leaves any value):
//
// - a read of an element written in this epoch by another op: NaN before
//   the read (read-after-write);
// - a write of an element written or read in this epoch by another op: NaN
//   after the write (write-after-write, write-after-read), so that later
//   reads show it;
// - an asynchronous copy issued onto such an element: the copy lands as NaN
//   at its wait (the element's write stamp keeps a "pending" bit until then),
//   since the copy may write while the other op still reads.
//
// "Another op" is another thread: another op structure, or the same one at
// another position. The same op again (the next iteration, or a clone of the
// software pipeline with other indices) spreads its accesses over the
// threads the same way (docs/pipelining.md, "Barriers outside pipelined
// loops"), by the element's position in the access: in the copy's extent
// for a copy, in the tile for a gemm or a clear. So the same element at the
// same position is the same thread, and at another position (a copy with
// other offsets) another one. The element sets are exactly those the CPU
// lowering reads and writes (TileOpsToLoops.cpp). Fragments belong to one
// thread and go unchecked.
//
// A tensor in global memory that the kernel both writes and reads (a
// fragment stored and read back into a shared tile) is handed over between
// the threads of a block in the same way, and tile-software-pipeline gives
// it the same barriers (getHandedOverGlobals); its elements carry stamps
// too. Those live through the whole grid, and the epoch grows from one
// block to the next, so that accesses of different blocks never meet: a
// race between blocks (which no barrier orders) goes unchecked.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToCPU/TileToCPU.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace mlir::tile;

/// A stamp is epoch << 32 | kPending? | thread, and a thread op << 20 |
/// position: the op structure's number, below 2^11 (later structures share
/// the last number), and the element's position in the access, mod 2^20.
/// Both limits only ever merge threads, which hides races, never makes one.
/// Thread 0 (op 0, which no op structure has) stands for several readers.
static constexpr int64_t kThreadMask = 0x7fffffff;
static constexpr int64_t kPending = int64_t(1) << 31;
static constexpr int kPositionBits = 20;
static constexpr int64_t kMaxOpNumber = (int64_t(1) << 11) - 1;
/// The op number of a tile.copy_async, kept on it and on its replay.
static constexpr llvm::StringLiteral kOpNumberAttrName =
    "tile.check_barriers.op_number";

namespace {
/// How an op accesses an element: reads it, writes it, or issues an
/// asynchronous copy onto it.
enum class Access { Read, Write, Issue };

class BarrierChecker {
public:
  explicit BarrierChecker(KernelOp kernel) : kernel(kernel) {}

  /// Stamps for every shared tile and handed-over tensor, the epoch counter,
  /// its increments at each block's start and at the barriers, and with
  /// `issues` the checks at each copy_async.
  void prepare(bool issues);
  /// The checks around every copy, gemm and clear (replays included).
  void instrument();

private:
  std::optional<std::pair<Value, Value>> stampsOf(OpBuilder &b, Value tile);
  int64_t opNumber(Operation *op);
  Value currentStamp(OpBuilder &b, Location loc, Operation *op);
  void checkElement(OpBuilder &b, Location loc, Access access, Value tile,
                    ValueRange indices, std::pair<Value, Value> tileStamps,
                    Value stamp, Value position);
  void checkTile(OpBuilder &b, Location loc, Access access, Value tile,
                 Value stamp);
  void checkCopy(Operation *op, ArrayRef<int64_t> extent, Value source,
                 ValueRange sourceIndices, Value dest, ValueRange destIndices,
                 bool issue);

  void addGlobalStamps(OpBuilder &b);

  KernelOp kernel;
  /// Per tile.alloc_shared result and per handed-over tensor: its write and
  /// its read stamps.
  DenseMap<Value, std::pair<Value, Value>> stamps;
  /// memref<1xi64>: the current epoch, from 1 (stamps start at 0).
  Value epoch;
  llvm::StringMap<int64_t> opNumbers;
};
} // namespace

/// Whether `value` is a shared tile or a tensor in global memory, which may
/// have stamps (a fragment never does).
static bool mayHaveStamps(Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  return type && getMemorySpace(type) != MemorySpace::Fragment;
}

static Value constantI64(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI64Type(), value);
}

/// A buffer of `type` allocated at `b`'s point and filled with `fill`.
static Value allocateFilled(OpBuilder &b, Location loc, MemRefType type,
                            int64_t fill) {
  Value buffer = memref::AllocOp::create(b, loc, type);
  Value value = constantI64(b, loc, fill);
  forEachElement(b, loc, buffer,
                 [&](OpBuilder &b, Location loc, ValueRange ivs) {
                   memref::StoreOp::create(b, loc, value, buffer, ivs);
                 });
  return buffer;
}

/// A buffer of `type` filled with `fill` for the whole grid: allocated
/// before `kernel` and freed after it.
static Value allocateForGrid(OpBuilder &b, Location loc, KernelOp kernel,
                             MemRefType type, int64_t fill) {
  b.setInsertionPoint(kernel);
  Value buffer = allocateFilled(b, loc, type, fill);
  b.setInsertionPointAfter(kernel);
  memref::DeallocOp::create(b, loc, buffer);
  return buffer;
}

/// A buffer of `type` allocated at the start of `body`, filled with `fill`
/// and freed at its end, as tile-lower-to-cpu does with tiles.
static Value allocateForBlock(OpBuilder &b, Location loc, Block &body,
                              MemRefType type, int64_t fill) {
  b.setInsertionPointToStart(&body);
  Value buffer = allocateFilled(b, loc, type, fill);
  if (body.mightHaveTerminator())
    b.setInsertionPoint(body.getTerminator());
  else
    b.setInsertionPointToEnd(&body);
  memref::DeallocOp::create(b, loc, buffer);
  return buffer;
}

void BarrierChecker::prepare(bool issues) {
  Block &body = kernel.getBody().front();
  Location loc = kernel.getLoc();
  OpBuilder b(kernel.getContext());
  epoch = allocateForGrid(b, loc, kernel, MemRefType::get({1}, b.getI64Type()),
                          /*fill=*/0);
  addGlobalStamps(b);
  kernel.walk([&](AllocSharedOp alloc) {
    auto type = alloc.getType();
    // A tile of dynamic shape has no stamps and goes unchecked.
    if (!type.hasStaticShape())
      return;
    auto stampType = cast<MemRefType>(type.clone(b.getI64Type()));
    Value writes = allocateForBlock(b, alloc.getLoc(), body, stampType, 0);
    Value reads = allocateForBlock(b, alloc.getLoc(), body, stampType, 0);
    stamps[alloc.getResult()] = {writes, reads};
  });
  // Each block starts an epoch, and so does each barrier.
  auto startEpoch = [&](Location loc) {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value current = memref::LoadOp::create(b, loc, epoch, zero);
    Value next = arith::AddIOp::create(b, loc, current, constantI64(b, loc, 1));
    memref::StoreOp::create(b, loc, next, epoch, zero);
  };
  kernel.walk([&](BarrierOp barrier) {
    b.setInsertionPoint(barrier);
    startEpoch(barrier.getLoc());
  });
  b.setInsertionPointToStart(&body);
  startEpoch(loc);
  if (!issues)
    return;
  kernel.walk([&](CopyAsyncOp copy) {
    checkCopy(copy, copy.getExtent(), copy.getSource(), copy.getSourceIndices(),
              copy.getDest(), copy.getDestIndices(),
              /*issue=*/true);
    // The copy lands later as a tile.copy (modelAsyncCopies), written by the
    // threads that issued it: the replay carries this number.
    copy->setAttr(kOpNumberAttrName, b.getI64IntegerAttr(opNumber(copy)));
  });
}

/// Stamps for every tensor of static shape and row-major layout, defined
/// outside the kernel, that the kernel's tile ops write and read.
void BarrierChecker::addGlobalStamps(OpBuilder &b) {
  llvm::SetVector<Value> written, read;
  kernel.walk([&](Operation *op) {
    auto note = [&](llvm::SetVector<Value> &into, Value view) {
      auto type = cast<MemRefType>(view.getType());
      if (getMemorySpace(type) == MemorySpace::Global)
        into.insert(getViewRoot(view));
    };
    if (auto copy = dyn_cast<CopyOp>(op)) {
      note(read, copy.getSource());
      note(written, copy.getDest());
    } else if (auto copy = dyn_cast<CopyAsyncOp>(op)) {
      note(read, copy.getSource());
      note(written, copy.getDest());
    } else if (auto clear = dyn_cast<ClearOp>(op)) {
      note(written, clear.getTile());
    }
  });
  Region &body = kernel.getBody();
  for (Value tensor : written) {
    auto type = cast<MemRefType>(tensor.getType());
    if (!read.contains(tensor) || !type.hasStaticShape() ||
        !type.getLayout().isIdentity() ||
        body.isAncestor(tensor.getParentRegion()))
      continue;
    auto stampType = MemRefType::get(type.getShape(), b.getI64Type());
    Location loc = tensor.getLoc();
    stamps[tensor] = {allocateForGrid(b, loc, kernel, stampType, 0),
                      allocateForGrid(b, loc, kernel, stampType, 0)};
  }
}

void BarrierChecker::instrument() {
  SmallVector<Operation *> ops;
  kernel.walk([&](Operation *op) {
    if (isa<CopyOp, CopyAsyncOp, GemmOp, ClearOp>(op))
      ops.push_back(op);
  });
  OpBuilder b(kernel.getContext());
  for (Operation *op : ops) {
    Location loc = op->getLoc();
    // A tile.copy_async still here is one left to land at once: a copy.
    auto checkCopyOp = [&](auto copy) {
      checkCopy(op, copy.getExtent(), copy.getSource(), copy.getSourceIndices(),
                copy.getDest(), copy.getDestIndices(), /*issue=*/false);
    };
    if (auto copy = dyn_cast<CopyOp>(op)) {
      checkCopyOp(copy);
    } else if (auto copy = dyn_cast<CopyAsyncOp>(op)) {
      checkCopyOp(copy);
    } else if (auto gemm = dyn_cast<GemmOp>(op)) {
      b.setInsertionPoint(op);
      Value stamp = currentStamp(b, loc, op);
      checkTile(b, loc, Access::Read, gemm.getA(), stamp);
      checkTile(b, loc, Access::Read, gemm.getB(), stamp);
      checkTile(b, loc, Access::Read, gemm.getC(), stamp);
      b.setInsertionPointAfter(op);
      checkTile(b, loc, Access::Write, gemm.getC(), stamp);
    } else if (auto clear = cast<ClearOp>(op)) {
      b.setInsertionPoint(op);
      Value stamp = currentStamp(b, loc, op);
      b.setInsertionPointAfter(op);
      checkTile(b, loc, Access::Write, clear.getTile(), stamp);
    }
  }
}

/// The write and read stamps of `tile` through the same subviews and casts
/// from its shared allocation or handed-over tensor, built at `b`'s point;
/// none for a tile not reached that way (an scf.if result, say), or through
/// an unranked memref (whose i64 view could not be rebuilt), which goes
/// unchecked.
std::optional<std::pair<Value, Value>> BarrierChecker::stampsOf(OpBuilder &b,
                                                                Value tile) {
  SmallVector<Operation *> views;
  Value root = getViewRoot(tile, &views);
  auto it = stamps.find(root);
  if (it == stamps.end() || llvm::any_of(views, [](Operation *view) {
        return !isa<MemRefType>(view->getOperand(0).getType());
      }))
    return std::nullopt;
  // The views index elements, and the stamps are laid out as their root
  // is, so the views' layouts hold for i64 stamps too.
  auto rebuild = [&](Value result) {
    for (Operation *view : llvm::reverse(views)) {
      Operation *clone = b.clone(*view);
      clone->setOperand(0, result);
      auto type = cast<MemRefType>(view->getResult(0).getType());
      clone->getResult(0).setType(cast<MemRefType>(type.clone(b.getI64Type())));
      result = clone->getResult(0);
    }
    return result;
  };
  return std::make_pair(rebuild(it->second.first), rebuild(it->second.second));
}

/// One number per op structure (name, operand types, attributes): ops that
/// share it spread a tile over the threads alike. A tile.copy_async keeps
/// its number where it lands (prepare).
int64_t BarrierChecker::opNumber(Operation *op) {
  if (auto number = op->getAttrOfType<IntegerAttr>(kOpNumberAttrName))
    return number.getInt();
  std::string key;
  llvm::raw_string_ostream os(key);
  os << op->getName() << op->getAttrDictionary();
  for (Type type : op->getOperandTypes())
    os << ' ' << type;
  int64_t number =
      opNumbers.try_emplace(key, int64_t(opNumbers.size()) + 1).first->second;
  return std::min(number, kMaxOpNumber);
}

/// epoch << 32 | op << kPositionBits, for `op` at `b`'s point.
Value BarrierChecker::currentStamp(OpBuilder &b, Location loc, Operation *op) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value current = memref::LoadOp::create(b, loc, epoch, zero);
  Value shifted =
      arith::ShLIOp::create(b, loc, current, constantI64(b, loc, 32));
  return arith::OrIOp::create(
      b, loc, shifted, constantI64(b, loc, opNumber(op) << kPositionBits));
}

/// The stamp's position part for the element at `ivs` of an access over
/// `sizes`: its row-major index, mod 2^kPositionBits.
static Value getPosition(OpBuilder &b, Location loc, ValueRange ivs,
                         ArrayRef<Value> sizes) {
  Value linear = arith::ConstantIndexOp::create(b, loc, 0);
  for (auto [iv, size] : llvm::zip_equal(ivs, sizes))
    linear = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, linear, size), iv);
  Value position = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), linear);
  return arith::AndIOp::create(
      b, loc, position, constantI64(b, loc, (int64_t(1) << kPositionBits) - 1));
}

/// Whether `stamp` (loaded) was left in the epoch of `current` by another
/// thread.
static Value isOtherThreadThisEpoch(OpBuilder &b, Location loc, Value stamp,
                                    Value current) {
  Value thirtyTwo = constantI64(b, loc, 32);
  Value epochOf = arith::ShRUIOp::create(b, loc, stamp, thirtyTwo);
  Value currentEpoch = arith::ShRUIOp::create(b, loc, current, thirtyTwo);
  Value mask = constantI64(b, loc, kThreadMask);
  Value threadOf = arith::AndIOp::create(b, loc, stamp, mask);
  Value currentThread = arith::AndIOp::create(b, loc, current, mask);
  Value sameEpoch = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          epochOf, currentEpoch);
  Value otherThread = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                            threadOf, currentThread);
  return arith::AndIOp::create(b, loc, sameEpoch, otherThread);
}

void BarrierChecker::checkElement(OpBuilder &b, Location loc, Access access,
                                  Value tile, ValueRange indices,
                                  std::pair<Value, Value> tileStamps,
                                  Value opStamp, Value position) {
  Value stamp = arith::OrIOp::create(b, loc, opStamp, position);
  auto [writes, reads] = tileStamps;
  Value written = memref::LoadOp::create(b, loc, writes, indices);
  Value race = isOtherThreadThisEpoch(b, loc, written, stamp);
  if (access != Access::Read) {
    Value read = memref::LoadOp::create(b, loc, reads, indices);
    race = arith::OrIOp::create(b, loc, race,
                                isOtherThreadThisEpoch(b, loc, read, stamp));
  }
  if (access == Access::Issue) {
    // Marked; the copy's replay, a write, makes the element NaN.
    Value marked =
        arith::OrIOp::create(b, loc, written, constantI64(b, loc, kPending));
    Value next = arith::SelectOp::create(b, loc, race, marked, written);
    memref::StoreOp::create(b, loc, next, writes, indices);
    return;
  }
  if (access == Access::Write) {
    Value pendingBit =
        arith::AndIOp::create(b, loc, written, constantI64(b, loc, kPending));
    Value zero = constantI64(b, loc, 0);
    Value pending = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                          pendingBit, zero);
    race = arith::OrIOp::create(b, loc, race, pending);
  }
  Type element = cast<MemRefType>(tile.getType()).getElementType();
  scf::IfOp::create(b, loc, race, [&](OpBuilder &b, Location loc) {
    Value poison = arith::ConstantOp::create(b, loc, getPoison(b, element));
    memref::StoreOp::create(b, loc, poison, tile, indices);
    scf::YieldOp::create(b, loc);
  });
  if (access != Access::Read) {
    memref::StoreOp::create(b, loc, stamp, writes, indices);
    return;
  }
  // Of two threads that read an element in one epoch, the first would be
  // forgotten, and a write by it after the second read would pass: the
  // element keeps the thread no op has instead (kManyReaders).
  Value lastRead = memref::LoadOp::create(b, loc, reads, indices);
  Value shared = isOtherThreadThisEpoch(b, loc, lastRead, stamp);
  Value manyReaders =
      arith::AndIOp::create(b, loc, stamp, constantI64(b, loc, ~kThreadMask));
  memref::StoreOp::create(
      b, loc, arith::SelectOp::create(b, loc, shared, manyReaders, stamp),
      reads, indices);
}

/// Checks every element of `tile` (a gemm operand, a cleared tile).
void BarrierChecker::checkTile(OpBuilder &b, Location loc, Access access,
                               Value tile, Value stamp) {
  if (!mayHaveStamps(tile))
    return;
  std::optional<std::pair<Value, Value>> tileStamps = stampsOf(b, tile);
  if (!tileStamps)
    return;
  auto type = cast<MemRefType>(tile.getType());
  SmallVector<Value> sizes;
  for (int64_t dim = 0; dim < type.getRank(); ++dim)
    sizes.push_back(memref::DimOp::create(b, loc, tile, dim));
  forEachElement(b, loc, tile, [&](OpBuilder &b, Location loc, ValueRange ivs) {
    checkElement(b, loc, access, tile, ivs, *tileStamps, stamp,
                 getPosition(b, loc, ivs, sizes));
  });
}

/// The elements a copy reads from its source before it (those it stores
/// whose source index is inside the source), and those it writes in its
/// destination after it, where these have stamps. At an asynchronous copy's
/// issue (`issue`) the same reads, and the destination's elements marked.
void BarrierChecker::checkCopy(Operation *op, ArrayRef<int64_t> extent,
                               Value source, ValueRange sourceIndices,
                               Value dest, ValueRange destIndices, bool issue) {
  Location loc = op->getLoc();
  OpBuilder b(op);
  Value stamp = currentStamp(b, loc, op);
  std::optional<std::pair<Value, Value>> sourceStamps;
  if (mayHaveStamps(source))
    sourceStamps = stampsOf(b, source);
  SmallVector<Value> sizes;
  for (int64_t size : extent)
    sizes.push_back(arith::ConstantIndexOp::create(b, loc, size));
  if (sourceStamps)
    forEachCopiedElement(
        b, loc, extent, source, sourceIndices, dest, destIndices,
        [&](OpBuilder &b, Location loc, const CopiedElement &element) {
          auto check = [&](OpBuilder &b, Location loc) {
            checkElement(b, loc, Access::Read, source, element.sourceIndices,
                         *sourceStamps, stamp,
                         getPosition(b, loc, element.position, sizes));
          };
          if (!element.sourceInBounds)
            return check(b, loc);
          scf::IfOp::create(b, loc, element.sourceInBounds,
                            [&](OpBuilder &b, Location loc) {
                              check(b, loc);
                              scf::YieldOp::create(b, loc);
                            });
        });
  if (!mayHaveStamps(dest))
    return;
  if (!issue)
    b.setInsertionPointAfter(op);
  std::optional<std::pair<Value, Value>> destStamps = stampsOf(b, dest);
  if (!destStamps)
    return;
  forEachCopiedElement(
      b, loc, extent, source, sourceIndices, dest, destIndices,
      [&](OpBuilder &b, Location loc, const CopiedElement &element) {
        checkElement(b, loc, issue ? Access::Issue : Access::Write, dest,
                     element.destIndices, *destStamps, stamp,
                     getPosition(b, loc, element.position, sizes));
      });
}

void mlir::tile::addBarrierChecks(KernelOp kernel,
                                  function_ref<void(KernelOp)> modelAsync) {
  BarrierChecker checker(kernel);
  checker.prepare(/*issues=*/bool(modelAsync));
  if (modelAsync)
    modelAsync(kernel);
  checker.instrument();
}
