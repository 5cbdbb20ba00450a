//===- InteriorBlocks.cpp - The tile-specialize-interior-blocks pass ------===//
//
// Part of tile-mlir. A kernel whose sizes are not tile multiples bounds-checks
// every copy that can leave its tensor, although only the blocks of the last
// row or column of the grid can. This pass gives the other blocks a copy of
// the kernel body in which the copy lowering proves their accesses inside.
// See the pass description in Passes.td.
//
// Nothing upstream versions code on a block-uniform condition for an
// analysis of our own (IndexFacts), so this is ours. The facts reach the
// analysis without teaching it about branches: inside the interior version,
// each restricted block index is replaced by min(index, G - 2), which equals
// the index there and which IndexFacts already bounds; where the grid is
// over one tensor's size and another tensor has its own (C's rows in a GEMM
// over A's), by a minimum over both.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/InteriorBlocks.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "tile/Conversion/Passes.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
#include "tile/Dialect/Tile/Utils/IndexFacts.h"
#include "tile/Dialect/Tile/Utils/LoopUtils.h"

namespace mlir {
namespace tile {
#define GEN_PASS_DEF_TILESPECIALIZEINTERIORBLOCKS
#include "tile/Conversion/Passes.h.inc"
} // namespace tile
} // namespace mlir

using namespace mlir;
using namespace mlir::tile;

void mlir::tile::forEachGlobalCopySide(
    Operation *root, bool skipAsyncCopies,
    function_ref<void(Value, ValueRange, ArrayRef<int64_t>)> fn) {
  auto visitSide = [&](Value memref, ValueRange indices,
                       ArrayRef<int64_t> extent) {
    auto type = cast<MemRefType>(memref.getType());
    if (!indices.empty() && getMemorySpace(type) == MemorySpace::Global)
      fn(memref, indices, extent);
  };
  root->walk([&](Operation *op) {
    auto visit = [&](auto copy) {
      SmallVector<int64_t> extent = copy.getExtent();
      visitSide(copy.getSource(), copy.getSourceIndices(), extent);
      visitSide(copy.getDest(), copy.getDestIndices(), extent);
    };
    if (auto copy = dyn_cast<CopyOp>(op))
      visit(copy);
    else if (auto copy = dyn_cast<CopyAsyncOp>(op); copy && !skipAsyncCopies)
      visit(copy);
  });
}

int64_t mlir::tile::countCopyDimsProvablyInside(Operation *root) {
  int64_t count = 0;
  forEachGlobalCopySide(
      root, /*skipAsyncCopies=*/false,
      [&](Value memref, ValueRange indices, ArrayRef<int64_t> extent) {
        for (auto [d, index] : llvm::enumerate(indices))
          count += provablyFitsIn(index, extent[d], memref, d);
      });
  return count;
}

/// A bound of one block index in the interior version, where the index is
/// below `value` - `slack`: the grid size of the index's dimension with
/// slack 1 (every block but the last); for a grid of ceildiv(S, t) blocks,
/// floor(S / t) with slack 0 (every block whose tile ends inside S: all of
/// them where t divides S); or either of those over another size S' that the
/// block's tiles index (C's rows in a GEMM whose grid is over A's).
/// `constant` is the constant `value` is, where it is one.
struct IndexBound {
  Value value;
  std::optional<int64_t> constant;
  int64_t slack = 1;
};

/// min(index, B - slack - 1) for each bound B of `bounds`, created by `b`:
/// the index itself in the interior version, where it is below every
/// B - slack. For a dynamic B the subtraction is `nuw`, which holds where
/// the result is used; IndexFacts reads the flag, and of a minimum over
/// bounds on two sizes it uses the one on the size that a copy is checked
/// against.
static Value restrictIndex(OpBuilder &b, BlockArgument index,
                           ArrayRef<IndexBound> bounds) {
  Location loc = index.getLoc();
  Value restricted = index;
  for (const IndexBound &bound : bounds) {
    Value last;
    if (bound.constant) {
      last = arith::ConstantIndexOp::create(b, loc,
                                            *bound.constant - bound.slack - 1);
    } else {
      Value drop = arith::ConstantIndexOp::create(b, loc, bound.slack + 1);
      last = arith::SubIOp::create(b, loc, bound.value, drop,
                                   arith::IntegerOverflowFlags::nuw);
    }
    restricted = arith::MinUIOp::create(b, loc, restricted, last);
  }
  return restricted;
}

/// The copy dimensions of a clone of `kernel` that are provably inside when
/// block index `d` is restricted by `bounds`.
static int64_t countInsideWith(KernelOp kernel, unsigned d,
                               ArrayRef<IndexBound> bounds) {
  auto trial = cast<KernelOp>(kernel->clone());
  Block &trialBody = trial.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&trialBody);
  BlockArgument index = trialBody.getArgument(d);
  Value restricted = restrictIndex(b, index, bounds);
  // The first minimum of the chain keeps the index itself.
  Operation *first = restricted.getDefiningOp();
  while (first->getOperand(0) != index)
    first = first->getOperand(0).getDefiningOp();
  index.replaceAllUsesExcept(restricted, first);
  int64_t count = countCopyDimsProvablyInside(trial);
  trial->erase();
  return count;
}

/// For a grid dimension of ceildiv(S, t) blocks (t a constant), every other
/// dynamic size S' of a tensor that `kernel` copies to or from, read before
/// `kernel`.
static SmallVector<Value> getOtherSizes(KernelOp kernel,
                                        arith::CeilDivUIOp gridSize) {
  auto dimOp = gridSize.getLhs().getDefiningOp<memref::DimOp>();
  std::optional<int64_t> gridDim =
      dimOp ? evaluateConstantIndex(dimOp.getIndex()) : std::nullopt;
  SmallVector<std::pair<Value, int64_t>> sizes;
  forEachGlobalCopySide(
      kernel, /*skipAsyncCopies=*/false,
      [&](Value memref, ValueRange, ArrayRef<int64_t>) {
        // The size must be readable before the kernel.
        if (!memref.getParentRegion()->isProperAncestor(&kernel.getBody()))
          return;
        auto type = cast<MemRefType>(memref.getType());
        for (int64_t i = 0; i < type.getRank(); ++i) {
          bool isGridSize =
              dimOp && dimOp.getSource() == memref && gridDim == i;
          if (type.isDynamicDim(i) && !isGridSize &&
              !llvm::is_contained(sizes, std::make_pair(memref, i)))
            sizes.push_back({memref, i});
        }
      });
  SmallVector<Value> result;
  OpBuilder b(kernel);
  for (auto [memref, i] : sizes)
    result.push_back(memref::DimOp::create(b, kernel.getLoc(), memref, i));
  return result;
}

/// Candidate bounds of the block index of a grid dimension whose tiles of
/// `t` elements cut `size`, each tile `parts` consecutive blocks (1, or P
/// where tile-split-accumulators gave each of a tile's P parts a block of its
/// own: part b % P of tile b / P), created before `kernel`:
///  - parts * floor(size / t), slack 0: the blocks of the tiles that end
///    inside `size`;
///  - the blocks of the tiles before the last, slack 1: `grid` (the grid
///    size, where it is over `size`) or else parts * ceildiv(size, t), less
///    parts - 1. (Below the grid size less one, the last tile's first parts
///    would be in too, and they can leave the tensor.)
static SmallVector<IndexBound> makeSizeBounds(KernelOp kernel, Value size,
                                              Value t, int64_t parts,
                                              Value grid) {
  OpBuilder b(kernel);
  Location loc = kernel.getLoc();
  auto scaled = [&](Value tiles) -> Value {
    if (parts == 1)
      return tiles;
    return arith::MulIOp::create(b, loc, tiles,
                                 arith::ConstantIndexOp::create(b, loc, parts));
  };
  SmallVector<IndexBound> bounds;
  bounds.push_back(
      {scaled(arith::DivUIOp::create(b, loc, size, t)), std::nullopt, 0});
  Value blocks =
      grid ? grid : scaled(arith::CeilDivUIOp::create(b, loc, size, t));
  if (parts > 1) {
    Value lastParts = arith::ConstantIndexOp::create(b, loc, parts - 1);
    blocks = arith::SubIOp::create(b, loc, blocks, lastParts,
                                   arith::IntegerOverflowFlags::nuw);
  }
  bounds.push_back({blocks, std::nullopt, 1});
  return bounds;
}

/// Erases `value`'s defining op where nothing uses it, and then what it
/// read (its memref.dim and that one's constant) where nothing else does.
static void eraseIfUnused(Value value) {
  Operation *op = value.getDefiningOp();
  if (!op || !isOpTriviallyDead(op))
    return;
  SmallVector<Value> operands(op->getOperands());
  op->erase();
  for (Value operand : operands)
    eraseIfUnused(operand);
}

/// For each grid dimension whose last block alone keeps some copy of
/// `kernel` bounds-checked, the bounds of its index in the interior version
/// that prove more copy dimensions inside, tried in turn: for a grid of
/// ceildiv(S, t) blocks known only at run time, or of ceildiv(S, t) * P
/// blocks (a tile's P parts), the bounds over S and then over each other
/// size (makeSizeBounds), after the grid size where P > 1; for any other
/// grid, its size.
static SmallVector<std::pair<unsigned, SmallVector<IndexBound>>>
getHelpfulBounds(KernelOp kernel) {
  int64_t before = countCopyDimsProvablyInside(kernel);
  SmallVector<std::pair<unsigned, SmallVector<IndexBound>>> result;
  for (auto [d, size] : llvm::enumerate(kernel.getGridSizes())) {
    std::optional<int64_t> constant = evaluateConstantIndex(size);
    if (constant && *constant < 2)
      continue;
    SmallVector<IndexBound> bounds;
    int64_t best = before;
    auto tryBound = [&](const IndexBound &bound) {
      bounds.push_back(bound);
      int64_t count = countInsideWith(kernel, d, bounds);
      if (count > best) {
        best = count;
        return true;
      }
      bounds.pop_back();
      return false;
    };
    // The grid as ceildiv(S, t) * P.
    int64_t parts = 1;
    Value tiles = size;
    if (auto grown = size.getDefiningOp<arith::MulIOp>()) {
      std::optional<int64_t> p = evaluateConstantIndex(grown.getRhs());
      if (p && *p > 1) {
        parts = *p;
        tiles = grown.getLhs();
      }
    }
    auto ceilDiv = tiles.getDefiningOp<arith::CeilDivUIOp>();
    bool overSize =
        !constant && ceilDiv && evaluateConstantIndex(ceilDiv.getRhs());
    if (!overSize || parts > 1)
      tryBound({size, constant, 1});
    if (overSize) {
      SmallVector<Value> sizes = {ceilDiv.getLhs()};
      llvm::append_range(sizes, getOtherSizes(kernel, ceilDiv));
      for (auto [i, other] : llvm::enumerate(sizes)) {
        Value grid = i == 0 ? size : Value();
        for (const IndexBound &bound :
             makeSizeBounds(kernel, other, ceilDiv.getRhs(), parts, grid))
          if (!tryBound(bound))
            eraseIfUnused(bound.value);
      }
    }
    if (!bounds.empty())
      result.push_back({static_cast<unsigned>(d), std::move(bounds)});
  }
  return result;
}

/// Versions `kernel`'s body (all but its top-level tile allocations, which
/// both versions share) on whether the block index of each dimension of
/// `dims` is below every one of its bounds less its slack.
static void
specialize(KernelOp kernel,
           ArrayRef<std::pair<unsigned, SmallVector<IndexBound>>> dims) {
  Block &body = kernel.getBody().front();
  SmallVector<Operation *> moved;
  for (Operation &op : body)
    if (!isa<AllocSharedOp, AllocFragmentOp>(op))
      moved.push_back(&op);

  Location loc = kernel.getLoc();
  OpBuilder b = OpBuilder::atBlockEnd(&body);
  Value interior;
  for (const auto &[d, bounds] : dims) {
    Value index = body.getArgument(d);
    Value next; // index + 1, made for the first dynamic bound with slack
    for (const IndexBound &bound : bounds) {
      // index < B - slack, as index + 1 < B where B is dynamic and the slack
      // is 1.
      Value lhs = index, limit = bound.value;
      if (bound.constant) {
        limit = arith::ConstantIndexOp::create(b, loc,
                                               *bound.constant - bound.slack);
      } else if (bound.slack == 1) {
        if (!next)
          next = arith::AddIOp::create(
              b, loc, index, arith::ConstantIndexOp::create(b, loc, 1));
        lhs = next;
      }
      Value below =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lhs, limit);
      interior =
          interior ? arith::AndIOp::create(b, loc, interior, below) : below;
    }
  }
  auto branch = scf::IfOp::create(b, loc, TypeRange(), interior,
                                  /*withElseRegion=*/true);
  branch->setAttr(kBlockVersionsAttrName, b.getUnitAttr());
  Block *edge = branch.elseBlock();
  for (Operation *op : moved)
    op->moveBefore(edge->getTerminator());

  // The interior version: a clone in which each restricted block index is
  // min(index, B - slack - 1, ...), equal to it there.
  Block *inside = branch.thenBlock();
  b.setInsertionPoint(inside->getTerminator());
  IRMapping mapping;
  for (const auto &[d, bounds] : dims)
    mapping.map(body.getArgument(d),
                restrictIndex(b, body.getArgument(d), bounds));
  for (Operation &op : edge->without_terminator())
    b.clone(op, mapping);
}

namespace {
struct TileSpecializeInteriorBlocksPass
    : tile::impl::TileSpecializeInteriorBlocksBase<
          TileSpecializeInteriorBlocksPass> {
  void runOnOperation() override {
    SmallVector<KernelOp> kernels;
    getOperation()->walk([&](KernelOp kernel) { kernels.push_back(kernel); });
    for (KernelOp kernel : kernels) {
      // A nested shared allocation would be allocated twice, and a shared
      // tile used by two tile.pipelined loops cannot be multi-buffered: this
      // pass runs after tile-software-pipeline.
      bool nestedAlloc = false;
      kernel.walk([&](AllocSharedOp alloc) {
        nestedAlloc |= alloc->getParentOp() != kernel.getOperation();
      });
      bool pipelined = false;
      kernel.walk([&](PipelinedOp) { pipelined = true; });
      if (nestedAlloc || pipelined)
        continue;
      auto dims = getHelpfulBounds(kernel);
      if (!dims.empty())
        specialize(kernel, dims);
    }
  }
};
} // namespace
