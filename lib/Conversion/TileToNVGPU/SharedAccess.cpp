//===- SharedAccess.cpp - Addressing shared tiles on the GPU --------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/SharedAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "tile/Conversion/TileToNVGPU/SharedLayout.h"

using namespace mlir;
using namespace mlir::tile;

SharedAccess mlir::tile::composeSharedAccess(OpBuilder &b, Location loc,
                                             Value tile, ValueRange indices) {
  SharedAccess access{tile, SmallVector<Value>(indices)};
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
    access.buffer = subview.getSource();
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
  SharedSwizzle swizzle(type.getShape().back(),
                        type.getElementTypeBitWidth() / 8);
  unsigned rank = access.indices.size();
  access.indices[rank - 1] = swizzle.getColumn(b, loc, access.indices[rank - 2],
                                               access.indices[rank - 1]);
  return access;
}
