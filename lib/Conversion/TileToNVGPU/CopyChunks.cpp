//===- CopyChunks.cpp - How tile copies are cut into chunks ---------------===//
//
// Part of tile-mlir. Which chunks of a copy each thread moves, how wide they
// are, and where they are on either side.
//
//===----------------------------------------------------------------------===//

#include "CopyLoweringDetail.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "tile/Conversion/TileToNVGPU/SharedAccess.h"
#include "tile/Dialect/Tile/Utils/IndexFacts.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::copy;

Value copy::convertFloat(OpBuilder &b, Location loc, Value value, Type to) {
  Type from = value.getType();
  // Integer elements (copies of them keep their type) come here too.
  if (getElementTypeOrSelf(from) == to)
    return value;
  auto fromFloat = cast<FloatType>(getElementTypeOrSelf(from));
  auto toFloat = cast<FloatType>(to);
  auto shaped = [&](Type element) -> Type {
    if (auto vector = dyn_cast<VectorType>(from))
      return vector.clone(element);
    return element;
  };
  if (fromFloat.getWidth() < toFloat.getWidth())
    return arith::ExtFOp::create(b, loc, shaped(toFloat), value);
  if (fromFloat.getWidth() == toFloat.getWidth())
    value = arith::ExtFOp::create(b, loc, shaped(b.getF32Type()), value);
  return arith::TruncFOp::create(b, loc, shaped(toFloat), value);
}

Value copy::constantIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value copy::constantI32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}

static constexpr int64_t kAnyDivisor = int64_t(1) << 30;

/// Chunks per thread up to which a copy is unrolled into straight-line code.
static constexpr int64_t kMaxUnroll = 16;
/// Chunks per trip of a synchronous copy's loop beyond that, whose loads are
/// issued together. The seed's 128x32 A tile at 4095^3 (32 elements per
/// thread, element-wise beside B's realigned tile) ran faster with 16 than
/// with 8 on an H200: sm_90 119.5 -> 134.5 TFLOP/s, sm_90a 143.5 -> 148.1.
/// With 32 ptxas spilled 772-1376 bytes and the kernels lost 35-67%.
static constexpr int64_t kLoopGroup = 16;

/// The function whose argument `value` is, or null: an argument of its
/// entry block, not of a loop's body (an iter_arg may carry any view).
static FunctionOpInterface getArgumentFunction(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || !arg.getOwner()->isEntryBlock())
    return nullptr;
  return dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp());
}

/// Whether `memref` is a kernel argument or a tile, or a memref.cast of one
/// (same address): those have the base alignment that isAlignedFor assumes.
/// A view of another kind may move the base by any number of bytes
/// (memref.view's byte shift is not in its type), and so may a loop's
/// iter_arg that carries one.
bool copy::hasAlignedBase(Value memref) {
  memref = skipCasts(memref);
  return getArgumentFunction(memref) || memref.getDefiningOp<AllocSharedOp>();
}

/// A divisor of the dynamic stride `d` of `memref`, a memref with dynamic
/// sizes that hasAlignedBase accepts. The copies are lowered before the
/// kernel is outlined, so it is a function argument: its stride is the
/// product of the sizes inside `d`, each static or a multiple of the
/// argument's kDivisibilityAttrName.
int64_t copy::knownStrideDivisor(Value memref, unsigned d) {
  FunctionOpInterface func = getArgumentFunction(memref);
  auto type = cast<MemRefType>(memref.getType());
  if (!func || !type.getLayout().isIdentity())
    return 1;
  auto divisibility = func.getArgAttrOfType<IntegerAttr>(
      cast<BlockArgument>(memref).getArgNumber(), kDivisibilityAttrName);
  int64_t known = 1;
  for (int64_t e = d + 1; e < type.getRank(); ++e)
    known *= type.isDynamicDim(e) ? (divisibility ? divisibility.getInt() : 1)
                                  : type.getDimSize(e);
  return known;
}

/// Proves that the innermost index of every chunk start on `side` is a
/// multiple of `v` elements and that v consecutive elements are contiguous in
/// memory, so a v-element vector access is aligned to its own size. Global
/// memrefs are assumed to start at a 16-byte aligned address (cudaMalloc
/// returns 256-byte aligned pointers); shared buffers are carved at
/// kSharedTileAlignment (1024-byte) offsets. What remains is the layout (static
/// strides and offset, each a multiple of v) and the offsets (getKnownDivisor),
/// through any subviews of such a memref.
bool copy::isAlignedFor(const CopySide &side, int64_t v) {
  if (v == 1)
    return true;
  int64_t divisor =
      side.offsets.empty() ? kAnyDivisor : getKnownDivisor(side.offsets.back());
  // Casts keep the address; the software pipeline puts one on each use of
  // a multi-buffered tile's version outside its loop.
  Value current = skipCasts(side.memref);
  while (auto subview = current.getDefiningOp<memref::SubViewOp>()) {
    unsigned innermost = subview.getSourceType().getRank() - 1;
    if (subview.getDroppedDims().test(innermost))
      return false;
    std::optional<int64_t> stride =
        getConstantIntValue(subview.getMixedStrides()[innermost]);
    if (!stride || *stride != 1)
      return false;
    OpFoldResult offset = subview.getMixedOffsets()[innermost];
    std::optional<int64_t> constant = getConstantIntValue(offset);
    int64_t offsetDivisor = constant
                                ? (*constant == 0 ? kAnyDivisor : *constant)
                                : getKnownDivisor(cast<Value>(offset));
    divisor = std::gcd(divisor, offsetDivisor);
    current = skipCasts(subview.getSource());
  }
  if (!hasAlignedBase(current))
    return false;
  auto type = cast<MemRefType>(current.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  if (ShapedType::isDynamic(offset) || offset % v != 0)
    return false;
  if (strides.empty() || strides.back() != 1)
    return false;
  for (auto [d, stride] : llvm::enumerate(ArrayRef(strides).drop_back())) {
    int64_t known =
        ShapedType::isDynamic(stride) ? knownStrideDivisor(current, d) : stride;
    if (known % v != 0)
      return false;
  }
  return divisor % v == 0;
}

/// The plan for chunks of `v` elements, which divides the extent's rows.
ChunkPlan copy::makePlan(ArrayRef<int64_t> extent, int64_t v) {
  ChunkPlan plan;
  plan.extent.assign(extent.begin(), extent.end());
  plan.vectorElements = v;
  plan.chunksPerRow = extent.back() / v;
  plan.totalChunks = plan.chunksPerRow;
  for (int64_t e : extent.drop_back())
    plan.totalChunks *= e;
  return plan;
}

/// The widest vector (at most 16 bytes on either side) that divides the row
/// of the extent and is provably aligned on both sides.
ChunkPlan copy::planChunks(ArrayRef<int64_t> extent, const CopySide &src,
                           const CopySide *dst) {
  int64_t bytes = src.elementBytes();
  if (dst)
    bytes = std::max(bytes, dst->elementBytes());
  int64_t inner = extent.back();
  int64_t v = std::max<int64_t>(1, 16 / bytes);
  while (v > 1 && (inner % v != 0 || !isAlignedFor(src, v) ||
                   (dst && !isAlignedFor(*dst, v))))
    v /= 2;
  return makePlan(extent, v);
}

/// Whether forEachChunk emits the chunks as straight-line code: unrolled,
/// with no guard around any of them.
bool copy::isStraightLine(const ChunkPlan &plan, int64_t threads) {
  return llvm::divideCeil(plan.totalChunks, threads) <= kMaxUnroll &&
         plan.totalChunks % threads == 0;
}

/// Calls `body(builder, indices, rowDelta)` once per chunk this thread owns:
/// chunk ids tid, tid + T, tid + 2T, ... of the row-major extent, whose first
/// element relative to the tile is `indices` with `rowDelta` added to the
/// row. Small counts are unrolled (straight-line code the scheduler can
/// interleave), large ones loop. `shareRows` allows a nonzero rowDelta.
/// `flush`, if given, is called where the chunks emitted since the last call
/// end their scope: inside each guard of a ragged last round, and at the end
/// of each loop trip (which then takes up to kLoopGroup chunks).
void copy::forEachChunk(OpBuilder &b, Location loc, const ChunkPlan &plan,
                        Value tid, int64_t threads, bool shareRows,
                        ChunkBody body, function_ref<void(OpBuilder &)> flush) {
  int64_t perThread = llvm::divideCeil(plan.totalChunks, threads);
  bool ragged = plan.totalChunks % threads != 0;
  unsigned rank = plan.extent.size();

  auto emitChunk = [&](OpBuilder &b, Value id) {
    auto emit = [&](OpBuilder &b) {
      Value row = id, col;
      if (plan.chunksPerRow == 1) {
        col = constantIndex(b, loc, 0);
      } else {
        Value perRow = constantIndex(b, loc, plan.chunksPerRow);
        row = arith::DivUIOp::create(b, loc, id, perRow);
        col = arith::RemUIOp::create(b, loc, id, perRow);
      }
      col = b.createOrFold<arith::MulIOp>(
          loc, col, constantIndex(b, loc, plan.vectorElements));
      SmallVector<Value> indices(rank);
      indices[rank - 1] = col;
      for (int d = int(rank) - 2; d >= 0; --d) {
        if (d == 0) {
          indices[d] = row;
          break;
        }
        Value size = constantIndex(b, loc, plan.extent[d]);
        indices[d] = arith::RemUIOp::create(b, loc, row, size);
        row = arith::DivUIOp::create(b, loc, row, size);
      }
      body(b, loc, indices, /*rowDelta=*/0);
    };
    if (!ragged) {
      emit(b);
      return;
    }
    Value inRange =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, id,
                              constantIndex(b, loc, plan.totalChunks));
    auto ifOp = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    emit(b);
    if (flush)
      flush(b);
  };

  // 2-D extents whose rows split evenly among the threads: every chunk of a
  // thread has the same column and its rows step by threads / chunksPerRow,
  // so the row and column are computed once and the chunks differ by a
  // constant row delta, which the addressing keeps outermost so that each
  // chunk's address is the first one's plus an immediate offset.
  if (shareRows && isStraightLine(plan, threads) && rank == 2 &&
      threads % plan.chunksPerRow == 0) {
    Value perRow = constantIndex(b, loc, plan.chunksPerRow);
    Value row0 = b.createOrFold<arith::DivUIOp>(loc, tid, perRow);
    Value chunkInRow = b.createOrFold<arith::RemUIOp>(loc, tid, perRow);
    Value col = b.createOrFold<arith::MulIOp>(
        loc, chunkInRow, constantIndex(b, loc, plan.vectorElements));
    int64_t rowStep = threads / plan.chunksPerRow;
    for (int64_t i = 0; i < perThread; ++i)
      body(b, loc, {row0, col}, i * rowStep);
    return;
  }
  if (perThread <= kMaxUnroll) {
    for (int64_t i = 0; i < perThread; ++i)
      emitChunk(b, b.createOrFold<arith::AddIOp>(
                       loc, tid, constantIndex(b, loc, i * threads)));
    return;
  }
  // More chunks than are unrolled: a loop. With `flush`, each trip handles
  // up to kLoopGroup chunks and then calls it (a synchronous copy stores the
  // trip's chunks there, after all of their loads).
  int64_t group = 1;
  if (flush && !ragged)
    while (group < kLoopGroup && perThread % (2 * group) == 0)
      group *= 2;
  Value lb = constantIndex(b, loc, 0);
  Value ub = constantIndex(b, loc, perThread * threads);
  Value step = constantIndex(b, loc, group * threads);
  auto loop = scf::ForOp::create(b, loc, lb, ub, step);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(loop.getBody()->getTerminator());
  Value first = arith::AddIOp::create(b, loc, tid, loop.getInductionVar());
  for (int64_t i = 0; i < group; ++i)
    emitChunk(b, b.createOrFold<arith::AddIOp>(
                     loc, first, constantIndex(b, loc, i * threads)));
  if (flush && !ragged)
    flush(b);
}

/// The indices of a chunk's first element on `side`, without its row delta.
SmallVector<Value> copy::sideIndices(OpBuilder &b, Location loc,
                                     const CopySide &side,
                                     ArrayRef<Value> tileIndices) {
  if (side.offsets.empty())
    return SmallVector<Value>(tileIndices);
  SmallVector<Value> indices;
  for (auto [offset, index] : llvm::zip_equal(side.offsets, tileIndices))
    indices.push_back(b.createOrFold<arith::AddIOp>(loc, offset, index));
  return indices;
}

/// `indices` with `rowDelta` added to the row, last, so that LLVM sees a
/// constant offset from the chunk's common address.
SmallVector<Value> copy::addRowDelta(OpBuilder &b, Location loc,
                                     ArrayRef<Value> indices,
                                     int64_t rowDelta) {
  SmallVector<Value> shifted(indices);
  if (rowDelta != 0) {
    Value &row = shifted[shifted.size() - 2];
    row = arith::AddIOp::create(b, loc, row, constantIndex(b, loc, rowDelta));
  }
  return shifted;
}

Value copy::dimSize(OpBuilder &b, Location loc, const CopySide &side,
                    unsigned d) {
  if (!side.type.isDynamicDim(d))
    return constantIndex(b, loc, side.type.getDimSize(d));
  return memref::DimOp::create(b, loc, side.memref, d);
}

/// vector<v x i1> with the first `count` lanes set. (vector.create_mask with
/// a dynamic bound is not lowered by convert-gpu-to-nvvm; this compare is
/// what it would expand to.)
Value copy::prefixMask(OpBuilder &b, Location loc, Value count, int64_t v) {
  auto i32 = b.getI32Type();
  auto vecType = VectorType::get({v}, i32);
  SmallVector<int32_t> lanes(v);
  std::iota(lanes.begin(), lanes.end(), 0);
  Value iota = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(vecType, ArrayRef<int32_t>(lanes)));
  Value n = arith::IndexCastOp::create(b, loc, i32, count);
  Value splat = vector::BroadcastOp::create(b, loc, vecType, n);
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, iota, splat);
}

Value copy::loadWholeOrMasked(OpBuilder &b, Location loc, Value whole,
                              function_ref<Value(OpBuilder &)> wholeValue,
                              const SharedAccess &from, Value count,
                              VectorType type, llvm::MaybeAlign align) {
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{type}, whole,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(b, loc, wholeValue(b));
  b.setInsertionPointToStart(ifOp.elseBlock());
  int64_t v = type.getNumElements();
  if (!count)
    count = constantIndex(b, loc, v);
  Value zero = arith::ConstantOp::create(b, loc, type, b.getZeroAttr(type));
  Value masked =
      vector::MaskedLoadOp::create(b, loc, type, from.buffer, from.indices,
                                   prefixMask(b, loc, count, v), zero, align);
  scf::YieldOp::create(b, loc, masked);
  return ifOp.getResult(0);
}

/// The memref and indices the GPU code touches for `indices` (without the
/// row delta) on `side`.
SharedAccess copy::physicalAccess(OpBuilder &b, Location loc,
                                  const CopySide &side, ArrayRef<Value> indices,
                                  int64_t rowDelta) {
  if (side.shared)
    return getPhysicalSharedAccess(b, loc, side.memref, indices, rowDelta);
  return SharedAccess{side.memref, addRowDelta(b, loc, indices, rowDelta)};
}

llvm::MaybeAlign copy::vectorAlign(int64_t v, int64_t elementBytes) {
  if (v == 1)
    return llvm::MaybeAlign();
  return llvm::Align(v * elementBytes);
}
