//===- InteriorSteps.cpp - The tile-specialize-interior-steps pass --------===//
//
// Part of tile-mlir. A loop whose copies walk through a tensor in tiles
// bounds-checks them in every iteration where the tensor's size is not a
// multiple of the tile (a K of 777 in 32-column tiles) or is known only at
// run time, although only the last iterations can leave the tensor. This
// pass splits such a loop where the first of those begins: the copies of the
// first part are proved inside by the copy lowering, the second part keeps
// its checks. See the pass description in Passes.td.
//
// Upstream's scf::peelForLoop splits off the last partial step of a loop
// whose step does not divide its trip count; the split here comes from the
// sizes of the tensors the copies read, and its facts must reach our
// analysis (IndexFacts), so it is ours. As in
// tile-specialize-interior-blocks, the facts reach IndexFacts without
// teaching it about loop bounds: in the first part the counter is replaced
// by min(counter, Q) for bounds Q that IndexFacts reads, and that the
// counter never exceeds there. The minima are marked (`tile.counter_bound`)
// and tile-lower-to-nvgpu drops those that no remaining check or version
// index depends on once the copies are lowered (releaseCounterBounds).
//
//===----------------------------------------------------------------------===//

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "tile/Conversion/Passes.h"
#include "tile/Conversion/TileToNVGPU/InteriorBlocks.h"
#include "tile/Conversion/TileToNVGPU/TmaCopies.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Utils/IndexFacts.h"
#include "tile/Dialect/Tile/Utils/LoopUtils.h"
#include "tile/Dialect/Tile/Utils/PassOptions.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILESPECIALIZEINTERIORSTEPS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

namespace {
/// scale * counter + offset.
struct Linear {
  int64_t scale;
  int64_t offset;
};

/// A dimension of a copy's global side that the loop counter moves: the
/// copy stays inside dimension `dim` of `memref` in every iteration with
/// scale * counter + reach <= size, where reach is the offset plus the
/// copy's extent (or 0 where that is negative). Copies with the same memref,
/// dimension and scale share one constraint, with the largest reach.
struct Constraint {
  Value memref;
  unsigned dim;
  int64_t scale;
  int64_t reach;
};
} // namespace

/// What getLinear found for the values one query reached: an op that uses
/// a value twice (x = y - y, chained) would otherwise take 2^depth calls.
using LinearCache = DenseMap<Value, std::optional<Linear>>;

static std::optional<Linear> getLinear(Value value, Value counter,
                                       LinearCache &cache, unsigned depth);

/// `value` as scale * `counter` + offset with constants, where it is one.
static std::optional<Linear> getLinear(Value value, Value counter) {
  LinearCache cache;
  return getLinear(value, counter, cache, 0);
}

static std::optional<Linear> computeLinear(Value value, Value counter,
                                           LinearCache &cache, unsigned depth) {
  constexpr int64_t kLimit = int64_t(1) << 40;
  if (value == counter)
    return Linear{1, 0};
  if (std::optional<int64_t> c = evaluateConstantIndex(value))
    return Linear{0, *c};
  Operation *op = value.getDefiningOp();
  if (!op || !isa<arith::AddIOp, arith::SubIOp, arith::MulIOp>(op))
    return std::nullopt;
  std::optional<Linear> lhs =
      getLinear(op->getOperand(0), counter, cache, depth + 1);
  std::optional<Linear> rhs =
      getLinear(op->getOperand(1), counter, cache, depth + 1);
  if (!lhs || !rhs)
    return std::nullopt;
  Linear result;
  if (isa<arith::MulIOp>(op)) {
    if (lhs->scale != 0 && rhs->scale != 0)
      return std::nullopt;
    const Linear &var = lhs->scale != 0 ? *lhs : *rhs;
    int64_t factor = lhs->scale != 0 ? rhs->offset : lhs->offset;
    result = {var.scale * factor, var.offset * factor};
  } else {
    int64_t sign = isa<arith::SubIOp>(op) ? -1 : 1;
    result = {lhs->scale + sign * rhs->scale, lhs->offset + sign * rhs->offset};
  }
  if (std::abs(result.scale) > kLimit || std::abs(result.offset) > kLimit)
    return std::nullopt;
  return result;
}

static std::optional<Linear> getLinear(Value value, Value counter,
                                       LinearCache &cache, unsigned depth) {
  if (depth > 16)
    return std::nullopt;
  if (auto it = cache.find(value); it != cache.end())
    return it->second;
  std::optional<Linear> linear = computeLinear(value, counter, cache, depth);
  cache[value] = linear;
  return linear;
}

/// The dimensions of the global sides of `loop`'s copies that its counter
/// moves forward and that are not yet proved inside (without the
/// tile.copy_async ops if `skipAsyncCopies`); `lb` is its constant lower
/// bound.
static SmallVector<Constraint> getConstraints(scf::ForOp loop, int64_t lb,
                                              bool skipAsyncCopies) {
  Value counter = loop.getInductionVar();
  SmallVector<Constraint> constraints;
  auto visitSide = [&](Value memref, ValueRange indices,
                       ArrayRef<int64_t> extent) {
    if (!loop.isDefinedOutsideOfLoop(memref))
      return;
    for (auto [d, index] : llvm::enumerate(indices)) {
      if (provablyFitsIn(index, extent[d], memref, d))
        continue;
      // A negative offset (a loop shifted to start at 1, say) is fine where
      // the first counter's index is not: the first part then never
      // indexes below the tensor.
      std::optional<Linear> linear = getLinear(index, counter);
      if (!linear || linear->scale <= 0 ||
          linear->scale * lb + linear->offset < 0)
        continue;
      // A reach below 0 is taken as 0: a limit no later than the exact one,
      // whose drop (buildLimit) is not negative.
      int64_t reach = std::max<int64_t>(linear->offset + extent[d], 0);
      auto same = llvm::find_if(constraints, [&](const Constraint &c) {
        return c.memref == memref && c.dim == d && c.scale == linear->scale;
      });
      if (same == constraints.end())
        constraints.push_back({memref, unsigned(d), linear->scale, reach});
      else
        same->reach = std::max(same->reach, reach);
    }
  };
  forEachGlobalCopySide(loop, skipAsyncCopies, visitSide);
  return constraints;
}

namespace {
/// The values of one constraint: every counter up to q - drop keeps the
/// copies inside. Where reach - 1 is not a multiple of scale,
/// q = floor(size / scale) and drop = ceildiv(reach, scale):
/// scale * (q - drop) + reach <= scale * q <= size. Otherwise
/// q = ceildiv(size, scale) and drop = 1 + (reach - 1) / scale:
/// scale * (q - drop) + reach = scale * (q - 1) + 1 <= size. The one chosen
/// allows the later counter of the two (floor(size / scale) is
/// ceildiv(size, scale) where scale divides size, and one less otherwise), so
/// that a size that is a multiple of the tile leaves no step checked.
struct Limit {
  Value q;
  int64_t drop;
};
} // namespace

/// Whether `lhs` and `rhs` are one value or equal constants.
static bool sameIndex(Value lhs, Value rhs) {
  if (lhs == rhs)
    return true;
  std::optional<int64_t> l = evaluateConstantIndex(lhs);
  return l && l == evaluateConstantIndex(rhs);
}

static Limit buildLimit(OpBuilder &b, Location loc, const Constraint &c) {
  Value size = b.createOrFold<memref::DimOp>(loc, c.memref, c.dim);
  Value scale = arith::ConstantIndexOp::create(b, loc, c.scale);
  if ((c.reach - 1) % c.scale != 0)
    return {b.createOrFold<arith::DivUIOp>(loc, size, scale),
            (c.reach + c.scale - 1) / c.scale};
  return {b.createOrFold<arith::CeilDivUIOp>(loc, size, scale),
          1 + (c.reach - 1) / c.scale};
}

/// The counter's bound Q for one limit: the last counter lb + i * step at or
/// below q - drop, where the step is a constant (so that min(counter, Q)
/// keeps the counter's divisors), else q - drop. The `nuw` subtractions
/// hold wherever Q is used: in the first loop, which runs only when some
/// counter lb <= q - drop exists.
static Value buildBound(OpBuilder &b, Location loc, const Limit &limit,
                        scf::ForOp loop) {
  auto nuw = arith::IntegerOverflowFlags::nuw;
  Value last = b.createOrFold<arith::SubIOp>(
      loc, limit.q, arith::ConstantIndexOp::create(b, loc, limit.drop), nuw);
  std::optional<int64_t> step = evaluateConstantIndex(loop.getStep());
  if (!step || *step <= 1)
    return last;
  Value lb = loop.getLowerBound();
  Value stepValue = arith::ConstantIndexOp::create(b, loc, *step);
  Value trips = b.createOrFold<arith::DivUIOp>(
      loc, b.createOrFold<arith::SubIOp>(loc, last, lb, nuw), stepValue);
  return b.createOrFold<arith::AddIOp>(
      loc, lb, b.createOrFold<arith::MulIOp>(loc, trips, stepValue));
}

/// Whether `loop` is the rolled remainder of an unrolled steady-state loop
/// (tile-software-pipeline): a steady-state loop beside one with a larger
/// step. It runs fewer iterations than the unrolled loop's step; splitting
/// it would only grow the code.
static bool isRemainderLoop(scf::ForOp loop) {
  TileDialect::SteadyStateAttrHelper steadyState(loop.getContext());
  if (!steadyState.isAttrPresent(loop))
    return false;
  std::optional<int64_t> step = evaluateConstantIndex(loop.getStep());
  for (Operation &op : *loop->getBlock()) {
    auto other = dyn_cast<scf::ForOp>(&op);
    if (!other || other == loop || !steadyState.isAttrPresent(other))
      continue;
    std::optional<int64_t> otherStep = evaluateConstantIndex(other.getStep());
    if (step && otherStep && *otherStep > *step)
      return true;
  }
  return false;
}

/// Gives `nuw` to each subtraction x - c in `loop` whose x is scale *
/// `counter` + offset with scale >= 0 and scale * lb + offset >= c: a loop
/// shifted to start at lb indexes its tensors at (counter - lb) * tile,
/// which IndexFacts bounds only where the difference cannot wrap. `counter`
/// is at least lb in the first part of a split (its bounds are at least
/// every counter that part runs).
static void markSubtractionsNonWrapping(scf::ForOp loop, Value counter,
                                        int64_t lb) {
  loop.getBody()->walk([&](arith::SubIOp sub) {
    std::optional<int64_t> c = evaluateConstantIndex(sub.getRhs());
    std::optional<Linear> x = getLinear(sub.getLhs(), counter);
    // A negative c is an addition, which nuw would claim never wraps.
    if (!c || *c < 0 || !x || x->scale < 0 || x->scale * lb + x->offset < *c)
      return;
    sub.setOverflowFlags(sub.getOverflowFlags() |
                         arith::IntegerOverflowFlags::nuw);
  });
}

/// Splits `loop` in two where its copies can first leave their tensors, if
/// that proves more of them inside. Returns whether it did.
static bool specializeLoop(scf::ForOp loop, bool skipAsyncCopies) {
  // The counter must be non-negative: min(counter, Q) is an unsigned
  // minimum (the one IndexFacts bounds), and Q's `nuw` needs lb >= 0.
  std::optional<int64_t> lb = evaluateConstantIndex(loop.getLowerBound());
  if (loop.getUnsignedCmp() || !loop.getInductionVar().getType().isIndex() ||
      !lb || *lb < 0 || isRemainderLoop(loop))
    return false;
  // Two copies of a tile.pipelined loop not yet rewritten would share its
  // shared tiles, which the software pipeliner rejects; two copies of a
  // shared allocation would each get shared memory of their own, past what
  // tile-smem-budget counted (as tile-specialize-interior-blocks, which
  // skips them too).
  if (loop.getBody()
          ->walk([](Operation *op) {
            return isa<PipelinedOp, AllocSharedOp>(op) ? WalkResult::interrupt()
                                                       : WalkResult::advance();
          })
          .wasInterrupted())
    return false;
  SmallVector<Constraint> constraints =
      getConstraints(loop, *lb, skipAsyncCopies);
  if (constraints.empty())
    return false;

  // The first part, on trial: a clone whose counter is min(counter, Q...),
  // with the bounds computed at the top of its body.
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Operation *previous = loop->getPrevNode();
  auto first = cast<scf::ForOp>(b.clone(*loop));
  Block *body = first.getBody();
  Value counter = first.getInductionVar();
  b.setInsertionPointToStart(body);
  SmallVector<Limit> limits;
  SmallVector<Value> bounds;
  for (const Constraint &c : constraints) {
    Limit limit = buildLimit(b, loc, c);
    // Copies of A's columns and B's rows over one static K share a limit.
    if (llvm::any_of(limits, [&](const Limit &other) {
          return other.drop == limit.drop && sameIndex(other.q, limit.q);
        }))
      continue;
    limits.push_back(limit);
    bounds.push_back(buildBound(b, loc, limit, loop));
  }
  TileDialect::CounterBoundAttrHelper counterBound(loop.getContext());
  Value restricted = counter;
  Operation *firstMin = nullptr;
  for (Value bound : bounds) {
    auto min = arith::MinUIOp::create(b, loc, restricted, bound);
    counterBound.setAttr(min, UnitAttr::get(loop.getContext()));
    restricted = min;
    if (!firstMin)
      firstMin = min;
  }
  counter.replaceAllUsesExcept(restricted, firstMin);
  markSubtractionsNonWrapping(first, restricted, *lb);
  if (countCopyDimsProvablyInside(first) <= countCopyDimsProvablyInside(loop)) {
    first->erase();
    return false;
  }

  // The bounds do not depend on the counter: they go before the loops,
  // with the split point, the first counter lb + i * step at or above
  //   max(lb, min(ub, q_j - drop_j + 1 for every limit j)),
  // in signed arithmetic (q_j - drop_j + 1 may be negative; scf.for compares
  // signed).
  SmallVector<Operation *> invariant;
  for (Operation &op : *body) {
    if (&op == firstMin)
      break;
    invariant.push_back(&op);
  }
  for (Operation *op : invariant)
    op->moveBefore(first);
  b.setInsertionPoint(first);
  Value split = loop.getUpperBound();
  for (const Limit &limit : limits) {
    Value keep = arith::ConstantIndexOp::create(b, loc, limit.drop - 1);
    split = b.createOrFold<arith::MinSIOp>(
        loc, split, b.createOrFold<arith::SubIOp>(loc, limit.q, keep));
  }
  Value lower = loop.getLowerBound();
  Value step = loop.getStep();
  split = b.createOrFold<arith::MaxSIOp>(loc, split, lower);
  Value trips = b.createOrFold<arith::CeilDivUIOp>(
      loc, b.createOrFold<arith::SubIOp>(loc, split, lower), step);
  split = b.createOrFold<arith::AddIOp>(
      loc, lower, b.createOrFold<arith::MulIOp>(loc, trips, step));

  first.getUpperBoundMutable().assign(split);
  loop.getLowerBoundMutable().assign(split);
  loop.getInitArgsMutable().assign(first.getResults());
  TileDialect::SplitStepsAttrHelper splitSteps(loop.getContext());
  splitSteps.setAttr(first, UnitAttr::get(loop.getContext()));
  splitSteps.setAttr(loop, UnitAttr::get(loop.getContext()));
  // Folding leaves constants that nothing uses: erase what this function
  // created before the first loop and left unused.
  for (Operation *op = first->getPrevNode(); op != previous;) {
    Operation *prev = op->getPrevNode();
    if (isOpTriviallyDead(op))
      op->erase();
    op = prev;
  }
  return true;
}

/// Whether LLVM makes better use of a counter bound `value` than of the
/// counter: where a comparison depends on it (a bounds check that the copy
/// lowering could not drop, such as an element-wise copy's check over its
/// row and column or the flat check of a realigned chunk, which IndexFacts
/// does not prove), LLVM folds the check from the minimum's range; where a
/// remainder does (the version index of a rolled steady-state loop, counter
/// mod V), LLVM's strength reduction rewrites the index as counter - V *
/// (counter / V) in every address it feeds, one subtraction per shared
/// address and step (measured slower on the sm_80 kernel of the ?x? GEMM).
static bool isBetterBounded(Value value) {
  SetVector<Operation *> slice;
  getForwardSlice(value, &slice);
  return llvm::any_of(slice, llvm::IsaPred<arith::CmpIOp, arith::RemUIOp>);
}

void mlir::tile::releaseCounterBounds(Operation *root) {
  TileDialect::CounterBoundAttrHelper counterBound(root->getContext());
  SmallVector<arith::MinUIOp> bounds;
  root->walk([&](arith::MinUIOp min) {
    if (!counterBound.isAttrPresent(min))
      return;
    counterBound.removeAttr(min);
    if (!isBetterBounded(min.getResult()))
      bounds.push_back(min);
  });
  // In a chain min(min(counter, Q1), Q2) each minimum goes to its first
  // operand, in any order.
  for (arith::MinUIOp min : bounds) {
    min.getResult().replaceAllUsesWith(min.getLhs());
    min->erase();
  }
}

namespace {
struct TileSpecializeInteriorStepsPass
    : tile::NamedOptionErrors<tile::impl::TileSpecializeInteriorStepsBase<
          TileSpecializeInteriorStepsPass>> {
  using NamedOptionErrors::NamedOptionErrors;

  void runOnOperation() override {
    // Inner loops first (post-order), so that splitting an outer loop
    // clones both parts of an inner one.
    SmallVector<std::pair<scf::ForOp, bool>> loops;
    getOperation()->walk([&](KernelOp kernel) {
      // With tma=true the TMA clips the boxes of the async copies at the
      // tensors' edges, so they need no split; but a kernel with one copy
      // the TMA cannot take keeps cp.async for all, and those count as
      // without the TMA (unsplit, the checks in every step make ptxas
      // serialize a wgmma pipeline: its C7515).
      bool skipAsyncCopies = tma && asyncCopiesFitTma(kernel);
      kernel.walk([&](scf::ForOp loop) {
        loops.push_back({loop, skipAsyncCopies});
      });
    });
    for (auto [loop, skipAsyncCopies] : loops)
      specializeLoop(loop, skipAsyncCopies);
  }
};
} // namespace
