//===- Divisibility.cpp - Known divisors of index values ------------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/Divisibility.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "tile/Dialect/Tile/IR/TileOps.h"

#include <numeric>

using namespace mlir;

// Upstream's IntegerRangeAnalysis tracks ranges, not congruences, and the
// affine divisibility helpers only see affine maps; tile offsets are plain
// arith (`%by * 128`, `%k * 32`) threaded through loop counters, so this
// small structural walk is what proves them aligned.
static constexpr int64_t kZeroDivisor = int64_t(1) << 30;

static int64_t divisorOfConstant(int64_t c) {
  if (c == 0)
    return kZeroDivisor;
  return std::min<int64_t>(kZeroDivisor, c < 0 ? -c : c);
}

static int64_t getDivisor(Value value, unsigned depth) {
  if (depth > 32)
    return 1;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return divisorOfConstant(constant.getSExtValue());

  if (auto arg = dyn_cast<BlockArgument>(value)) {
    // Loop counters: lb + i * step.
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      if (arg == loop.getInductionVar())
        return std::gcd(getDivisor(loop.getLowerBound(), depth + 1),
                        getDivisor(loop.getStep(), depth + 1));
    }
    if (auto loop = dyn_cast<tile::PipelinedOp>(parent)) {
      if (arg == loop.getInductionVar())
        return std::gcd(getDivisor(loop.getLowerBound(), depth + 1),
                        getDivisor(loop.getStep(), depth + 1));
    }
    return 1;
  }

  Operation *op = value.getDefiningOp();
  auto operand = [&](unsigned i) {
    return getDivisor(op->getOperand(i), depth + 1);
  };
  if (isa<arith::MulIOp>(op))
    return std::min(kZeroDivisor, operand(0) * operand(1));
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    return std::gcd(operand(0), operand(1));
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(op))
    return operand(0);
  if (auto select = dyn_cast<arith::SelectOp>(op))
    return std::gcd(operand(1), operand(2));
  if (isa<arith::ShLIOp>(op)) {
    APInt shift;
    if (matchPattern(op->getOperand(1), m_ConstantInt(&shift)) &&
        shift.getZExtValue() < 30)
      return std::min(kZeroDivisor, operand(0) << shift.getZExtValue());
    return operand(0);
  }
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
    // Only the common `d0 * c` / `s0 * c` forms; anything else is unknown.
    AffineExpr expr = apply.getAffineMap().getResult(0);
    if (auto bin = dyn_cast<AffineBinaryOpExpr>(expr)) {
      if (bin.getKind() == AffineExprKind::Mul)
        if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
          return divisorOfConstant(c.getValue());
    }
    return 1;
  }
  return 1;
}

int64_t mlir::tile::getKnownDivisor(Value value) {
  return getDivisor(value, 0);
}
