//===- LoopUtils.cpp - Constant indices and serial loops ------------------===//
//
// Part of tile-mlir. See LoopUtils.h.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Utils/LoopUtils.h"

#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::tile;

/// evaluateConstantIndex with a bound on the depth of the ops it folds, so
/// that a long chain cannot exhaust the stack, and on how many it folds in
/// all (`folds`), since a chain whose ops each use the previous value twice
/// (x = y - y) would fold 2^depth of them.
static std::optional<int64_t> foldConstantIndex(Value value, unsigned budget,
                                                int64_t &folds) {
  if (std::optional<int64_t> constant = getConstantIntValue(value))
    return constant;
  Operation *def = value.getDefiningOp();
  if (!def || budget == 0 || --folds < 0 || def->getNumResults() != 1 ||
      !isPure(def) || def->getNumRegions() != 0)
    return std::nullopt;
  // Operands that are not integers (the memref of a memref.dim, whose size
  // may be static) go to the folder as unknown; an integer one must fold.
  SmallVector<Attribute> operands;
  for (Value operand : def->getOperands()) {
    if (!operand.getType().isIntOrIndex()) {
      operands.push_back(Attribute());
      continue;
    }
    std::optional<int64_t> folded =
        foldConstantIndex(operand, budget - 1, folds);
    if (!folded)
      return std::nullopt;
    operands.push_back(IntegerAttr::get(operand.getType(), *folded));
  }
  SmallVector<OpFoldResult> results;
  if (failed(def->fold(operands, results)) || results.size() != 1)
    return std::nullopt;
  if (auto attr = dyn_cast<Attribute>(results.front())) {
    if (auto integer = dyn_cast<IntegerAttr>(attr))
      return integer.getInt();
    return std::nullopt;
  }
  // An op may fold to one of its operands (x + 0, x * 1, a select on a
  // constant): the constant is that operand's.
  return foldConstantIndex(cast<Value>(results.front()), budget - 1, folds);
}

std::optional<int64_t> mlir::tile::evaluateConstantIndex(Value value) {
  int64_t folds = 1024;
  return foldConstantIndex(value, /*budget=*/32, folds);
}

std::optional<int64_t> mlir::tile::getStaticTripCount(Value lb, Value ub,
                                                      Value step) {
  std::optional<int64_t> lbC = evaluateConstantIndex(lb),
                         ubC = evaluateConstantIndex(ub),
                         stepC = evaluateConstantIndex(step);
  if (!lbC || !ubC || !stepC || *stepC <= 0)
    return std::nullopt;
  if (*ubC <= *lbC)
    return 0;
  // ub - lb overflows int64_t for bounds far apart; it fits in uint64_t.
  uint64_t span = uint64_t(*ubC) - uint64_t(*lbC);
  uint64_t trips = llvm::divideCeil(span, uint64_t(*stepC));
  if (trips > uint64_t(std::numeric_limits<int64_t>::max()))
    return std::nullopt;
  return int64_t(trips);
}

std::optional<int64_t> mlir::tile::getStaticTripCount(scf::ForOp loop) {
  if (loop.getUnsignedCmp()) {
    std::optional<int64_t> lb = evaluateConstantIndex(loop.getLowerBound()),
                           ub = evaluateConstantIndex(loop.getUpperBound());
    if (!lb || !ub || *lb < 0 || *ub < 0)
      return std::nullopt;
  }
  return getStaticTripCount(loop.getLowerBound(), loop.getUpperBound(),
                            loop.getStep());
}

scf::ForOp mlir::tile::convertToSerialLoop(RewriterBase &rewriter,
                                           PipelinedOp loop) {
  rewriter.setInsertionPoint(loop);
  auto forOp = scf::ForOp::create(rewriter, loop.getLoc(), loop.getLowerBound(),
                                  loop.getUpperBound(), loop.getStep());
  Block *body = forOp.getBody();
  rewriter.inlineBlockBefore(&loop.getBody().front(), body,
                             body->getTerminator()->getIterator(),
                             forOp.getInductionVar());
  rewriter.eraseOp(loop);
  return forOp;
}
