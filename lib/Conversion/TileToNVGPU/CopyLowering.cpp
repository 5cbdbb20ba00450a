//===- CopyLowering.cpp - Global/shared tile copies to per-thread code ----===//
//
// Part of tile-mlir. Lowers the copies, clears and group ops of a kernel; the
// chunks, their bounds and the realigned chunks are in CopyLoweringDetail.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/CopyLowering.h"

#include "CopyLoweringDetail.h"
#include "tile/Conversion/TileToNVGPU/TmaCopies.h"
#include "tile/Conversion/TileToNVGPU/TmaStores.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::copy;

/// The first half of a synchronous chunk: its (masked) vector load, converted
/// to the destination's element type.
static Value loadSyncChunk(OpBuilder &b, Location loc, const CopySide &src,
                           const CopySide &dst, ArrayRef<Value> tileIndices,
                           int64_t rowDelta, int64_t v) {
  SmallVector<Value> srcIndices = sideIndices(b, loc, src, tileIndices);
  Type srcElement = src.type.getElementType();
  Type dstElement = dst.type.getElementType();
  auto srcVector = VectorType::get({v}, srcElement);

  SharedAccess from = physicalAccess(b, loc, src, srcIndices, rowDelta);
  llvm::MaybeAlign srcAlign = vectorAlign(v, src.elementBytes());
  auto plainLoad = [&](OpBuilder &b) -> Value {
    return vector::LoadOp::create(b, loc, srcVector, from.buffer, from.indices,
                                  /*nontemporal=*/false, srcAlign);
  };
  Value value;
  if (Value count = boundsCount(b, loc, src, srcIndices, rowDelta, v)) {
    Value whole = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, count,
                                        constantIndex(b, loc, v));
    value = loadWholeOrMasked(b, loc, whole, plainLoad, from, count, srcVector,
                              srcAlign);
  } else {
    value = plainLoad(b);
  }
  return convertFloat(b, loc, value, dstElement);
}

/// The second half of a synchronous chunk: the (masked) vector store of
/// `value`.
static void storeSyncChunk(OpBuilder &b, Location loc, const CopySide &dst,
                           ArrayRef<Value> tileIndices, int64_t rowDelta,
                           int64_t v, Value value) {
  SmallVector<Value> dstIndices = sideIndices(b, loc, dst, tileIndices);
  SharedAccess to = physicalAccess(b, loc, dst, dstIndices, rowDelta);
  llvm::MaybeAlign dstAlign = vectorAlign(v, dst.elementBytes());
  Value dstCount = boundsCount(b, loc, dst, dstIndices, rowDelta, v);
  if (!dstCount) {
    vector::StoreOp::create(b, loc, value, to.buffer, to.indices,
                            /*nontemporal=*/false, dstAlign);
    return;
  }
  Value whole = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                      dstCount, constantIndex(b, loc, v));
  auto ifOp = scf::IfOp::create(b, loc, whole, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  vector::StoreOp::create(b, loc, value, to.buffer, to.indices,
                          /*nontemporal=*/false, dstAlign);
  b.setInsertionPointToStart(ifOp.elseBlock());
  vector::MaskedStoreOp::create(b, loc, to.buffer, to.indices,
                                prefixMask(b, loc, dstCount, v), value,
                                dstAlign);
}

/// Asynchronous chunk: one cp.async of v elements; `srcElements` counts the
/// in-bounds ones so the hardware zero-fills the rest (clampToBounds).
static void emitAsyncChunk(OpBuilder &b, Location loc, const CopySide &src,
                           const CopySide &dst, ArrayRef<Value> tileIndices,
                           int64_t rowDelta, int64_t v) {
  SmallVector<Value> srcIndices = sideIndices(b, loc, src, tileIndices);
  SmallVector<Value> dstIndices = sideIndices(b, loc, dst, tileIndices);
  OpBuilder::InsertionGuard guard(b);
  Value dstCount = boundsCount(b, loc, dst, dstIndices, rowDelta, v);
  if (dstCount) {
    // The destination's row and offset are multiples of v (planChunks), so a
    // chunk is wholly inside or wholly outside the tile.
    Value any = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                      dstCount, constantIndex(b, loc, 0));
    auto ifOp = scf::IfOp::create(b, loc, any, /*withElseRegion=*/false);
    b.setInsertionPointToStart(ifOp.thenBlock());
  }
  std::optional<ClampedChunk> clamped;
  if (src.needsBounds())
    clamped = clampToBounds(b, loc, src,
                            addRowDelta(b, loc, srcIndices, rowDelta), v);
  SmallVector<Value> srcAt =
      clamped ? clamped->indices
              : physicalAccess(b, loc, src, srcIndices, rowDelta).indices;
  Value srcCount = clamped ? clamped->count : Value();
  SharedAccess to = physicalAccess(b, loc, dst, dstIndices, rowDelta);
  bool sixteenBytes = v * src.elementBytes() == 16;
  nvgpu::DeviceAsyncCopyOp::create(
      b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), to.buffer,
      to.indices, src.memref, srcAt, b.getIndexAttr(v), srcCount,
      sixteenBytes ? b.getUnitAttr() : UnitAttr());
}

namespace {
/// A chunk of a synchronous copy that is loaded but not stored yet.
struct PendingStore {
  Location loc;
  CopySide dst;
  SmallVector<Value> indices;
  int64_t rowDelta;
  int64_t v;
  /// The loaded value, or the loads of a realigned chunk.
  Value value;
  std::optional<RealignedLoad> realigned;
};
} // namespace

static void storePending(OpBuilder &b, ArrayRef<PendingStore> chunks) {
  for (const PendingStore &chunk : chunks) {
    Value value = chunk.realigned
                      ? finishRealignedChunk(b, chunk.loc, *chunk.realigned,
                                             chunk.dst.type.getElementType())
                      : chunk.value;
    storeSyncChunk(b, chunk.loc, chunk.dst, chunk.indices, chunk.rowDelta,
                   chunk.v, value);
  }
}

/// Lowers a tile copy at `b`'s insertion point (the caller erases `op`). The
/// chunks of a synchronous copy that is unrolled into straight-line code are
/// loaded at `earlyLoads()` (at or before `b`) and their stores appended to
/// `pending`, for the caller to emit after the loads of the copies next to
/// this one (lowerCopyRun); in a loop or behind a guard, a group of chunks
/// is stored right after its loads.
template <typename CopyLikeOp>
static void lowerCopy(OpBuilder &b, CopyLikeOp op, Value tid, int64_t threads,
                      bool async, bool realignNarrowRows,
                      SmallVectorImpl<PendingStore> &pending,
                      function_ref<OpBuilder &()> earlyLoads) {
  Location loc = op.getLoc();
  SmallVector<int64_t> extent = op.getExtent();
  CopySide src = CopySide::forExtent(b, loc, op.getSource(),
                                     op.getSourceIndices(), extent);
  CopySide dst =
      CopySide::forExtent(b, loc, op.getDest(), op.getDestIndices(), extent);
  ChunkPlan plan = planChunks(extent, src, &dst);
  int64_t v = plan.vectorElements;
  // cp.async moves 4, 8 or 16 bytes; anything narrower is copied
  // synchronously, which is a valid (if slower) completion of the group.
  int64_t bytes = v * src.elementBytes();
  bool useAsync = async && (bytes == 4 || bytes == 8 || bytes == 16);
  // Element-wise chunks of 2-byte-aligned rows are realigned instead.
  std::optional<ChunkPlan> wide;
  if (bytes < 4 &&
      (wide = planRealigned(extent, src, dst, realignNarrowRows))) {
    plan = *wide;
    v = plan.vectorElements;
  }
  bool straightLine = isStraightLine(plan, threads);
  // Synchronous chunks from global memory in straight-line code load where
  // the run may issue its loads; the zero offsets of a source given without
  // any are made there again.
  bool loadEarly = !useAsync && straightLine && !src.shared && dst.shared;
  OpBuilder &at = loadEarly ? earlyLoads() : b;
  if (&at != &b && op.getSourceIndices().empty())
    src = CopySide::forExtent(at, loc, op.getSource(), {}, extent);
  std::optional<RealignedSource> realigned;
  if (wide)
    realigned = flattenSource(at, loc, src);
  // Chunks share address arithmetic (one row and column per thread, rows a
  // constant apart) when their rows need no bounds check. A cp.async whose
  // source columns are checked clamps the shared column once
  // (clampToBounds); a synchronous chunk with any check computes its own
  // indices, since sharing them there only moved ptxas's register
  // allocation (the 1000^3 bf16 GEMM of test/Target/gemm-bf16-ptx.mlir
  // spilled on sm_90).
  bool shareRows = provablyInside(dst, plan.extent) &&
                   provablyInside(src, plan.extent, /*rowsOnly=*/useAsync);
  // Chunks in a loop or behind a guard keep their stores here until the
  // loop trip or the guard ends (forEachChunk's flush).
  SmallVector<PendingStore, 8> local;
  auto flushLocal = [&](OpBuilder &b) {
    storePending(b, local);
    local.clear();
  };
  forEachChunk(
      at, loc, plan, tid, threads, shareRows,
      [&](OpBuilder &b, Location loc, ArrayRef<Value> indices,
          int64_t rowDelta) {
        if (useAsync) {
          emitAsyncChunk(b, loc, src, dst, indices, rowDelta, v);
          return;
        }
        PendingStore chunk{loc,         dst, SmallVector<Value>(indices),
                           rowDelta,    v,   Value(),
                           std::nullopt};
        if (realigned)
          chunk.realigned =
              loadRealignedChunk(b, loc, src, *realigned, indices, rowDelta);
        else
          chunk.value = loadSyncChunk(b, loc, src, dst, indices, rowDelta, v);
        (straightLine ? pending : local).push_back(std::move(chunk));
      },
      useAsync || straightLine ? function_ref<void(OpBuilder &)>()
                               : function_ref<void(OpBuilder &)>(flushLocal));
}

/// Realigned chunks per thread that the copies of a step may load when one
/// of them has narrow rows (planRealigned): each chunk holds five words in
/// registers until it is stored. On an H200, realigning the seed's 128x32 A
/// tiles (4 chunks per thread at 128 threads) made its GEMM faster where they
/// were the step's only realigned chunks (sm_90a 4096x4096x4095 189.2 -> 285.8
/// TFLOP/s, 1000x3000x777 116.6 -> 128.1, the same with one stage 65.4 ->
/// 122.8; sm_90 4096x4096x4095 161.3 -> 228.0) but slower beside B's
/// realigned 32x128 tiles, 8 per thread (4095^3 143.5 -> 124.0), where ptxas,
/// at 255 registers, waited for the words chunk by chunk.
static constexpr int64_t kRealignedChunksPerThread = 4;

namespace {
/// How a copy from global into shared memory would be realigned.
struct RealignedShape {
  /// Chunks per thread with wide rows (realigned whatever else the step
  /// loads), or 0.
  int64_t wide = 0;
  /// Chunks per thread with narrow rows, where realigning them is worth it
  /// (their element-wise copy is a loop), or 0.
  int64_t narrow = 0;
};
} // namespace

template <typename CopyLikeOp>
static RealignedShape realignedShape(CopyLikeOp copy, int64_t threads) {
  SmallVector<int64_t> extent = copy.getExtent();
  CopySide src(copy.getSource(), copy.getSourceIndices());
  CopySide dst(copy.getDest(), copy.getDestIndices());
  ChunkPlan plan = planChunks(extent, src, &dst);
  RealignedShape shape;
  if (plan.vectorElements * src.elementBytes() >= 4)
    return shape;
  auto perThread = [&](const ChunkPlan &p) {
    return llvm::divideCeil(p.totalChunks, threads);
  };
  if (std::optional<ChunkPlan> wide = planRealigned(extent, src, dst, false))
    shape.wide = perThread(*wide);
  else if (std::optional<ChunkPlan> narrow =
               planRealigned(extent, src, dst, true);
           narrow && !isStraightLine(plan, threads))
    // An element-wise copy in straight-line code issues all its loads
    // before its stores already; 256 threads copying a 128x32 tile (16
    // elements each) lost 3% realigned (sm_90a 4096x4096x4095, 128x256x32).
    shape.narrow = perThread(*narrow);
  return shape;
}

/// Whether `op` copies from global into shared memory.
static bool isGlobalToShared(Operation *op);

/// The copies from global into shared memory around `op` (one of them) that
/// only ops free of memory effects separate from it, such as the subviews
/// of a pipelined step's buffers: what a step loads together, even where
/// those ops cut it into several runs.
static SmallVector<Operation *> copiesAround(Operation *op) {
  auto joins = [](Operation *other) {
    return isGlobalToShared(other) || isMemoryEffectFree(other);
  };
  Operation *first = op;
  while (Operation *prev = first->getPrevNode()) {
    if (!joins(prev))
      break;
    first = prev;
  }
  SmallVector<Operation *> copies;
  for (Operation *it = first; it && joins(it); it = it->getNextNode())
    if (isGlobalToShared(it))
      copies.push_back(it);
  return copies;
}

/// Decides, for every copy of `ops` from global into shared memory whose rows
/// are narrow, whether it is realigned: where its element-wise copy would be
/// a loop and the realigned chunks of the copies around it (copiesAround)
/// stay within kRealignedChunksPerThread. Returns the copies that are.
static DenseSet<Operation *> realignedNarrowCopies(ArrayRef<Operation *> ops,
                                                   int64_t threads) {
  auto shapeOf = [&](Operation *op) {
    if (auto copy = dyn_cast<CopyOp>(op))
      return realignedShape(copy, threads);
    return realignedShape(cast<CopyAsyncOp>(op), threads);
  };
  DenseSet<Operation *> realigned;
  for (Operation *op : ops) {
    if (!isGlobalToShared(op) || !shapeOf(op).narrow)
      continue;
    int64_t chunks = 0;
    for (Operation *other : copiesAround(op)) {
      RealignedShape shape = shapeOf(other);
      chunks += shape.wide + shape.narrow;
    }
    if (chunks <= kRealignedChunksPerThread)
      realigned.insert(op);
  }
  return realigned;
}

/// Whether `op` copies from global into shared memory.
static bool isGlobalToShared(Operation *op) {
  auto spaces = [](auto copy) {
    auto space = [](Value v) {
      return getMemorySpace(cast<MemRefType>(v.getType()));
    };
    return space(copy.getSource()) == MemorySpace::Global &&
           space(copy.getDest()) == MemorySpace::Shared;
  };
  if (auto copy = dyn_cast<CopyOp>(op))
    return spaces(copy);
  if (auto copy = dyn_cast<CopyAsyncOp>(op))
    return spaces(copy);
  return false;
}

/// Lowers a run of adjacent copies (in block order) at the first one's
/// place. Synchronous chunks issue all of the run's loads before its first
/// store, so that their latencies overlap as far as ptxas's register budget
/// allows. In the seed's plain loop (two tile copies, 8 chunks per thread)
/// on sm_90a, with each store right after its load, ptxas kept at most 3
/// loads in flight and the loop waited for global memory three times per
/// step; with the loads first it keeps 4 and waits twice (226 -> 267 TFLOP/s
/// on an H200). A run holds one copy, or only copies from global into shared
/// memory, which cannot read what another one writes. Those loads may also
/// go up over the step's wait, barrier and gemm (prepareEarlyLoads), so that
/// the barrier does not hold them back. The copies in `realignedNarrow`
/// realign their narrow rows (realignedNarrowCopies).
static void lowerCopyRun(ArrayRef<Operation *> run, Value tid, int64_t threads,
                         const DenseSet<Operation *> &realignedNarrow) {
  OpBuilder b(run.front());
  Operation *previous = run.front()->getPrevNode();
  std::optional<OpBuilder> early;
  OpBuilder *loads = nullptr;
  auto earlyLoads = [&]() -> OpBuilder & {
    if (!loads) {
      Operation *anchor = prepareEarlyLoads(run, previous, tid);
      loads = anchor ? &early.emplace(anchor) : &b;
    }
    return *loads;
  };
  SmallVector<PendingStore, 8> pending;
  for (Operation *op : run) {
    if (auto copy = dyn_cast<CopyOp>(op))
      lowerCopy(b, copy, tid, threads, /*async=*/false,
                realignedNarrow.contains(op), pending, earlyLoads);
    else
      lowerCopy(b, cast<CopyAsyncOp>(op), tid, threads, /*async=*/true,
                realignedNarrow.contains(op), pending, earlyLoads);
  }
  storePending(b, pending);
  // The builder inserts before the run's first op: erase the run only now.
  for (Operation *op : run)
    op->erase();
}

static void lowerSharedClear(ClearOp op, Value tid, int64_t threads) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  CopySide tile(op.getTile(), {});
  ChunkPlan plan = planChunks(tile.type.getShape(), tile, /*dst=*/nullptr);
  int64_t v = plan.vectorElements;
  auto vecType = VectorType::get({v}, tile.type.getElementType());
  Value zero =
      arith::ConstantOp::create(b, loc, vecType, b.getZeroAttr(vecType));
  forEachChunk(b, loc, plan, tid, threads, /*shareRows=*/true,
               [&](OpBuilder &b, Location loc, ArrayRef<Value> indices,
                   int64_t rowDelta) {
                 SharedAccess to =
                     physicalAccess(b, loc, tile, indices, rowDelta);
                 vector::StoreOp::create(b, loc, zero, to.buffer, to.indices,
                                         /*nontemporal=*/false,
                                         vectorAlign(v, tile.elementBytes()));
               });
  op.erase();
}

LogicalResult mlir::tile::lowerTileMemoryOps(KernelOp kernel, bool tma,
                                             const TmaOptions &tmaOptions) {
  int64_t threads = kernel.getThreads();
  // Every copy left here is global/shared on both sides: fragment ones were
  // lowered before. Check before rewriting so that a failure leaves the
  // kernel intact.
  WalkResult check = kernel.walk([&](Operation *op) {
    auto touchesFragment = [](Value v) {
      return getMemorySpace(cast<MemRefType>(v.getType())) ==
             MemorySpace::Fragment;
    };
    if (isa<AllocFragmentOp, GemmOp>(op) ||
        (isa<CopyOp, ClearOp>(op) &&
         llvm::any_of(op->getOperands(), [&](Value v) {
           return isa<MemRefType>(v.getType()) && touchesFragment(v);
         }))) {
      op->emitError("fragment op was not lowered by the fragment lowering");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (check.wasInterrupted())
    return failure();

  Block &body = kernel.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&body);
  Value tid = gpu::ThreadIdOp::create(b, kernel.getLoc(), gpu::Dimension::x);
  lowerStagedStoresToTma(kernel, tid);
  if (tma && failed(lowerAsyncCopiesToTma(kernel, tid, tmaOptions)))
    return failure();

  SmallVector<Operation *> ops;
  kernel.walk([&](Operation *op) {
    if (isa<CopyOp, CopyAsyncOp, ClearOp, CommitGroupOp, WaitGroupOp,
            BarrierOp>(op))
      ops.push_back(op);
  });
  // Decided before any copy is lowered: the decision looks at the copies
  // around each one.
  DenseSet<Operation *> realignedNarrow = realignedNarrowCopies(ops, threads);
  for (size_t i = 0; i < ops.size(); ++i) {
    Operation *op = ops[i];
    if (isa<CopyOp, CopyAsyncOp>(op)) {
      size_t end = i + 1;
      if (isGlobalToShared(op))
        while (end < ops.size() && isGlobalToShared(ops[end]) &&
               ops[end]->getPrevNode() == ops[end - 1])
          ++end;
      lowerCopyRun(ArrayRef<Operation *>(ops).slice(i, end - i), tid, threads,
                   realignedNarrow);
      i = end - 1;
    } else if (auto clear = dyn_cast<ClearOp>(op)) {
      lowerSharedClear(clear, tid, threads);
    } else {
      // tile's groups are positional, as in PTX: a wait counts the groups
      // committed before it in program order, across loop iterations. The
      // nvgpu token ops want each group's copies as SSA tokens, which do not
      // flow through the prologue/steady-state/epilogue structure, so these
      // go straight to their NVVM ops (the same PTX nvgpu would produce).
      OpBuilder ob(op);
      if (isa<CommitGroupOp>(op))
        NVVM::CpAsyncCommitGroupOp::create(ob, op->getLoc());
      else if (auto wait = dyn_cast<WaitGroupOp>(op))
        NVVM::CpAsyncWaitGroupOp::create(ob, op->getLoc(), wait.getPending());
      else
        gpu::BarrierOp::create(ob, op->getLoc());
      op->erase();
    }
  }
  return success();
}
