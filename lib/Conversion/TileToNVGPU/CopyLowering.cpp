//===- CopyLowering.cpp - Global/shared tile copies to per-thread code ----===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/CopyLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "tile/Conversion/TileToNVGPU/IndexFacts.h"
#include "tile/Conversion/TileToNVGPU/SharedAccess.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tile;

namespace {

/// One operand of a copy: the memref as written and the tile's offsets in it
/// (empty when the op gives none, i.e. all zero).
struct CopySide {
  Value memref;
  MemRefType type;
  SmallVector<Value> offsets;
  bool shared;

  CopySide(Value memref, ValueRange offsets)
      : memref(memref), type(cast<MemRefType>(memref.getType())),
        offsets(offsets), shared(getMemorySpace(type) == MemorySpace::Shared) {}

  int64_t elementBytes() const {
    return std::max<int64_t>(1, type.getElementTypeBitWidth() / 8);
  }
  /// Without offsets the extent lies inside the operand (the extent is the
  /// smaller of the two shapes), so only a side with offsets is checked.
  bool needsBounds() const { return !offsets.empty(); }
};

/// How a block-level copy of `extent` is cut into per-thread chunks.
struct ChunkPlan {
  SmallVector<int64_t> extent;
  int64_t vectorElements;
  int64_t chunksPerRow;
  int64_t totalChunks;
};

} // namespace

static Value constantIndex(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

static constexpr int64_t kAnyDivisor = int64_t(1) << 30;

/// Chunks per thread up to which a copy is unrolled into straight-line code.
static constexpr int64_t kMaxUnroll = 16;
/// Chunks per trip of a synchronous copy's loop beyond that, whose loads are
/// issued together.
static constexpr int64_t kLoopGroup = 8;

/// Proves that the innermost index of every chunk start on `side` is a
/// multiple of `v` elements and that v consecutive elements are contiguous in
/// memory, so a v-element vector access is aligned to its own size. Global
/// memrefs are assumed to start at a 16-byte aligned address (cudaMalloc
/// returns 256-byte aligned pointers); shared buffers are carved at 128-byte
/// offsets. What remains is the layout (static strides and offset, each a
/// multiple of v) and the offsets (getKnownDivisor), through any subviews.
static bool isAlignedFor(const CopySide &side, int64_t v) {
  if (v == 1)
    return true;
  int64_t divisor =
      side.offsets.empty() ? kAnyDivisor : getKnownDivisor(side.offsets.back());
  Value current = side.memref;
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
    current = subview.getSource();
  }
  auto type = cast<MemRefType>(current.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  if (ShapedType::isDynamic(offset) || offset % v != 0)
    return false;
  if (strides.empty() || strides.back() != 1)
    return false;
  for (int64_t stride : ArrayRef<int64_t>(strides).drop_back())
    if (ShapedType::isDynamic(stride) || stride % v != 0)
      return false;
  return divisor % v == 0;
}

/// The plan for chunks of `v` elements, which divides the extent's rows.
static ChunkPlan makePlan(ArrayRef<int64_t> extent, int64_t v) {
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
static ChunkPlan planChunks(ArrayRef<int64_t> extent, const CopySide &src,
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

/// Elements per chunk of a realigned copy: 16 bytes of 16-bit elements.
static constexpr int64_t kRealignedElements = 8;

/// A synchronous copy from global rows that are only 2-byte aligned (16-bit
/// elements, an odd row length) into a shared tile can still move 16-byte
/// chunks: each is read as the five aligned 32-bit words that cover it and
/// shifted into place (loadRealignedChunk). That needs a contiguous
/// row-major source of static shape (its linear index gives the shift; at
/// least one chunk long), 16-bit elements on both sides, rows of the extent
/// made of whole chunks and a destination aligned for them. Returns the
/// chunk plan, or std::nullopt.
static std::optional<ChunkPlan> planRealigned(ArrayRef<int64_t> extent,
                                              const CopySide &src,
                                              const CopySide &dst) {
  if (src.shared || !dst.shared || src.type.getRank() != 2 ||
      !src.type.hasStaticShape() ||
      src.type.getNumElements() < kRealignedElements ||
      !src.type.getLayout().isIdentity() || src.elementBytes() != 2 ||
      !src.type.getElementType().isIntOrFloat() ||
      src.type.getElementType() != dst.type.getElementType() ||
      extent.back() % kRealignedElements != 0 ||
      !isAlignedFor(dst, kRealignedElements))
    return std::nullopt;
  return makePlan(extent, kRealignedElements);
}

/// Whether forEachChunk emits the chunks as straight-line code: unrolled,
/// with no guard around any of them.
static bool isStraightLine(const ChunkPlan &plan, int64_t threads) {
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
using ChunkBody =
    function_ref<void(OpBuilder &, Location, ArrayRef<Value>, int64_t)>;
static void forEachChunk(OpBuilder &b, Location loc, const ChunkPlan &plan,
                         Value tid, int64_t threads, bool shareRows,
                         ChunkBody body,
                         function_ref<void(OpBuilder &)> flush = nullptr) {
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
    auto ifOp = scf::IfOp::create(b, loc, inRange, /*withElse=*/false);
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
    Value col = b.createOrFold<arith::MulIOp>(
        loc, b.createOrFold<arith::RemUIOp>(loc, tid, perRow),
        constantIndex(b, loc, plan.vectorElements));
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
static SmallVector<Value> sideIndices(OpBuilder &b, Location loc,
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
static SmallVector<Value> addRowDelta(OpBuilder &b, Location loc,
                                      ArrayRef<Value> indices,
                                      int64_t rowDelta) {
  SmallVector<Value> shifted(indices);
  if (rowDelta != 0) {
    Value &row = shifted[shifted.size() - 2];
    row = arith::AddIOp::create(b, loc, row, constantIndex(b, loc, rowDelta));
  }
  return shifted;
}

static Value dimSize(OpBuilder &b, Location loc, const CopySide &side,
                     unsigned d) {
  if (!side.type.isDynamicDim(d))
    return constantIndex(b, loc, side.type.getDimSize(d));
  return memref::DimOp::create(b, loc, side.memref, d);
}

/// Whether `index` + `extra` is provably below the size of dimension `d`
/// (getConstantUpperBound: e.g. a 4096 tensor cut in 128-row tiles by a
/// 32-block grid), so that dimension needs no bounds check.
static bool provablyBelow(const CopySide &side, Value index, int64_t extra,
                          unsigned d) {
  if (side.type.isDynamicDim(d))
    return false;
  std::optional<int64_t> bound = getConstantUpperBound(index);
  return bound && *bound + extra < side.type.getDimSize(d);
}

/// How many of the `v` elements starting at `indices` lie inside `side`:
/// 0 when the row is out of bounds, else min(v, dim - col) clamped at 0.
/// Unsigned compares also treat negative indices as out of bounds. Null when
/// the whole chunk is provably inside, so exact sizes pay no bounds checks.
/// Once any dimension needs a check, all are checked; clampToBounds checks
/// only those that need it. Counting synchronous chunks with clampToBounds
/// gives the same counts but other code, whose speed has not been measured
/// (ptxas then spills 4 bytes in the 4095^3 sm_90 GEMM).
static Value inBoundsElements(OpBuilder &b, Location loc, const CopySide &side,
                              ArrayRef<Value> indices, int64_t v) {
  unsigned rank = indices.size();
  bool rowInside = true;
  for (unsigned d = 0; d + 1 < rank; ++d)
    rowInside &= provablyBelow(side, indices[d], 0, d);
  if (rowInside && provablyBelow(side, indices[rank - 1], v - 1, rank - 1))
    return Value();

  auto ult = [&](Value lhs, Value rhs) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lhs, rhs);
  };
  Value inside = ult(indices[rank - 1], dimSize(b, loc, side, rank - 1));
  for (unsigned d = 0; d + 1 < rank; ++d)
    inside = arith::AndIOp::create(b, loc, inside,
                                   ult(indices[d], dimSize(b, loc, side, d)));
  Value remaining = arith::SubIOp::create(
      b, loc, dimSize(b, loc, side, rank - 1), indices[rank - 1]);
  Value count =
      arith::MinUIOp::create(b, loc, remaining, constantIndex(b, loc, v));
  return arith::SelectOp::create(b, loc, inside, count,
                                 constantIndex(b, loc, 0));
}

namespace {
/// The source of a bounds-checked cp.async chunk.
struct ClampedChunk {
  /// The chunk's indices, each clamped into its dimension.
  SmallVector<Value> indices;
  /// How many of the chunk's elements lie inside the tensor.
  Value count;
};
} // namespace

/// Bounds for a cp.async source chunk of `v` elements at `indices` (a
/// multiple of v in the last dimension): only the dimensions that can leave
/// the tensor are checked. An out-of-bounds chunk reads nothing (count 0)
/// from an address clamped into the tensor, so that the address stays inside
/// the allocation. Clamping, rather than replacing the indices of such a
/// chunk, keeps each address an affine function of the loop counter plus a
/// loop-invariant clamp: the bounds of a tile's rows and columns do not
/// change along the reduction loop, so LLVM hoists them and the steady state
/// keeps the incremented addresses of an unchecked copy. (Selecting index 0
/// for out-of-bounds chunks in every step held the 4000^3 GEMM on sm_90a at
/// 183 registers and 459 TFLOP/s; clamped: 168 and 507, docs/benchmarks.md.)
/// std::nullopt when the chunk is provably inside.
static std::optional<ClampedChunk> clampToBounds(OpBuilder &b, Location loc,
                                                 const CopySide &side,
                                                 ArrayRef<Value> indices,
                                                 int64_t v) {
  unsigned rank = indices.size();
  auto ult = [&](Value lhs, Value rhs) -> Value {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lhs, rhs);
  };
  auto minui = [&](Value lhs, Value rhs) -> Value {
    return b.createOrFold<arith::MinUIOp>(loc, lhs, rhs);
  };
  ClampedChunk chunk{SmallVector<Value>(indices), Value()};
  Value rowsInside;
  for (unsigned d = 0; d + 1 < rank; ++d) {
    if (provablyBelow(side, indices[d], 0, d))
      continue;
    Value size = dimSize(b, loc, side, d);
    Value inside = ult(indices[d], size);
    rowsInside =
        rowsInside ? arith::AndIOp::create(b, loc, rowsInside, inside) : inside;
    Value last =
        b.createOrFold<arith::SubIOp>(loc, size, constantIndex(b, loc, 1));
    chunk.indices[d] = minui(indices[d], last);
  }
  unsigned inner = rank - 1;
  bool colInside = provablyBelow(side, indices[inner], v - 1, inner);
  if (!rowsInside && colInside)
    return std::nullopt;
  Value vConstant = constantIndex(b, loc, v);
  Value count = vConstant;
  if (!colInside) {
    // The last chunk start inside the row is the largest multiple of v
    // below its size, so a clamped column keeps the chunk's alignment.
    Value size = dimSize(b, loc, side, inner);
    Value lastStart = b.createOrFold<arith::MulIOp>(
        loc,
        b.createOrFold<arith::DivUIOp>(
            loc,
            b.createOrFold<arith::SubIOp>(loc, size, constantIndex(b, loc, 1)),
            vConstant),
        vConstant);
    Value col = indices[inner];
    chunk.indices[inner] = minui(col, lastStart);
    // A chunk starts at a multiple of v, so when v divides the row it lies
    // wholly inside or wholly outside.
    Value inside = vConstant;
    if (side.type.isDynamicDim(inner) || side.type.getDimSize(inner) % v != 0)
      inside = minui(arith::SubIOp::create(b, loc, size, col), vConstant);
    count = arith::SelectOp::create(b, loc, ult(col, size), inside,
                                    constantIndex(b, loc, 0));
  }
  if (rowsInside)
    count = arith::SelectOp::create(b, loc, rowsInside, count,
                                    constantIndex(b, loc, 0));
  chunk.count = count;
  return chunk;
}

/// inBoundsElements at `indices` plus `rowDelta`, for a side that may need
/// a bounds check at all.
static Value boundsCount(OpBuilder &b, Location loc, const CopySide &side,
                         ArrayRef<Value> indices, int64_t rowDelta, int64_t v) {
  if (!side.needsBounds())
    return Value();
  return inBoundsElements(b, loc, side, addRowDelta(b, loc, indices, rowDelta),
                          v);
}

/// Whether the whole `extent` at the side's offsets provably lies inside it,
/// so that no chunk of the copy needs a bounds check; with `rowsOnly`, only
/// the dimensions other than the innermost are considered.
static bool provablyInside(const CopySide &side, ArrayRef<int64_t> extent,
                           bool rowsOnly = false) {
  if (!side.needsBounds())
    return true;
  for (auto [d, offset] : llvm::enumerate(side.offsets)) {
    if (rowsOnly && d + 1 == side.offsets.size())
      break;
    if (side.type.isDynamicDim(d))
      return false;
    std::optional<int64_t> bound = getConstantUpperBound(offset);
    if (!bound || *bound + extent[d] > side.type.getDimSize(d))
      return false;
  }
  return true;
}

/// vector<v x i1> with the first `count` lanes set. (vector.create_mask with
/// a dynamic bound is not lowered by convert-gpu-to-nvvm; this compare is
/// what it would expand to.)
static Value prefixMask(OpBuilder &b, Location loc, Value count, int64_t v) {
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

/// The memref and indices the GPU code touches for `indices` (without the
/// row delta) on `side`.
static SharedAccess physicalAccess(OpBuilder &b, Location loc,
                                   const CopySide &side,
                                   ArrayRef<Value> indices, int64_t rowDelta) {
  if (side.shared)
    return getPhysicalSharedAccess(b, loc, side.memref, indices, rowDelta);
  return SharedAccess{side.memref, addRowDelta(b, loc, indices, rowDelta)};
}

static llvm::MaybeAlign vectorAlign(int64_t v, int64_t elementBytes) {
  if (v == 1)
    return llvm::MaybeAlign();
  return llvm::Align(v * elementBytes);
}

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
  Value count = boundsCount(b, loc, src, srcIndices, rowDelta, v);
  if (count) {
    // Whole chunks (all but the tile's edge) take the plain vector load; LLVM
    // scalarizes a masked one into per-element branches.
    Value whole = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, count,
                                        constantIndex(b, loc, v));
    auto ifOp = scf::IfOp::create(b, loc, TypeRange{srcVector}, whole,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(ifOp.thenBlock());
      scf::YieldOp::create(b, loc, plainLoad(b));
      b.setInsertionPointToStart(ifOp.elseBlock());
      Value zero = arith::ConstantOp::create(b, loc, srcVector,
                                             b.getZeroAttr(srcVector));
      Value masked = vector::MaskedLoadOp::create(
          b, loc, srcVector, from.buffer, from.indices,
          prefixMask(b, loc, count, v), zero, srcAlign);
      scf::YieldOp::create(b, loc, masked);
    }
    value = ifOp.getResult(0);
  } else {
    value = plainLoad(b);
  }
  if (srcElement == dstElement)
    return value;
  auto dstVector = VectorType::get({v}, dstElement);
  if (srcElement.getIntOrFloatBitWidth() < dstElement.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(b, loc, dstVector, value);
  return arith::TruncFOp::create(b, loc, dstVector, value);
}

namespace {
/// The source of a realigned copy (planRealigned) seen as one contiguous row
/// of `total` elements.
struct RealignedSource {
  Value flat;
  Value total;
};

/// The loads of one realigned chunk. They are issued with the other chunks'
/// loads and joined only when the chunk is stored (finishRealignedChunk): a
/// join (or a branch) between them would make each chunk wait for its data
/// before the next chunk's loads are issued.
struct RealignedLoad {
  /// kRealignedElements / 2 + 1 words from the one holding the first element.
  SmallVector<Value> words;
  /// Whether the first element is the upper half of words[0].
  Value odd;
  /// Whether the chunk lies wholly inside the tensor (null: provably).
  Value whole;
  /// Its in-bounds elements, for the element-wise path of the tile's edge
  /// (null: all of them).
  Value count;
  /// Where that path reads.
  SharedAccess from;
};
} // namespace

static RealignedSource flattenSource(OpBuilder &b, Location loc,
                                     const CopySide &src) {
  SmallVector<ReassociationIndices> all{{0, 1}};
  return {memref::CollapseShapeOp::create(b, loc, src.memref, all),
          constantIndex(b, loc, src.type.getNumElements())};
}

/// Issues the loads of the kRealignedElements 16-bit elements at
/// `tileIndices` of a source whose rows are only 2-byte aligned: the five
/// 4-byte-aligned words from the one holding the first element. For an even
/// linear index the fifth word is not needed and the fourth is read again;
/// an odd index reads one element past the chunk, so a chunk whose next
/// element lies outside the tensor, like one that is not whole, takes the
/// element-wise path and its words are read at index 0 instead, which keeps
/// every load inside the tensor (planRealigned asks for at least 8
/// elements) and free of branches.
static RealignedLoad loadRealignedChunk(OpBuilder &b, Location loc,
                                        const CopySide &src,
                                        const RealignedSource &source,
                                        ArrayRef<Value> tileIndices,
                                        int64_t rowDelta) {
  constexpr int64_t v = kRealignedElements;
  SmallVector<Value> srcIndices = sideIndices(b, loc, src, tileIndices);
  RealignedLoad chunk;
  chunk.from = physicalAccess(b, loc, src, srcIndices, rowDelta);
  Value linear =
      arith::AddIOp::create(b, loc,
                            arith::MulIOp::create(b, loc, chunk.from.indices[0],
                                                  dimSize(b, loc, src, 1)),
                            chunk.from.indices[1]);
  chunk.count = boundsCount(b, loc, src, srcIndices, rowDelta, v);
  if (chunk.count)
    chunk.whole = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        chunk.count, constantIndex(b, loc, v));
  // The element after the chunk is inside an even-length tensor whenever
  // the chunk is: an odd index then cannot end the tensor.
  if (src.type.getNumElements() % 2 != 0) {
    Value tailInside = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult,
        arith::AddIOp::create(b, loc, linear, constantIndex(b, loc, v)),
        source.total);
    chunk.whole =
        chunk.whole
            ? arith::AndIOp::create(b, loc, chunk.whole, tailInside).getResult()
            : tailInside;
  }
  if (chunk.whole)
    linear = arith::SelectOp::create(b, loc, chunk.whole, linear,
                                     constantIndex(b, loc, 0));
  Value odd = arith::AndIOp::create(b, loc, linear, constantIndex(b, loc, 1));
  chunk.odd = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, odd,
                                    constantIndex(b, loc, 0));
  Value base = arith::SubIOp::create(b, loc, linear, odd);
  auto i32 = b.getI32Type();
  auto pairType = VectorType::get({2}, src.type.getElementType());
  auto word = [&](Value index) -> Value {
    Value pair =
        vector::LoadOp::create(b, loc, pairType, source.flat, ValueRange{index},
                               /*nontemporal=*/false, llvm::Align(4));
    return vector::ExtractOp::create(
        b, loc,
        vector::BitCastOp::create(b, loc, VectorType::get({1}, i32), pair), 0);
  };
  for (int64_t i = 0; i < v / 2; ++i)
    chunk.words.push_back(word(b.createOrFold<arith::AddIOp>(
        loc, base, constantIndex(b, loc, 2 * i))));
  // The next word for an odd index, the last one again for an even one.
  Value last = arith::AddIOp::create(
      b, loc, base,
      arith::AddIOp::create(
          b, loc, constantIndex(b, loc, v - 2),
          arith::MulIOp::create(b, loc, odd, constantIndex(b, loc, 2))));
  chunk.words.push_back(word(last));
  return chunk;
}

/// The value of a realigned chunk: for an odd index each output word joins
/// the upper half of one word and the lower half of the next. Chunks that
/// are not whole read their elements one by one, zero outside the tensor.
static Value finishRealignedChunk(OpBuilder &b, Location loc,
                                  const RealignedLoad &chunk,
                                  Type elementType) {
  constexpr int64_t v = kRealignedElements;
  auto i32 = b.getI32Type();
  Value sixteen = arith::ConstantIntOp::create(b, loc, i32, 16);
  SmallVector<Value> joined;
  for (int64_t i = 0; i + 1 < int64_t(chunk.words.size()); ++i) {
    Value high = arith::ShRUIOp::create(b, loc, chunk.words[i], sixteen);
    Value low = arith::ShLIOp::create(b, loc, chunk.words[i + 1], sixteen);
    Value shifted = arith::OrIOp::create(b, loc, high, low);
    joined.push_back(
        arith::SelectOp::create(b, loc, chunk.odd, shifted, chunk.words[i]));
  }
  auto vectorType = VectorType::get({v}, elementType);
  Value value = vector::BitCastOp::create(
      b, loc, vectorType,
      vector::FromElementsOp::create(b, loc, VectorType::get({v / 2}, i32),
                                     joined));
  if (!chunk.whole)
    return value;
  auto ifOp = scf::IfOp::create(b, loc, TypeRange{vectorType}, chunk.whole,
                                /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  scf::YieldOp::create(b, loc, value);
  b.setInsertionPointToStart(ifOp.elseBlock());
  Value count = chunk.count ? chunk.count : constantIndex(b, loc, v);
  Value zero =
      arith::ConstantOp::create(b, loc, vectorType, b.getZeroAttr(vectorType));
  Value elements = vector::MaskedLoadOp::create(
      b, loc, vectorType, chunk.from.buffer, chunk.from.indices,
      prefixMask(b, loc, count, v), zero, llvm::MaybeAlign(2));
  scf::YieldOp::create(b, loc, elements);
  return ifOp.getResult(0);
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
    auto ifOp = scf::IfOp::create(b, loc, any, /*withElse=*/false);
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
/// loaded here and their stores appended to `pending`, for the caller to
/// emit after the loads of the copies next to this one (lowerCopyRun); in a
/// loop or behind a guard, a group of chunks is stored right after its loads.
template <typename CopyLikeOp>
static void lowerCopy(OpBuilder &b, CopyLikeOp op, Value tid, int64_t threads,
                      bool async, SmallVectorImpl<PendingStore> &pending) {
  Location loc = op.getLoc();
  CopySide src(op.getSource(), op.getSourceIndices());
  CopySide dst(op.getDest(), op.getDestIndices());
  ChunkPlan plan = planChunks(op.getExtent(), src, &dst);
  int64_t v = plan.vectorElements;
  // cp.async moves 4, 8 or 16 bytes; anything narrower is copied
  // synchronously, which is a valid (if slower) completion of the group.
  int64_t bytes = v * src.elementBytes();
  bool useAsync = async && (bytes == 4 || bytes == 8 || bytes == 16);
  // Element-wise chunks of 2-byte-aligned rows are realigned instead.
  std::optional<RealignedSource> realigned;
  if (bytes < 4) {
    if (std::optional<ChunkPlan> wide =
            planRealigned(op.getExtent(), src, dst)) {
      plan = *wide;
      v = plan.vectorElements;
      realigned = flattenSource(b, loc, src);
    }
  }
  // Chunks share address arithmetic (one row and column per thread, rows a
  // constant apart) when their rows need no bounds check. A cp.async whose
  // source columns are checked clamps the shared column once
  // (clampToBounds); a synchronous chunk with any check computes its own
  // indices, since sharing them there only moved ptxas's register
  // allocation (the 1000^3 bf16 GEMM of test/Target/gemm-bf16-ptx.mlir
  // spilled on sm_90).
  bool shareRows = provablyInside(dst, plan.extent) &&
                   provablyInside(src, plan.extent, /*rowsOnly=*/useAsync);
  bool straightLine = isStraightLine(plan, threads);
  // Chunks in a loop or behind a guard keep their stores here until the
  // loop trip or the guard ends (forEachChunk's flush).
  SmallVector<PendingStore, 8> local;
  auto flushLocal = [&](OpBuilder &b) {
    storePending(b, local);
    local.clear();
  };
  forEachChunk(
      b, loc, plan, tid, threads, shareRows,
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
/// memory, which cannot read what another one writes.
static void lowerCopyRun(ArrayRef<Operation *> run, Value tid,
                         int64_t threads) {
  OpBuilder b(run.front());
  SmallVector<PendingStore, 8> pending;
  for (Operation *op : run) {
    if (auto copy = dyn_cast<CopyOp>(op))
      lowerCopy(b, copy, tid, threads, /*async=*/false, pending);
    else
      lowerCopy(b, cast<CopyAsyncOp>(op), tid, threads, /*async=*/true,
                pending);
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

/// A loop nobody pipelined runs serially.
static void lowerSerialPipelined(PipelinedOp op) {
  OpBuilder b(op);
  auto loop = scf::ForOp::create(b, op.getLoc(), op.getLowerBound(),
                                 op.getUpperBound(), op.getStep());
  Block &body = op.getBody().front();
  body.getArgument(0).replaceAllUsesWith(loop.getInductionVar());
  Block *loopBody = loop.getBody();
  loopBody->getOperations().splice(loopBody->getTerminator()->getIterator(),
                                   body.getOperations());
  op.erase();
}

LogicalResult mlir::tile::lowerTileMemoryOps(KernelOp kernel) {
  int64_t threads = kernel.getThreads();
  SmallVector<PipelinedOp> loops;
  kernel.walk([&](PipelinedOp op) { loops.push_back(op); });
  for (PipelinedOp loop : loops)
    lowerSerialPipelined(loop);

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

  SmallVector<Operation *> ops;
  kernel.walk([&](Operation *op) {
    if (isa<CopyOp, CopyAsyncOp, ClearOp, CommitGroupOp, WaitGroupOp,
            BarrierOp>(op))
      ops.push_back(op);
  });
  for (size_t i = 0; i < ops.size(); ++i) {
    Operation *op = ops[i];
    if (isa<CopyOp, CopyAsyncOp>(op)) {
      size_t end = i + 1;
      if (isGlobalToShared(op))
        while (end < ops.size() && isGlobalToShared(ops[end]) &&
               ops[end]->getPrevNode() == ops[end - 1])
          ++end;
      lowerCopyRun(ArrayRef<Operation *>(ops).slice(i, end - i), tid, threads);
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
