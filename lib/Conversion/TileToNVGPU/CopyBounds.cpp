//===- CopyBounds.cpp - Bounds checks of tile copy chunks -----------------===//
//
// Part of tile-mlir. Which chunks of a copy may leave the tensor, and the
// checks (counts and clamps) of those that may.
//
//===----------------------------------------------------------------------===//

#include "CopyLoweringDetail.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "tile/Dialect/Tile/Utils/IndexFacts.h"

using namespace mlir;
using namespace mlir::tile;
using namespace mlir::tile::copy;

CopySide CopySide::forExtent(OpBuilder &b, Location loc, Value memref,
                             ValueRange offsets, ArrayRef<int64_t> extent) {
  CopySide side(memref, offsets);
  if (!offsets.empty())
    return side;
  for (auto [d, size] : llvm::enumerate(extent)) {
    if (side.type.isDynamicDim(d) || size > side.type.getDimSize(d)) {
      side.offsets.assign(extent.size(), constantIndex(b, loc, 0));
      break;
    }
  }
  return side;
}

/// Whether `index` + `extra` is provably below the size of dimension `d`
/// (provablyFitsIn: e.g. a 4096 tensor cut in 128-row tiles by a 32-block
/// grid), so that dimension needs no bounds check.
static bool provablyBelow(const CopySide &side, Value index, int64_t extra,
                          unsigned d) {
  return provablyFitsIn(index, extra + 1, side.memref, d);
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
/// 183 registers and 459 TFLOP/s; clamped: 168 and 507, docs/performance.md.)
/// std::nullopt when the chunk is provably inside.
std::optional<ClampedChunk> copy::clampToBounds(OpBuilder &b, Location loc,
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
    Value started = ult(col, size);
    count = arith::SelectOp::create(b, loc, started, inside,
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
Value copy::boundsCount(OpBuilder &b, Location loc, const CopySide &side,
                        ArrayRef<Value> indices, int64_t rowDelta, int64_t v) {
  if (!side.needsBounds())
    return Value();
  return inBoundsElements(b, loc, side, addRowDelta(b, loc, indices, rowDelta),
                          v);
}

/// Whether the whole `extent` at the side's offsets provably lies inside it,
/// so that no chunk of the copy needs a bounds check; with `rowsOnly`, only
/// the dimensions other than the innermost are considered.
bool copy::provablyInside(const CopySide &side, ArrayRef<int64_t> extent,
                          bool rowsOnly) {
  if (!side.needsBounds())
    return true;
  for (auto [d, offset] : llvm::enumerate(side.offsets)) {
    if (rowsOnly && d + 1 == side.offsets.size())
      break;
    if (!provablyFitsIn(offset, extent[d], side.memref, d))
      return false;
  }
  return true;
}
