//===- MultiBuffer.cpp - Version dimension of shared tiles ----------------===//
//
// Part of tile-mlir.
//
// Upstream's memref::multiBuffer does the same array expansion, but only for
// memref.alloc ops inside the loop, indexes with the loop's own induction
// variable and leaves uses outside the loop alone. Shared tiles here are
// tile.alloc_shared ops outside the loop, read after it (TileLang issue
// 3039), and indexed from the iteration of the stage that touches them, so
// the few lines are written here.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Transforms/Pipelining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::tile;

Value mlir::tile::createVersionedAlloc(OpBuilder &builder, AllocSharedOp alloc,
                                       int64_t versions) {
  auto type = cast<MemRefType>(alloc.getType());
  SmallVector<int64_t> shape{versions};
  llvm::append_range(shape, type.getShape());
  auto versionedType =
      MemRefType::get(shape, type.getElementType(), MemRefLayoutAttrInterface(),
                      type.getMemorySpace());
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(alloc);
  return AllocSharedOp::create(builder, alloc.getLoc(), versionedType);
}

Value mlir::tile::createVersionView(OpBuilder &builder, Location loc,
                                    Value versioned, Value version) {
  auto type = cast<MemRefType>(versioned.getType());
  ArrayRef<int64_t> tileShape = type.getShape().drop_front();
  SmallVector<OpFoldResult> offsets{version}, sizes{builder.getIndexAttr(1)},
      strides(type.getRank(), builder.getIndexAttr(1));
  for (int64_t size : tileShape) {
    offsets.push_back(builder.getIndexAttr(0));
    sizes.push_back(builder.getIndexAttr(size));
  }
  // The version offset is dynamic, so the view is strided with a dynamic
  // offset even where the version folds to a constant: every view of one
  // buffer then has the same type, which the GPU lowering relies on.
  SmallVector<int64_t> tileStrides(tileShape.size(), 1);
  for (int64_t i = static_cast<int64_t>(tileShape.size()) - 2; i >= 0; --i)
    tileStrides[i] = tileStrides[i + 1] * tileShape[i + 1];
  auto viewType =
      MemRefType::get(tileShape, type.getElementType(),
                      StridedLayoutAttr::get(builder.getContext(),
                                             ShapedType::kDynamic, tileStrides),
                      type.getMemorySpace());
  return memref::SubViewOp::create(builder, loc, viewType, versioned, offsets,
                                   sizes, strides);
}

Value mlir::tile::createVersionIndex(OpBuilder &builder, Location loc, Value iv,
                                     Value lb, Value step, int64_t versions) {
  // Iteration numbers are non-negative and the step positive (checked), so
  // unsigned division and remainder are exact.
  Value iteration = builder.createOrFold<arith::DivUIOp>(
      loc, builder.createOrFold<arith::SubIOp>(loc, iv, lb), step);
  Value count = arith::ConstantIndexOp::create(builder, loc, versions);
  return builder.createOrFold<arith::RemUIOp>(loc, iteration, count);
}
