//===- MemRefUtils.cpp - The memory a memref value names ------------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Utils/MemRefUtils.h"

#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

Value tile::getUnderlyingMemRef(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}
