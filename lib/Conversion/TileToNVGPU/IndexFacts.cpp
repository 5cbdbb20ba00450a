//===- IndexFacts.cpp - Divisors and bounds of index values ---------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/IndexFacts.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Utils/LoopUtils.h"

#include <numeric>

using namespace mlir;

// Upstream's IntegerRangeAnalysis tracks ranges, not congruences, and the
// affine divisibility helpers only see affine maps; tile offsets are plain
// arith (`%by * 128`, `%k * 32`) threaded through loop counters, so this
// small structural walk is what proves them aligned.
static constexpr int64_t kZeroDivisor = int64_t(1) << 30;

/// A divisor of `d` (> 0) that is at most kZeroDivisor: `d` itself when it
/// is small enough, else its largest power-of-two factor up to that bound.
/// (min(d, kZeroDivisor) would not divide d: 2^30 + 1 is odd.)
static int64_t boundedDivisor(int64_t d) {
  return d <= kZeroDivisor ? d : std::gcd(d, kZeroDivisor);
}

namespace {
struct LoopBounds {
  Value lb, ub, step;
};
} // namespace

/// The bounds of the loop whose induction variable `arg` is, an `scf.for` or
/// a `tile.pipelined`; std::nullopt for any other block argument.
static std::optional<LoopBounds> getLoopBounds(BlockArgument arg) {
  Operation *parent = arg.getOwner()->getParentOp();
  if (auto loop = dyn_cast<scf::ForOp>(parent);
      loop && arg == loop.getInductionVar())
    return LoopBounds{loop.getLowerBound(), loop.getUpperBound(),
                      loop.getStep()};
  if (auto loop = dyn_cast<tile::PipelinedOp>(parent);
      loop && arg == loop.getInductionVar())
    return LoopBounds{loop.getLowerBound(), loop.getUpperBound(),
                      loop.getStep()};
  return std::nullopt;
}

static int64_t divisorOfConstant(int64_t c) {
  if (c == 0)
    return kZeroDivisor;
  return boundedDivisor(c < 0 ? -c : c);
}

static int64_t getDivisor(Value value, unsigned depth) {
  if (depth > 32)
    return 1;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return divisorOfConstant(constant.getSExtValue());

  if (auto arg = dyn_cast<BlockArgument>(value)) {
    // Loop counters: lb + i * step.
    if (std::optional<LoopBounds> loop = getLoopBounds(arg))
      return std::gcd(getDivisor(loop->lb, depth + 1),
                      getDivisor(loop->step, depth + 1));
    return 1;
  }

  Operation *op = value.getDefiningOp();
  auto operand = [&](unsigned i) {
    return getDivisor(op->getOperand(i), depth + 1);
  };
  if (isa<arith::MulIOp>(op))
    return boundedDivisor(operand(0) * operand(1));
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    return std::gcd(operand(0), operand(1));
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(op))
    return operand(0);
  if (isa<arith::SelectOp>(op))
    return std::gcd(operand(1), operand(2));
  if (isa<arith::ShLIOp>(op)) {
    APInt shift;
    if (matchPattern(op->getOperand(1), m_ConstantInt(&shift)) &&
        shift.getZExtValue() < 30)
      return boundedDivisor(operand(0) << shift.getZExtValue());
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

// Upstream's ValueBoundsConstraintSet would need bound models for the tile
// ops (kernel block indices, pipelined counters); the handful of forms tile
// offsets take are covered directly. Every rule keeps values non-negative.
static std::optional<int64_t> getUpperBound(Value value, unsigned depth);

/// Counter < ub with lb >= 0 and step > 0: at most the last lb + i * step
/// below ub's bound (so that in a loop unrolled by U, counter + u for u < U
/// stays below the bound too).
static std::optional<int64_t> loopCounterBound(Value lb, Value ub, Value step,
                                               unsigned depth) {
  std::optional<int64_t> lower = tile::evaluateConstantIndex(lb);
  std::optional<int64_t> stepValue = tile::evaluateConstantIndex(step);
  std::optional<int64_t> upper = getUpperBound(ub, depth + 1);
  if (!lower || *lower < 0 || !stepValue || *stepValue <= 0 || !upper)
    return std::nullopt;
  if (*upper - 1 < *lower)
    return *upper - 1;
  return *lower + (*upper - 1 - *lower) / *stepValue * *stepValue;
}

static std::optional<int64_t> getUpperBound(Value value, unsigned depth) {
  if (depth > 32)
    return std::nullopt;
  if (std::optional<int64_t> c = tile::evaluateConstantIndex(value))
    return *c >= 0 ? std::optional<int64_t>(*c) : std::nullopt;

  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto kernel = dyn_cast<tile::KernelOp>(parent)) {
      std::optional<int64_t> grid = tile::evaluateConstantIndex(
          kernel.getGridSizes()[arg.getArgNumber()]);
      if (grid && *grid > 0)
        return *grid - 1;
      return std::nullopt;
    }
    if (std::optional<LoopBounds> loop = getLoopBounds(arg))
      return loopCounterBound(loop->lb, loop->ub, loop->step, depth);
    return std::nullopt;
  }

  Operation *op = value.getDefiningOp();
  if (auto tid = dyn_cast<gpu::ThreadIdOp>(op)) {
    auto kernel = op->getParentOfType<tile::KernelOp>();
    if (kernel && tid.getDimension() == gpu::Dimension::x)
      return kernel.getThreads() - 1;
    return std::nullopt;
  }
  auto bound = [&](unsigned i) {
    return getUpperBound(op->getOperand(i), depth + 1);
  };
  auto constant = [&](unsigned i) {
    return tile::evaluateConstantIndex(op->getOperand(i));
  };
  auto checked = [](int64_t v) -> std::optional<int64_t> {
    // Far from overflow: tensors index below 2^40.
    if (v < 0 || v > (int64_t(1) << 40))
      return std::nullopt;
    return v;
  };
  if (isa<arith::AddIOp>(op)) {
    auto a = bound(0), b = bound(1);
    if (a && b)
      return checked(*a + *b);
  } else if (isa<arith::MulIOp>(op)) {
    auto a = bound(0), b = bound(1);
    if (a && b)
      return checked(*a * *b);
  } else if (isa<arith::DivUIOp>(op)) {
    auto a = bound(0);
    auto c = constant(1);
    if (a && c && *c > 0)
      return *a / *c;
  } else if (isa<arith::RemUIOp>(op)) {
    auto c = constant(1);
    auto a = bound(0);
    if (c && *c > 0)
      return a ? std::min(*a, *c - 1) : *c - 1;
  } else if (auto sub = dyn_cast<arith::SubIOp>(op)) {
    // A difference that cannot wrap below zero is at most the minuend.
    if (bitEnumContainsAll(sub.getOverflowFlags(),
                           arith::IntegerOverflowFlags::nuw))
      return bound(0);
  } else if (isa<arith::MinUIOp>(op)) {
    auto a = bound(0), b = bound(1);
    if (a && b)
      return std::min(*a, *b);
    return a ? a : b;
  } else if (isa<arith::MaxUIOp>(op)) {
    auto a = bound(0), b = bound(1);
    if (a && b)
      return std::max(*a, *b);
  } else if (isa<arith::SelectOp>(op)) {
    auto a = bound(1), b = bound(2);
    if (a && b)
      return std::max(*a, *b);
  }
  return std::nullopt;
}

std::optional<int64_t> mlir::tile::getConstantUpperBound(Value value) {
  return getUpperBound(value, 0);
}
