//===- SharedAccess.cpp - Addressing shared tiles on the GPU --------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/SharedAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "tile/Conversion/TileToNVGPU/SharedLayout.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "llvm/ADT/SmallBitVector.h"

#include <tuple>

using namespace mlir;
using namespace mlir::tile;

Value mlir::tile::skipCasts(Value view) {
  while (auto cast = view.getDefiningOp<memref::CastOp>())
    view = cast.getSource();
  return view;
}

SharedAccess mlir::tile::composeSharedAccess(OpBuilder &b, Location loc,
                                             Value tile, ValueRange indices) {
  SharedAccess access{skipCasts(tile), SmallVector<Value>(indices)};
  while (auto subview = access.buffer.getDefiningOp<memref::SubViewOp>()) {
    llvm::SmallBitVector dropped = subview.getDroppedDims();
    SmallVector<OpFoldResult> offsets = subview.getMixedOffsets();
    SmallVector<OpFoldResult> strides = subview.getMixedStrides();
    SmallVector<Value> sourceIndices;
    unsigned next = 0;
    for (unsigned d = 0, e = offsets.size(); d < e; ++d) {
      Value offset = getValueOrCreateConstantIndexOp(b, loc, offsets[d]);
      if (dropped.test(d)) {
        sourceIndices.push_back(offset);
        continue;
      }
      Value index = access.indices[next++];
      Value stride = getValueOrCreateConstantIndexOp(b, loc, strides[d]);
      Value scaled = b.createOrFold<arith::MulIOp>(loc, index, stride);
      sourceIndices.push_back(
          b.createOrFold<arith::AddIOp>(loc, offset, scaled));
    }
    access.buffer = skipCasts(subview.getSource());
    access.indices = std::move(sourceIndices);
  }
  return access;
}

SharedAccess mlir::tile::getPhysicalSharedAccess(OpBuilder &b, Location loc,
                                                 Value tile,
                                                 ValueRange indices) {
  SharedAccess access = composeSharedAccess(b, loc, tile, indices);
  auto type = cast<MemRefType>(access.buffer.getType());
  if (type.getRank() < 2)
    return access;
  unsigned rank = access.indices.size();
  SharedSwizzle swizzle(type.getDimSize(rank - 2), type.getDimSize(rank - 1),
                        type.getElementTypeBitWidth() / 8);
  std::tie(access.indices[rank - 2], access.indices[rank - 1]) =
      swizzle.getPhysical(b, loc, access.indices[rank - 2],
                          access.indices[rank - 1]);
  return access;
}

namespace {
/// Where one step along a tile's row dimension lands in the buffer under all
/// its subviews.
struct RowStep {
  MemRefType buffer;
  int64_t stride; // in rows of `buffer`
};
} // namespace

/// The buffer under all subviews of `tile` and the stride, in its rows, of
/// one step along the tile's row dimension (its second innermost); nullopt
/// when a stride is dynamic or the step does not land on that buffer's row
/// dimension.
static std::optional<RowStep> composedRowStep(Value tile) {
  auto type = cast<MemRefType>(tile.getType());
  if (type.getRank() < 2)
    return std::nullopt;
  unsigned dim = type.getRank() - 2;
  int64_t stride = 1;
  Value current = skipCasts(tile);
  while (auto subview = current.getDefiningOp<memref::SubViewOp>()) {
    llvm::SmallBitVector dropped = subview.getDroppedDims();
    std::optional<unsigned> sourceDim;
    for (unsigned d = 0, kept = 0, e = dropped.size(); d < e && !sourceDim; ++d)
      if (!dropped.test(d) && kept++ == dim)
        sourceDim = d;
    if (!sourceDim)
      return std::nullopt;
    std::optional<int64_t> step =
        getConstantIntValue(subview.getMixedStrides()[*sourceDim]);
    if (!step)
      return std::nullopt;
    stride *= *step;
    dim = *sourceDim;
    current = skipCasts(subview.getSource());
  }
  auto buffer = cast<MemRefType>(current.getType());
  if (dim + 2 != buffer.getRank())
    return std::nullopt;
  return RowStep{buffer, stride};
}

SharedAccess mlir::tile::getPhysicalSharedAccess(OpBuilder &b, Location loc,
                                                 Value tile, ValueRange indices,
                                                 int64_t rowDelta) {
  if (rowDelta == 0)
    return getPhysicalSharedAccess(b, loc, tile, indices);
  if (std::optional<RowStep> step = composedRowStep(tile)) {
    ArrayRef<int64_t> shape = step->buffer.getShape();
    SharedSwizzle swizzle(shape[shape.size() - 2], shape.back(),
                          step->buffer.getElementTypeBitWidth() / 8);
    int64_t bufferDelta = rowDelta * step->stride;
    if (bufferDelta % swizzle.period() == 0) {
      // Rows one period apart share their physical column; the physical row
      // moves by the delta over the panels.
      SharedAccess access = getPhysicalSharedAccess(b, loc, tile, indices);
      Value &row = access.indices[access.indices.size() - 2];
      row = arith::AddIOp::create(
          b, loc, row,
          arith::ConstantIndexOp::create(b, loc, bufferDelta / swizzle.panels));
      return access;
    }
  }
  SmallVector<Value> shifted(indices);
  Value &row = shifted[shifted.size() - 2];
  row = b.createOrFold<arith::AddIOp>(
      loc, row, arith::ConstantIndexOp::create(b, loc, rowDelta));
  return getPhysicalSharedAccess(b, loc, tile, shifted);
}

Value mlir::tile::getWholeSharedTile(Value tile) {
  tile = skipCasts(tile);
  while (auto subview = tile.getDefiningOp<memref::SubViewOp>()) {
    MemRefType source = subview.getSourceType();
    int64_t rank = source.getRank();
    if (rank < 2)
      return {};
    llvm::SmallBitVector dropped = subview.getDroppedDims();
    for (int64_t d = rank - 2; d < rank; ++d)
      if (dropped.test(d) || subview.getStaticOffsets()[d] != 0 ||
          subview.getStaticSizes()[d] != source.getDimSize(d) ||
          subview.getStaticStrides()[d] != 1)
        return {};
    tile = skipCasts(subview.getSource());
  }
  auto type = cast<MemRefType>(tile.getType());
  if (!tile.getDefiningOp<AllocSharedOp>() || !type.getLayout().isIdentity())
    return {};
  return tile;
}

/// A copy or clear lowers to rows of 16-byte chunks (and TMA boxes); a
/// scalar has no row.
static LogicalResult checkNoScalarCopies(KernelOp kernel) {
  WalkResult result = kernel.getBody().walk([](Operation *op) {
    if (!isa<CopyOp, CopyAsyncOp, ClearOp>(op))
      return WalkResult::advance();
    for (Value operand : op->getOperands()) {
      auto type = dyn_cast<MemRefType>(operand.getType());
      if (type && type.getRank() == 0) {
        // Not named: the pipelining rewrite may have made a tile.copy
        // tile.copy_async.
        op->emitError("a tile copy or clear of a memref of rank 0 is not "
                      "supported by the GPU lowering: give the tile at least "
                      "one dimension (memref<1xT>)");
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// The buffer under all subviews (and casts) of `view`.
static Value getUnderlyingBuffer(Value view) {
  view = skipCasts(view);
  while (auto subview = view.getDefiningOp<memref::SubViewOp>())
    view = skipCasts(subview.getSource());
  return view;
}

/// Whether `a` and `b` are static subviews of one buffer that lie apart in
/// some dimension (two versions of a multi-buffered tile).
static bool areDisjointSubviews(Value a, Value b) {
  auto first = skipCasts(a).getDefiningOp<memref::SubViewOp>();
  auto second = skipCasts(b).getDefiningOp<memref::SubViewOp>();
  if (!first || !second ||
      skipCasts(first.getSource()) != skipCasts(second.getSource()))
    return false;
  for (auto [x, y] : llvm::zip_equal(
           llvm::zip_equal(first.getStaticOffsets(), first.getStaticSizes(),
                           first.getStaticStrides()),
           llvm::zip_equal(second.getStaticOffsets(), second.getStaticSizes(),
                           second.getStaticStrides()))) {
    auto [xOffset, xSize, xStride] = x;
    auto [yOffset, ySize, yStride] = y;
    if (llvm::any_of(
            ArrayRef<int64_t>{xOffset, xSize, xStride, yOffset, ySize, yStride},
            ShapedType::isDynamic))
      continue;
    // The indices each view covers in this dimension: from its offset to
    // its last index, downwards where its stride is negative.
    int64_t xLast = xOffset + (xSize - 1) * xStride;
    int64_t yLast = yOffset + (ySize - 1) * yStride;
    if (std::max(xOffset, xLast) < std::min(yOffset, yLast) ||
        std::max(yOffset, yLast) < std::min(xOffset, xLast))
      return true;
  }
  return false;
}

/// Each thread copies its own chunks, with no barrier between the reads and
/// the writes: a copy within one shared tile could read elements that
/// another thread has already overwritten. Copying elements onto themselves
/// is harmless (the thread that reads one writes it back), and so is a copy
/// between parts that lie apart: a copy reads only inside its source and
/// writes only inside its destination.
static LogicalResult checkNoCopiesWithinATile(KernelOp kernel) {
  auto check = [](auto copy) {
    Value source = copy.getSource(), dest = copy.getDest();
    Value buffer = getUnderlyingBuffer(source);
    if (!buffer.getDefiningOp<AllocSharedOp>() ||
        buffer != getUnderlyingBuffer(dest) ||
        (source == dest && copy.getSourceIndices() == copy.getDestIndices()) ||
        areDisjointSubviews(source, dest))
      return WalkResult::advance();
    copy.emitOpError("copies between parts of one shared tile, which the GPU "
                     "lowering does not support: its threads copy at once, so "
                     "one could read an element that another has already "
                     "overwritten (copy through a second tile)");
    return WalkResult::interrupt();
  };
  WalkResult result = kernel.getBody().walk([&](Operation *op) {
    if (auto copy = dyn_cast<CopyOp>(op))
      return check(copy);
    if (auto copy = dyn_cast<CopyAsyncOp>(op))
      return check(copy);
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

/// The tile ops address the swizzled layout (SharedLayout.h); any other op
/// would read or write the elements where an unswizzled tile keeps them.
static LogicalResult checkOnlyTileOpsUseSharedTiles(KernelOp kernel) {
  WalkResult result = kernel.getBody().walk([](AllocSharedOp alloc) {
    SmallVector<Value> views = {alloc.getResult()};
    while (!views.empty()) {
      Value view = views.pop_back_val();
      for (Operation *user : view.getUsers()) {
        if (auto subview = dyn_cast<memref::SubViewOp>(user)) {
          views.push_back(subview.getResult());
          continue;
        }
        // A cast keeps the indexing, and with the shape unchanged the tile
        // ops see through it (skipCasts).
        if (auto cast = dyn_cast<memref::CastOp>(user)) {
          auto from = dyn_cast<MemRefType>(cast.getSource().getType());
          auto to = dyn_cast<MemRefType>(cast.getType());
          if (from && to && from.getShape() == to.getShape()) {
            views.push_back(cast.getResult());
            continue;
          }
        }
        if (isa_and_nonnull<TileDialect>(user->getDialect()))
          continue;
        InFlightDiagnostic diag = user->emitOpError(
            "uses a shared tile, which the GPU lowering lays out swizzled "
            "for the tile ops: only tile ops, directly or through "
            "memref.subview (or a memref.cast that keeps the shape), may use "
            "it (tile.copy moves it into a fragment or to global memory)");
        diag.attachNote(alloc.getLoc()) << "the shared tile";
        return WalkResult::interrupt();
      }
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult mlir::tile::checkSharedTileUses(KernelOp kernel) {
  return success(succeeded(checkNoScalarCopies(kernel)) &&
                 succeeded(checkNoCopiesWithinATile(kernel)) &&
                 succeeded(checkOnlyTileOpsUseSharedTiles(kernel)));
}
