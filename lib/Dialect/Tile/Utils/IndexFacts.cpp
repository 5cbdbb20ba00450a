//===- IndexFacts.cpp - Divisors and bounds of index values ---------------===//
//
// Part of tile-mlir.
//
//===----------------------------------------------------------------------===//

#include "tile/Dialect/Tile/Utils/IndexFacts.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Utils/LoopUtils.h"
#include "llvm/ADT/DenseMap.h"

#include <cstdlib>
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
/// The walks below branch at every op with two operands, so a chain of ops
/// that each use the previous value twice (x = y - y) would take 2^depth
/// steps. Each query (a public function, and any it calls) visits at most
/// kMaxVisits values; one that runs out answers as it does for what it
/// cannot prove. Real offsets take a few dozen visits.
constexpr int64_t kMaxVisits = 4096;
thread_local int64_t visitsLeft = 0;
thread_local unsigned openQueries = 0;

/// Opens a query: the outermost one of a thread resets the budget.
struct Query {
  Query() {
    if (openQueries++ == 0)
      visitsLeft = kMaxVisits;
  }
  ~Query() { --openQueries; }
  Query(const Query &) = delete;
  Query &operator=(const Query &) = delete;
};

/// Whether a walk must stop at this value: too deep, or out of visits.
bool exhausted(unsigned depth) { return depth > 32 || --visitsLeft < 0; }

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

/// A divisor of the constant `c`, read as signed, of any width (i128
/// included).
static int64_t divisorOfConstant(const APInt &c) {
  if (c.isZero())
    return kZeroDivisor;
  // abs of the most negative value is itself, which read as unsigned is its
  // magnitude.
  APInt magnitude = c.abs();
  if (magnitude.ule(kZeroDivisor))
    return magnitude.getZExtValue();
  return int64_t(1) << std::min(c.countr_zero(), 30u);
}

static int64_t getDivisor(Value value, unsigned depth);

namespace {
/// A value a loop carries from one iteration to the next: what it starts as
/// and what each iteration hands on. `arg` is the loop's block argument it
/// is read as (the key of the fixpoint below), which an scf.for's iteration
/// argument and its result share.
struct CarriedValue {
  BlockArgument arg;
  Value init, next;
};
} // namespace

/// `value` as a loop-carried value: an scf.for iteration argument or result,
/// or an scf.while `before` argument (the `after` region's arguments and the
/// loop's results are the scf.condition's operands, followed as values).
static std::optional<CarriedValue> getCarriedValue(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *parent = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      if (arg == loop.getInductionVar())
        return std::nullopt;
      OpOperand *init = loop.getTiedLoopInit(arg);
      return CarriedValue{arg, init->get(),
                          loop.getTiedLoopYieldedValue(arg)->get()};
    }
    if (auto loop = dyn_cast<scf::WhileOp>(parent);
        loop && arg.getOwner() == loop.getBeforeBody())
      return CarriedValue{arg, loop.getInits()[arg.getArgNumber()],
                          loop.getYieldOp().getOperand(arg.getArgNumber())};
    return std::nullopt;
  }
  auto result = cast<OpResult>(value);
  if (auto loop = dyn_cast<scf::ForOp>(result.getOwner()))
    return getCarriedValue(loop.getRegionIterArgs()[result.getResultNumber()]);
  return std::nullopt;
}

/// Divisors assumed for the carried values whose loops are being walked.
thread_local llvm::SmallDenseMap<Value, int64_t> assumedDivisors;

/// A divisor of every value `carried` takes: an optimistic fixpoint. Assume
/// the divisor of the initial value, and walk what an iteration hands on
/// with that assumption; where the assumption holds (the next value is a
/// multiple too), it holds in every iteration by induction, else retry with
/// the gcd of the two. Each retry divides the assumption by a prime, so
/// there are at most 30 (divisors are at most 2^30).
static int64_t getCarriedDivisor(const CarriedValue &carried, unsigned depth) {
  if (auto it = assumedDivisors.find(carried.arg); it != assumedDivisors.end())
    return it->second;
  int64_t assumed = getDivisor(carried.init, depth + 1);
  while (assumed > 1) {
    assumedDivisors[carried.arg] = assumed;
    int64_t next = std::gcd(assumed, getDivisor(carried.next, depth + 1));
    assumedDivisors.erase(carried.arg);
    if (next == assumed)
      break;
    assumed = next;
  }
  return assumed;
}

static int64_t getDivisor(Value value, unsigned depth) {
  if (exhausted(depth))
    return 1;
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return divisorOfConstant(constant);

  // A column carried by the loop over a block's tiles (`%col + 128`).
  if (std::optional<CarriedValue> carried = getCarriedValue(value))
    return getCarriedDivisor(*carried, depth);

  if (auto arg = dyn_cast<BlockArgument>(value)) {
    // Loop counters: lb + i * step.
    if (std::optional<LoopBounds> loop = getLoopBounds(arg))
      return std::gcd(getDivisor(loop->lb, depth + 1),
                      getDivisor(loop->step, depth + 1));
    // The values an scf.while's condition hands to its `after` region.
    if (auto loop = dyn_cast<scf::WhileOp>(arg.getOwner()->getParentOp()))
      return getDivisor(loop.getConditionOp().getArgs()[arg.getArgNumber()],
                        depth + 1);
    return 1;
  }

  Operation *op = value.getDefiningOp();
  auto operand = [&](unsigned i) {
    return getDivisor(op->getOperand(i), depth + 1);
  };
  if (auto loop = dyn_cast<scf::WhileOp>(op))
    return getDivisor(loop.getConditionOp()
                          .getArgs()[cast<OpResult>(value).getResultNumber()],
                      depth + 1);
  if (isa<arith::MulIOp>(op))
    return boundedDivisor(operand(0) * operand(1));
  if (isa<arith::AddIOp, arith::SubIOp>(op))
    return std::gcd(operand(0), operand(1));
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp, arith::ExtSIOp,
          arith::ExtUIOp>(op))
    return operand(0);
  if (isa<arith::SelectOp>(op))
    return std::gcd(operand(1), operand(2));
  // An offset chosen in a branch (gemm.py --offset-in-if): either yield.
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    if (!ifOp.elseBlock())
      return 1;
    unsigned i = cast<OpResult>(value).getResultNumber();
    return std::gcd(getDivisor(ifOp.thenYield().getOperand(i), depth + 1),
                    getDivisor(ifOp.elseYield().getOperand(i), depth + 1));
  }
  // The minimum or maximum is one of the two (tile-specialize-interior-steps
  // restricts loop counters with a bound on the counter's own lattice).
  if (isa<arith::MinUIOp, arith::MaxUIOp, arith::MinSIOp, arith::MaxSIOp>(op))
    return std::gcd(operand(0), operand(1));
  if (isa<arith::ShLIOp>(op)) {
    APInt shift;
    if (matchPattern(op->getOperand(1), m_ConstantInt(&shift)) && shift.ult(30))
      return boundedDivisor(operand(0) << shift.getZExtValue());
    return operand(0);
  }
  if (auto apply = dyn_cast<affine::AffineApplyOp>(op)) {
    // Only the common `d0 * c` / `s0 * c` forms; anything else is unknown.
    AffineExpr expr = apply.getAffineMap().getResult(0);
    if (auto bin = dyn_cast<AffineBinaryOpExpr>(expr)) {
      if (bin.getKind() == AffineExprKind::Mul)
        if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
          return divisorOfConstant(APInt(64, c.getValue(), /*isSigned=*/true));
    }
    return 1;
  }
  return 1;
}

int64_t mlir::tile::getKnownDivisor(Value value) {
  Query query;
  return getDivisor(value, 0);
}

// Upstream's ValueBoundsConstraintSet would need bound models for the tile
// ops (kernel block indices, pipelined counters); the handful of forms tile
// offsets take are covered directly. Every rule keeps values non-negative.
static std::optional<int64_t> getUpperBound(Value value, unsigned depth);
static std::optional<int64_t> getLowerBound(Value value, unsigned depth);

/// `value` as `x * c` for a constant c (on either side).
static std::optional<std::pair<Value, int64_t>> matchScaled(Value value) {
  auto mul = value.getDefiningOp<arith::MulIOp>();
  if (!mul)
    return std::nullopt;
  if (std::optional<int64_t> c = tile::evaluateConstantIndex(mul.getRhs()))
    return std::pair(mul.getLhs(), *c);
  if (std::optional<int64_t> c = tile::evaluateConstantIndex(mul.getLhs()))
    return std::pair(mul.getRhs(), *c);
  return std::nullopt;
}

/// `op` as `(x / P) * (P * e) + (x % P) * e`, which is `x * e`: a block
/// index that tile-split-accumulators cut into a tile (x / P) and its part
/// (x % P), each scaled to rows or columns. Bounding the two terms apart
/// would add the largest part to the largest tile, which the largest x does
/// not reach unless it is the last part of its tile. Returns x and e.
static std::optional<std::pair<Value, int64_t>>
matchTileAndPart(Operation *op) {
  auto add = dyn_cast<arith::AddIOp>(op);
  if (!add)
    return std::nullopt;
  for (auto [tileTerm, partTerm] : {std::pair(add.getLhs(), add.getRhs()),
                                    std::pair(add.getRhs(), add.getLhs())}) {
    auto tile = matchScaled(tileTerm), part = matchScaled(partTerm);
    if (!tile || !part || part->second <= 0)
      continue;
    auto div = tile->first.getDefiningOp<arith::DivUIOp>();
    auto rem = part->first.getDefiningOp<arith::RemUIOp>();
    if (!div || !rem || div.getLhs() != rem.getLhs() ||
        div.getRhs() != rem.getRhs())
      continue;
    std::optional<int64_t> parts = tile::evaluateConstantIndex(div.getRhs());
    if (parts && *parts > 0 && tile->second == *parts * part->second)
      return std::pair(div.getLhs(), part->second);
  }
  return std::nullopt;
}

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

/// a + b and a * b where they lie in [lowest, 2^40] (tensors index below
/// 2^40); std::nullopt elsewhere, and where the int64_t arithmetic would
/// overflow: a wrapped product of two constants is no bound.
static std::optional<int64_t> checkedResult(bool overflow, int64_t result,
                                            int64_t lowest) {
  if (overflow || result < lowest || result > (int64_t(1) << 40))
    return std::nullopt;
  return result;
}
static std::optional<int64_t> checkedAdd(int64_t a, int64_t b, int64_t lowest) {
  int64_t sum;
  bool overflow = llvm::AddOverflow(a, b, sum);
  return checkedResult(overflow, sum, lowest);
}
static std::optional<int64_t> checkedMul(int64_t a, int64_t b, int64_t lowest) {
  int64_t product;
  bool overflow = llvm::MulOverflow(a, b, product);
  return checkedResult(overflow, product, lowest);
}

static std::optional<int64_t> getUpperBoundUnchecked(Value value,
                                                     unsigned depth) {
  if (exhausted(depth))
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
  if (auto scaled = matchTileAndPart(op)) {
    if (auto x = getUpperBound(scaled->first, depth + 1))
      return checkedMul(*x, scaled->second, 0);
  } else if (isa<arith::AddIOp>(op)) {
    auto a = bound(0), b = bound(1);
    if (a && b)
      return checkedAdd(*a, *b, 0);
  } else if (isa<arith::MulIOp>(op)) {
    auto a = bound(0), b = bound(1);
    if (a && b)
      return checkedMul(*a, *b, 0);
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

/// Whether `value` is a sum, difference or product in an integer type
/// narrower than an index (i32), which wraps where the unbounded arithmetic
/// of the bounds does not: its bounds hold only where both stay within the
/// type's signed range.
static bool isNarrowArithmetic(Value value) {
  auto type = dyn_cast<IntegerType>(value.getType());
  return type && type.getWidth() < 64 &&
         isa_and_nonnull<arith::AddIOp, arith::SubIOp, arith::MulIOp>(
             value.getDefiningOp());
}

/// `bound` of a narrow `value` (isNarrowArithmetic), where it and its
/// `other` bound both lie within the type's signed range.
static std::optional<int64_t> withinType(Value value, int64_t bound,
                                         std::optional<int64_t> other) {
  unsigned width = value.getType().getIntOrFloatBitWidth();
  int64_t max = (int64_t(1) << (width - 1)) - 1, min = -max - 1;
  if (!other || bound < min || bound > max || *other < min || *other > max)
    return std::nullopt;
  return bound;
}

static std::optional<int64_t> getUpperBoundUnchecked(Value value,
                                                     unsigned depth);
static std::optional<int64_t> getLowerBoundUnchecked(Value value,
                                                     unsigned depth);

static std::optional<int64_t> getUpperBound(Value value, unsigned depth) {
  std::optional<int64_t> high = getUpperBoundUnchecked(value, depth);
  if (!high || !isNarrowArithmetic(value))
    return high;
  return withinType(value, *high, getLowerBoundUnchecked(value, depth + 1));
}

static std::optional<int64_t> getLowerBound(Value value, unsigned depth) {
  std::optional<int64_t> low = getLowerBoundUnchecked(value, depth);
  if (!low || !isNarrowArithmetic(value))
    return low;
  return withinType(value, *low, getUpperBoundUnchecked(value, depth + 1));
}

std::optional<int64_t> mlir::tile::getConstantUpperBound(Value value) {
  Query query;
  return getUpperBound(value, 0);
}

/// The smallest value `value` can take, read as a signed integer, where a
/// bound is known: loop counters start at their lower bound and rise, block
/// and thread indices at 0, and what arithmetic keeps a bound. Sums and
/// products stay far from overflow (tile offsets index below 2^40), as in
/// getUpperBound.
static std::optional<int64_t> getLowerBoundUnchecked(Value value,
                                                     unsigned depth) {
  if (exhausted(depth))
    return std::nullopt;
  if (std::optional<int64_t> c = tile::evaluateConstantIndex(value))
    return c;
  auto lower = [&](Value v) { return getLowerBound(v, depth + 1); };
  auto atLeastZero = [&](Value v) {
    std::optional<int64_t> low = lower(v);
    return low && *low >= 0;
  };
  constexpr int64_t lowest = -(int64_t(1) << 40);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (isa<tile::KernelOp>(arg.getOwner()->getParentOp()))
      return 0;
    std::optional<LoopBounds> loop = getLoopBounds(arg);
    if (loop && atLeastZero(loop->step))
      return lower(loop->lb);
    return std::nullopt;
  }
  Operation *op = value.getDefiningOp();
  if (isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GridDimOp,
          arith::ExtUIOp>(op))
    return 0;
  // Zero-extended from fewer bits than an index has.
  if (auto cast = dyn_cast<arith::IndexCastUIOp>(op)) {
    Type in = cast.getIn().getType();
    if (in.isInteger() && in.getIntOrFloatBitWidth() < 64)
      return 0;
    return std::nullopt;
  }
  // Sign-extended into an index.
  if (auto cast = dyn_cast<arith::IndexCastOp>(op))
    return cast.getType().isIndex() ? lower(cast.getIn()) : std::nullopt;
  // An offset chosen in a branch (gemm.py --offset-in-if): either yield.
  if (auto ifOp = dyn_cast<scf::IfOp>(op)) {
    if (!ifOp.elseBlock())
      return std::nullopt;
    unsigned i = cast<OpResult>(value).getResultNumber();
    std::optional<int64_t> a = lower(ifOp.thenYield().getOperand(i));
    std::optional<int64_t> b =
        a ? lower(ifOp.elseYield().getOperand(i)) : std::nullopt;
    return b ? std::optional(std::min(*a, *b)) : std::nullopt;
  }
  if (auto select = dyn_cast<arith::SelectOp>(op)) {
    std::optional<int64_t> a = lower(select.getTrueValue());
    std::optional<int64_t> b = a ? lower(select.getFalseValue()) : std::nullopt;
    return b ? std::optional(std::min(*a, *b)) : std::nullopt;
  }
  // Unsigned quotients and remainders of a non-negative value.
  if (isa<arith::DivUIOp, arith::CeilDivUIOp, arith::RemUIOp>(op))
    return atLeastZero(op->getOperand(0)) ? std::optional<int64_t>(0)
                                          : std::nullopt;
  if (auto sub = dyn_cast<arith::SubIOp>(op)) {
    // max(x, b) - b (the steps of a loop cut at a counter clamped to its
    // bounds, tile-specialize-interior-steps) is at least 0.
    if (auto max = sub.getLhs().getDefiningOp<arith::MaxSIOp>())
      if (max.getLhs() == sub.getRhs() || max.getRhs() == sub.getRhs())
        return 0;
    std::optional<int64_t> low = lower(sub.getLhs());
    if (!low)
      return std::nullopt;
    if (matchPattern(sub.getRhs(), m_Zero()))
      return low;
    // A counter at least c, less at most c (a loop's last steps, past the
    // split of tile-specialize-interior-steps, at k - 128).
    std::optional<int64_t> high = getUpperBound(sub.getRhs(), depth + 1);
    if (high && *low >= *high)
      return checkedAdd(*low, -*high, lowest);
    // A difference that cannot wrap below zero.
    if (*low >= 0 && bitEnumContainsAll(sub.getOverflowFlags(),
                                        arith::IntegerOverflowFlags::nuw))
      return 0;
    // One that can go below zero (a lead, k * 32 - 3), by at most this.
    return high ? checkedAdd(*low, -*high, lowest) : std::nullopt;
  }
  if (!isa<arith::AddIOp, arith::MulIOp, arith::MinSIOp, arith::MinUIOp,
           arith::MaxSIOp, arith::MaxUIOp>(op))
    return std::nullopt;
  std::optional<int64_t> a = lower(op->getOperand(0));
  std::optional<int64_t> b = lower(op->getOperand(1));
  bool nonNegative = a && b && *a >= 0 && *b >= 0;
  // A sum or product whose largest value would wrap has no lower bound
  // either (3 * 6148914691236517206 is 2). Operands without an upper bound
  // (sizes known at run time) are taken to stay below 2^40, as offsets do.
  if (isa<arith::AddIOp, arith::MulIOp>(op)) {
    std::optional<int64_t> highA = getUpperBound(op->getOperand(0), depth + 1);
    std::optional<int64_t> highB = getUpperBound(op->getOperand(1), depth + 1);
    constexpr int64_t limit = int64_t(1) << 40;
    if ((highA && *highA > limit) || (highB && *highB > limit))
      return std::nullopt;
    if (highA && highB &&
        !(isa<arith::AddIOp>(op) ? checkedAdd(*highA, *highB, lowest)
                                 : checkedMul(*highA, *highB, lowest)))
      return std::nullopt;
  }
  if (isa<arith::AddIOp>(op))
    return a && b ? checkedAdd(*a, *b, lowest) : std::nullopt;
  if (isa<arith::MulIOp>(op))
    return nonNegative ? checkedMul(*a, *b, lowest) : std::nullopt;
  if (isa<arith::MinSIOp>(op))
    return a && b ? std::optional(std::min(*a, *b)) : std::nullopt;
  if (isa<arith::MaxSIOp>(op))
    return a && b ? std::optional(std::max(*a, *b)) : (a ? a : b);
  if (isa<arith::MaxUIOp>(op))
    return nonNegative ? std::optional(std::max(*a, *b)) : std::nullopt;
  // The unsigned minimum is at most a non-negative operand, so it is
  // non-negative too.
  if (nonNegative)
    return std::min(*a, *b);
  if ((a && *a >= 0) || (b && *b >= 0))
    return 0;
  return std::nullopt;
}

std::optional<int64_t> mlir::tile::getConstantLowerBound(Value value) {
  Query query;
  return getLowerBound(value, 0);
}

bool mlir::tile::provablyNonNegative(Value value) {
  std::optional<int64_t> low = getConstantLowerBound(value);
  return low && *low >= 0;
}

// Sizes known only at run time. A grid of ceildiv(M, 128) blocks cuts a
// tensor of M rows in 128-row tiles; block `by` below the last one,
// min(by, ceildiv(M, 128) - 2) in the interior version of the kernel
// (tile-specialize-interior-blocks), starts a tile at row
// 128 * by <= 128 * ceildiv(M, 128) - 256 < M - 128; a block below
// floor(M / 128), min(by, M / 128 - 1) there, starts one at row
// 128 * (M / 128) - 128 <= M - 128. Constant bounds cannot say that, and the
// relation has a single size in it, so the values are bounded by forms
// a * ceildiv(S, t) + c or a * floor(S / t) + c over one size S; upstream's
// ValueBoundsConstraintSet could too, given bound models for the tile ops,
// at the price of a Presburger solver per query.
namespace {
/// a * ceildiv(S, t) + c, or a * floor(S / t) + c where `floor` is set, S
/// being dimension `dim` of `memref`; a == 0 (and no memref) for a constant.
/// Only values that are provably non-negative get a form. (With t == 1 both
/// are S; such forms are ceildiv forms.)
struct SizeForm {
  Value memref;
  int64_t dim = -1;
  int64_t t = 1;
  int64_t a = 0;
  int64_t c = 0;
  bool floor = false;

  static SizeForm constant(int64_t c) { return {Value(), -1, 1, 0, c}; }
  bool isConstant() const { return a == 0; }
  bool sameSize(const SizeForm &other) const {
    return memref == other.memref && dim == other.dim && t == other.t &&
           floor == other.floor;
  }
};
} // namespace

/// The form of `value` when it is a size: memref.dim of a constant
/// dimension.
static std::optional<SizeForm> sizeOf(Value value) {
  if (auto dimOp = value.getDefiningOp<memref::DimOp>())
    if (std::optional<int64_t> d =
            tile::evaluateConstantIndex(dimOp.getIndex()))
      return SizeForm{dimOp.getSource(), *d, 1, 1, 0};
  return std::nullopt;
}

/// lhs + sign * rhs, when both are over the same size or one is constant.
static std::optional<SizeForm> addForms(const SizeForm &lhs,
                                        const SizeForm &rhs, int64_t sign) {
  if (rhs.isConstant() || (!lhs.isConstant() && lhs.sameSize(rhs))) {
    // As scaleForm: far from overflow, or no form.
    constexpr int64_t limit = int64_t(1) << 40;
    if (std::abs(lhs.a) > limit || std::abs(rhs.a) > limit ||
        std::abs(lhs.c) > limit || std::abs(rhs.c) > limit)
      return std::nullopt;
    SizeForm sum = lhs;
    sum.a += sign * rhs.a;
    sum.c += sign * rhs.c;
    if (sum.a < 0)
      return std::nullopt;
    return sum;
  }
  if (lhs.isConstant() && sign > 0)
    return addForms(rhs, lhs, sign);
  return std::nullopt;
}

static std::optional<SizeForm> scaleForm(const SizeForm &form, int64_t k) {
  if (k < 0 || k > (int64_t(1) << 20) || form.a > (int64_t(1) << 20) ||
      std::abs(form.c) > (int64_t(1) << 40))
    return std::nullopt;
  SizeForm scaled = form;
  scaled.a *= k;
  scaled.c *= k;
  return scaled;
}

/// The form `value` equals, for the forms grid sizes and loop bounds take:
/// constants, sizes, ceildiv(size, t), and sums, differences (that cannot
/// wrap) and constant multiples of those.
static std::optional<SizeForm> getExactForm(Value value, unsigned depth) {
  if (exhausted(depth))
    return std::nullopt;
  if (std::optional<int64_t> c = tile::evaluateConstantIndex(value))
    return *c >= 0 ? std::optional(SizeForm::constant(*c)) : std::nullopt;
  if (isa<BlockArgument>(value))
    return std::nullopt;
  Operation *op = value.getDefiningOp();
  auto operand = [&](unsigned i) {
    return getExactForm(op->getOperand(i), depth + 1);
  };
  auto constant = [&](unsigned i) {
    return tile::evaluateConstantIndex(op->getOperand(i));
  };
  // ceildiv(S, t) or floor(S / t) of a size S (both S where t is 1).
  auto quotient = [&](std::optional<SizeForm> dividend, int64_t t,
                      bool floor) -> std::optional<SizeForm> {
    if (!dividend || dividend->a != 1 || dividend->t != 1 || dividend->c != 0 ||
        t <= 0)
      return std::nullopt;
    return SizeForm{dividend->memref, dividend->dim, t, 1, 0, floor && t > 1};
  };
  if (isa<arith::CeilDivUIOp>(op)) {
    if (std::optional<int64_t> t = constant(1))
      return quotient(operand(0), *t, /*floor=*/false);
    return std::nullopt;
  }
  if (isa<arith::DivUIOp>(op)) {
    // (S + t - 1) / t is ceildiv(S, t); S / t is floor(S / t).
    std::optional<int64_t> t = constant(1);
    if (!t)
      return std::nullopt;
    if (auto add = op->getOperand(0).getDefiningOp<arith::AddIOp>()) {
      std::optional<int64_t> bias = tile::evaluateConstantIndex(add.getRhs());
      if (bias == *t - 1)
        return quotient(getExactForm(add.getLhs(), depth + 1), *t,
                        /*floor=*/false);
    }
    return quotient(operand(0), *t, /*floor=*/true);
  }
  if (isa<arith::AddIOp>(op)) {
    auto lhs = operand(0), rhs = operand(1);
    return lhs && rhs ? addForms(*lhs, *rhs, 1) : std::nullopt;
  }
  if (auto sub = dyn_cast<arith::SubIOp>(op)) {
    if (!bitEnumContainsAll(sub.getOverflowFlags(),
                            arith::IntegerOverflowFlags::nuw))
      return std::nullopt;
    auto lhs = operand(0), rhs = operand(1);
    return lhs && rhs ? addForms(*lhs, *rhs, -1) : std::nullopt;
  }
  if (isa<arith::MulIOp>(op)) {
    auto lhs = operand(0), rhs = operand(1);
    if (lhs && rhs && rhs->isConstant())
      return scaleForm(*lhs, rhs->c);
    if (lhs && rhs && lhs->isConstant())
      return scaleForm(*rhs, lhs->c);
    return std::nullopt;
  }
  return sizeOf(value);
}

/// Whether `x` <= `y` for every size: constants, or forms over the same size
/// and tile with the same factor a, where floor(S / t) <= ceildiv(S, t) <=
/// floor(S / t) + 1.
static bool alwaysAtMost(const SizeForm &x, const SizeForm &y) {
  if (x.isConstant() && y.isConstant())
    return x.c <= y.c;
  if (x.isConstant() || y.isConstant() || x.memref != y.memref ||
      x.dim != y.dim || x.t != y.t || x.a != y.a)
    return false;
  if (x.floor == y.floor || x.floor)
    return x.c <= y.c;
  return x.c <= y.c - x.a; // a * ceildiv <= a * floor + a.
}

namespace {
/// The size a query bounds an index against (provablyFitsIn): where a
/// minimum is bounded by forms over two sizes, the one over this size is
/// the useful one.
struct SizeTarget {
  Value memref;
  int64_t dim;
  bool matches(const SizeForm &form) const {
    return !form.isConstant() && form.memref == memref && form.dim == dim;
  }
};
} // namespace

/// An upper bound of the minimum of two values bounded by `lhs` and `rhs`:
/// the one that is never the larger (alwaysAtMost), else the one over
/// `target`'s size, else the one over a size, which is what a dynamic size
/// needs.
/// (min(k, Q_A, Q_B), with bounds over the sizes of A and B, is below both:
/// a copy from A needs the first, one from B the second.)
static std::optional<SizeForm> boundOfMin(std::optional<SizeForm> lhs,
                                          std::optional<SizeForm> rhs,
                                          const SizeTarget &target) {
  if (!lhs || !rhs)
    return lhs ? lhs : rhs;
  if (alwaysAtMost(*lhs, *rhs))
    return lhs;
  if (alwaysAtMost(*rhs, *lhs))
    return rhs;
  if (target.matches(*rhs) && !target.matches(*lhs))
    return rhs;
  return lhs->isConstant() ? rhs : lhs;
}

/// An upper bound of the maximum of two values bounded by `lhs` and `rhs`:
/// the larger, where one is always the larger.
static std::optional<SizeForm> boundOfMax(std::optional<SizeForm> lhs,
                                          std::optional<SizeForm> rhs) {
  if (!lhs || !rhs)
    return std::nullopt;
  if (alwaysAtMost(*lhs, *rhs))
    return rhs;
  if (alwaysAtMost(*rhs, *lhs))
    return lhs;
  return std::nullopt;
}

static std::optional<SizeForm> getSymbolicUpperForm(Value value, unsigned depth,
                                                    const SizeTarget &target);

/// An upper bound of the non-negative `value` as a form: over a size where
/// one is known (getSymbolicUpperForm), else the constant upper bound (a
/// thread's offset in its tile).
static std::optional<SizeForm> getUpperForm(Value value, unsigned depth,
                                            const SizeTarget &target) {
  if (std::optional<SizeForm> form = getSymbolicUpperForm(value, depth, target))
    return form;
  if (std::optional<int64_t> bound = getUpperBound(value, depth + 1))
    return SizeForm::constant(*bound);
  return std::nullopt;
}

/// An upper bound of the non-negative `value` as a form over a size
/// (getExactForm where that holds); block indices are below their grid
/// size, loop counters below their upper bound.
static std::optional<SizeForm> getSymbolicUpperForm(Value value, unsigned depth,
                                                    const SizeTarget &target) {
  if (exhausted(depth))
    return std::nullopt;
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    Operation *parent = arg.getOwner()->getParentOp();
    Value limit;
    if (auto kernel = dyn_cast<tile::KernelOp>(parent)) {
      limit = kernel.getGridSizes()[arg.getArgNumber()];
    } else if (std::optional<LoopBounds> loop = getLoopBounds(arg)) {
      std::optional<int64_t> lb = tile::evaluateConstantIndex(loop->lb);
      std::optional<int64_t> step = tile::evaluateConstantIndex(loop->step);
      if (!lb || *lb < 0 || !step || *step <= 0)
        return std::nullopt;
      limit = loop->ub;
    } else {
      return std::nullopt;
    }
    std::optional<SizeForm> bound = getUpperForm(limit, depth + 1, target);
    return bound ? addForms(*bound, SizeForm::constant(1), -1) : std::nullopt;
  }
  Operation *op = value.getDefiningOp();
  if (auto div = dyn_cast_or_null<arith::DivUIOp>(op)) {
    // x / P for x <= a * q + c with P dividing a is at most
    // (a / P) * q + floor(c / P): the tile b / P of a block b below the
    // last tile's parts (tile-split-accumulators' parts in blocks).
    if (std::optional<SizeForm> exact = getExactForm(value, depth + 1))
      return exact;
    std::optional<int64_t> parts = tile::evaluateConstantIndex(div.getRhs());
    std::optional<SizeForm> form =
        parts && *parts > 0
            ? getSymbolicUpperForm(div.getLhs(), depth + 1, target)
            : std::nullopt;
    if (!form || form->isConstant() || form->a % *parts != 0)
      return std::nullopt;
    form->a /= *parts;
    form->c = llvm::divideFloorSigned(form->c, *parts);
    return form;
  }
  // x - c that cannot wrap below zero is at most x's bound less c.
  if (auto sub = dyn_cast_or_null<arith::SubIOp>(op)) {
    std::optional<int64_t> c = tile::evaluateConstantIndex(sub.getRhs());
    if (c && bitEnumContainsAll(sub.getOverflowFlags(),
                                arith::IntegerOverflowFlags::nuw)) {
      auto form = getUpperForm(sub.getLhs(), depth + 1, target);
      return form ? addForms(*form, SizeForm::constant(*c), -1) : std::nullopt;
    }
  }
  if (!op || !isa<arith::AddIOp, arith::MulIOp, arith::MinUIOp, arith::MaxUIOp,
                  arith::SelectOp>(op))
    return getExactForm(value, depth + 1);
  auto bound = [&](unsigned i) {
    return getUpperForm(op->getOperand(i), depth + 1, target);
  };
  if (auto scaled = matchTileAndPart(op)) {
    auto form = getUpperForm(scaled->first, depth + 1, target);
    return form ? scaleForm(*form, scaled->second) : std::nullopt;
  }
  if (isa<arith::AddIOp>(op)) {
    auto lhs = bound(0), rhs = bound(1);
    return lhs && rhs ? addForms(*lhs, *rhs, 1) : std::nullopt;
  }
  if (isa<arith::MulIOp>(op)) {
    std::optional<int64_t> rhs = tile::evaluateConstantIndex(op->getOperand(1));
    std::optional<int64_t> lhs = tile::evaluateConstantIndex(op->getOperand(0));
    // (x / t) * t <= x: a value rounded down to a multiple of t.
    for (auto [i, factor] : {std::pair(0u, rhs), std::pair(1u, lhs)}) {
      auto div = op->getOperand(i).getDefiningOp<arith::DivUIOp>();
      if (factor && *factor > 0 && div &&
          tile::evaluateConstantIndex(div.getRhs()) == factor)
        return getUpperForm(div.getLhs(), depth + 1, target);
    }
    if (rhs) {
      auto form = bound(0);
      return form ? scaleForm(*form, *rhs) : std::nullopt;
    }
    if (lhs) {
      auto form = bound(1);
      return form ? scaleForm(*form, *lhs) : std::nullopt;
    }
    return std::nullopt;
  }
  if (isa<arith::MinUIOp>(op))
    return boundOfMin(bound(0), bound(1), target);
  if (isa<arith::MaxUIOp>(op))
    return boundOfMax(bound(0), bound(1));
  return boundOfMax(bound(1), bound(2));
}

bool mlir::tile::provablyFitsIn(Value index, int64_t extent, Value memref,
                                unsigned dim) {
  Query query;
  auto type = cast<MemRefType>(memref.getType());
  if (!type.isDynamicDim(dim)) {
    std::optional<int64_t> bound = getConstantUpperBound(index);
    std::optional<int64_t> end =
        bound ? checkedAdd(*bound, extent, 0) : std::nullopt;
    return end && *end <= type.getDimSize(dim);
  }
  std::optional<SizeForm> bound =
      getUpperForm(index, 0, SizeTarget{memref, dim});
  // The sums below stay far from overflow: a form's a and c are at most
  // 2^40 in size (addForms, scaleForm), an extent is a tile's.
  if (!bound || bound->isConstant() || bound->memref != memref ||
      bound->dim != int64_t(dim) || bound->a > bound->t ||
      std::abs(bound->c) > (int64_t(1) << 40) || extent > (int64_t(1) << 40))
    return false;
  // a * floor(S / t) <= S for a <= t: c + extent <= 0 suffices, and at
  // S = 0 it is needed.
  if (bound->floor)
    return bound->c + extent <= 0;
  // For every S >= 0, with q = ceildiv(S, t): a * q + c + extent <= S. At
  // S = 0 that is c + extent <= 0; for q >= 1 the smallest S is
  // t * (q - 1) + 1, where (a - t) * q + c + extent + t - 1 <= 0 is tightest
  // at q = 1 since a <= t.
  return bound->c + extent <= 0 && bound->a + bound->c + extent - 1 <= 0;
}
