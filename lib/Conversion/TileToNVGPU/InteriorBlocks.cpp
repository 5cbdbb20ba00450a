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
// the index there and which IndexFacts already bounds.
//
//===----------------------------------------------------------------------===//

#include "tile/Conversion/TileToNVGPU/InteriorBlocks.h"
#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "tile/Conversion/Passes.h"
#include "tile/Conversion/TileToNVGPU/IndexFacts.h"
#include "tile/Dialect/Tile/IR/TileDialect.h"
#include "tile/Dialect/Tile/IR/TileOps.h"
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

/// The size of each grid dimension of a kernel: its value, and the constant
/// it is where it is one.
struct GridSize {
  Value value;
  std::optional<int64_t> constant;
};

/// min(index, G - 2), created by `b`, for the grid size G of the index's
/// dimension: the index itself in every block but the last of that
/// dimension. For a dynamic G the subtraction is `nuw`, which holds where
/// the result is used, in the interior version, where the index is below
/// G - 1; IndexFacts reads the flag.
static Value restrictIndex(OpBuilder &b, BlockArgument index,
                           ArrayRef<GridSize> grid) {
  Location loc = index.getLoc();
  const GridSize &size = grid[index.getArgNumber()];
  Value last;
  if (size.constant) {
    last = arith::ConstantIndexOp::create(b, loc, *size.constant - 2);
  } else {
    Value two = arith::ConstantIndexOp::create(b, loc, 2);
    last = arith::SubIOp::create(b, loc, size.value, two,
                                 arith::IntegerOverflowFlags::nuw);
  }
  return arith::MinUIOp::create(b, loc, index, last);
}

/// The grid dimensions whose last block alone keeps some copy of `kernel`
/// bounds-checked: those where restricting the block index to the others
/// proves more copy dimensions inside.
static SmallVector<unsigned> getHelpfulDims(KernelOp kernel,
                                            ArrayRef<GridSize> grid) {
  int64_t before = countCopyDimsProvablyInside(kernel);
  SmallVector<unsigned> dims;
  for (auto [d, size] : llvm::enumerate(grid)) {
    if (size.constant && *size.constant < 2)
      continue;
    auto trial = cast<KernelOp>(kernel->clone());
    Block &trialBody = trial.getBody().front();
    OpBuilder b = OpBuilder::atBlockBegin(&trialBody);
    BlockArgument index = trialBody.getArgument(d);
    Value restricted = restrictIndex(b, index, grid);
    index.replaceAllUsesExcept(restricted, restricted.getDefiningOp());
    if (countCopyDimsProvablyInside(trial) > before)
      dims.push_back(d);
    trial->erase();
  }
  return dims;
}

/// Versions `kernel`'s body (all but its top-level tile allocations, which
/// both versions share) on whether the block is interior in `dims`.
static void specialize(KernelOp kernel, ArrayRef<unsigned> dims,
                       ArrayRef<GridSize> grid) {
  Block &body = kernel.getBody().front();
  SmallVector<Operation *> moved;
  for (Operation &op : body)
    if (!isa<AllocSharedOp, AllocFragmentOp>(op))
      moved.push_back(&op);

  Location loc = kernel.getLoc();
  OpBuilder b = OpBuilder::atBlockEnd(&body);
  Value interior;
  for (unsigned d : dims) {
    // index < G - 1, as index + 1 < G where G is dynamic.
    Value index = body.getArgument(d);
    Value bound = grid[d].value;
    if (grid[d].constant) {
      bound = arith::ConstantIndexOp::create(b, loc, *grid[d].constant - 1);
    } else {
      Value one = arith::ConstantIndexOp::create(b, loc, 1);
      index = arith::AddIOp::create(b, loc, index, one);
    }
    Value below =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, index, bound);
    interior =
        interior ? arith::AndIOp::create(b, loc, interior, below) : below;
  }
  auto branch = scf::IfOp::create(b, loc, TypeRange(), interior,
                                  /*withElseRegion=*/true);
  branch->setAttr(kBlockVersionsAttrName, b.getUnitAttr());
  Block *edge = branch.elseBlock();
  for (Operation *op : moved)
    op->moveBefore(edge->getTerminator());

  // The interior version: a clone in which each restricted block index is
  // min(index, G - 2), equal to it there.
  Block *inside = branch.thenBlock();
  b.setInsertionPoint(inside->getTerminator());
  IRMapping mapping;
  for (unsigned d : dims)
    mapping.map(body.getArgument(d),
                restrictIndex(b, body.getArgument(d), grid));
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
      SmallVector<GridSize> grid;
      for (Value size : kernel.getGridSizes())
        grid.push_back({size, evaluateConstantIndex(size)});
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
      SmallVector<unsigned> dims = getHelpfulDims(kernel, grid);
      if (!dims.empty())
        specialize(kernel, dims, grid);
    }
  }
};
} // namespace
