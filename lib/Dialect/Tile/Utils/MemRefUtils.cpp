//===- MemRefUtils.cpp - The memory a memref value names ------------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Utils/MemRefUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;

Value tile::getUnderlyingMemRef(Value value) {
  while (auto view = value.getDefiningOp<ViewLikeOpInterface>())
    value = view.getViewSource();
  return value;
}

bool tile::isKnownBuffer(Value buffer) {
  if (auto arg = dyn_cast<BlockArgument>(buffer))
    return isa<FunctionOpInterface>(arg.getOwner()->getParentOp()) &&
           arg.getOwner()->isEntryBlock();
  Operation *def = buffer.getDefiningOp();
  return def && (isa<memref::GetGlobalOp>(def) ||
                 hasEffect<MemoryEffects::Allocate>(def, buffer));
}

bool tile::mayShareBuffer(Value a, Value b) {
  a = getUnderlyingMemRef(a);
  b = getUnderlyingMemRef(b);
  if (a == b || !isKnownBuffer(a) || !isKnownBuffer(b))
    return true;
  auto globalA = a.getDefiningOp<memref::GetGlobalOp>();
  auto globalB = b.getDefiningOp<memref::GetGlobalOp>();
  return globalA && globalB && globalA.getName() == globalB.getName();
}
